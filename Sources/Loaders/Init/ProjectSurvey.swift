import CodeScanner
import Foundation
import Formats
import JSONReader
import Model

/// What `iapdoctor init` learns from a folder: the Xcode project, the scheme and target that are
/// the app, their files and settings. Every choice records how it was made; where the files leave
/// a choice open, the alternatives are kept so the descriptor can ask instead of guessing.
/// Paths are relative to the surveyed folder.
public struct ProjectSurvey: Sendable {
    /// A choice among files, with the others that could have been chosen.
    public struct Choice: Sendable {
        public var value: String
        /// Why this one: "the scheme `App` runs it", "the only one".
        public var reason: String
        /// The other candidates, each with a short description.
        public var alternatives: [String] = []
    }

    public var xcodeproj: Choice?
    /// The tool the project is generated with when only its manifest is committed (XcodeGen, Tuist).
    public var generator: String?
    /// `.xcodeproj` folders with no app target and `.xcworkspace` folders, for a note.
    public var otherProjects: [String] = []
    public var scheme: Choice?
    public var target: Choice?
    /// Set when no target could be chosen: the application targets, described.
    public var targetQuestion: [String] = []
    /// Why the platform is not known, when a file that could set it is missing.
    public var platformQuestion: String?
    public var platform: Platform?
    /// The configuration a Run from Xcode builds (the scheme's Run action).
    public var runConfiguration: String?
    /// The configuration that ships (the scheme's Archive action).
    public var archiveConfiguration: String?
    /// `PRODUCT_BUNDLE_IDENTIFIER` and `DEVELOPMENT_TEAM` of the shipping configuration, expanded.
    public var bundleID: String?
    /// The Xcode project's name (the `.xcodeproj` folder's, or the one a generator's manifest gives).
    public var projectName: String?
    /// How a Flutter, React Native, Capacitor or Cordova app in the folder is launched besides
    /// Xcode's Run (`flutter run`): such a launch does not apply the scheme's StoreKit file.
    public var frameworkLaunch: String?
    /// The generator manifest's scheme the target and StoreKit file come from (Tuist's), when no
    /// `.xcscheme` is committed.
    public var manifestScheme: String?
    /// The chosen scheme (an `.xcscheme` or the manifest's) names a StoreKit configuration file:
    /// Xcode's Run serves it (``storeKit``, or ``missingStoreKitReference`` when it is not there).
    public var schemeRunsStoreKit = false
    /// Where ``bundleID`` comes from when it is not the chosen target's build setting (an Expo config).
    public var bundleIDReason: String?
    public var teamID: String?
    /// Where ``teamID`` comes from when it is not the chosen target's (several candidates share it).
    public var teamReason: String?
    /// Why a setting could not be written (unresolved reference, missing .xcconfig), by setting name.
    public var unresolved: [String: String] = [:]
    /// References in the written settings that no file defines (Xcode expands them to nothing), by
    /// setting name.
    public var undefinedReferences: [String: [String]] = [:]
    /// The conditional key that decides a written setting (`DEVELOPMENT_TEAM[sdk=iphoneos*]`), by name.
    public var conditionalKeys: [String: String] = [:]
    /// Optional includes that are not in the folder and may override a setting on a developer's
    /// Mac (`#include? "DeveloperSettings.xcconfig"`), by setting, relative to the folder.
    public var localOverrides: [String: [String]] = [:]
    /// Generated `.xcconfig` files (CocoaPods', Flutter's) the configuration names that are not in
    /// the folder, with the command that writes them.
    public var absentGeneratedFiles: [(file: String, command: String)] = []
    /// The run configuration's bundle ID when it differs from the shipping one.
    public var runBundleID: String?
    public var infoPlist: String?
    /// Set when Xcode generates the Info.plist from build settings.
    public var infoPlistGenerated = false
    public var entitlements: String?
    /// The shipping configuration's entitlements file when it differs from the run configuration's.
    public var archiveEntitlements: String?
    public var storeKit: Choice?
    /// `.storekit` files the scheme does not use.
    public var otherStoreKitFiles: [String] = []
    /// The scheme's StoreKit reference when it points at no file.
    public var missingStoreKitReference: String?
    /// The Swift package whose checkout holds that reference's file, when it leads into one.
    public var storeKitPackage: String?
    public var profile: Choice?
    /// The profile the run configuration names, by name or UUID, to choose among committed ones.
    var profileSpecifier: String?
    var profileUUID: String?
    public var productIDLists: [String] = []
    /// Files shaped like product ID lists that no source file names.
    public var unnamedProductIDLists: [String] = []
    public var sources: [String] = []
    /// Where the app depends on a RevenueCat SDK (`RevenueCatDependency`), if it does.
    public var revenueCat: String?

    /// Folders whose files are test data or fixtures, never the app's own lists or code.
    static func isTestPath(_ path: String) -> Bool {
        path.split(separator: "/").contains { part in
            let lower = part.lowercased()
            return lower.hasSuffix("tests") || lower.hasSuffix("test") || lower == "fixtures" || lower == "testdata"
                || lower.hasSuffix("uitests") || lower == "spec" || lower == "specs" || lower == "__tests__" || lower == "__mocks__"
                || lower == "e2e" || lower == "cypress" || lower == "detox"
        }
    }

    /// Walks `directory` (sorted, bounded, symbolic links to folders not followed; the folders
    /// `FolderWalker.skippedFolderNames` lists are skipped, as the source scan skips them).
    public static func survey(directory: String) -> ProjectSurvey {
        var survey = ProjectSurvey()
        let walk = FolderListing(root: directory)
        let files = walk.files
        var loaded = walk.projects.compactMap { path -> (String, XcodeProject)? in
            guard let project = try? XcodeProject.load(path: directory + "/" + path) else { return nil }
            return (path, project)
        }
        // A repository that generates its project (XcodeGen) commits the spec instead; a project
        // that is committed is what Xcode opens, so specs count only without one.
        if !loaded.contains(where: { !$0.1.applicationTargets.isEmpty }) {
            let manifests = files.filter { path in
                !Self.isTestPath(path) && ((XcodeGenSpec.isSpec(path) && !Self.isDescriptor(directory + "/" + path))
                    || (TuistProject.isManifest(path) && !path.split(separator: "/").contains("Tuist")))
            }
            // The shallowest first, and a bounded number: a Tuist monorepo has a manifest per module.
            let shallowest = manifests.sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }.prefix(32)
            loaded += shallowest.compactMap { path -> (String, XcodeProject)? in
                guard let project = try? XcodeProject.load(path: directory + "/" + path), !project.targets.isEmpty else { return nil }
                return (path, project)
            }
        }
        // A generator manifest that gave no app target (Tuist targets made by helper functions):
        // the project it writes answers, once generated.
        let unreadManifest = walk.projects.isEmpty && loaded.isEmpty
            ? files.filter { TuistProject.isManifest($0) && !$0.split(separator: "/").contains("Tuist") && !Self.isTestPath($0) }
                .min { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
            : nil
        let withApps = loaded.filter { !TargetChoice.mainApplicationTargets(of: $0.1).isEmpty || !$0.1.applicationTargets.isEmpty }
        // The shallowest project with an app target; a tie is a question.
        let depth = { (path: String) in path.split(separator: "/").count }
        let shallowest = withApps.map { depth($0.0) }.min()
        let top = withApps.filter { depth($0.0) == shallowest }
        survey.otherProjects = (walk.projects.filter { path in !top.contains { $0.0 == path } } + walk.workspaces).sorted()
        guard let (projectPath, project) = top.first else {
            survey.collectFiles(files, directory: directory)
            if let manifest = unreadManifest {
                let folder = Paths.directoryName(of: manifest)
                survey.unresolved[XcodeProject.SettingKey.productBundleIdentifier] = "`\(manifest)` is a Tuist manifest whose app target iapdoctor could not read (targets made by helper functions are not run): "
                    + "run `tuist generate`\(folder == "." ? "" : " in `\(folder)`"), then `iapdoctor init` again to read the project it writes"
            }
            // An Expo, Capacitor or Cordova app without its native project: its config says what
            // the framework's tool will write.
            if let expo = ScriptAppConfig.find(directory: directory, files: files) {
                survey.platform = .ios
                survey.bundleID = expo.bundleID
                survey.bundleIDReason = expo.bundleIDSource.map { source in
                    "\(source)" + (expo.bundleIDCaveat.map { "; \($0)" } ?? "")
                        + "; " + expo.nativeProject
                }
                survey.teamID = expo.teamID
                survey.teamReason = expo.teamSource
                if survey.projectName == nil { survey.projectName = expo.appName }
            } else if let dotNet = DotNetConfig.read(directory: directory, files: files) {
                // Unity, .NET MAUI and Xamarin write their Xcode project when they build.
                survey.platform = .ios
                survey.bundleID = dotNet.bundleID
                survey.bundleIDReason = dotNet.bundleIDSource
                survey.teamID = dotNet.teamID
                survey.teamReason = dotNet.teamSource
                if let question = dotNet.bundleIDQuestion { survey.unresolved[XcodeProject.SettingKey.productBundleIdentifier] = question }
                if let question = dotNet.teamQuestion { survey.unresolved[XcodeProject.SettingKey.developmentTeam] = question }
                survey.infoPlist = survey.infoPlist ?? dotNet.infoPlist
                survey.entitlements = survey.entitlements ?? dotNet.entitlements
                if survey.projectName == nil { survey.projectName = dotNet.appName }
            }
            survey.revenueCat = RevenueCatDependency.find(directory: directory, files: files)
            return survey
        }
        survey.xcodeproj = Choice(
            value: projectPath,
            reason: project.generator.map { tool in
                tool == "Tuist" ? "the Tuist manifest: the project is generated from it (`tuist generate`) and not committed"
                    : "the \(tool) spec: the project is generated from it (`xcodegen generate`) and not committed"
            }
                ?? (top.count == 1 ? (loaded.count == 1 ? "the only Xcode project" : "the only project with an app target at the top")
                    : "the first of \(top.count) projects with app targets"),
            alternatives: top.dropFirst().map(\.0))
        survey.generator = project.generator
        survey.projectName = project.name.isEmpty ? nil : project.name
        survey.frameworkLaunch = Self.frameworkLaunch(directory: directory)
        survey.chooseSchemeAndTarget(project: project, projectPath: projectPath, directory: directory, workspaces: walk.workspaces)
        survey.collectFiles(files, directory: directory)
        survey.revenueCat = RevenueCatDependency.find(directory: directory, files: files, project: (projectPath, project))
        return survey
    }

    /// Whether the target's own source files (its Compile Sources, up to a bound) import a
    /// purchase library or request a product.
    static func sourcesUsePurchases(_ target: XcodeProject.Target, in project: XcodeProject) -> Bool {
        let files = target.sourceFiles.prefix(4000).map { Paths.resolve($0.value, relativeTo: project.projectDirectory) }
        guard !files.isEmpty else { return false }
        let scan = SourceScanner.scan(paths: Array(files), baseDirectory: "")
        return scan.mentionsInAppPurchase
    }

    mutating func chooseSchemeAndTarget(project: XcodeProject, projectPath: String, directory: String, workspaces: [String] = []) {
        // The project's shared schemes, then those of the workspaces that open it (CocoaPods and
        // Flutter apps are opened through one, and some keep their schemes there).
        let projectFile = Paths.fileName(of: projectPath)
        let opening = workspaces.filter { workspace in
            let contents = (try? FileSystem.readBytes(directory + "/" + workspace + "/contents.xcworkspacedata", maxBytes: 1 << 20)) ?? []
            return String(decoding: contents, as: UTF8.self).contains(projectFile + "\"")
        }
        // A generated project's schemes sit where the generator writes the project, if committed.
        let container = project.generator == nil ? projectPath
            : (Paths.directoryName(of: projectPath) == "." ? "" : Paths.directoryName(of: projectPath) + "/") + project.name + ".xcodeproj"
        let schemePaths = ([container] + opening).flatMap { container -> [String] in
            let folder = container + "/xcshareddata/xcschemes"
            return ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder)) ?? [])
                .filter { $0.hasSuffix(".xcscheme") }.sorted().map { folder + "/" + $0 }
        }
        let mains = TargetChoice.mainApplicationTargets(of: project)
        // Schemes whose Run action launches one of the project's main app targets.
        var appSchemes: [(path: String, scheme: XcodeScheme, target: XcodeProject.Target)] = []
        for path in schemePaths {
            guard let scheme = try? XcodeScheme.load(path: directory + "/" + path), let reference = scheme.runTarget,
                let target = mains.first(where: { $0.id == reference.identifier })
                    ?? (project.generator == nil ? nil : mains.first(where: { $0.name == reference.name })) else { continue }
            appSchemes.append((path, scheme, target))
        }
        // Each rank once (it resolves the target's settings), then sorted by it.
        let ranks = appSchemes.map { SchemeRank(path: $0.path, scheme: $0.scheme, target: $0.target, project: project) }
        let order = ranks.indices.sorted { ranks[$0].key.lexicographicallyPrecedes(ranks[$1].key) }
        let ranked = order.map { appSchemes[$0] }
        var chosenTarget: XcodeProject.Target?
        if let first = ranked.first {
            let name = { (path: String) in String(path.split(separator: "/").last!.dropLast(".xcscheme".count)) }
            scheme = Choice(
                value: first.path,
                reason: ranked.count == 1 ? "the only shared scheme that runs an app target"
                    : "of \(ranked.count) shared schemes that run an app target, this one \(ranks[order[0]].reason)",
                alternatives: ranked.dropFirst().map { "\($0.path)   # runs `\($0.target.name)`" })
            chosenTarget = first.target
            target = Choice(value: first.target.name, reason: "the scheme `\(name(first.path))` runs it")
            runConfiguration = first.scheme.runConfiguration?.value
            archiveConfiguration = first.scheme.archiveConfiguration?.value
            if let reference = first.scheme.storeKitConfiguration {
                schemeRunsStoreKit = true
                let candidates = first.scheme.candidatePaths(for: reference.value)
                if let package = XcodeScheme.packageCheckout(of: reference.value) {
                    missingStoreKitReference = reference.value
                    storeKitPackage = package
                } else if let found = candidates.first(where: FileSystem.exists) {
                    storeKit = Choice(value: Self.relative(found, to: directory), reason: "the scheme `\(name(first.path))` runs it")
                } else if let found = candidates.lazy.compactMap(FileSystem.caseInsensitiveMatch).first {
                    storeKit = Choice(
                        value: Self.relative(found, to: directory),
                        reason: "the scheme `\(name(first.path))` runs it, though its reference differs from the file's name in letter case")
                } else {
                    missingStoreKitReference = reference.value
                }
            }
        } else if let (declared, target) = Self.manifestScheme(of: project, mains: mains) {
            // A generator's scheme (Tuist's `schemes:`): the project it writes is not committed.
            chosenTarget = target
            self.target = Choice(value: target.name, reason: "the manifest's scheme `\(declared.name)` runs it")
            manifestScheme = declared.name
            if let file = declared.storeKitConfiguration {
                schemeRunsStoreKit = true
                if FileSystem.exists(file) {
                    storeKit = Choice(value: Self.relative(file, to: directory), reason: "the manifest's scheme `\(declared.name)` runs it (`storeKitConfigurationPath`)")
                } else {
                    missingStoreKitReference = Self.relative(file, to: directory)
                }
            }
        } else {
            switch TargetChoice.choose(in: project, named: nil, scheme: nil, bundleID: nil, configuration: "Release") {
            case .chosen(let only, let reason):
                chosenTarget = only
                target = Choice(value: only.name, reason: reason)
            case .ambiguous(let candidates, _), .unknownName(_, let candidates):
                let apps = mains.isEmpty ? project.applicationTargets : mains
                // One app target whose own source files buy something is the app; the others
                // (a macOS helper, a companion app) sell nothing.
                let selling = apps.filter { Self.sourcesUsePurchases($0, in: project) }
                if apps.count > 1, selling.count == 1, let only = selling.first {
                    chosenTarget = only
                    let others = apps.filter { $0.id != only.id }.map { "`\($0.name)`" }
                    target = Choice(
                        value: only.name,
                        reason: "the only application target whose source files use In-App Purchase (\(others.joined(separator: ", ")) \(others.count == 1 ? "does" : "do") not)")
                    break
                }
                targetQuestion = candidates
                // What every candidate shares is known whichever is the app.
                let shipping = apps.map { project.settings(target: $0, configuration: "Release") }
                let teams = Set(shipping.map { $0.value(XcodeProject.SettingKey.developmentTeam)?.value ?? "" })
                if apps.count > 1, teams.count == 1, let team = teams.first, !team.isEmpty, BuildSettings.isResolved(team) {
                    teamID = team
                    teamReason = "`DEVELOPMENT_TEAM` of Release in all \(apps.count) application targets"
                }
                let platforms = Set(shipping.map { Platform(sdk: $0.sdk) })
                if platforms.count == 1, let only = platforms.first { platform = only }
            }
        }
        guard let app = chosenTarget else { return }
        let run = runConfiguration ?? (app.configurationNames.contains("Debug") ? "Debug" : app.configurationNames.first ?? "Debug")
        let archive = archiveConfiguration ?? (app.configurationNames.contains("Release") ? "Release" : app.configurationNames.last ?? "Release")
        runConfiguration = run
        archiveConfiguration = archive
        let shipping = project.settings(target: app, configuration: archive)
        let running = project.settings(target: app, configuration: run)
        platform = Platform(sdk: shipping.sdk)
        if platform == nil, let root = shipping.value(XcodeProject.SettingKey.sdkRoot), !BuildSettings.isResolved(root.value),
           shipping.missingFiles.contains(root.location.file) {
            platformQuestion = "`SDKROOT` may be set by `\(Self.relative(root.location.file, to: directory))`, which is missing (a generated or git-ignored file?)"
        }
        for (key, slot) in [(XcodeProject.SettingKey.productBundleIdentifier, \ProjectSurvey.bundleID), (XcodeProject.SettingKey.developmentTeam, \ProjectSurvey.teamID)] {
            guard let value = shipping.value(key) else { continue }
            if BuildSettings.isResolved(value.value) {
                self[keyPath: slot] = value.value
                let undefined = shipping.undefinedReferences(of: key)
                if !undefined.isEmpty { undefinedReferences[key] = undefined }
                if let written = shipping.decidingKey(key), written != key { conditionalKeys[key] = written }
                let overrides = shipping.localOverrides(of: key)
                if !overrides.isEmpty { localOverrides[key] = overrides.map { Self.relative($0, to: directory) } }
            } else {
                let missing = shipping.missingFiles.map { "`\(Self.relative($0, to: directory))`" }
                let names = BuildSettings.unresolvedNames(in: value.value).map { "`\($0)`" }.joined(separator: ", ")
                let hint = XCConfigFile.templateHint(
                    for: shipping.missingFiles, names: BuildSettings.unresolvedNames(in: value.value) + [key], shown: { Self.relative($0, to: directory) }
                ).map { "; " + $0 } ?? ""
                unresolved[key] = "`\(key)` of \(archive) uses \(names)"
                    + (missing.isEmpty ? ", which no file in the folder defines" : ", defined in \(missing.joined(separator: ", ")), which is not in the folder") + hint
            }
        }
        if teamID == nil, unresolved[XcodeProject.SettingKey.developmentTeam] == nil,
           let attribute = app.developmentTeamAttribute, !attribute.value.isEmpty, BuildSettings.isResolved(attribute.value)
        {
            // A project last saved by Xcode 7 or earlier keeps the team only in the target's
            // attributes; Xcode 8 and later copy it into `DEVELOPMENT_TEAM` when they open it.
            teamID = attribute.value
            teamReason = "`DevelopmentTeam` of the target's attributes in project.pbxproj (Xcode 8 and later copy it into `DEVELOPMENT_TEAM`)"
        }
        absentGeneratedFiles = shipping.absentGeneratedFiles.map { (Self.relative($0.file, to: directory), $0.generator.command) }
        if let runBundle = running.value(XcodeProject.SettingKey.productBundleIdentifier)?.value, BuildSettings.isResolved(runBundle),
           runBundle != bundleID {
            runBundleID = runBundle
        }
        let projectFolder = project.projectDirectory
        func file(_ settings: BuildSettings, _ key: String) -> String? {
            guard let value = settings.value(key)?.value, !value.isEmpty, BuildSettings.isResolved(value) else { return nil }
            let path = Paths.resolve(value, relativeTo: projectFolder)
            return FileSystem.exists(path) ? Self.relative(path, to: directory) : nil
        }
        for (key, slot) in [(XcodeProject.SettingKey.provisioningProfileSpecifier, \ProjectSurvey.profileSpecifier), (XcodeProject.SettingKey.provisioningProfile, \ProjectSurvey.profileUUID)] {
            if let value = running.value(key)?.value, !value.isEmpty, BuildSettings.isResolved(value) { self[keyPath: slot] = value }
        }
        infoPlist = file(running, XcodeProject.SettingKey.infoPlistFile)
        if bundleID == nil, unresolved[XcodeProject.SettingKey.productBundleIdentifier] == nil,
           let plist = file(shipping, XcodeProject.SettingKey.infoPlistFile),
           let identifier = Self.infoPlistBundleID(Paths.resolve(plist, relativeTo: directory), settings: shipping)
        {
            // A project from before Xcode 7: the bundle ID is Info.plist's, built from the settings.
            bundleID = identifier
            bundleIDReason = "`CFBundleIdentifier` in `\(plist)`, expanded with the \(archive) configuration's settings"
        }
        infoPlistGenerated = infoPlist == nil && running.value("GENERATE_INFOPLIST_FILE")?.value == "YES"
        entitlements = file(running, XcodeProject.SettingKey.codeSignEntitlements)
        let shippingEntitlements = file(shipping, XcodeProject.SettingKey.codeSignEntitlements)
        if shippingEntitlements != entitlements { archiveEntitlements = shippingEntitlements }
    }

    /// The manifest's scheme that runs a main app target: the one named after the project, else
    /// the first; with the target it runs.
    static func manifestScheme(of project: XcodeProject, mains: [XcodeProject.Target]) -> (XcodeProject.ManifestScheme, XcodeProject.Target)? {
        let running = project.manifestSchemes.compactMap { scheme -> (XcodeProject.ManifestScheme, XcodeProject.Target)? in
            guard let name = scheme.runs, let target = mains.first(where: { $0.name == name }) else { return nil }
            return (scheme, target)
        }
        return running.first { $0.0.name == project.name } ?? running.first
    }

    /// The framework's own launch command, from the app's manifest: `pubspec.yaml` (Flutter), or
    /// `package.json` naming React Native, Capacitor or Cordova.
    static func frameworkLaunch(directory: String) -> String? {
        if FileSystem.exists(directory + "/pubspec.yaml") { return "`flutter run`" }
        guard let bytes = try? FileSystem.readBytes(directory + "/package.json", maxBytes: 1 << 20),
              let root = try? JSONDocument.parse(bytes: bytes, file: "package.json").root else { return nil }
        let names = ["dependencies", "devDependencies"].flatMap { (root[$0]?.members ?? []).map(\.key) }
        if names.contains("react-native") || names.contains("expo") { return "`npx react-native run-ios` (or `npx expo run:ios`)" }
        if names.contains("@capacitor/ios") { return "`npx cap run ios`" }
        if names.contains("cordova-ios") { return "`cordova run ios`" }
        return nil
    }

    /// `CFBundleIdentifier` of the Info.plist at `path`, expanded with `settings`, when that gives a
    /// whole value (no `$(…)` left, not empty).
    static func infoPlistBundleID(_ path: String, settings: BuildSettings) -> String? {
        guard let plist = try? PropertyList.load(path: path, what: "Info.plist"),
              let written = plist["CFBundleIdentifier"]?.stringFact(.infoPlist)?.value else { return nil }
        let expanded = written.contains("$") ? settings.expand(written) : written
        return !expanded.isEmpty && BuildSettings.isResolved(expanded) ? expanded : nil
    }

    /// How much a scheme looks like the one the app is run and shipped with.
    struct SchemeRank {
        package var name: String
        var isTest: Bool
        /// Builds for an iOS device or simulator (the platform most apps that sell on several ship first).
        var isIOS: Bool
        /// Named after its app target (`App`) or the project.
        var namedAfterTarget: Bool
        var namedAfterProject: Bool
        /// A development, staging or extension variant (`App Dev`, `App Widgets`).
        var isVariant: Bool
        var archives: Bool

        init(path: String, scheme: XcodeScheme, target: XcodeProject.Target, project: XcodeProject) {
            name = String(path.split(separator: "/").last!.dropLast(".xcscheme".count))
            let lower = name.lowercased()
            let words = lower.split { !$0.isLetter && !$0.isNumber }.map(String.init)
            isTest = lower.hasSuffix("tests") || lower.hasSuffix("test") || words.contains { Self.testWords.contains($0) }
            isVariant = words.contains { Self.variantWords.contains($0) } || Self.variantSuffixes.contains { lower.hasSuffix($0) }
            let sdk = project.settings(target: target, configuration: scheme.runConfiguration?.value ?? "Debug").sdk ?? ""
            isIOS = sdk.hasPrefix("iphone")
            namedAfterTarget = name == target.name
            namedAfterProject = name == project.name
            archives = scheme.archiveConfiguration != nil
        }

        static let testWords: Set<String> = ["tests", "uitests", "test", "snapshots", "screenshots"]
        static let variantWords: Set<String> = [
            "dev", "debug", "develop", "development", "staging", "stage", "qa", "beta", "alpha", "internal", "mock", "demo", "local",
            "enterprise", "nightly", "extension", "widget", "widgets", "intents", "notification", "share", "watch", "clip", "keyboard",
            "launcher", "helper",
        ]
        static let variantSuffixes = ["extension", "widget", "widgets", "helper", "launcher"]

        /// Lowest first: not a test scheme, iOS, named after the app target or the project, not a
        /// variant, archives, then the shortest name (`App` before `App Release`).
        var key: [String] {
            func flag(_ condition: Bool) -> String { condition ? "0" : "1" }
            return [flag(!isTest), flag(isIOS), flag(namedAfterTarget || namedAfterProject), flag(!isVariant), flag(archives),
                    String(format: "%06d", name.count), name]
        }

        /// Why this scheme comes first, in words.
        var reason: String {
            var reasons: [String] = []
            if namedAfterTarget || namedAfterProject { reasons.append(namedAfterTarget ? "is named after the app target" : "is named after the project") }
            if !isTest && !isVariant { reasons.append("is not a test, development, staging or extension scheme") }
            if archives { reasons.append("archives") }
            guard let last = reasons.popLast() else { return "has the shortest name" }
            return reasons.isEmpty ? last : reasons.joined(separator: ", ") + " and " + last
        }
    }

    mutating func collectFiles(_ files: [String], directory: String? = nil) {
        let storeKitFiles = files.filter { $0.hasSuffix(".storekit") }
        if let chosen = storeKit {
            otherStoreKitFiles = storeKitFiles.filter { Paths.normalize($0) != Paths.normalize(chosen.value) }
        } else if storeKitFiles.count == 1, scheme == nil, let only = storeKitFiles.first {
            // No scheme to ask: the folder's only .storekit file is the one there is.
            storeKit = Choice(value: only, reason: "the only .storekit file; no shared scheme runs it, so check reads it as a catalog (a personal scheme may run it: then set `environment: xcode`)")
        } else {
            otherStoreKitFiles = storeKitFiles
        }
        let profiles = files.filter { $0.hasSuffix(".mobileprovision") || $0.hasSuffix(".provisionprofile") }
        if profiles.count == 1, let only = profiles.first {
            profile = Choice(value: only, reason: "the only provisioning profile in the folder")
        } else if profiles.count > 1, let directory, profileSpecifier != nil || profileUUID != nil,
            let named = InstalledProfiles.find(in: profiles.map { directory + "/" + $0 }, uuid: profileUUID, name: profileSpecifier, namedByUUID: false, confined: false)
        {
            let value = Self.relative(named.file, to: directory)
            profile = Choice(
                value: value,
                reason: profileUUID != nil ? "the profile `PROVISIONING_PROFILE` names" : "the profile `PROVISIONING_PROFILE_SPECIFIER` names",
                alternatives: profiles.filter { Paths.normalize($0) != Paths.normalize(value) })
        } else {
            profileCandidates = profiles
        }
        let lists = files.filter { path in
            guard !Self.isTestPath(path) else { return false }
            let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
            return (name.hasSuffix(".plist") || name.hasSuffix(".json"))
                && (name.contains("product_id") || name.contains("productid") || name.contains("product-id")
                    || name.hasPrefix("products.") || name.hasPrefix("productids") || name == "iapproductcatalog.json")
        }
        // A list no source file names (`forResource: "ProductIds"`, `require('./products.json')`)
        // is shipped, not read: its IDs are not requests. Unity IAP reads its catalog itself.
        let readByLibrary = lists.filter { $0.lowercased().hasSuffix("iapproductcatalog.json") }
        let named = Self.namedLists(lists.filter { !readByLibrary.contains($0) }, in: files.filter { Self.isSourceFile($0) && !Self.isTestPath($0) }, directory: directory)
            .union(readByLibrary)
        productIDLists = lists.filter { named.contains($0) }
        unnamedProductIDLists = lists.filter { !named.contains($0) }
        // Sources: the top-level folders that hold source files (tests excluded),
        // and the source files at the top itself (an app whose constants sit beside its folders).
        var folders: [String] = []
        var topFiles: [String] = []
        for path in files where Self.isSourceFile(path) && !Self.isTestPath(path) {
            guard path.contains("/") else {
                // At the top of a JavaScript app, its code (`App.tsx`, `purchase.js`), not its
                // tools' configuration (`metro.config.js`, `.eslintrc.js`, `gulpfile.js`).
                if Self.isScript(path), Self.isToolScript(path) { continue }
                topFiles.append(path)
                continue
            }
            guard !path.hasSuffix(".h") else { continue }
            let folder = String(path.split(separator: "/").first!)
            if !folders.contains(folder) { folders.append(folder) }
        }
        sources = folders + topFiles.sorted()
        // A monorepo's sibling packages the app depends on hold code its requests may import.
        if let directory { sources += WorkspacePackages.sources(directory: directory) }
    }

    /// Whether a `project.yaml` is an iapdoctor descriptor (one `init` wrote), not an XcodeGen
    /// spec: its first lines say so. Looked at without taking it as an input, so `init --force`
    /// may replace it.
    static func isDescriptor(_ path: String) -> Bool {
        // Only a regular file: a pipe would block.
        guard (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeRegular,
              let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
        return head.contains("# iapdoctor project descriptor") || head.contains(StarterDescriptor.schemaURL)
    }

    /// Swift, Objective-C, Dart, JavaScript, TypeScript and C# sources (not type declarations).
    /// The lists among `lists` whose name (without its extension) some source file writes next
    /// to a quote or a `/`: all of them when there are no sources (or no folder) to ask. Reads at most 4,000
    /// files of up to 1 MiB, and stops once every list is named.
    static func namedLists(_ lists: [String], in sources: [String], directory: String?) -> Set<String> {
        guard !lists.isEmpty, !sources.isEmpty, let directory else { return Set(lists) }
        var pending: [(list: String, stem: [UInt8])] = lists.map { list in
            let name = list.split(separator: "/").last.map(String.init) ?? list
            return (list, Array((name.split(separator: ".").first.map(String.init) ?? name).utf8))
        }
        var named: Set<String> = []
        let marks: Set<UInt8> = [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: "/")]
        let ends: Set<UInt8> = [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: ".")]
        for source in sources.prefix(4000) where !pending.isEmpty {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + source, maxBytes: 1 << 20) else { continue }
            pending.removeAll { candidate in
                guard bytes.count > candidate.stem.count + 1 else { return false }
                var k = 1
                while k + candidate.stem.count < bytes.count {
                    if marks.contains(bytes[k - 1]), ends.contains(bytes[k + candidate.stem.count]),
                       bytes[k..<(k + candidate.stem.count)].elementsEqual(candidate.stem) {
                        named.insert(candidate.list)
                        return true
                    }
                    k += 1
                }
                return false
            }
        }
        return named
    }

    static func isSourceFile(_ path: String) -> Bool {
        [".swift", ".m", ".mm", ".h", ".dart", ".cs"].contains(where: { path.hasSuffix($0) }) || (isScript(path) && !path.hasSuffix(".d.ts"))
    }

    /// A script at an app's top that configures its tools rather than being its code.
    static func isToolScript(_ name: String) -> Bool {
        let lowered = name.lowercased()
        let tools = ["gulpfile", "gruntfile", "jest", "karma", "protractor", "webpack", "rollup", "vite", "babel", "metro", "tailwind", "postcss", "eslint", "prettier", "commitlint", "lint-staged", "app.config", "app.plugin", "react-native.config", "capacitor.config", "ionic.config", "stencil.config", "angular", "tsconfig", "playwright", "cypress", "detox", "wdio", "svelte.config", "next.config", "nuxt.config", "remix.config", "astro.config", "eas", "expo-env", "global.d", "env.d", "sw", "service-worker"]
        return lowered.hasPrefix(".") || lowered.contains(".config.") || lowered.contains(".setup.") || lowered.contains(".test.") || lowered.contains(".spec.")
            || tools.contains { lowered.hasPrefix($0 + ".") }
    }

    static func isScript(_ path: String) -> Bool {
        [".js", ".jsx", ".ts", ".tsx", ".mjs", ".mts"].contains(where: { path.hasSuffix($0) })
    }

    /// Profiles when there are several (the descriptor lists them as a question).
    public var profileCandidates: [String] = []

    /// `path` relative to `directory` (both as given: relative to the current folder, or absolute).
    static func relative(_ path: String, to directory: String) -> String {
        Paths.relativePath(Paths.normalize(path), from: Paths.normalize(directory))
    }
}

/// The files of a folder tree, sorted, bounded; `.xcodeproj` and `.xcworkspace` folders listed
/// apart and not entered (but for their shared schemes, which ``ProjectSurvey`` reads itself).
/// Breadth first, so the bound leaves out the deepest files, not the project's own; paths are
/// relative to the root.
struct FolderListing {
    var files: [String] = []
    var projects: [String] = []
    var workspaces: [String] = []
    static let maxEntries = 50_000

    init(root: String) {
        var walker = FolderWalker(order: .breadthFirst, maxEntries: Self.maxEntries)
        // Unreadable folders and broken links are left out quietly: `init` drafts from what it finds.
        walker.walk(folder: root, problem: { _ in }) { entry in
            guard entry.kind == .folder else {
                files.append(entry.relativePath)
                return false
            }
            if entry.name.hasSuffix(".xcodeproj") {
                projects.append(entry.relativePath)
                return false
            }
            if entry.name.hasSuffix(".xcworkspace") {
                workspaces.append(entry.relativePath)
                return false
            }
            // The shared skip list; besides it, hidden folders (editor and tool state) and links to
            // folders (which may lead out of the project or back into it) are not entered.
            return !(FolderWalker.skippedFolderNames.contains(entry.name.lowercased()) || entry.name.hasPrefix(".") || entry.isLink)
        }
    }
}
