/// What kind of input a command-line path is, by its name.
public enum InputKind: Sendable, Equatable {
    case descriptor, catalog, storeKit, build

    public init(path: String) {
        let lower = path.lowercased()
        if BuiltApp.isBuild(path) {
            self = .build
        } else if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") {
            self = .descriptor
        } else if lower.hasSuffix(".storekit") {
            self = .storeKit
        } else {
            self = .catalog
        }
    }
}
