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
            FileSystem.noteRead(path)
            root = try XMLReader.parse(contentsOfFile: path)
        } catch {
            let rule = error.kind == .unreadable ? "input-unreadable" : "input-malformed"
            throw InputProblem(Finding(
                rule: rule, severity: .error, checklist: nil,
                message: error.isSandboxDenial ? "cannot read the scheme `\(path)`: \(FileSystem.sandboxedReason)"
                    : error.kind == .unreadable ? "cannot read the scheme `\(path)`: \(error.message)" : "the scheme is not valid XML: \(error.message)",
                help: error.isSandboxDenial ? FileSystem.sandboxedHelp
                    : "check `app.scheme`; schemes live in `X.xcodeproj/xcshareddata/xcschemes/` (shared) or `xcuserdata` (personal)",
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

    /// Resolves the scheme's StoreKit reference. Xcode writes it relative to the folder that holds
    /// `xcschemes` (`X.xcodeproj/xcshareddata/`), so `../../Products.storekit` is beside the
    /// .xcodeproj; some generators write it relative to the scheme's own folder or to the project's
    /// folder. The first candidate that exists wins, else the first.
    public func resolve(_ reference: String) -> String {
        if reference.hasPrefix("/") { return reference }
        let schemes = FileSystem.directoryName(of: file)
        let data = FileSystem.directoryName(of: schemes)
        var candidates = [FileSystem.resolve(reference, relativeTo: data), FileSystem.resolve(reference, relativeTo: schemes)]
        var directory = schemes
        while directory != "." && directory != "/" && !directory.isEmpty {
            if directory.hasSuffix(".xcodeproj") || directory.hasSuffix(".xcworkspace") {
                candidates.append(FileSystem.resolve(reference, relativeTo: FileSystem.directoryName(of: directory)))
                break
            }
            directory = FileSystem.directoryName(of: directory)
        }
        return candidates.first(where: FileSystem.exists) ?? candidates[0]
    }
}
