import Foundation
import IAPDoctor
import Testing
import TestSupport

/// Build settings read the way Xcode reads them on the shapes the long tail of real projects has:
/// generated files that are never committed, settings nothing defines, conditional keys.
@Suite("Project settings as Xcode reads them", .timeLimit(.minutes(1)))
struct ProjectSettingsTests {
    static let appInfoPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string></dict></plist>
        """

    /// A CocoaPods app: the target's base configuration is the Pods file `pod install` writes,
    /// which is not committed; the bundle ID and team are in the pbxproj.
    static func podsApp() -> ProjectFixture {
        let fixture = ProjectFixture(projectName: "Lantern")
        let app = ["PRODUCT_BUNDLE_IDENTIFIER": "com.lanternworks.lantern", "DEVELOPMENT_TEAM": "QX7P2M9K4L", "INFOPLIST_FILE": "Lantern/Info.plist"]
        fixture.projectSettings = ["Debug": ["SDKROOT": "iphoneos"], "Release": ["SDKROOT": "iphoneos"]]
        fixture.targets = [.init(
            name: "Lantern", settings: ["Debug": app, "Release": app],
            baseConfiguration: ["Debug": "Pods/Target Support Files/Pods-Lantern/Pods-Lantern.debug.xcconfig",
                                "Release": "Pods/Target Support Files/Pods-Lantern/Pods-Lantern.release.xcconfig"])]
        fixture.writeProject()
        fixture.write("Lantern/Info.plist", appInfoPlist)
        fixture.write("Podfile", "platform :ios, '15.0'\ntarget 'Lantern' do\n  pod 'Lottie'\nend\n")
        return fixture
    }

    /// A Flutter app: `Flutter/Release.xcconfig` includes `Generated.xcconfig`, which
    /// `flutter pub get` writes.
    static func flutterApp(bundleID: String = "com.lanternworks.lantern") -> ProjectFixture {
        let fixture = ProjectFixture(projectName: "Runner")
        fixture.write("Flutter/Release.xcconfig", "#include? \"Pods/Target Support Files/Pods-Runner/Pods-Runner.release.xcconfig\"\n#include \"Generated.xcconfig\"\n")
        fixture.write("Flutter/Debug.xcconfig", "#include \"Generated.xcconfig\"\n")
        let app = ["PRODUCT_BUNDLE_IDENTIFIER": bundleID, "DEVELOPMENT_TEAM": "QX7P2M9K4L", "INFOPLIST_FILE": "Runner/Info.plist",
                   "CURRENT_PROJECT_VERSION": "$(FLUTTER_BUILD_NUMBER)"]
        fixture.projectSettings = ["Debug": ["SDKROOT": "iphoneos"], "Release": ["SDKROOT": "iphoneos"]]
        fixture.targets = [.init(
            name: "Runner", settings: ["Debug": app, "Release": app],
            baseConfiguration: ["Debug": "Flutter/Debug.xcconfig", "Release": "Flutter/Release.xcconfig"])]
        fixture.writeProject()
        fixture.write("Runner/Info.plist", appInfoPlist)
        return fixture
    }

    static func settings(_ fixture: ProjectFixture, _ target: String, _ configuration: String = "Release") throws -> BuildSettings {
        let project = try XcodeProject.load(path: fixture.folder + "/\(fixture.projectName).xcodeproj")
        return project.settings(target: try #require(project.target(named: target)), configuration: configuration)
    }

    @Test func generatedPodsFilesDoNotHideTheIdentity() throws {
        let fixture = Self.podsApp()
        let settings = try Self.settings(fixture, "Lantern")
        #expect(settings.value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.lanternworks.lantern")
        #expect(settings.value("DEVELOPMENT_TEAM")?.value == "QX7P2M9K4L")
        #expect(settings.missingFiles.isEmpty)
        #expect(settings.absentGeneratedFiles.map(\.generator.tool) == ["CocoaPods"])
        // What the Pods file does define stays unknown.
        #expect(settings.value("PODS_ROOT")?.value == "$(PODS_ROOT)")
        #expect(settings.expand("$(OTHER_LDFLAGS)") == "$(OTHER_LDFLAGS)")

        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture, ["--format", "json"])
        #expect(descriptor.contains("bundle_id: com.lanternworks.lantern"), "\(descriptor)")
        #expect(descriptor.contains("team_id: QX7P2M9K4L"), "\(descriptor)")
        #expect(descriptor.contains("# generated, not in the folder (they set no bundle ID or team; `pod install` writes them)"), "\(descriptor)")
        #expect(descriptor.contains("Pods-Lantern.release.xcconfig"), "\(descriptor)")
        #expect(!check.output.contains("not in the project (kept out of version control"), "\(check.output)")
        #expect(check.output.contains("generated files set no bundle ID, team or signing setting"), "one note says why: \(check.output)")
        #expect(check.output.contains("\"rule\": \"running-bundle-id-mismatch\",\n      \"severity\": \"note\""), "a note, not an error: \(check.output)")
    }

    @Test func flutterGeneratedXcconfigDoesNotHideTheIdentity() throws {
        let fixture = Self.flutterApp()
        let settings = try Self.settings(fixture, "Runner")
        #expect(settings.value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.lanternworks.lantern")
        #expect(settings.value("CURRENT_PROJECT_VERSION")?.value == "$(FLUTTER_BUILD_NUMBER)", "Flutter's own variables stay unknown")
        #expect(settings.absentGeneratedFiles.map(\.file).map { $0.hasSuffix("Flutter/Generated.xcconfig") } == [true])
        let (descriptor, _) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("bundle_id: com.lanternworks.lantern"), "\(descriptor)")
        #expect(descriptor.contains("`flutter pub get`"), "\(descriptor)")
        // After `pod install`: the include names `Pods/…` from `Flutter/`, and Xcode finds it in
        // the project's folder.
        fixture.write("Pods/Target Support Files/Pods-Runner/Pods-Runner.release.xcconfig", "PODS_ROOT = ${SRCROOT}/Pods\n")
        let installed = try Self.settings(fixture, "Runner")
        // `${SRCROOT}` is the project's folder as the base path settings resolve against.
        #expect(installed.value("PODS_ROOT")?.value == "./Pods")
    }

    /// A file that is not a known generated one still makes what it could define unknown.
    @Test func anUnknownMissingFileStillBlocks() throws {
        let fixture = Self.flutterApp(bundleID: "$(APP_ID)")
        fixture.write("Flutter/Release.xcconfig", "#include \"Generated.xcconfig\"\n#include \"Secrets.xcconfig\"\n")
        let settings = try Self.settings(fixture, "Runner")
        #expect(settings.value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "$(APP_ID)")
        #expect(settings.missingFiles.map { $0.hasSuffix("Flutter/Secrets.xcconfig") } == [true])
    }

    @Test func aSettingNothingDefinesIsEmpty() throws {
        let fixture = Self.podsApp()
        for configuration in ["Debug", "Release"] {
            fixture.targets[0].settings[configuration]!["PRODUCT_BUNDLE_IDENTIFIER"] = "com.lanternworks.lantern$(BUNDLE_SUFFIX)"
            fixture.targets[0].settings[configuration]!["DEVELOPMENT_TEAM"] = "$(TEAM_FOR_RELEASE)"
        }
        fixture.writeProject()
        let settings = try Self.settings(fixture, "Lantern")
        #expect(settings.value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.lanternworks.lantern")
        #expect(settings.undefinedReferences(of: "PRODUCT_BUNDLE_IDENTIFIER") == ["BUNDLE_SUFFIX"])
        #expect(settings.value("DEVELOPMENT_TEAM")?.value == "")
        // A setting Xcode provides is not empty, only unknown to iapdoctor.
        #expect(settings.expand("$(PLATFORM_NAME)") == "$(PLATFORM_NAME)")
        #expect(settings.expand("$(SUFFIX:default=.beta)") == ".beta")

        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("bundle_id: com.lanternworks.lantern   # `PRODUCT_BUNDLE_IDENTIFIER` of Release, the build that ships; `BUNDLE_SUFFIX` defined in no file: empty, as in Xcode"), "\(descriptor)")
        #expect(descriptor.contains("# team_id:   # 10-character Team ID (the project sets `DEVELOPMENT_TEAM` to nothing)"), "\(descriptor)")
        #expect(check.output.contains("`DEVELOPMENT_TEAM` uses `TEAM_FOR_RELEASE`, which no file of the project defines"), "\(check.output)")
    }

    /// `DEVELOPMENT_TEAM[sdk=iphoneos*]` is the only team setting; `[arch=*]` holds for every
    /// architecture.
    @Test func conditionalSettingsApplyToTheTargetsSDK() throws {
        let fixture = Self.podsApp()
        fixture.targets[0].settings["Release"]!["DEVELOPMENT_TEAM"] = nil
        fixture.targets[0].settings["Release"]!["DEVELOPMENT_TEAM[sdk=iphoneos*]"] = "QX7P2M9K4L"
        fixture.targets[0].settings["Release"]!["CODE_SIGN_STYLE[arch=*]"] = "Manual"
        fixture.targets[0].settings["Release"]!["PRODUCT_NAME[sdk=macosx*]"] = "LanternMac"
        fixture.writeProject()
        let settings = try Self.settings(fixture, "Lantern")
        #expect(settings.value("DEVELOPMENT_TEAM")?.value == "QX7P2M9K4L")
        #expect(settings.value("CODE_SIGN_STYLE")?.value == "Manual")
        #expect(settings.value("PRODUCT_NAME")?.value == "Lantern")
        let (descriptor, _) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("team_id: QX7P2M9K4L   # `DEVELOPMENT_TEAM[sdk=iphoneos*]` of Release"), "the condition is said: \(descriptor)")
    }

    /// Twelve shared schemes run the app: the one named after the app target is chosen, never a
    /// test scheme, however short the others' names.
    @Test func theSchemeNamedAfterTheAppWinsOverTestAndStagingSchemes() throws {
        let fixture = Self.podsApp()
        fixture.targets[0].name = "LanternApp"
        fixture.writeProject()
        let names = ["A", "Dev", "LanternApp UITests", "LanternAppTests", "Lantern Staging", "LanternApp-Debug", "Screenshots",
                     "LanternApp", "QA", "LanternApp (Beta)", "Snapshots", "UI"]
        for name in names { fixture.writeScheme(name, runs: "LanternApp") }
        let (descriptor, _) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("xcschemes/LanternApp.xcscheme   # of 12 shared schemes that run an app target, this one is named after the app target, is not a test, development, staging or extension scheme and archives"), "\(descriptor)")
        #expect(descriptor.contains("runs `LanternApp`"), "the others are alternatives: \(descriptor)")
    }

    /// The scheme is kept in the workspace that opens the project (`container:` reference), and
    /// its StoreKit reference is relative to the `.xcworkspace` bundle, as Xcode resolves it.
    @Test func workspaceSchemesAndWorkspaceRelativeStoreKitFiles() throws {
        let fixture = Self.podsApp()
        fixture.writeStoreKit("Lantern/Store.storekit", products: [("com.lanternworks.lantern.oil", "Consumable")])
        fixture.writeScheme("Lantern", runs: "Lantern", storeKit: "../Lantern/Store.storekit")
        let fromProject = fixture.folder + "/Lantern.xcodeproj/xcshareddata/xcschemes/Lantern.xcscheme"
        fixture.write("Lantern.xcworkspace/contents.xcworkspacedata", """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:Lantern.xcodeproj"></FileRef>
               <FileRef location = "group:Pods/Pods.xcodeproj"></FileRef>
            </Workspace>
            """)
        fixture.write("Lantern.xcworkspace/xcshareddata/xcschemes/Lantern.xcscheme", readText(fromProject))
        try FileManager.default.removeItem(atPath: fromProject)
        let scheme = try XcodeScheme.load(path: fixture.folder + "/Lantern.xcworkspace/xcshareddata/xcschemes/Lantern.xcscheme")
        #expect(Paths.normalize(scheme.resolve("../Lantern/Store.storekit")) == Paths.normalize(fixture.folder + "/Lantern/Store.storekit"))
        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("Lantern.xcworkspace/xcshareddata/xcschemes/Lantern.xcscheme"), "\(descriptor)")
        #expect(descriptor.contains("Lantern/Store.storekit   # the scheme `Lantern` runs it"), "\(descriptor)")
        #expect(!check.output.contains("which is not there"), "\(check.output)")

        // The same scheme kept in the project, with the reference Xcode writes when the project is
        // opened through the workspace: relative to the workspace bundle.
        fixture.writeScheme("Lantern", runs: "Lantern", storeKit: "../Lantern/Store.storekit")
        let inProject = try XcodeScheme.load(path: fromProject)
        #expect(FileSystem.exists(inProject.resolve("../Lantern/Store.storekit")))
    }

    /// macOS finds `Shared.release.xcconfig` as `Shared.Release.xcconfig`; so does iapdoctor, with
    /// a note that a case-sensitive file system does not.
    @Test func namesThatDifferOnlyInCaseAreFoundWithANote() throws {
        let fixture = Self.podsApp()
        fixture.write("Config/Shared.Release.xcconfig", "APP_ID = com.lanternworks.lantern\n")
        fixture.write("Config/App.xcconfig", "#include \"shared.release.xcconfig\"\n")
        fixture.projectBaseConfiguration = ["Debug": "Config/App.xcconfig", "Release": "config/app.xcconfig"]
        fixture.targets[0].settings["Release"]!["PRODUCT_BUNDLE_IDENTIFIER"] = "$(APP_ID)"
        fixture.targets[0].settings["Debug"]!["PRODUCT_BUNDLE_IDENTIFIER"] = "$(APP_ID)"
        fixture.writeProject()
        let settings = try Self.settings(fixture, "Lantern")
        #expect(settings.value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.lanternworks.lantern")
        #expect(settings.caseMismatches.map { ($0.written as NSString).lastPathComponent } == ["app.xcconfig", "shared.release.xcconfig"])
        fixture.write("project.yaml", """
            version: 1
            environment: sandbox
            app: { bundle_id: com.lanternworks.lantern, xcodeproj: Lantern.xcodeproj, configuration: Release }
            """)
        let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        #expect(check.output.contains("the names differ only in letter case, which a Mac ignores"), "\(check.output)")
        #expect(check.output.contains("Config/Shared.Release.xcconfig"), "\(check.output)")

        #expect(FileSystem.caseInsensitiveMatch(fixture.folder + "/config/shared.RELEASE.xcconfig") == fixture.folder + "/Config/Shared.Release.xcconfig")
        #expect(FileSystem.caseInsensitiveMatch(fixture.folder + "/Config/Shared.Release.xcconfig") == nil, "a path that is there needs no match")
        #expect(FileSystem.caseInsensitiveMatch(fixture.folder + "/Config/Other.xcconfig") == nil)
    }

    /// The profile the target names is committed in the repository (kept for CI): its facts are
    /// read, and whether it is installed is asked or, where Xcode's folders are, answered.
    @Test func aCommittedProfileIsFoundByTheSpecifier() throws {
        let fixture = Self.podsApp()
        for configuration in ["Debug", "Release"] {
            fixture.targets[0].settings[configuration]!["CODE_SIGN_STYLE"] = "Manual"
            fixture.targets[0].settings[configuration]!["PROVISIONING_PROFILE_SPECIFIER"] = "Lantern App Store"
        }
        fixture.writeProject()
        let profile = { (name: String) in """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>Name</key><string>\(name)</string>
            <key>UUID</key><string>7A1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0</string>
            <key>TeamIdentifier</key><array><string>QX7P2M9K4L</string></array>
            <key>CreationDate</key><date>2025-01-01T00:00:00Z</date>
            <key>ExpirationDate</key><date>2026-01-01T00:00:00Z</date>
            <key>Entitlements</key><dict><key>application-identifier</key><string>QX7P2M9K4L.com.lanternworks.lamp</string></dict>
            </dict></plist>
            """ }
        fixture.write("Configuration/Provisioning/Lantern_Development.mobileprovision", profile("Lantern Development"))
        fixture.write("Configuration/Provisioning/Lantern_AppStore.mobileprovision", profile("Lantern App Store"))
        fixture.write("project.yaml", """
            version: 1
            environment: sandbox
            checked_at: 2026-06-01T00:00:00Z
            app: { bundle_id: com.lanternworks.lantern, xcodeproj: Lantern.xcodeproj, configuration: Release }
            """)
        let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        // Its App ID is read (a renewal keeps it); its dates are not (a renewal changes them).
        #expect(check.output.contains("error[profile-app-id-mismatch]"), "\(check.output)")
        #expect(!check.output.contains("profile-expired]"), "the copy's expiry says nothing about the installed profile: \(check.output)")
        #expect(check.output.contains("A copy is committed at `\(fixture.folder)/Configuration/Provisioning/Lantern_AppStore.mobileprovision`"), "\(check.output)")

        let home = fixture.folder + "-home"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/Library/MobileDevice/Provisioning Profiles", withIntermediateDirectories: true)
        let onAMac = try runIAPDoctor(["check", fixture.folder + "/project.yaml"], environment: ["HOME": home])
        #expect(onAMac.output.contains("error[profile-not-installed]"), "\(onAMac.output)")
        #expect(onAMac.output.contains("double-click the committed copy"), "\(onAMac.output)")
        // `init` writes the one the target names.
        try FileManager.default.removeItem(atPath: fixture.folder + "/project.yaml")
        let (descriptor, _) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("#   file: ") && descriptor.contains("Configuration/Provisioning/Lantern_AppStore.mobileprovision   # the profile `PROVISIONING_PROFILE_SPECIFIER` names, committed"), "\(descriptor)")
        #expect(!descriptor.contains("\n    file: "), "a committed copy is not written as what signs: \(descriptor)")
    }

    /// No shared scheme and two app targets: which is the app stays a question, but the team
    /// both sign with is known either way.
    @Test func whatEveryCandidateTargetSharesIsWritten() throws {
        let fixture = Self.podsApp()
        let pro = ["PRODUCT_BUNDLE_IDENTIFIER": "com.lanternworks.lantern.pro", "DEVELOPMENT_TEAM": "QX7P2M9K4L"]
        fixture.targets.append(.init(name: "Lantern Pro", settings: ["Debug": pro, "Release": pro]))
        fixture.writeProject()
        let (descriptor, _) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("# target:   # which application target is the app?"), "\(descriptor)")
        #expect(descriptor.contains("team_id: QX7P2M9K4L   # `DEVELOPMENT_TEAM` of Release in all 2 application targets"), "\(descriptor)")
        #expect(descriptor.contains("platform: ios"), "\(descriptor)")
    }

    /// `Local.xcconfig` is git-ignored; the committed `Local.template.xcconfig` beside it shows
    /// what it sets: a hint in the question, never the answer.
    @Test func aTemplateOfAMissingIncludeIsQuotedAsAHint() throws {
        let fixture = Self.podsApp()
        fixture.write("Config/App.xcconfig", "#include \"Local.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = $(APP_ID_PREFIX).lantern\n")
        fixture.write("Config/Local.template.xcconfig", "// Copy to Local.xcconfig\nAPP_ID_PREFIX = com.example\nOTHER = 1\n")
        fixture.projectBaseConfiguration = ["Debug": "Config/App.xcconfig", "Release": "Config/App.xcconfig"]
        for configuration in ["Debug", "Release"] { fixture.targets[0].settings[configuration]!["PRODUCT_BUNDLE_IDENTIFIER"] = nil }
        fixture.writeProject()
        #expect(XCConfigFile.template(for: fixture.folder + "/Config/Local.xcconfig") == fixture.folder + "/Config/Local.template.xcconfig")
        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("# bundle_id:"), "the template is not the answer: \(descriptor)")
        #expect(descriptor.contains("`Config/Local.template.xcconfig`, a committed template of it, sets `APP_ID_PREFIX = com.example`"), "\(descriptor)")
        #expect(!descriptor.contains("OTHER"), "\(descriptor)")
        #expect(check.output.contains("a committed template of it, sets `APP_ID_PREFIX = com.example` (a hint, not what this build uses"), "\(check.output)")
        #expect(!check.output.contains("com.example.lantern"), "\(check.output)")
    }

    /// A widget's scheme runs the widget (`RemoteRunnable`) in a host; its `MacroExpansion` names
    /// the app only to expand variables: it is no scheme that runs the app.
    @Test func anExtensionsSchemeDoesNotRunTheApp() throws {
        let fixture = Self.podsApp()
        fixture.targets.append(.init(name: "LanternWidgets", productType: "com.apple.product-type.app-extension",
                                     settings: ["Debug": [:], "Release": [:]]))
        fixture.writeProject()
        fixture.writeScheme("Lantern", runs: "Lantern")
        fixture.write("Lantern.xcodeproj/xcshareddata/xcschemes/LanternWidgets.xcscheme", """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme LastUpgradeVersion = "1600" version = "1.7">
               <LaunchAction buildConfiguration = "Debug" askForAppToLaunch = "Yes">
                  <RemoteRunnable runnableDebuggingMode = "2" BundleIdentifier = "com.apple.springboard">
                     <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "\(fixture.targetID("LanternWidgets"))"
                        BuildableName = "LanternWidgets.appex" BlueprintName = "LanternWidgets" ReferencedContainer = "container:Lantern.xcodeproj">
                     </BuildableReference>
                  </RemoteRunnable>
                  <MacroExpansion>
                     <BuildableReference BuildableIdentifier = "primary" BlueprintIdentifier = "\(fixture.targetID("Lantern"))"
                        BuildableName = "Lantern.app" BlueprintName = "Lantern" ReferencedContainer = "container:Lantern.xcodeproj">
                     </BuildableReference>
                  </MacroExpansion>
               </LaunchAction>
            </Scheme>
            """)
        let scheme = try XcodeScheme.load(path: fixture.folder + "/Lantern.xcodeproj/xcshareddata/xcschemes/LanternWidgets.xcscheme")
        #expect(scheme.runTarget?.name == "LanternWidgets")
        let (descriptor, _) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("xcschemes/Lantern.xcscheme"), "\(descriptor)")
        #expect(!descriptor.contains("LanternWidgets.xcscheme"), "\(descriptor)")
    }
}
