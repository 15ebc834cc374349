import Foundation
import IAPDoctor
import Testing

/// Projects generated from a manifest the repository commits instead of the `.xcodeproj`:
/// XcodeGen's `project.yml` and Tuist's `Project.swift`, read as the generated project would be.
@Suite("Generated projects: XcodeGen and Tuist", .timeLimit(.minutes(1)))
struct GeneratedProjectTests {
    /// An XcodeGen app: the target in an included spec with its own `configFiles` (relative to
    /// that spec), a template, settings per configuration, and a widget named by `bundleIdPrefix`.
    static func xcodeGenApp() -> ProjectFixture {
        let fixture = ProjectFixture(projectName: "Kettle")
        fixture.write("project.yml", """
            name: Kettle
            options:
              bundleIdPrefix: com.kettleworks
              deploymentTarget: { iOS: "16.0" }
            configs: { Debug: debug, Release: release }
            settingGroups:
              signing: { CODE_SIGN_STYLE: Automatic }
            settings:
              base: { DEVELOPMENT_TEAM: R4K7Q2M8WX }
            targetTemplates:
              App:
                type: application
                platform: iOS
                settings:
                  groups: [signing]
                  configs:
                    debug: { PRODUCT_BUNDLE_IDENTIFIER: "com.kettleworks.${target_name}.dev" }
            include:
              - path: App/target.yml
            targets:
              Kettle_Widgets:
                type: app-extension
                platform: iOS

            """)
        fixture.write("App/target.yml", """
            targets:
              Kettle:
                templates: [App]
                configFiles:
                  Release: Release.xcconfig
                info: { path: Info.plist }
                entitlements: { path: Kettle.entitlements }

            """)
        fixture.write("App/Release.xcconfig", "PRODUCT_BUNDLE_IDENTIFIER = com.kettleworks.kettle\n")
        fixture.write("App/Info.plist", ProjectSettingsTests.appInfoPlist)
        fixture.write("App/Kettle.entitlements", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict/></plist>\n")
        fixture.write("App/Store.swift", "import StoreKit\nfunc load() async throws { _ = try await Product.products(for: [\"com.kettleworks.kettle.leaves\"]) }\n")
        return fixture
    }

    @Test func anXcodeGenSpecIsReadAsTheProjectItGenerates() throws {
        let fixture = Self.xcodeGenApp()
        let project = try XcodeProject.load(path: fixture.folder + "/project.yml")
        #expect(project.generator == "XcodeGen")
        #expect(project.targets.map(\.name) == ["Kettle", "Kettle_Widgets"])
        let app = try #require(project.target(named: "Kettle"))
        #expect(app.isApplication)
        let release = project.settings(target: app, configuration: "Release")
        #expect(release.value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.kettleworks.kettle")
        #expect(release.value("PRODUCT_BUNDLE_IDENTIFIER")?.location.file.hasSuffix("App/Release.xcconfig") == true)
        #expect(release.value("DEVELOPMENT_TEAM")?.value == "R4K7Q2M8WX")
        #expect(release.value("CODE_SIGN_STYLE")?.value == "Automatic")
        #expect(release.value("INFOPLIST_FILE")?.value == "App/Info.plist")
        #expect(release.value("IPHONEOS_DEPLOYMENT_TARGET")?.value == "16.0")
        #expect(release.sdk == "iphoneos")
        #expect(project.settings(target: app, configuration: "Debug").value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.kettleworks.Kettle.dev")
        let widgets = try #require(project.target(named: "Kettle_Widgets"))
        #expect(project.settings(target: widgets, configuration: "Release").value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.kettleworks.Kettle-Widgets")

        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture, ["--format", "json"])
        #expect(descriptor.contains("/project.yml   # the XcodeGen spec: the project is generated from it"), "\(descriptor)")
        // The app's name is the spec's `name`, not the manifest's file name cut short.
        #expect(descriptor.contains("  name: Kettle\n"), "\(descriptor)")
        #expect(descriptor.contains("bundle_id: com.kettleworks.kettle"), "\(descriptor)")
        #expect(descriptor.contains("team_id: R4K7Q2M8WX"), "\(descriptor)")
        #expect(descriptor.contains("info_plist: "), "\(descriptor)")
        #expect(check.output.contains("read from the XcodeGen manifest"), "\(check.output)")
        #expect(check.output.contains("\"product_id\": \"com.kettleworks.kettle.leaves\""), "\(check.output)")
    }

    /// A committed `.xcodeproj` is what Xcode opens: the spec beside it is not read.
    @Test func aCommittedProjectWinsOverTheSpec() throws {
        let fixture = Self.xcodeGenApp()
        fixture.projectSettings = ["Debug": ["SDKROOT": "iphoneos"], "Release": ["SDKROOT": "iphoneos"]]
        let app = ["PRODUCT_BUNDLE_IDENTIFIER": "com.kettleworks.committed", "DEVELOPMENT_TEAM": "R4K7Q2M8WX"]
        fixture.targets = [.init(name: "Kettle", settings: ["Debug": app, "Release": app])]
        fixture.writeProject()
        let (descriptor, _) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("bundle_id: com.kettleworks.committed"), "\(descriptor)")
        #expect(descriptor.contains("Kettle.xcodeproj"), "\(descriptor)")
    }

    /// A Tuist app: the bundle ID built from a helper's constants, settings from a static
    /// dictionary merged with another, a conditional team, and an `.xcconfig` named from the root.
    static func tuistApp() -> ProjectFixture {
        let fixture = ProjectFixture(projectName: "Kettle")
        fixture.write("Tuist.swift", "import ProjectDescription\nlet tuist = Tuist()\n")
        fixture.write("Tuist/ProjectDescriptionHelpers/Identity.swift", """
            import ProjectDescription

            public enum Identity {
                public static let organization = "kettleworks"
                public static let prefix = "com.\\(organization)"
                public static func bundleID(_ name: String) -> String {
                    "\\(prefix).\\(name)"
                }
            }

            """)
        fixture.write("Configurations/Shared.xcconfig", "DEVELOPMENT_TEAM = R4K7Q2M8WX\n")
        fixture.write("Projects/App/Project.swift", """
            import ProjectDescription
            import ProjectDescriptionHelpers

            enum AppSettings {
                static let base: SettingsDictionary = ["CODE_SIGN_STYLE": "Automatic", "SWIFT_VERSION": "6.0"]
                static let release: SettingsDictionary = base.merging(["DEVELOPMENT_TEAM[sdk=iphoneos*]": "R4K7Q2M8WX"]) { _, new in new }
            }

            let project = Project(
                name: "Kettle",
                settings: .settings(configurations: [
                    .debug(name: .debug, xcconfig: .relativeToRoot("Configurations/Shared.xcconfig")),
                    .release(name: .release, xcconfig: .relativeToRoot("Configurations/Shared.xcconfig")),
                ]),
                targets: [
                    .target(
                        name: "Kettle",
                        destinations: [.iPhone, .iPad],
                        product: .app,
                        bundleId: Identity.bundleID("kettle"),
                        deploymentTargets: .iOS("17.0"),
                        infoPlist: .file(path: "Resources/Info.plist"),
                        sources: ["Sources/**"],
                        entitlements: "Resources/Kettle.entitlements",
                        settings: .settings(base: AppSettings.base, configurations: [.release(name: .release, settings: AppSettings.release)])
                    ),
                    .target(name: "KettleTests", destinations: .iOS, product: .unitTests, bundleId: "\\(Identity.prefix).kettle.tests"),
                ]
            )

            """)
        fixture.write("Projects/App/Resources/Info.plist", ProjectSettingsTests.appInfoPlist)
        fixture.write("Projects/App/Sources/Store.swift", "import StoreKit\nfunc load() async throws { _ = try await Product.products(for: [\"com.kettleworks.kettle.leaves\"]) }\n")
        return fixture
    }

    @Test func aTuistManifestIsReadAsTheProjectItGenerates() throws {
        let fixture = Self.tuistApp()
        let project = try XcodeProject.load(path: fixture.folder + "/Projects/App/Project.swift")
        #expect(project.generator == "Tuist")
        #expect(project.name == "Kettle")
        #expect(project.targets.map(\.name) == ["Kettle", "KettleTests"])
        let app = try #require(project.target(named: "Kettle"))
        #expect(app.isApplication)
        let release = project.settings(target: app, configuration: "Release")
        let bundle = try #require(release.value("PRODUCT_BUNDLE_IDENTIFIER"))
        #expect(bundle.value == "com.kettleworks.kettle")
        #expect(bundle.location.file.hasSuffix("Projects/App/Project.swift") && bundle.location.line == 20, "the call that builds it")
        #expect(release.value("DEVELOPMENT_TEAM")?.value == "R4K7Q2M8WX")
        #expect(release.value("CODE_SIGN_STYLE")?.value == "Automatic")
        #expect(release.value("INFOPLIST_FILE")?.value == "Resources/Info.plist")
        #expect(release.value("CODE_SIGN_ENTITLEMENTS")?.value == "Resources/Kettle.entitlements")
        #expect(release.value("IPHONEOS_DEPLOYMENT_TARGET")?.value == "17.0")
        #expect(release.sdk == "iphoneos")
        let tests = try #require(project.target(named: "KettleTests"))
        #expect(project.settings(target: tests, configuration: "Debug").value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.kettleworks.kettle.tests")

        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture, ["--format", "json"])
        #expect(descriptor.contains("/Projects/App/Project.swift   # the Tuist manifest: the project is generated from it"), "\(descriptor)")
        #expect(descriptor.contains("  name: Kettle\n"), "\(descriptor)")
        #expect(descriptor.contains("bundle_id: com.kettleworks.kettle   #"), "\(descriptor)")
        #expect(descriptor.contains("team_id: R4K7Q2M8WX"), "\(descriptor)")
        #expect(descriptor.contains("Tuist writes the schemes with the project"), "\(descriptor)")
        #expect(check.output.contains("read from the Tuist manifest"), "\(check.output)")
    }

    /// What the manifest computes in ways the reader does not follow stays unknown.
    @Test func aBundleIDTheManifestComputesAtGenerationIsUnknown() throws {
        let fixture = Self.tuistApp()
        fixture.write("Projects/App/Project.swift", """
            import ProjectDescription
            import Foundation
            let suffix = ProcessInfo.processInfo.environment["BUNDLE_SUFFIX"] ?? ""
            let project = Project(name: "Kettle", targets: [
                .target(name: "Kettle", destinations: .iOS, product: .app, bundleId: "com.kettleworks.kettle" + suffix)
            ])

            """)
        let project = try XcodeProject.load(path: fixture.folder + "/Projects/App/Project.swift")
        let app = try #require(project.target(named: "Kettle"))
        #expect(project.settings(target: app, configuration: "Release").value("PRODUCT_BUNDLE_IDENTIFIER") == nil)
    }

    /// Tuist writes the schemes the manifest declares: the one that runs the app says which of two
    /// app targets is the app, and which StoreKit file a run from Xcode serves.
    @Test func aTuistSchemeGivesTheTargetAndTheStoreKitFile() throws {
        let fixture = Self.tuistApp()
        fixture.write("Projects/App/Project.swift", """
            import ProjectDescription
            enum App { static let target = Target.target(name: "Kettle", destinations: .iOS, product: .app, bundleId: "com.kettleworks.kettle") }
            let project = Project(name: "Kettle", targets: [
                App.target,
                .target(name: "KettleMac", destinations: .macOS, product: .app, bundleId: "com.kettleworks.kettle.mac"),
            ], schemes: [
                .scheme(
                    name: "Kettle",
                    buildAction: .buildAction(targets: [.target(App.target.name)]),
                    runAction: .runAction(options: .options(storeKitConfigurationPath: "Store/Kettle.storekit"))
                ),
            ])

            """)
        fixture.writeStoreKit("Projects/App/Store/Kettle.storekit", products: [("com.kettleworks.kettle.tea", "Consumable")])
        let project = try XcodeProject.load(path: fixture.folder + "/Projects/App/Project.swift")
        #expect(project.manifestSchemes.map(\.name) == ["Kettle"])
        #expect(project.manifestSchemes.first?.runs == "Kettle")
        let (descriptor, _) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("target: Kettle   # the manifest's scheme `Kettle` runs it"), "\(descriptor)")
        #expect(descriptor.contains("Kettle.storekit   # the manifest's scheme `Kettle` runs it (`storeKitConfigurationPath`)"), "\(descriptor)")
        #expect(descriptor.contains("environment: xcode"), "\(descriptor)")
    }

    /// Manifests written to make a reader loop, recurse or blow up: refused or cut short, quickly
    /// enough for a test, with no crash.
    @Test func hostileManifestsEndWithoutACrash() throws {
        let fixture = ProjectFixture(projectName: "Kettle")
        // 100,000 nested brackets, and helpers that call the next one twice, 40 deep.
        let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        var helpers = "enum H {\n    static func f0(_ x: String) -> String { x }\n"
        for level in 1...40 { helpers += "    static func f\(level)(_ x: String) -> String { H.f\(level - 1)(x) + H.f\(level - 1)(x) }\n" }
        helpers += "}\n"
        fixture.write("Tuist.swift", "")
        fixture.write("Tuist/ProjectDescriptionHelpers/H.swift", helpers)
        fixture.write("Project.swift", """
            import ProjectDescription
            let project = Project(name: "Kettle", packages: \(nested), targets: [
                .target(name: "Kettle", destinations: .iOS, product: .app, bundleId: H.f40("a"))
            ])

            """)
        #expect(throws: InputProblem.self, "too deep to read: the manifest is refused") { try XcodeProject.load(path: fixture.folder + "/Project.swift") }
        fixture.write("Project.swift", """
            import ProjectDescription
            let project = Project(name: "Kettle", targets: [
                .target(name: "Kettle", destinations: .iOS, product: .app, bundleId: H.f40("a"))
            ])

            """)
        let project = try XcodeProject.load(path: fixture.folder + "/Project.swift")
        let app = try #require(project.target(named: "Kettle"))
        #expect(project.settings(target: app, configuration: "Release").value("PRODUCT_BUNDLE_IDENTIFIER") == nil, "past the budget: unknown")

        // An XcodeGen spec that includes itself and a chain of includes deeper than the limit.
        fixture.write("project.yml", "name: Loop\ninclude: [project.yml, a0.yml]\ntargets: { App: { type: application, platform: iOS } }\n")
        for level in 0..<100 { fixture.write("a\(level).yml", "include: [a\(level + 1).yml]\n") }
        let spec = try XcodeProject.load(path: fixture.folder + "/project.yml")
        #expect(spec.targets.map(\.name) == ["App"])
    }
}

extension GeneratedProjectTests {
    /// The files a generated project was read from are the run's parsed files (its lines may be
    /// quoted under findings), also a spec whose YAML is malformed; a file never read is not.
    @Test func theFilesAGeneratedProjectWasReadFromAreQuotable() throws {
        let fixture = ProjectFixture()
        fixture.write("Config/Base.xcconfig", "PRODUCT_BUNDLE_IDENTIFIER = com.acme.kettle\n")
        fixture.write("extra.yml", "options: { bundleIdPrefix: com.acme }\n")
        fixture.write("project.yml", "name: Kettle\ninclude: [extra.yml]\ntargets:\n  Kettle:\n    type: application\n    platform: iOS\n    configFiles: { Release: Config/Base.xcconfig }\n")
        fixture.write("project.yaml", "version: 1\napp: { xcodeproj: project.yml }\n")
        let loaded = DescriptorLoader.load(path: fixture.folder + "/project.yaml")
        var project = loaded.project
        _ = EvidenceLoader.load(into: &project)
        for file in ["project.yml", "extra.yml", "Config/Base.xcconfig"] {
            #expect(project.parsedFiles.contains(fixture.folder + "/" + file), "\(file)")
        }
        #expect(!project.parsedFiles.contains(fixture.folder + "/project.yaml"), "the descriptor is Doctor's to record")

        fixture.write("project.yml", "name: Kettle\ntargets: [unclosed\n")
        var broken = DescriptorLoader.load(path: fixture.folder + "/project.yaml").project
        let problems = EvidenceLoader.load(into: &broken)
        #expect(problems.first?.message.hasPrefix("the XcodeGen spec cannot be read") == true, "\(problems.map(\.message))")
        #expect(broken.parsedFiles.contains(fixture.folder + "/project.yml"))
    }
}

