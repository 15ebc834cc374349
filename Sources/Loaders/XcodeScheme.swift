import Foundation
import XMLReader
import Formats
import Model

/// What an `.xcscheme` says: the target its Run action runs, the configurations of Run and
/// Archive, and the Run action's StoreKit configuration file.
public struct XcodeScheme: Sendable {
    /// A `BuildableReference`: a target of a project.
    public struct TargetReference: Sendable, Equatable {
        /// The target's object identifier in `project.pbxproj` (`BlueprintIdentifier`).
        public var identifier: String
        /// The target's name when the scheme was saved (`BlueprintName`).
        public var name: String
        /// `container:App.xcodeproj`, relative to the folder holding the scheme's container.
        public var container: String
        public var location: SourceLocation
    }

    public var file: String
    /// The target the Run action launches (its `BuildableProductRunnable`, or an extension's
    /// `RemoteRunnable`), else the first target built for running.
    public var runTarget: TargetReference?
    /// `LaunchAction@buildConfiguration`: what Run builds (usually Debug).
    public var runConfiguration: Fact<String>?
    /// `ArchiveAction@buildConfiguration`: what ships (usually Release).
    public var archiveConfiguration: Fact<String>?
    /// `LaunchAction > StoreKitConfigurationFileReference@identifier`, as written (relative to the
    /// scheme's container: the folder that holds the .xcodeproj).
    public var storeKitConfiguration: Fact<String>?

    public static func load(path: String) throws(InputProblem) -> XcodeScheme {
        do throws(FileSystem.Problem) {
            try Workspace.checkInput(path)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: path))
        }
        let root: XMLNode
        do {
            Workspace.noteRead(path)
            root = try XMLReader.parse(contentsOfFile: path)
        } catch {
            let rule = error.kind == .unreadable ? RuleID.inputUnreadable.rawValue : RuleID.inputMalformed.rawValue
            throw InputProblem(Finding(
                rule: rule, severity: .error, checklist: nil,
                message: error.isSandboxDenial ? "cannot read the scheme `\(path)`: \(FileSystem.sandboxedReason)"
                    : error.kind == .unreadable ? "cannot read the scheme `\(path)`: \(error.message)" : "the scheme is not valid XML: \(error.message)",
                help: error.isSandboxDenial ? FileSystem.sandboxedHelp
                    : "check `app.scheme`; schemes live in `X.xcodeproj/xcshareddata/xcschemes/` (shared) or `xcuserdata` (personal)",
                location: SourceLocation(file: path, error.position)))
        }
        guard root.name == "Scheme" else {
            throw PropertyList.malformed(
                "`\(path)` is not an Xcode scheme: its root element is `<\(root.name)>`", help: "point `app.scheme` at an .xcscheme file",
                at: SourceLocation(file: path, root.position))
        }
        var scheme = XcodeScheme(file: path)
        // Facts are attribute values: each points at its value (the start tag when that is unknown).
        func position(_ node: XMLNode, _ attribute: String) -> SourceLocation {
            SourceLocation(file: path, node.attributePosition(attribute))
        }
        func reference(_ node: XMLNode?) -> TargetReference? {
            guard let node, let identifier = node.attribute("BlueprintIdentifier") else { return nil }
            return TargetReference(
                identifier: identifier, name: node.attribute("BlueprintName") ?? identifier,
                container: node.attribute("ReferencedContainer") ?? "", location: position(node, "BlueprintName"))
        }
        let launch = root["LaunchAction"]
        // An extension's scheme runs the extension (`RemoteRunnable`) in a host it asks for; its
        // `MacroExpansion` names the app only to expand variables.
        scheme.runTarget = reference(launch?["BuildableProductRunnable", "BuildableReference"])
            ?? reference(launch?["RemoteRunnable", "BuildableReference"])
            ?? reference(launch?["MacroExpansion", "BuildableReference"])
        if scheme.runTarget == nil {
            let entries = root["BuildAction", "BuildActionEntries"]?.children.filter { $0.name == "BuildActionEntry" } ?? []
            let running = entries.first { $0.attribute("buildForRunning") != "NO" }
            scheme.runTarget = reference(running?["BuildableReference"])
        }
        if let launch, let name = launch.attribute("buildConfiguration") {
            scheme.runConfiguration = Fact(name, at: position(launch, "buildConfiguration"), source: .scheme)
        }
        if let archive = root["ArchiveAction"], let name = archive.attribute("buildConfiguration") {
            scheme.archiveConfiguration = Fact(name, at: position(archive, "buildConfiguration"), source: .scheme)
        }
        if let reference = root["LaunchAction", "StoreKitConfigurationFileReference"], let identifier = reference.attribute("identifier") {
            scheme.storeKitConfiguration = Fact(identifier, at: position(reference, "identifier"), source: .scheme)
        }
        return scheme
    }

    /// The Swift package whose checkout holds `reference` (`…/SourcePackages/checkouts/<package>/…`,
    /// SwiftPM's `.build/checkouts/<package>/…`), when the reference leads into one.
    public static func packageCheckout(of reference: String) -> String? {
        let components = reference.split(separator: "/").map(String.init)
        for (index, component) in components.enumerated() where component == "checkouts" && index + 2 < components.count {
            let above = index > 0 ? components[index - 1] : ""
            if above == "SourcePackages" || above == ".build" { return components[index + 1] }
        }
        return nil
    }

    /// Where the scheme's StoreKit reference may point, most likely first. Xcode writes it relative
    /// to the folder that holds `xcschemes` (`X.xcodeproj/xcshareddata/`), so `../../Products.storekit`
    /// is beside the .xcodeproj; a project opened through a workspace (CocoaPods, Flutter, React
    /// Native) has it relative to the `.xcworkspace` bundle itself, so `../Products.storekit` is
    /// beside the workspace. Some generators write it relative to the scheme's own folder or the
    /// project's folder, and a repository can keep the project in a subfolder: every folder up to
    /// the repository's root is tried, and every workspace in those folders.
    public func candidatePaths(for reference: String) -> [String] {
        if reference.hasPrefix("/") { return [reference] }
        let schemes = Paths.directoryName(of: file)
        let data = Paths.directoryName(of: schemes)
        var candidates = [Paths.resolve(reference, relativeTo: data)]
        var workspaces: [String] = []
        var folders: [String] = []
        var directory = schemes
        var reachedContainer = false
        for _ in 0..<32 {
            guard directory != "/" && !directory.isEmpty else { break }
            if reachedContainer {
                folders.append(directory)
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
                for entry in entries.sorted() where entry.hasSuffix(".xcworkspace") {
                    workspaces.append(directory == "." ? entry : directory + "/" + entry)
                }
                if FileSystem.exists(directory + "/.git") || directory == "." { break }
            } else if directory.hasSuffix(".xcodeproj") || directory.hasSuffix(".xcworkspace") {
                reachedContainer = true
                if directory.hasSuffix(".xcworkspace") { workspaces.append(directory) }
            } else if directory == "." {
                break
            }
            directory = Paths.directoryName(of: directory)
        }
        candidates += workspaces.map { Paths.resolve(reference, relativeTo: $0) }
        candidates.append(Paths.resolve(reference, relativeTo: schemes))
        candidates += folders.map { Paths.resolve(reference, relativeTo: $0) }
        var seen: Set<String> = []
        return candidates.filter { seen.insert($0).inserted }
    }

    /// The first of ``candidatePaths(for:)`` that exists, else the first.
    public func resolve(_ reference: String) -> String {
        let candidates = candidatePaths(for: reference)
        return candidates.first(where: FileSystem.exists) ?? candidates[0]
    }
}
