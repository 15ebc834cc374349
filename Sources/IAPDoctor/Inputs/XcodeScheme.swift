import XMLReader

/// What an `.xcscheme` says about StoreKit testing: the Run action's StoreKit configuration file.
public struct XcodeScheme: Sendable {
    public var file: String
    /// `LaunchAction > StoreKitConfigurationFileReference@identifier`, as written (relative to the
    /// scheme's container: the folder that holds the .xcodeproj).
    public var storeKitConfiguration: Fact<String>?

    public static func load(path: String) throws(InputProblem) -> XcodeScheme {
        let root: XMLNode
        do {
            root = try XMLReader.parse(contentsOfFile: path)
        } catch {
            let rule = error.kind == .unreadable ? "input-unreadable" : "input-malformed"
            throw InputProblem(Finding(
                rule: rule, severity: .error, checklist: nil,
                message: error.kind == .unreadable ? "cannot read the scheme `\(path)`: \(error.message)" : "the scheme is not valid XML: \(error.message)",
                help: "check `app.scheme`; schemes live in `X.xcodeproj/xcshareddata/xcschemes/` (shared) or `xcuserdata` (personal)",
                location: SourceLocation(file: path, line: error.position.line, column: error.position.column)))
        }
        guard root.name == "Scheme" else {
            throw PropertyList.malformed(
                "`\(path)` is not an Xcode scheme: its root element is `<\(root.name)>`", help: "point `app.scheme` at an .xcscheme file",
                at: SourceLocation(file: path, line: root.position.line, column: root.position.column))
        }
        var scheme = XcodeScheme(file: path)
        if let reference = root["LaunchAction", "StoreKitConfigurationFileReference"], let identifier = reference.attribute("identifier") {
            scheme.storeKitConfiguration = Fact(
                identifier, at: SourceLocation(file: path, line: reference.position.line, column: reference.position.column), source: .scheme)
        }
        return scheme
    }

    /// The folder a scheme's relative references start from: the one that holds the .xcodeproj.
    public var containerDirectory: String {
        var directory = FileSystem.directoryName(of: file)
        while directory != "." && directory != "/" && !directory.isEmpty {
            if directory.hasSuffix(".xcodeproj") || directory.hasSuffix(".xcworkspace") {
                return FileSystem.directoryName(of: directory)
            }
            directory = FileSystem.directoryName(of: directory)
        }
        return FileSystem.directoryName(of: file)
    }
}
