import Foundation
import TestSupport

/// A small Xcode project written into a temporary folder: the shapes real apps have (several
/// targets, `.xcconfig` files, schemes, StoreKit files), described in a few lines of a test.
/// The folder is removed when the fixture is released.
final class ProjectFixture {
    struct Target {
        var name: String
        var productType = "com.apple.product-type.application"
        /// Build settings by configuration name.
        var settings: [String: [String: String]]
        /// Base `.xcconfig` (relative to the folder) per configuration.
        var baseConfiguration: [String: String] = [:]
        /// Its Compile Sources (relative to the folder).
        var sourceFiles: [String] = []
    }

    let files = FixtureFolder("fixture")
    var folder: String { files.folder }
    let projectName: String
    var targets: [Target] = []
    /// Project-level settings and base `.xcconfig` files per configuration.
    var projectSettings: [String: [String: String]] = ["Debug": [:], "Release": [:]]
    var projectBaseConfiguration: [String: String] = [:]
    /// Repository URLs of remote Swift packages the project depends on.
    var remotePackages: [String] = []
    /// Files the project holds beside its configuration files (relative to the folder): what
    /// Xcode's navigator lists, as `.storekit` files added with File → Add Files.
    var memberFiles: [String] = []
    /// Xcode 16 synchronized folders (relative to the folder): a base `.xcconfig` inside one is
    /// attached by the folder and a path in it, as Xcode 16 writes it (`objectVersion = 77`).
    var synchronizedFolders: [String] = []
    private var projectWritten = false

    init(projectName: String = "Birdhouse") {
        self.projectName = projectName
    }

    func write(_ relative: String, _ text: String) { files.write(relative, text) }

    /// Object identifiers: 24 hex digits, stable per name.
    static func identifier(_ name: String) -> String {
        var hash: UInt64 = 1469598103934665603
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
        return String(format: "%016llX", hash) + String(format: "%08X", UInt32(truncatingIfNeeded: hash >> 17))
    }

    func targetID(_ name: String) -> String { Self.identifier("target:" + name) }

    /// Writes `<projectName>.xcodeproj/project.pbxproj`.
    func writeProject() {
        projectWritten = true
        var objects: [String] = []
        var fileReferences: [String: String] = [:]
        func fileReference(_ path: String) -> String {
            if let id = fileReferences[path] { return id }
            let id = Self.identifier("file:" + path)
            fileReferences[path] = id
            objects.append("\(id) = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = \"\(path)\"; sourceTree = SOURCE_ROOT; };")
            return id
        }
        func configurationList(_ owner: String, _ settings: [String: [String: String]], _ bases: [String: String]) -> String {
            var ids: [String] = []
            for name in settings.keys.sorted() {
                let id = Self.identifier("configuration:\(owner):\(name)")
                ids.append(id)
                let body = settings[name]!.sorted { $0.key < $1.key }.map { "\"\($0.key)\" = \"\($0.value)\";" }.joined(separator: " ")
                let base = bases[name].map { path in
                    if let folder = synchronizedFolders.first(where: { path.hasPrefix($0 + "/") }) {
                        return "baseConfigurationReferenceAnchor = \(Self.identifier("synchronized:" + folder)); baseConfigurationReferenceRelativePath = \"\(path.dropFirst(folder.count + 1))\"; "
                    }
                    return "baseConfigurationReference = \(fileReference(path)); "
                } ?? ""
                objects.append("\(id) = {isa = XCBuildConfiguration; \(base)buildSettings = { \(body) }; name = \(name); };")
            }
            let listID = Self.identifier("list:" + owner)
            objects.append("\(listID) = {isa = XCConfigurationList; buildConfigurations = (\(ids.joined(separator: ", "))); defaultConfigurationName = Release; };")
            return listID
        }
        var targetIDs: [String] = []
        for target in targets {
            let id = targetID(target.name)
            targetIDs.append(id)
            let list = configurationList("target:" + target.name, target.settings, target.baseConfiguration)
            var phases: [String] = []
            if !target.sourceFiles.isEmpty {
                let buildFiles = target.sourceFiles.map { path in
                    let reference = Self.identifier("source:" + path)
                    objects.append("\(reference) = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = \"\(path)\"; sourceTree = SOURCE_ROOT; };")
                    let buildFile = Self.identifier("build:\(target.name):" + path)
                    objects.append("\(buildFile) = {isa = PBXBuildFile; fileRef = \(reference); };")
                    return buildFile
                }
                let phase = Self.identifier("sources:" + target.name)
                objects.append("\(phase) = {isa = PBXSourcesBuildPhase; files = (\(buildFiles.joined(separator: ", "))); };")
                phases.append(phase)
            }
            objects.append("\(id) = {isa = PBXNativeTarget; buildConfigurationList = \(list); buildPhases = (\(phases.joined(separator: ", "))); name = \"\(target.name)\"; productName = \"\(target.name)\"; productType = \"\(target.productType)\"; };")
        }
        let projectList = configurationList("project", projectSettings, projectBaseConfiguration)
        let rootID = Self.identifier("project")
        let packageIDs = remotePackages.map { url in
            let id = Self.identifier("package:" + url)
            objects.append("\(id) = {isa = XCRemoteSwiftPackageReference; repositoryURL = \"\(url)\"; requirement = {kind = upToNextMajorVersion; minimumVersion = 1.0.0; }; };")
            return id
        }
        objects.append("\(rootID) = {isa = PBXProject; buildConfigurationList = \(projectList); mainGroup = \(Self.identifier("group")); packageReferences = (\(packageIDs.joined(separator: ", "))); targets = (\(targetIDs.joined(separator: ", "))); };")
        let memberIDs = memberFiles.map { path in
            let id = Self.identifier("member:" + path)
            objects.append("\(id) = {isa = PBXFileReference; lastKnownFileType = text; path = \"\(path)\"; sourceTree = SOURCE_ROOT; };")
            return id
        }
        let folderIDs = synchronizedFolders.map { folder in
            let id = Self.identifier("synchronized:" + folder)
            objects.append("\(id) = {isa = PBXFileSystemSynchronizedRootGroup; path = \"\(folder)\"; sourceTree = \"<group>\"; };")
            return id
        }
        objects.append("\(Self.identifier("group")) = {isa = PBXGroup; children = (\((memberIDs + folderIDs).joined(separator: ", "))); sourceTree = \"<group>\"; };")
        let text = """
            // !$*UTF8*$!
            {
            \tarchiveVersion = 1;
            \tobjectVersion = \(synchronizedFolders.isEmpty ? 56 : 77);
            \tobjects = {
            \(objects.map { "\t\t" + $0 }.joined(separator: "\n"))
            \t};
            \trootObject = \(rootID);
            }

            """
        write("\(projectName).xcodeproj/project.pbxproj", text)
    }

    /// Writes a shared scheme whose Run action launches `target` (optionally with a StoreKit file).
    func writeScheme(_ name: String, runs target: String, storeKit: String? = nil) {
        let reference = """
                     <BuildableReference
                        BuildableIdentifier = "primary"
                        BlueprintIdentifier = "\(targetID(target))"
                        BuildableName = "\(target).app"
                        BlueprintName = "\(target)"
                        ReferencedContainer = "container:\(projectName).xcodeproj">
                     </BuildableReference>
            """
        let storeKitLine = storeKit.map { "      <StoreKitConfigurationFileReference identifier = \"\($0)\"></StoreKitConfigurationFileReference>\n" } ?? ""
        write("\(projectName).xcodeproj/xcshareddata/xcschemes/\(name).xcscheme", """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme LastUpgradeVersion = "1600" version = "1.7">
               <LaunchAction buildConfiguration = "Debug">
                  <BuildableProductRunnable runnableDebuggingMode = "0">
            \(reference)
                  </BuildableProductRunnable>
            \(storeKitLine)   </LaunchAction>
               <ArchiveAction buildConfiguration = "Release" revealArchiveInOrganizer = "YES">
               </ArchiveAction>
            </Scheme>

            """)
    }

    /// A `.storekit` file with these products (ID, type), added to the project unless `inProject` is false.
    func writeStoreKit(_ path: String, products: [(String, String)], subscriptionGroup: (name: String, ids: [String])? = nil, inProject: Bool = true) {
        if inProject, !memberFiles.contains(path) {
            memberFiles.append(path)
            if projectWritten { writeProject() }
        }
        let items = products.map { id, type in
            """
                { "displayPrice": "0.99", "familyShareable": false, "internalID": "\(Self.identifier(id).prefix(8))", "localizations": [ { "description": "A bag of seeds for the feeder", "displayName": "Feeder Refill", "locale": "en_US" } ], "productID": "\(id)", "referenceName": "\(id)", "type": "\(type)" }
            """
        }.joined(separator: ",\n")
        let groups = subscriptionGroup.map { group in
            let subscriptions = group.ids.map { id in
                """
                { "adHocOffers": [], "codeOffers": [], "displayPrice": "4.99", "familyShareable": false, "groupNumber": 1, "internalID": "\(Self.identifier(id).prefix(8))", "localizations": [ { "description": "A bag of seeds for the feeder", "displayName": "Feeder Refill", "locale": "en_US" } ], "productID": "\(id)", "recurringSubscriptionPeriod": "P1M", "referenceName": "\(id)", "subscriptionGroupID": "G1", "type": "RecurringSubscription" }
                """
            }.joined(separator: ",")
            return "{ \"id\": \"G1\", \"localizations\": [], \"name\": \"\(group.name)\", \"subscriptions\": [\(subscriptions)] }"
        }
        write(path, """
            {
              "identifier": "ABCD1234", "nonRenewingSubscriptions": [], "products": [
            \(items)
              ],
              "settings": { "_failTransactionsEnabled": false },
              "subscriptionGroups": [\(groups ?? "")],
              "version": { "major": 4, "minor": 0 }
            }

            """)
    }
}
