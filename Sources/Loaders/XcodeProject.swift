import Foundation
import Formats
import Model

/// What an Xcode project (`X.xcodeproj/project.pbxproj`) says about its targets: build settings per
/// configuration, the In-App Purchase capability, StoreKit linkage and source files, each fact
/// positioned at the value in the file.
///
/// Build settings stored in `.xcconfig` files are read by ``load(path:)``; see ``settings(target:configuration:sdk:)``.
public struct XcodeProject: Sendable {
    /// One `XCBuildConfiguration`.
    public struct BuildConfiguration: Sendable {
        public var id: String
        public var name: String
        public var location: SourceLocation
        /// Settings as written, keyed as written (conditional keys such as
        /// `CODE_SIGN_IDENTITY[sdk=iphoneos*]` included); list values are joined with spaces.
        public var buildSettings: [String: Fact<String>]
        /// The `.xcconfig` file these settings are layered on (`baseConfigurationReference`), when
        /// there is one and its path can be resolved.
        public var baseConfigurationFile: String?
    }

    /// One target (`PBXNativeTarget`, or an aggregate or legacy target, which have no product type).
    public struct Target: Sendable {
        public var id: String
        public var name: String
        /// Where the target's `name` is written.
        public var location: SourceLocation
        /// `com.apple.product-type.application`, `com.apple.product-type.bundle.unit-test`, …
        public var productType: Fact<String>?
        public var configurations: [BuildConfiguration]
        /// The configuration Xcode builds when asked for one the target does not have.
        public var defaultConfigurationName: String?
        /// `TargetAttributes.<id>.SystemCapabilities."com.apple.InAppPurchase".enabled`, which older
        /// Xcode versions write when the capability is toggled; `nil` when the project does not say.
        public var hasInAppPurchaseCapability: Fact<Bool>?
        /// `TargetAttributes.<id>.DevelopmentTeam`, the team chosen in the Signing & Capabilities tab.
        public var developmentTeamAttribute: Fact<String>?
        /// `StoreKit.framework` is in the target's Link Binary With Libraries phase. Swift and
        /// Objective-C modules link StoreKit automatically on `import`, so `false` is no fault by itself.
        public var linksStoreKit: Bool
        /// Where that `StoreKit.framework` reference is written.
        public var storeKitReferenceLocation: SourceLocation?
        /// Files of the Compile Sources phase, as paths relative to the project's folder (or absolute),
        /// positioned at the file reference's `path`. Files under build-product or SDK folders are left out.
        public var sourceFiles: [Fact<String>]

        public var configurationNames: [String] { configurations.map(\.name) }

        /// An app of any kind: iOS/macOS/tvOS/visionOS app, watch app, App Clip, iMessage app.
        public var isApplication: Bool {
            productType?.value.hasPrefix(XcodeProject.applicationProductType) ?? false
        }

        public func configuration(named name: String) -> BuildConfiguration? {
            configurations.first { $0.name == name }
        }
    }

    /// Build settings iapdoctor reads.
    public enum SettingKey {
        public static let productBundleIdentifier = "PRODUCT_BUNDLE_IDENTIFIER"
        public static let developmentTeam = "DEVELOPMENT_TEAM"
        public static let codeSignStyle = "CODE_SIGN_STYLE"
        public static let provisioningProfileSpecifier = "PROVISIONING_PROFILE_SPECIFIER"
        public static let provisioningProfile = "PROVISIONING_PROFILE"
        public static let iOSDeploymentTarget = "IPHONEOS_DEPLOYMENT_TARGET"
        public static let macOSDeploymentTarget = "MACOSX_DEPLOYMENT_TARGET"
        public static let tvOSDeploymentTarget = "TVOS_DEPLOYMENT_TARGET"
        public static let watchOSDeploymentTarget = "WATCHOS_DEPLOYMENT_TARGET"
        public static let visionOSDeploymentTarget = "XROS_DEPLOYMENT_TARGET"
        public static let codeSignEntitlements = "CODE_SIGN_ENTITLEMENTS"
        public static let infoPlistFile = "INFOPLIST_FILE"
        public static let sdkRoot = "SDKROOT"
        public static let productName = "PRODUCT_NAME"
        public static let targetName = "TARGET_NAME"
    }

    public static let applicationProductType = "com.apple.product-type.application"

    /// The SDK of a platform or destination as generators name them (XcodeGen's `iOS`, Tuist's
    /// `.iPhone`, `.appleVision`…).
    static func sdk(forPlatformName platform: String) -> String? {
        switch platform {
        case "iOS", "iPhone", "iPad", "macWithiPadDesign", "macCatalyst": return "iphoneos"
        case "macOS", "mac": return "macosx"
        case "tvOS", "appleTv": return "appletvos"
        case "watchOS", "appleWatch": return "watchos"
        case "visionOS", "appleVision", "appleVisionWithiPadDesign": return "xros"
        default: return nil
        }
    }

    /// The deployment target setting of an SDK (`iphoneos` → `IPHONEOS_DEPLOYMENT_TARGET`).
    static func deploymentTargetSetting(sdk: String) -> String? {
        switch sdk {
        case "iphoneos": return SettingKey.iOSDeploymentTarget
        case "macosx": return SettingKey.macOSDeploymentTarget
        case "appletvos": return SettingKey.tvOSDeploymentTarget
        case "watchos": return SettingKey.watchOSDeploymentTarget
        case "xros": return SettingKey.visionOSDeploymentTarget
        default: return nil
        }
    }

    /// The `project.pbxproj` path.
    public var file: String
    /// The project's name (the `.xcodeproj` folder's name without the extension).
    public var name: String
    /// `SRCROOT`: the folder holding the `.xcodeproj` (plus the project's `projectDirPath`).
    public var projectDirectory: String
    public var objectVersion: Fact<String>?
    /// Project-level configurations (`PBXProject.buildConfigurationList`).
    public var projectConfigurations: [BuildConfiguration]
    public var defaultConfigurationName: String?
    /// Targets in the order of the project's `targets` list.
    public var targets: [Target]
    /// The parsed file, for anything the model above leaves out.
    public var propertyList: ASCIIPropertyList
    /// The `.xcconfig` files of the configurations, by the path in ``BuildConfiguration/baseConfigurationFile``,
    /// once ``loadConfigurationFiles()`` has read them.
    public var configurationFiles: [String: XCConfigFile] = [:]
    /// The XcodeGen spec (with what it includes) or Tuist manifest the project was read from.
    public var manifestFiles: [String] = []

    /// Every file read for the project besides `project.pbxproj`: its manifest and `.xcconfig` files.
    public var parsedFiles: [String] {
        manifestFiles + configurationFiles.keys.sorted().flatMap { configurationFiles[$0]?.parsedFiles ?? [] }
    }

    /// Configuration names of the project (every target has the same ones unless edited by hand).
    public var configurationNames: [String] { projectConfigurations.map(\.name) }

    public var applicationTargets: [Target] { targets.filter(\.isApplication) }

    /// The repository URLs of the remote Swift packages the project depends on: their code is
    /// fetched by Xcode, not in the project's folder.
    public var remotePackages: [Fact<String>] = []
    /// The files and folders the project's navigator holds (file and folder references, Xcode 16's
    /// synchronized folders), resolved against ``projectDirectory``: what a scheme may reference.
    /// Empty for a project read from a generator's manifest.
    public var memberPaths: [String] = []

    /// Whether `file` is in the project: named by a reference, or inside a folder the project
    /// holds. `nil` when the project was not read from a `project.pbxproj`.
    public func holds(_ file: String) -> Bool? {
        guard generator == nil else { return nil }
        let wanted = Paths.normalize(file)
        return memberPaths.contains { member in wanted == member || wanted.hasPrefix(member + "/") }
    }

    /// A scheme a generator's manifest declares (Tuist's `schemes:`), which the generated project
    /// would hold as an `.xcscheme`: its name, the target it runs, its StoreKit configuration file.
    public struct ManifestScheme: Sendable {
        public var name: String
        public var runs: String?
        public var storeKitConfiguration: String?
    }

    public var manifestSchemes: [ManifestScheme] = []

    /// The tool whose manifest this project was read from ("XcodeGen", "Tuist"), when it was not
    /// read from a `project.pbxproj`: the repository does not commit the generated project.
    public var generator: String?

    /// A project read from a generator's manifest (`file`), with no `project.pbxproj` behind it.
    init(
        generatedFrom file: String, generator: String, name: String, projectDirectory: String,
        projectConfigurations: [BuildConfiguration], defaultConfigurationName: String?, targets: [Target] = []
    ) {
        self.file = file
        self.name = name
        self.projectDirectory = projectDirectory
        self.projectConfigurations = projectConfigurations
        self.defaultConfigurationName = defaultConfigurationName
        self.targets = targets
        self.generator = generator
        // An empty dictionary: nothing beyond the model above was read.
        self.propertyList = (try? ASCIIPropertyList(bytes: Array("{}".utf8)))!
    }

    public func target(named name: String) -> Target? {
        targets.first { $0.name == name }
    }

    // MARK: Loading

    /// Resolves a project path: a `.xcodeproj` folder, or the `project.pbxproj` inside it.
    public static func pbxprojPath(for path: String) -> String {
        guard FileSystem.isDirectory(path) else { return path }
        return (path.hasSuffix("/") ? path : path + "/") + "project.pbxproj"
    }

    /// Reads a project; throws a positioned `input-unreadable` / `input-malformed` finding.
    public static func load(path: String) throws(InputProblem) -> XcodeProject {
        if XcodeGenSpec.isSpec(path) { return try XcodeGenSpec.load(path: path) }
        if TuistProject.isManifest(path) { return try TuistProject.load(path: path) }
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        if trimmed.hasSuffix(".xcworkspace") {
            throw InputProblem(Finding(
                rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                message: "`\(path)` is a workspace, which only lists projects; iapdoctor reads the `.xcodeproj` that builds the app",
                help: "name the `.xcodeproj` folder of the app's project (the workspace's `contents.xcworkspacedata` lists them)",
                location: SourceLocation(file: path)))
        }
        let file = pbxprojPath(for: path)
        guard FileSystem.exists(file) else {
            throw InputProblem(Finding(
                rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                message: FileSystem.isDirectory(path)
                    ? "the folder `\(path)` has no `project.pbxproj`" : "cannot read `\(path)`: no such file",
                help: "name the `.xcodeproj` folder or the `project.pbxproj` inside it (relative paths start at the descriptor's folder)",
                location: SourceLocation(file: file)))
        }
        // Refuse oversized files before reading them.
        if let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber,
           size.intValue > ASCIIPropertyList.maxBytes {
            throw InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil,
                message: "`\(file)` is \(size.intValue) bytes; project files larger than \(ASCIIPropertyList.maxBytes) bytes (64 MiB) are refused",
                help: helpText(for: .tooLarge), location: SourceLocation(file: file)))
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(file, maxBytes: ASCIIPropertyList.maxBytes)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: file))
        }
        var project = try parse(bytes: bytes, file: file)
        project.loadConfigurationFiles()
        return project
    }

    /// Interprets the bytes of a `project.pbxproj`; `file` names it in locations.
    public static func parse(bytes: [UInt8], file: String) throws(InputProblem) -> XcodeProject {
        if isXMLOrBinary(bytes) {
            // Some tools (and old Xcode exports) write the project as an XML or binary plist:
            // the same objects, read through the property list reader.
            let value = try PropertyList.parse(bytes: bytes, file: file, what: "project.pbxproj")
            return try XcodeProject(file: file, propertyList: ASCIIPropertyList(root: asciiValue(value)))
        }
        let plist: ASCIIPropertyList
        do {
            plist = try ASCIIPropertyList(bytes: bytes)
        } catch {
            throw InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil,
                message: "`project.pbxproj` cannot be read: \(error.message)",
                help: helpText(for: error.kind),
                location: SourceLocation(file: file, line: error.position.line, column: error.position.column)))
        }
        return try XcodeProject(file: file, propertyList: plist)
    }

    /// An XML (`<?xml`, `<plist`) or binary (`bplist`) property list, rather than the OpenStep text
    /// Xcode writes.
    static func isXMLOrBinary(_ bytes: [UInt8]) -> Bool {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, start < 4096, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = bytes[start..<min(bytes.count, start + 6)]
        return head.starts(with: Array("<?xml".utf8)) || head.starts(with: Array("<plist".utf8)) || head.starts(with: Array("bplist".utf8))
    }

    /// A property list value as the project's model reads it: numbers and booleans as the text
    /// the OpenStep form would hold (`1`, `YES`), dates and data as text.
    static func asciiValue(_ value: PlistValue) -> ASCIIPropertyList.Value {
        let at = { (location: SourceLocation) in ASCIIPropertyList.Position(line: location.line, column: location.column) }
        switch value {
        case .string(let text, let location): return .string(text, at(location))
        case .integer(let number, let location): return .string(String(number), at(location))
        case .real(let number, let location): return .string(String(number), at(location))
        case .bool(let flag, let location): return .string(flag ? "YES" : "NO", at(location))
        case .date(let date, let location): return .string(date.description, at(location))
        case .data(let location): return .data("", at(location))
        case .array(let items, let location): return .array(items.map(asciiValue), at(location))
        case .dictionary(let entries, let location):
            return .dictionary(entries.map { entry in
                ASCIIPropertyList.Entry(key: ASCIIPropertyList.Key(text: entry.key, position: at(entry.keyLocation)), value: asciiValue(entry.value))
            }, at(location))
        }
    }

    public static func parse(text: String, file: String) throws(InputProblem) -> XcodeProject {
        try parse(bytes: Array(text.utf8), file: file)
    }

    static func helpText(for kind: ASCIIPropertyList.ParseError.Kind) -> String {
        switch kind {
        case .mergeConflict:
            return "resolve the merge conflict: keep the right side of each `<<<<<<<` … `>>>>>>>` block and delete the markers, or check out `project.pbxproj` from the last good commit"
        case .xmlPropertyList, .binaryPropertyList:
            return "iapdoctor reads the text format Xcode writes; open the project in Xcode and change any setting so Xcode saves it in that format"
        case .invalidUTF8:
            return "save the file as UTF-8 (Xcode writes `// !$*UTF8*$!` on its first line) or restore it from version control"
        case .tooLarge, .tooManyValues:
            return "check that this is the right file: a project with 10,000 source files is about 5 MB"
        case .tooDeep:
            return "check the file: Xcode nests project files fewer than 10 levels deep"
        default:
            return "fix the file at this position (hand edits and merges are the usual cause) or restore `project.pbxproj` from version control; Xcode cannot open the project either"
        }
    }

    /// Interprets a parsed `project.pbxproj`.
    public init(file: String, propertyList: ASCIIPropertyList) throws(InputProblem) {
        self.file = file
        self.propertyList = propertyList
        let projectFolder = Paths.directoryName(of: file)
        if projectFolder.hasSuffix(".xcodeproj") {
            let folderName = Paths.fileName(of: projectFolder)
            name = String(folderName.dropLast(".xcodeproj".count))
            projectDirectory = Paths.directoryName(of: projectFolder)
        } else {
            name = ""
            projectDirectory = projectFolder
        }
        var reader = ObjectReader(file: file, root: propertyList.root)
        guard case .dictionary = propertyList.root else {
            throw reader.malformed(
                "the file is a property list but not an Xcode project: expected a dictionary with `objects` and `rootObject`, found \(propertyList.root.kindDescription)",
                at: propertyList.root.position)
        }
        try reader.indexObjects()
        let rootProject = try reader.rootProject()
        objectVersion = reader.fact(propertyList.root["objectVersion"])
        if let directory = rootProject["projectDirPath"]?.string, !directory.isEmpty {
            projectDirectory = Paths.resolve(directory, relativeTo: projectDirectory)
        }
        let projectList = reader.configurationList(rootProject["buildConfigurationList"], projectDirectory: projectDirectory)
        projectConfigurations = projectList.configurations
        defaultConfigurationName = projectList.defaultName
        let targetAttributes = rootProject["attributes"]?["TargetAttributes"]
        let sourceDirectory = projectDirectory
        targets = (rootProject["targets"]?.array ?? []).compactMap { reference in
            reader.target(reference, attributes: targetAttributes, projectDirectory: sourceDirectory)
        }
        memberPaths = reader.memberPaths(projectDirectory: sourceDirectory)
        remotePackages = (rootProject["packageReferences"]?.array ?? []).compactMap { reference in
            guard let identifier = reference.string, let package = reader.objects[identifier],
                  package["isa"]?.string == "XCRemoteSwiftPackageReference" else { return nil }
            return reader.fact(package["repositoryURL"])
        }
    }

    // MARK: Build settings

    /// The build settings of `target` in `configuration`, layered as Xcode does (see
    /// ``BuildSettings``), with the project's and the target's `.xcconfig` files when they were
    /// read (``load(path:)`` reads them; a project parsed from text has none, so settings a base
    /// configuration file would define are unknown). `sdk` (e.g. `iphonesimulator`) selects
    /// `[sdk=…]` variants; by default the one `SDKROOT` names. A configuration the target lacks
    /// falls back to the target's default configuration, as `xcodebuild` does.
    public func settings(target: Target, configuration: String, sdk: String? = nil) -> BuildSettings {
        let projectLevel = projectConfiguration(named: configuration)
        let targetLevel = targetConfiguration(target, named: configuration)
        let configurationName = targetLevel?.name ?? configuration
        var settings = BuildSettings(configuration: configurationName, sdk: sdk)
        let here = SourceLocation(file: file)
        let builtins: [(String, String)] = [
            (SettingKey.targetName, target.name),
            ("TARGETNAME", target.name),
            (SettingKey.productName, "$(TARGET_NAME)"),
            ("PRODUCT_MODULE_NAME", "$(PRODUCT_NAME:c99extidentifier)"),
            ("EXECUTABLE_NAME", "$(PRODUCT_NAME)"),
            ("CONFIGURATION", configurationName),
            ("PROJECT_NAME", name),
            // The project's folder, as the base every path setting is resolved against: `.`, so
            // `$(SRCROOT)/App/Info.plist` is `App/Info.plist` there, however the folder was named
            // on the command line (`fx`, `./fx`, `/abs/fx`).
            ("SRCROOT", "."),
            ("SOURCE_ROOT", "."),
            ("PROJECT_DIR", "."),
        ]
        for (key, value) in builtins { settings.add(name: key, key: key, value: Fact(value, at: here, source: .pbxproj)) }
        for level in [projectLevel, targetLevel] {
            guard let level else { continue }
            if let base = level.baseConfigurationFile {
                if let loaded = configurationFiles[base] {
                    settings.addFile(loaded)
                } else {
                    settings.addMissingFile(base)
                }
            }
            settings.addLevel(level.buildSettings)
        }
        settings.settleSDK()
        return settings
    }

    /// Every build setting of `target` in `configuration`, expanded (see ``settings(target:configuration:sdk:)``).
    public func buildSettings(target: Target, configuration: String, sdk: String? = nil) -> [String: Fact<String>] {
        let resolved = settings(target: target, configuration: configuration, sdk: sdk)
        var result: [String: Fact<String>] = [:]
        for name in resolved.names {
            if let value = resolved.value(name) { result[name] = value }
        }
        return result
    }

    /// The values used to expand `$(VAR)` references for `target` (Xcode's own values included), expanded.
    public func expansionSettings(target: Target, configuration: String, sdk: String? = nil) -> [String: String] {
        buildSettings(target: target, configuration: configuration, sdk: sdk).mapValues(\.value)
    }

    /// A build setting of `target` with its `$(VAR)` references expanded, positioned where the
    /// value that decided it is written.
    public func expandedBuildSetting(_ key: String, target: Target, configuration: String, sdk: String? = nil) -> Fact<String>? {
        settings(target: target, configuration: configuration, sdk: sdk).value(key)
    }

    /// `PRODUCT_BUNDLE_IDENTIFIER` of `target` in `configuration`, expanded.
    public func bundleIdentifier(target: Target, configuration: String) -> Fact<String>? {
        expandedBuildSetting(SettingKey.productBundleIdentifier, target: target, configuration: configuration)
    }

    func projectConfiguration(named name: String) -> BuildConfiguration? {
        projectConfigurations.first { $0.name == name }
            ?? defaultConfigurationName.flatMap { fallback in projectConfigurations.first { $0.name == fallback } }
    }

    func targetConfiguration(_ target: Target, named name: String) -> BuildConfiguration? {
        target.configuration(named: name) ?? target.defaultConfigurationName.flatMap { target.configuration(named: $0) }
    }

    /// Reads every `.xcconfig` a configuration is based on (with what it includes), once.
    public mutating func loadConfigurationFiles() {
        let bases = (projectConfigurations + targets.flatMap(\.configurations)).compactMap(\.baseConfigurationFile)
        for base in Set(bases).sorted() where configurationFiles[base] == nil {
            configurationFiles[base] = XCConfigFile.load(path: base, projectDirectory: projectDirectory)
        }
    }

    /// `KEY[sdk=iphoneos*][config=Debug]`: every `sdk` and `config` condition must match; an `arch`
    /// or `variant` condition holds only as `*` (iapdoctor does not pick an architecture).
    static func conditionsHold(_ key: String, configuration: String, sdk: String?) -> Bool {
        var rest = key[...]
        guard let first = rest.firstIndex(of: "[") else { return true }
        rest = rest[first...]
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            let condition = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            guard let equals = condition.firstIndex(of: "=") else { return false }
            let name = condition[..<equals], pattern = String(condition[condition.index(after: equals)...])
            switch name {
            case "sdk":
                guard let sdk, globMatches(pattern, sdk) else { return false }
            case "config":
                guard globMatches(pattern, configuration) else { return false }
            case "arch", "variant":
                // Every architecture and variant is built; only a condition that holds for all holds.
                guard pattern == "*" else { return false }
            default:
                return false
            }
        }
        return true
    }

    /// `*` matches any run of characters; everything else matches itself. A pattern longer than
    /// any SDK or configuration name a condition can mean (256 characters) matches nothing: the
    /// matching backtracks, so its time is the pattern's length times the text's.
    static func globMatches(_ pattern: String, _ text: String) -> Bool {
        guard pattern.utf8.count <= 256, text.utf8.count <= 1 << 16 else { return false }
        let pattern = Array(pattern), text = Array(text)
        var p = 0, t = 0, starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "*" {
                starP = p
                starT = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    // MARK: Expansion

    /// Expands `$(VAR)`, `${VAR}` and `$VAR` references in `value` with `settings`, recursively and with
    /// modifiers (`:rfc1034identifier`, `:c99extidentifier`, `:identifier`, `:lower`, `:upper`, `:base`,
    /// `:file`, `:default=…`). Unknown references stay as written; depth and output size are bounded,
    /// so self-referencing settings cannot loop.
    public static func expandVariables(_ value: String, with settings: [String: String]) -> String {
        var expander = VariableExpander(settings: settings)
        return expander.expand(value[...], depth: 0, scope: .init(name: "", position: Int.max))
    }
}

// MARK: - Reading the object graph

/// Walks `objects` by identifier; every lookup tolerates dangling references (Xcode leaves some
/// after merges) by skipping them.
private struct ObjectReader {
    typealias Value = ASCIIPropertyList.Value

    let file: String
    let root: Value
    var objects: [String: Value] = [:]
    /// Group membership, for resolving a file reference's path: child identifier → parent group.
    var parentGroup: [String: String] = [:]

    init(file: String, root: Value) {
        self.file = file
        self.root = root
    }

    func location(_ position: ASCIIPropertyList.Position) -> SourceLocation {
        SourceLocation(
            file: file, line: position.line, column: position.column, endLine: position.endLine, endColumn: position.endColumn)
    }

    func fact(_ value: Value?) -> Fact<String>? {
        guard let value, let text = Self.settingText(value) else { return nil }
        return Fact(text, at: location(value.position), source: .pbxproj)
    }

    func malformed(_ message: String, at position: ASCIIPropertyList.Position) -> InputProblem {
        InputProblem(Finding(
            rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil, message: message,
            help: "restore `project.pbxproj` from version control, or open the project in Xcode to see whether it still loads",
            location: location(position)))
    }

    mutating func indexObjects() throws(InputProblem) {
        guard let objectsEntry = root.entry("objects") else {
            throw malformed("the project has no `objects` dictionary", at: root.position)
        }
        guard let entries = objectsEntry.value.entries else {
            throw malformed("`objects` is \(objectsEntry.value.kindDescription), expected a dictionary of objects", at: objectsEntry.value.position)
        }
        objects.reserveCapacity(entries.count)
        for entry in entries {
            objects[entry.key.text] = entry.value
        }
        for (identifier, object) in objects {
            guard let isa = object["isa"]?.string, isa.hasSuffix("Group") else { continue }
            for child in object["children"]?.array ?? [] {
                if let childID = child.string { parentGroup[childID] = identifier }
            }
        }
    }

    func object(_ reference: Value?) -> Value? {
        guard let identifier = reference?.string else { return nil }
        return objects[identifier]
    }

    func rootProject() throws(InputProblem) -> Value {
        guard let reference = root.entry("rootObject") else {
            throw malformed("the project has no `rootObject`", at: root.position)
        }
        guard let identifier = reference.value.string else {
            throw malformed("`rootObject` is \(reference.value.kindDescription), expected an object identifier", at: reference.value.position)
        }
        guard let project = objects[identifier] else {
            throw malformed("`rootObject` names `\(identifier)`, which is not in `objects`", at: reference.value.position)
        }
        guard project["isa"]?.string == "PBXProject" else {
            throw malformed(
                "`rootObject` names `\(identifier)`, which is a `\(project["isa"]?.string ?? "?")`, expected a `PBXProject`",
                at: reference.value.position)
        }
        return project
    }

    func configurationList(_ reference: Value?, projectDirectory: String) -> (configurations: [XcodeProject.BuildConfiguration], defaultName: String?) {
        guard let list = object(reference) else { return ([], nil) }
        var configurations: [XcodeProject.BuildConfiguration] = []
        for identifierValue in list["buildConfigurations"]?.array ?? [] {
            guard let identifier = identifierValue.string, let configuration = objects[identifier],
                  let name = configuration["name"]?.string else { continue }
            var settings: [String: Fact<String>] = [:]
            for entry in configuration["buildSettings"]?.entries ?? [] {
                if let setting = fact(entry.value) { settings[entry.key.text] = setting }
            }
            var base = configuration["baseConfigurationReference"]?.string.flatMap { path(ofFileReference: $0, projectDirectory: projectDirectory) }
            // Xcode 16's synchronized folders: the folder (`…Anchor`) and the file's path inside it.
            if base == nil, let anchor = configuration["baseConfigurationReferenceAnchor"]?.string,
               let relative = configuration["baseConfigurationReferenceRelativePath"]?.string, !relative.isEmpty,
               let folder = path(ofFileReference: anchor, projectDirectory: projectDirectory)
            {
                base = Fact(Paths.resolve(relative, relativeTo: folder.value), at: folder.location, source: .pbxproj)
            }
            configurations.append(XcodeProject.BuildConfiguration(
                id: identifier, name: name, location: location(configuration["name"]?.position ?? configuration.position),
                buildSettings: settings, baseConfigurationFile: base?.value))
        }
        return (configurations, list["defaultConfigurationName"]?.string)
    }

    func target(_ reference: Value, attributes: Value?, projectDirectory: String) -> XcodeProject.Target? {
        guard let identifier = reference.string, let targetObject = objects[identifier],
              let isa = targetObject["isa"]?.string, isa.hasSuffix("Target") else { return nil }
        let nameValue = targetObject["name"] ?? targetObject["productName"]
        let list = configurationList(targetObject["buildConfigurationList"], projectDirectory: projectDirectory)
        var target = XcodeProject.Target(
            id: identifier, name: nameValue?.string ?? identifier, location: location(nameValue?.position ?? targetObject.position),
            productType: fact(targetObject["productType"]), configurations: list.configurations,
            defaultConfigurationName: list.defaultName, hasInAppPurchaseCapability: nil, developmentTeamAttribute: nil,
            linksStoreKit: false, storeKitReferenceLocation: nil, sourceFiles: [])
        if let targetAttributes = attributes?[identifier] {
            if let enabled = targetAttributes["SystemCapabilities"]?["com.apple.InAppPurchase"]?["enabled"], let text = enabled.string {
                target.hasInAppPurchaseCapability = Fact(text == "1" || text.uppercased() == "YES", at: location(enabled.position), source: .pbxproj)
            }
            target.developmentTeamAttribute = fact(targetAttributes["DevelopmentTeam"])
        }
        for phase in (targetObject["buildPhases"]?.array ?? []).compactMap({ self.object($0) }) {
            switch phase["isa"]?.string {
            case "PBXFrameworksBuildPhase":
                for buildFile in (phase["files"]?.array ?? []).compactMap({ self.object($0) }) {
                    guard let reference = object(buildFile["fileRef"]), isStoreKitFramework(reference) else { continue }
                    target.linksStoreKit = true
                    let named = reference["name"] ?? reference["path"] ?? reference
                    target.storeKitReferenceLocation = target.storeKitReferenceLocation ?? location(named.position)
                }
            case "PBXSourcesBuildPhase":
                for buildFile in (phase["files"]?.array ?? []).compactMap({ self.object($0) }) {
                    guard let referenceID = buildFile["fileRef"]?.string,
                          let source = path(ofFileReference: referenceID, projectDirectory: nil) else { continue }
                    target.sourceFiles.append(source)
                }
            default:
                continue
            }
        }
        return target
    }

    /// Every file reference's and synchronized folder's path, sorted (see ``XcodeProject/memberPaths``).
    func memberPaths(projectDirectory: String) -> [String] {
        var paths: Set<String> = []
        for (identifier, object) in objects {
            guard let isa = object["isa"]?.string, isa == "PBXFileReference" || isa == "PBXFileSystemSynchronizedRootGroup" else { continue }
            if let path = path(ofFileReference: identifier, projectDirectory: projectDirectory) { paths.insert(Paths.normalize(path.value)) }
        }
        return paths.sorted()
    }

    func isStoreKitFramework(_ reference: Value) -> Bool {
        for key in ["name", "path"] {
            guard let text = reference[key]?.string else { continue }
            if text == "StoreKit.framework" || text.hasSuffix("/StoreKit.framework") { return true }
        }
        return false
    }

    /// The path of a file reference, following its groups up to the project's folder: relative to that
    /// folder, or joined to `projectDirectory` when given; `nil` for build-product and SDK files.
    func path(ofFileReference identifier: String, projectDirectory: String?) -> Fact<String>? {
        guard let reference = objects[identifier] else { return nil }
        let anchor = reference["path"] ?? reference["name"] ?? reference
        var components: [String] = []
        var current: Value? = reference
        var currentID = identifier
        var absolute = false
        // Bounded: a hand-edited project could make groups contain each other.
        for _ in 0..<64 {
            guard let node = current else { break }
            if let piece = node["path"]?.string, !piece.isEmpty { components.append(piece) }
            let sourceTree = node["sourceTree"]?.string ?? "<group>"
            if sourceTree == "<absolute>" || components.last?.hasPrefix("/") == true {
                absolute = true
                break
            }
            if sourceTree == "SOURCE_ROOT" { break }
            guard sourceTree == "<group>" else { return nil }
            guard let parentID = parentGroup[currentID] else { break }
            currentID = parentID
            current = objects[parentID]
        }
        guard !components.isEmpty else { return nil }
        let relative = components.reversed().joined(separator: "/")
        var resolved = Paths.normalize(relative)
        if !absolute, let projectDirectory { resolved = Paths.resolve(relative, relativeTo: projectDirectory) }
        if absolute, !resolved.hasPrefix("/") { resolved = "/" + resolved }
        return Fact(resolved, at: location(anchor.position), source: .pbxproj)
    }

    /// A build setting's text: a string as is, a list joined with spaces (items with spaces quoted).
    static func settingText(_ value: Value) -> String? {
        switch value {
        case .string(let text, _):
            return text
        case .array(let items, _):
            return items.compactMap(\.string).map { item in
                item.contains(" ") && !item.hasPrefix("\"") ? "\"\(item)\"" : item
            }.joined(separator: " ")
        case .data, .dictionary:
            return nil
        }
    }
}

// MARK: - Variable expansion

/// The modifiers of `$(NAME:modifier)`.
extension VariableExpander {
    /// `value` with every byte that is not an ASCII letter, digit or `keeping` replaced by
    /// `replacement`, when the value is ASCII without carriage returns (one character per byte);
    /// otherwise `nil`, and the caller maps characters. Long values met this per reference.
    static func mapASCII(_ value: String, keeping: (UInt8) -> Bool, else replacement: UInt8) -> String? {
        let utf8 = value.utf8
        guard utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
        return String(decoding: utf8.map { isKept($0, keeping) ? $0 : replacement }, as: UTF8.self)
    }

    /// The same per character: a character that is not one ASCII letter, digit or `keeping`
    /// byte (anything non-ASCII, and a CR-LF pair) becomes one `replacement`.
    static func mapCharacters(_ value: String, keeping: (UInt8) -> Bool, else replacement: Character) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for character in value {
            if character != "\r\n", let byte = character.asciiValue, isKept(byte, keeping) {
                result.append(character)
            } else {
                result.append(replacement)
            }
        }
        return result
    }

    static func isKept(_ byte: UInt8, _ keeping: (UInt8) -> Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return keeping(byte)
        }
    }

    static func apply(_ modifier: Substring, to value: String) -> String {
        switch modifier {
        case "rfc1034identifier":
            let keep: (UInt8) -> Bool = { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
            return mapASCII(value, keeping: keep, else: UInt8(ascii: "-")) ?? mapCharacters(value, keeping: keep, else: "-")
        case "c99extidentifier", "identifier":
            let keep: (UInt8) -> Bool = { $0 == UInt8(ascii: "_") }
            var result = mapASCII(value, keeping: keep, else: UInt8(ascii: "_")) ?? mapCharacters(value, keeping: keep, else: "_")
            if let first = result.first, first.isNumber { result = "_" + result }
            return result
        case "lower":
            return value.lowercased()
        case "upper":
            return value.uppercased()
        case "file":
            return Paths.fileName(of: value)
        case "base":
            let file = Paths.fileName(of: value)
            guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
            return String(file[..<dot])
        default:
            if modifier.hasPrefix("default=") {
                return value.isEmpty ? String(modifier.dropFirst("default=".count)) : value
            }
            return value
        }
    }
}
