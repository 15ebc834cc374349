import Foundation
import IAPDoctor
import Testing
import TestSupport

/// `init` then `check` on the shapes real apps have, each as a small fixture of our own: several
/// app targets, build settings in `.xcconfig` files, schemes with and without StoreKit files.
@Suite("Real project shapes", .timeLimit(.minutes(1)))
struct ProjectShapeTests {
    /// An iOS app with a watch app and a widget; bundle IDs and team come from an `.xcconfig`
    /// chain (`#include`, a setting that names itself at the target level).
    static func birdhouse(includeSecrets: Bool = true) -> ProjectFixture {
        let fixture = ProjectFixture()
        fixture.write("Config/Base.xcconfig", """
            // The shared settings.
            #include "Shared.xcconfig"
            #include? "Local.xcconfig"
            APP_NAME = Birdhouse
            """)
        if includeSecrets {
            fixture.write("Config/Shared.xcconfig", "BUNDLE_PREFIX = com.birdhouseapps\nDEVELOPMENT_TEAM = AB12CD34EF;\n")
        }
        fixture.projectBaseConfiguration = ["Debug": "Config/Base.xcconfig", "Release": "Config/Base.xcconfig"]
        fixture.projectSettings = ["Debug": ["SDKROOT": "iphoneos"], "Release": ["SDKROOT": "iphoneos"]]
        let app = ["PRODUCT_BUNDLE_IDENTIFIER": "$(BUNDLE_PREFIX).$(APP_NAME:lower)", "DEVELOPMENT_TEAM": "$(DEVELOPMENT_TEAM)",
                   "INFOPLIST_FILE": "App/Info.plist", "IPHONEOS_DEPLOYMENT_TARGET": "16.0"]
        fixture.targets = [
            .init(name: "Birdhouse Widgets", productType: "com.apple.product-type.app-extension",
                  settings: ["Debug": ["PRODUCT_BUNDLE_IDENTIFIER": "$(BUNDLE_PREFIX).birdhouse.widgets"], "Release": [:]]),
            .init(name: "Birdhouse Watch", settings: [
                "Debug": ["SDKROOT": "watchos", "PRODUCT_BUNDLE_IDENTIFIER": "$(BUNDLE_PREFIX).birdhouse.watch"],
                "Release": ["SDKROOT": "watchos", "PRODUCT_BUNDLE_IDENTIFIER": "$(BUNDLE_PREFIX).birdhouse.watch"]]),
            .init(name: "Birdhouse", settings: ["Debug": app, "Release": app]),
        ]
        fixture.writeProject()
        fixture.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string></dict></plist>
            """)
        fixture.write("App/Store.swift", """
            import StoreKit
            let ids = ["com.birdhouseapps.birdhouse.seeds"]
            func load() async throws { _ = try await Product.products(for: ids) }
            """)
        return fixture
    }

    /// Runs `init` into a descriptor in another folder, then `check` from a third.
    static func initAndCheck(_ fixture: ProjectFixture, _ extra: [String] = []) throws -> (descriptor: String, check: (output: String, status: Int32, errors: String)) {
        let elsewhere = fixture.folder + "-descriptor"
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let written = try runIAPDoctor(["init", fixture.folder, "-o", elsewhere + "/project.yaml"])
        #expect(written.status == 0, "\(written.output)")
        let descriptor = readText(elsewhere + "/project.yaml")
        // The descriptor is outside the project and outside any checkout: it names the project's
        // folder (`project_root`), and `check` needs no `--root`.
        #expect(descriptor.contains("project_root: ../\((fixture.folder as NSString).lastPathComponent)"), "\(descriptor)")
        #expect(!written.output.contains("--root"), "\(written.output)")
        let check = try runIAPDoctor(["check", elsewhere + "/project.yaml"] + extra)
        return (descriptor, check)
    }

    @Test func xcconfigChainsGiveTheBundleIDAndTeam() throws {
        let fixture = Self.birdhouse()
        let (descriptor, check) = try Self.initAndCheck(fixture)
        #expect(descriptor.contains("bundle_id: com.birdhouseapps.birdhouse"))
        #expect(descriptor.contains("team_id: AB12CD34EF"))
        // The watch app and the widget are never taken for the app.
        #expect(!descriptor.contains("birdhouse.watch"))
        // Paths are relative to the descriptor, which is in another folder.
        #expect(descriptor.contains("xcodeproj: ../\((fixture.folder as NSString).lastPathComponent)/Birdhouse.xcodeproj"))
        #expect(check.status != 2, "\(check.output)")
        #expect(!check.output.contains("$("), "\(check.output)")
        #expect(!check.output.contains("`?`"))
    }

    /// The store code is in a remote package Xcode fetches: the note says so and names the
    /// packages, instead of passing silently.
    @Test func storeCodeInARemotePackageIsNamed() throws {
        let fixture = Self.birdhouse()
        fixture.remotePackages = ["https://github.com/acme/PurchaseKit.git", "https://github.com/acme/Charts"]
        fixture.writeProject()
        fixture.write("App/Store.swift", """
            import StoreKit
            func askForReview() { SKStoreReviewController.requestReview() }
            """)
        let project = try XcodeProject.load(path: fixture.folder + "/Birdhouse.xcodeproj")
        #expect(project.remotePackages.map(\.value) == ["https://github.com/acme/PurchaseKit.git", "https://github.com/acme/Charts"])
        let (_, check) = try Self.initAndCheck(fixture)
        // StoreKit imported for a review sells nothing: the app is one without In-App Purchase yet.
        #expect(check.output.contains("note[no-storekit-in-sources]: the scanned file imports StoreKit only to ask for App Store reviews, and no In-App Purchase library"), "\(check.output)")
        #expect(check.output.contains("2 remote Swift packages whose code is not in `app.sources`: PurchaseKit, Charts"), "\(check.output)")
        #expect(check.output.contains("Your project's files answer item 8: nothing in the project uses In-App Purchase yet (the scanned source file uses StoreKit only to ask for App Store reviews, imports no purchase library and requests no product;"), "\(check.output)")
        #expect(!check.output.contains("asc pull"), "no App Store Connect step for an app that sells nothing")
        // A purchase use without a request: the request may be in a package.
        fixture.write("App/Store.swift", """
            import StoreKit
            func observe(_ observer: SKPaymentTransactionObserver) { SKPaymentQueue.default().add(observer) }
            """)
        let (_, again) = try Self.initAndCheck(fixture)
        #expect(again.output.contains("note[no-storekit-in-sources]: the scanned code uses StoreKit, but no call in it requests a product"), "\(again.output)")
    }

    /// Source files at the top of the folder, beside the app's folders, are scanned too.
    @Test func topLevelSourceFilesAreScanned() throws {
        let fixture = Self.birdhouse()
        fixture.write("Constants.swift", "enum Shop { static let seeds = \"com.birdhouseapps.birdhouse.seeds\" }\n")
        fixture.write("App/Store.swift", """
            import StoreKit
            func load() async throws { _ = try await Product.products(for: [Shop.seeds]) }
            """)
        let (descriptor, check) = try Self.initAndCheck(fixture, ["--format", "json"])
        #expect(descriptor.contains("/Constants.swift]"), "\(descriptor)")
        #expect(check.output.contains("\"product_id\": \"com.birdhouseapps.birdhouse.seeds\""), "\(check.output)")
    }

    /// The code reads an ID prefix from a custom Info.plist key built from a build setting.
    @Test func infoPlistKeysExpandWithTheTargetsSettings() throws {
        let fixture = Self.birdhouse()
        fixture.write("App/Info.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            <key>ShopPrefix</key><string>$(PRODUCT_BUNDLE_IDENTIFIER).shop</string>
            </dict></plist>
            """)
        fixture.write("App/Store.swift", """
            import StoreKit
            let prefix = Bundle.main.object(forInfoDictionaryKey: "ShopPrefix") as! String
            func load() async throws { _ = try await Product.products(for: [prefix + ".seeds"]) }
            """)
        let (_, check) = try Self.initAndCheck(fixture, ["--format", "json"])
        #expect(check.output.contains("\"product_id\": \"com.birdhouseapps.birdhouse.shop.seeds\""), "\(check.output)")
        #expect(!check.output.contains("request-not-resolved"), "\(check.output)")
    }

    @Test func resolverLayersLikeXcode() throws {
        let fixture = Self.birdhouse()
        let project = try XcodeProject.load(path: fixture.folder + "/Birdhouse.xcodeproj")
        let app = try #require(project.target(named: "Birdhouse"))
        let settings = project.settings(target: app, configuration: "Debug")
        #expect(settings.value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.birdhouseapps.birdhouse")
        // `DEVELOPMENT_TEAM = $(DEVELOPMENT_TEAM)` at the target takes the xcconfig's value, and the
        // fact points at the line that set it (the trailing `;` dropped).
        let team = try #require(settings.value("DEVELOPMENT_TEAM"))
        #expect(team.value == "AB12CD34EF")
        #expect(team.location.file.hasSuffix("Config/Shared.xcconfig") && team.location.line == 2 && team.location.column == 20)
        #expect(settings.missingFiles.isEmpty, "an optional include that is absent is not missing")
        let watch = try #require(project.target(named: "Birdhouse Watch"))
        #expect(project.settings(target: watch, configuration: "Release").sdk == "watchos")
    }

    @Test func xcconfigParsing() {
        let file = XCConfigFile.parse(text: """
            // comment
            A = 1 // trailing comment
            B[sdk=iphoneos*] = two;
            URL = https:/$()/example.com
            not an assignment
            C=$(inherited) three
            """, file: "x.xcconfig")
        #expect(file.assignments.map(\.key) == ["A", "B[sdk=iphoneos*]", "URL", "C"])
        #expect(file.assignments.map(\.value.value) == ["1", "two", "https:/$()/example.com".components(separatedBy: "//")[0], "$(inherited) three"])
        #expect(file.assignments[1].name == "B")
        #expect(file.assignments[3].value.location.column == 3)
    }

    @Test func aMissingXcconfigMakesItsSettingsUnknown() throws {
        let fixture = Self.birdhouse(includeSecrets: false)
        let (descriptor, check) = try Self.initAndCheck(fixture)
        #expect(!descriptor.contains("\n  bundle_id:"), "the bundle ID cannot be known: \(descriptor)")
        #expect(descriptor.contains("# bundle_id:"))
        #expect(descriptor.contains("Shared.xcconfig"), "the question names the missing file")
        #expect(check.status != 2, "\(check.output)")
        #expect(check.output.contains("Shared.xcconfig"))
        #expect(!check.output.contains("$("), "no unresolved value is shown: \(check.output)")
        #expect(!descriptor.contains("$("), "no unresolved value is written: \(descriptor)")
    }

    /// A missing `.xcconfig` leaves what it could set unknown, but not the project's own folder:
    /// `$(SRCROOT)/App/Info.plist` is still found.
    @Test func aMissingXcconfigDoesNotHideTheProjectsFolder() throws {
        let fixture = Self.birdhouse(includeSecrets: false)
        for index in fixture.targets.indices where fixture.targets[index].name == "Birdhouse" {
            for configuration in ["Debug", "Release"] { fixture.targets[index].settings[configuration]?["INFOPLIST_FILE"] = "$(SRCROOT)/App/Info.plist" }
        }
        fixture.writeProject()
        let (descriptor, _) = try Self.initAndCheck(fixture)
        #expect(descriptor.contains("info_plist: ../\((fixture.folder as NSString).lastPathComponent)/App/Info.plist"), "\(descriptor)")
    }

    /// A target based on a missing (git-ignored) `.xcconfig` that could set `SDKROOT`: the
    /// platform is a question that names the file.
    @Test func aMissingTargetXcconfigIsNamedInThePlatformQuestion() throws {
        let fixture = Self.birdhouse()
        for index in fixture.targets.indices where fixture.targets[index].name == "Birdhouse" {
            fixture.targets[index].baseConfiguration = ["Debug": "Config/release.xcconfig", "Release": "Config/release.xcconfig"]
        }
        fixture.writeProject()
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.platform == nil)
        #expect(survey.platformQuestion == "`SDKROOT` may be set by `Config/release.xcconfig`, which is missing (a generated or git-ignored file?)", "\(survey.platformQuestion ?? "nil")")
    }

    /// A Tuist manifest whose targets come from helper functions: the bundle ID question says to
    /// generate the project and run `init` again.
    @Test func aTuistManifestMadeByHelpersSaysToGenerate() throws {
        let fixture = ProjectFixture()
        fixture.write("App/Project.swift", """
            import ProjectDescription
            import ProjectDescriptionHelpers
            let project = Project.app(name: "Coins", destinations: .iOS, additionalTargets: ["CoinsKit"])
            """)
        fixture.write("App/Tuist/ProjectDescriptionHelpers/Project+Templates.swift", "import ProjectDescription\nextension Project { }\n")
        fixture.write("App/Sources/Store.swift", "import StoreKit\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == nil)
        #expect(survey.unresolved[XcodeProject.SettingKey.productBundleIdentifier]
            == "`App/Project.swift` is a Tuist manifest whose app target iapdoctor could not read (targets made by helper functions are not run): run `tuist generate` in `App`, then `iapdoctor init` again to read the project it writes")
    }

    @Test func severalAppSchemesAreOfferedAsAlternatives() throws {
        let fixture = Self.birdhouse()
        fixture.targets.append(.init(name: "Birdhouse Mac", settings: [
            "Debug": ["SDKROOT": "macosx", "PRODUCT_BUNDLE_IDENTIFIER": "com.birdhouseapps.mac"],
            "Release": ["SDKROOT": "macosx", "PRODUCT_BUNDLE_IDENTIFIER": "com.birdhouseapps.mac"]]))
        fixture.writeProject()
        fixture.writeScheme("Birdhouse (macOS)", runs: "Birdhouse Mac")
        fixture.writeScheme("Birdhouse (iOS)", runs: "Birdhouse")
        let (descriptor, check) = try Self.initAndCheck(fixture)
        #expect(descriptor.contains("xcschemes/Birdhouse (iOS).xcscheme\""))
        #expect(descriptor.contains("#   scheme: \"../"), "the other scheme is written as a commented alternative: \(descriptor)")
        #expect(descriptor.contains("runs `Birdhouse Mac`"))
        #expect(check.status != 2, "\(check.output)")
    }

    @Test func withoutASchemeSeveralAppTargetsAreAQuestion() throws {
        let fixture = Self.birdhouse()
        fixture.targets.append(.init(name: "Birdhouse Mac", settings: [
            "Debug": ["SDKROOT": "macosx", "PRODUCT_BUNDLE_IDENTIFIER": "com.birdhouseapps.mac"],
            "Release": ["SDKROOT": "macosx", "PRODUCT_BUNDLE_IDENTIFIER": "com.birdhouseapps.mac"]]))
        fixture.writeProject()
        let (descriptor, check) = try Self.initAndCheck(fixture)
        #expect(descriptor.contains("# target:   # which application target is the app?"))
        #expect(descriptor.contains("`Birdhouse Mac` (bundle ID `com.birdhouseapps.mac`, macOS)"))
        #expect(check.status != 2, "\(check.output)")
        #expect(check.output.contains("Which target is the app?"))
        #expect(check.output.contains("`Birdhouse` (bundle ID `com.birdhouseapps.birdhouse`, iOS)"))
        #expect(!check.output.contains("`?`"))
    }

    /// An iOS app and a macOS helper app, no scheme: the one whose own source files buy
    /// something is the app, and the descriptor says why.
    @Test func theAppTargetThatSellsIsTheApp() throws {
        let fixture = Self.birdhouse()
        fixture.targets[2].sourceFiles = ["App/Store.swift"]
        fixture.targets.append(.init(name: "Birdhouse Helper", settings: [
            "Debug": ["SDKROOT": "macosx", "PRODUCT_BUNDLE_IDENTIFIER": "com.birdhouseapps.helper"],
            "Release": ["SDKROOT": "macosx", "PRODUCT_BUNDLE_IDENTIFIER": "com.birdhouseapps.helper"]], sourceFiles: ["Helper/main.swift"]))
        fixture.write("Helper/main.swift", "import AppKit\nNSApplication.shared.run()\n")
        fixture.writeProject()
        let (descriptor, check) = try Self.initAndCheck(fixture)
        #expect(descriptor.contains("target: Birdhouse   # the only application target whose source files use In-App Purchase (`Birdhouse Helper` do not)")
            || descriptor.contains("the only application target whose source files use In-App Purchase (`Birdhouse Helper` does not)"), "\(descriptor)")
        #expect(descriptor.contains("bundle_id: com.birdhouseapps.birdhouse"), "\(descriptor)")
        #expect(!check.output.contains("Which target is the app?"), "\(check.output)")
        // When both sell, it stays a question.
        fixture.targets[3].sourceFiles.append("App/Store.swift")
        fixture.writeProject()
        let (both, _) = try Self.initAndCheck(fixture)
        #expect(both.contains("# target:   # which application target is the app?"), "\(both)")
    }

    @Test func theSchemesStoreKitFileIsTheOneUsed() throws {
        let fixture = Self.birdhouse()
        fixture.writeStoreKit("App/Unused.storekit", products: [("com.birdhouseapps.birdhouse.other", "Consumable")])
        fixture.writeStoreKit("App/Store.storekit", products: [("com.birdhouseapps.birdhouse.seeds", "Consumable")])
        fixture.writeScheme("Birdhouse", runs: "Birdhouse", storeKit: "../../App/Store.storekit")
        let (descriptor, check) = try Self.initAndCheck(fixture)
        #expect(descriptor.contains("environment: xcode"))
        #expect(descriptor.contains("Store.storekit   # the scheme `Birdhouse` runs it"))
        #expect(descriptor.contains("other .storekit files (not used by the scheme)"))
        #expect(check.status != 2, "\(check.output)")
    }

    /// A `.storekit` copied into the folder but never added to the project: the scheme names it,
    /// Xcode does not find it. Added to the project (or held by a synchronized folder), it is served.
    @Test func aSchemesStoreKitFileOutsideTheProjectIsNotServed() throws {
        let fixture = Self.birdhouse()
        fixture.writeStoreKit("App/Store.storekit", products: [("com.birdhouseapps.birdhouse.seeds", "Consumable")], inProject: false)
        fixture.writeScheme("Birdhouse", runs: "Birdhouse", storeKit: "../../App/Store.storekit")
        let (_, loose) = try Self.initAndCheck(fixture, ["--verbose"])
        #expect(loose.status == 1, "\(loose.output)")
        #expect(loose.output.contains("error[storekit-configuration-not-in-project]: the scheme `Birdhouse` runs with the StoreKit configuration `Store.storekit`, which is not in `Birdhouse.xcodeproj`, so Xcode serves none of its products"), "\(loose.output)")
        #expect(loose.output.contains("help: add `Store.storekit` to the project (File → Add Files to “Birdhouse”…; it needs no target)"))
        // The products the file would serve are not judged against a file Xcode does not serve.
        #expect(!loose.output.contains("error[storekit-configuration-incomplete]"))

        fixture.memberFiles = ["App"]  // a folder the project holds, as a synchronized or folder reference
        fixture.writeProject()
        let (_, held) = try Self.initAndCheck(fixture, ["--verbose"])
        #expect(!held.output.contains("storekit-configuration-not-in-project]"), "\(held.output)")
    }

    /// Whether the scheme's file holds the requested products is open while no requested ID is known.
    @Test func aSchemesStoreKitFileWithNoKnownRequestIsAQuestion() throws {
        let fixture = Self.birdhouse()
        fixture.writeStoreKit("App/Store.storekit", products: [("com.birdhouseapps.birdhouse.seeds", "Consumable")])
        fixture.writeScheme("Birdhouse", runs: "Birdhouse", storeKit: "../../App/Store.storekit")
        fixture.write("App/Store.swift", "import StoreKit\nfunc load(_ ids: [String]) async throws { _ = try await Product.products(for: ids) }\n")
        let (_, check) = try Self.initAndCheck(fixture, ["--format", "json"])
        #expect(check.output.contains("Which product IDs does the app request? `Store.storekit`, which the scheme's Run serves, has 1 product, and each requested ID must be one of them."), "\(check.output)")
        #expect(!check.output.contains("\"id\": \"storekit-configuration\",\n      \"number\": 19,\n      \"question\": \"If Xcode serves products from a StoreKit configuration file, does it hold the requested products, with simulated \\\"Load Products\\\" failure off, and is that what you meant to test?\",\n      \"status\": \"pass\""))
    }

    /// A Swift package's testing `.storekit` chosen in the scheme: a finding with the fix, never
    /// an input error about a path outside the project.
    @Test func aSchemeRunningAPackagesStoreKitFileIsNamed() throws {
        let fixture = Self.birdhouse()
        fixture.writeScheme("Birdhouse", runs: "Birdhouse", storeKit: "../../../../Library/Developer/Xcode/DerivedData/Birdhouse-abc/SourcePackages/checkouts/purchases-ios/Tests/Configuration.storekit")
        let (_, check) = try Self.initAndCheck(fixture)
        #expect(check.status == 1, "\(check.output)")
        #expect(check.output.contains("error[storekit-configuration-from-package]: the scheme `Birdhouse` runs with `Configuration.storekit` from the Swift package `purchases-ios`, so Xcode serves that package's test products, not the app's"), "\(check.output)")
        #expect(!check.output.contains("--root"), "\(check.output)")
    }

    /// The plugin's example returns early when `isAvailable()` is false: with In-App Purchases off
    /// in Screen Time, it requests nothing. The device question names the check; the answer
    /// `false` is a warning at the descriptor's line that points at the check.
    @Test func aPaymentCheckAsksAboutScreenTime() throws {
        let fixture = Self.birdhouse()
        fixture.write("App/store.dart", """
            import 'package:in_app_purchase/in_app_purchase.dart';
            Future<void> load() async {
              if (!await InAppPurchase.instance.isAvailable()) return;
              await InAppPurchase.instance.queryProductDetails({'com.birdhouseapps.birdhouse.seeds'});
            }
            """)
        fixture.write("project.yaml", """
            version: 1
            environment: sandbox
            app: { xcodeproj: Birdhouse.xcodeproj, sources: [App] }
            """)
        let asked = try runIAPDoctor(["check", "--format", "json", fixture.folder + "/project.yaml"])
        #expect(asked.output.contains("Does Screen Time allow In-App Purchases on the test device (Settings → Screen Time → Content & Privacy Restrictions → iTunes & App Store Purchases → In-app Purchases)? The app asks `isAvailable` at "), "\(asked.output)")
        #expect(asked.output.contains("App/store.dart:3:37; with them off the answer is false, and code that returns there requests no products"))
        fixture.write("project.yaml", """
            version: 1
            environment: sandbox
            app: { xcodeproj: Birdhouse.xcodeproj, sources: [App] }
            testing: { in_app_purchases_allowed: false }
            """)
        let restricted = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        #expect(restricted.output.contains("warning[purchases-restricted]: Screen Time does not allow In-App Purchases on the test device, so `isAvailable` answers false where the app asks it: code that returns there requests no products"), "\(restricted.output)")
        #expect(restricted.output.contains("App/store.dart:3:37"))
        #expect(restricted.output.contains("project.yaml:4:"))
    }

    /// An Objective-C plugin calls StoreKit 1, which loads products on every OS: no StoreKit 2
    /// question for an app on iOS 13.
    @Test func aStoreKit1PluginAsksNoStoreKitQuestion() throws {
        let fixture = Self.birdhouse()
        try FileManager.default.removeItem(atPath: fixture.folder + "/App/Store.swift")
        for index in fixture.targets.indices {
            for configuration in fixture.targets[index].settings.keys { fixture.targets[index].settings[configuration]?["IPHONEOS_DEPLOYMENT_TARGET"] = "13.0" }
        }
        fixture.writeProject()
        fixture.write("App/store.js", "import { NativeModules } from 'react-native';\nconst { InAppUtils } = NativeModules;\nexport const load = () => InAppUtils.loadProducts(['com.birdhouseapps.birdhouse.seeds'], () => {});\n")
        let (_, check) = try Self.initAndCheck(fixture, ["--verbose"])
        #expect(!check.output.contains("Which StoreKit"), "\(check.output)")
        #expect(check.output.contains("✔  7 os-version"), "\(check.output)")
    }

    /// A Flutter app is usually launched with `flutter run`, which asks the sandbox whatever the
    /// scheme says: init does not assume Xcode's Run, and says when `xcode` is the right choice.
    @Test func initAssumesTheFrameworksLaunchForASchemeStoreKitFile() throws {
        let fixture = Self.birdhouse()
        fixture.writeStoreKit("App/Store.storekit", products: [("com.birdhouseapps.birdhouse.seeds", "Consumable")])
        fixture.writeScheme("Birdhouse", runs: "Birdhouse", storeKit: "../../App/Store.storekit")
        fixture.write("pubspec.yaml", "name: birdhouse\ndependencies:\n  in_app_purchase: ^3.2.0\n")
        let (descriptor, _) = try Self.initAndCheck(fixture)
        #expect(descriptor.contains("environment: sandbox"), "\(descriptor)")
        #expect(descriptor.contains("# (the scheme's StoreKit configuration file applies only when Xcode runs the app; launched with `flutter run` it asks the sandbox: set xcode if you run it from Xcode)"), "\(descriptor)")
    }

    /// A Flutter app's scheme with a .storekit: `flutter run` does not apply it, and the
    /// finding says so; with every product in the file, a warning says the file may not be used.
    @Test func aCrossPlatformAppsSchemeStoreKitAppliesOnlyToXcodesRun() throws {
        let fixture = Self.birdhouse()
        fixture.writeStoreKit("App/Store.storekit", products: [("com.birdhouseapps.birdhouse.seeds", "Consumable")])
        fixture.writeScheme("Birdhouse", runs: "Birdhouse", storeKit: "../../App/Store.storekit")
        fixture.write("project.yaml", """
            version: 1
            environment: xcode
            app: { xcodeproj: Birdhouse.xcodeproj, scheme: Birdhouse.xcodeproj/xcshareddata/xcschemes/Birdhouse.xcscheme, sources: [App] }
            """)
        fixture.write("App/store.dart", """
            import 'package:in_app_purchase/in_app_purchase.dart';
            Future<void> load() async {
              await InAppPurchase.instance.queryProductDetails({'com.birdhouseapps.birdhouse.seeds', 'com.birdhouseapps.birdhouse.nuts'});
            }
            """)
        let missing = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        #expect(missing.output.contains("error[storekit-configuration-incomplete]: `com.birdhouseapps.birdhouse.nuts` is not in `Store.storekit`"), "\(missing.output)")
        // Said once, by the launch's own warning, not under each product.
        #expect(missing.output.contains("warning[storekit-configuration-bypassed]: if the app is launched with `flutter run`, it does not use the scheme's StoreKit configuration `Store.storekit`"))
        #expect(!missing.output.contains("= note: launched with"))
        fixture.write("App/store.dart", """
            import 'package:in_app_purchase/in_app_purchase.dart';
            Future<void> load() async {
              await InAppPurchase.instance.queryProductDetails({'com.birdhouseapps.birdhouse.seeds'});
            }
            """)
        // An app for iOS 13 whose only purchase code is the plugin's: it may call StoreKit 2 or not.
        try FileManager.default.removeItem(atPath: fixture.folder + "/App/Store.swift")
        for index in fixture.targets.indices {
            for configuration in fixture.targets[index].settings.keys { fixture.targets[index].settings[configuration]?["IPHONEOS_DEPLOYMENT_TARGET"] = "13.0" }
        }
        fixture.writeProject()
        let complete = try runIAPDoctor(["check", "--verbose", fixture.folder + "/project.yaml"])
        #expect(complete.output.contains("warning[storekit-configuration-bypassed]: if the app is launched with `flutter run`, it does not use the scheme's StoreKit configuration `Store.storekit`: it asks the sandbox"), "\(complete.output)")
        #expect(!complete.output.contains("error[storekit-configuration-incomplete]"))
        // The check cannot tell which way the app is launched: the product is at risk, not valid.
        #expect(complete.output.contains("at risk"), "\(complete.output)")
        // Which StoreKit the plugin calls is a question its version and setup answer.
        #expect(complete.output.contains("Which StoreKit does `in_app_purchase` call in this build: StoreKit 1, StoreKit 2 or both? The library's version and setup decide, not the app's code: in_app_purchase_storekit 0.4.0 and later call StoreKit 2 unless the app calls `InAppPurchaseStoreKitPlatform.enableStoreKit1()`"), "\(complete.output)")
    }

    @Test func aSchemesMissingStoreKitFileIsOneFinding() throws {
        let fixture = Self.birdhouse()
        fixture.writeScheme("Birdhouse", runs: "Birdhouse", storeKit: "../../App/Gone.storekit")
        let elsewhere = fixture.folder + "/project.yaml"
        fixture.write("project.yaml", """
            version: 1
            environment: xcode
            app: { xcodeproj: Birdhouse.xcodeproj, scheme: Birdhouse.xcodeproj/xcshareddata/xcschemes/Birdhouse.xcscheme, sources: [App] }
            """)
        let check = try runIAPDoctor(["check", elsewhere])
        #expect(check.status == 1, "\(check.output)")
        #expect(check.output.contains("error[storekit-configuration-incomplete]: the scheme `Birdhouse` runs with the StoreKit configuration `../../App/Gone.storekit`, which is not there"))
    }

    @Test func aSchemeWithoutStoreKitDecidesWhatXcodeServes() throws {
        let fixture = Self.birdhouse()
        fixture.writeStoreKit("App/Store.storekit", products: [("com.birdhouseapps.birdhouse.seeds", "Consumable")])
        fixture.writeScheme("Birdhouse", runs: "Birdhouse")
        fixture.write("project.yaml", """
            version: 1
            environment: xcode
            app:
              xcodeproj: Birdhouse.xcodeproj
              scheme: Birdhouse.xcodeproj/xcshareddata/xcschemes/Birdhouse.xcscheme
              storekit_configuration: App/Store.storekit
            """)
        let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        #expect(check.output.contains("runs no StoreKit configuration: an app run from Xcode asks the sandbox"), "\(check.output)")
    }

    @Test func aLocalStoreKitFileDoesNotProveAProductExistsInAppStoreConnect() throws {
        let fixture = Self.birdhouse()
        fixture.writeStoreKit("App/Store.storekit", products: [("com.birdhouseapps.birdhouse.seeds", "Consumable")])
        fixture.write("project.yaml", """
            version: 1
            environment: sandbox
            app: { xcodeproj: Birdhouse.xcodeproj, storekit_configuration: App/Store.storekit }
            requests: [com.birdhouseapps.birdhouse.seeds, com.birdhouseapps.birdhouse.feeder]
            """)
        let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--format", "json"])
        #expect(check.status != 2, "\(check.output)")
        #expect(!check.output.contains("\"rule\": \"requested-product-missing\""), "no product is known in App Store Connect, so none is missing: \(check.output)")
        #expect(check.output.contains("Which In-App Purchases exist for this app in App Store Connect"))
        #expect(!check.output.contains("\"verdict\": \"valid\""), "a .storekit product is not valid in the sandbox by itself")
    }

    @Test func warningsNeverMakeAProductInvalid() throws {
        let fixture = Self.birdhouse()
        fixture.writeStoreKit("App/Store.storekit", products: [("com.birdhouseapps.birdhouse.seeds", "Consumable")])
        fixture.write("App/Later.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array/></plist>
            """)
        fixture.write("project.yaml", """
            version: 1
            environment: xcode
            app: { storekit_configuration: App/Store.storekit, product_id_lists: [App/Later.plist] }
            requests: [com.birdhouseapps.birdhouse.seeds]
            """)
        let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--format", "json"])
        #expect(check.output.contains("\"severity\": \"warning\""), "the fixture has a warning: \(check.output)")
        #expect(!check.output.contains("\"verdict\": \"invalid\""), "\(check.output)")
    }

    @Test func noProductsIsAQuestionNotAPass() throws {
        let fixture = Self.birdhouse()
        fixture.write("project.yaml", "version: 1\nenvironment: sandbox\napp: { xcodeproj: Birdhouse.xcodeproj }\n")
        let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any])
        let checklist = try #require(report["checklist"] as? [[String: Any]])
        for item in ["product-metadata", "propagation-wait", "storefront-availability", "subscription-groups"] {
            let status = checklist.first { $0["id"] as? String == item }?["status"] as? String
            #expect(status == "unknown", "\(item) with no product: \(status ?? "?")")
        }
    }

    /// Call sites with one cause are one note that counts and names the others.
    @Test func callSitesWithOneCauseAreOneNote() throws {
        let fixture = Self.birdhouse()
        for (index, name) in ["Paywall", "Settings", "Onboarding"].enumerated() {
            fixture.write("App/\(name).swift", String(repeating: "\n", count: index) + """
                import RevenueCat
                func show\(name)() async throws { _ = try await Purchases.shared.offerings() }
                """)
        }
        let (_, check) = try Self.initAndCheck(fixture, ["--format", "json"])
        let notes = check.output.components(separatedBy: "\"rule\": \"request-not-resolved\"").count - 1
        #expect(notes == 1, "\(check.output)")
        #expect(check.output.contains("the same at 2 more call sites: "), "\(check.output)")
        #expect(check.output.contains("Paywall.swift:2:49") && check.output.contains("Settings.swift:3:"), "\(check.output)")
    }

    /// A bundle ID set to nothing is no value to compare: the question says where it is empty,
    /// and no message quotes an empty value.
    @Test func anEmptyBundleIDIsAQuestionThatSaysWhere() throws {
        let fixture = Self.birdhouse()
        fixture.write("Config/Shared.xcconfig", "BUNDLE_PREFIX = com.birdhouseapps\nDEVELOPMENT_TEAM = AB12CD34EF\n")
        fixture.write("Config/Base.xcconfig", "#include \"Shared.xcconfig\"\nAPP_NAME = Birdhouse\nPRODUCT_BUNDLE_IDENTIFIER =\n")
        let app = ["DEVELOPMENT_TEAM": "$(DEVELOPMENT_TEAM)", "INFOPLIST_FILE": "App/Info.plist", "IPHONEOS_DEPLOYMENT_TARGET": "16.0"]
        fixture.targets = [.init(name: "Birdhouse", settings: ["Debug": app, "Release": app])]
        fixture.writeProject()
        fixture.write("project.yaml", """
            version: 1
            environment: sandbox
            app: { xcodeproj: Birdhouse.xcodeproj, target: Birdhouse, info_plist: App/Info.plist }
            app_id: { identifier: AB12CD34EF.com.birdhouseapps.birdhouse }
            """)
        let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--verbose"])
        #expect(!check.output.contains("``"), "\(check.output)\(check.errors)")
        #expect(check.output.contains("Which bundle ID does the failing build run with? `PRODUCT_BUNDLE_IDENTIFIER` of the Debug configuration is empty ("), "\(check.output)\(check.errors)")
        #expect(check.output.contains("/Config/Base.xcconfig:3:28); Xcode builds no app without one"), "\(check.output)")
    }

    /// An app that sells through a library iapdoctor does not read is not an app that sells nothing.
    @Test func anUnreadPurchaseLibraryIsNoAppWithoutPurchases() throws {
        let fixture = Self.birdhouse()
        fixture.write("App/Store.swift", "import InAppPurchaseLibrary\nfunc load() async { _ = await InAppPurchaseManager.shared.getProducts(for: ProductCatalog.all) }\n")
        let (_, check) = try Self.initAndCheck(fixture)
        #expect(check.output.contains("note[no-storekit-in-sources]: the scanned code imports `InAppPurchaseLibrary`, named like a purchase library iapdoctor does not read"), "\(check.output)")
        #expect(!check.output.contains("uses In-App Purchase yet"), "\(check.output)")
    }

    /// In an app that sells nothing yet, a finding is advice: a note, and its item shows no
    /// warning the summary does not count.
    @Test func adviceInAnAppWithoutPurchasesIsNoWarning() throws {
        let fixture = Self.birdhouse()
        fixture.write("Config/Shared.xcconfig", "BUNDLE_PREFIX = com.birdhouseapps\nDEVELOPMENT_TEAM =\n")
        fixture.write("App/Store.swift", "import StoreKit\nfunc askForReview() { SKStoreReviewController.requestReview() }\n")
        let (_, check) = try Self.initAndCheck(fixture)
        #expect(check.output.contains("note[signing-team-mismatch]: the build has no signing team"), "\(check.output)")
        #expect(check.output.contains(" 0 warnings, "), "\(check.output)")
        #expect(!check.output.contains("⚠"), "\(check.output)")
    }

    @Test func anEmptyTeamIsAFindingForDeviceBuilds() throws {
        let fixture = Self.birdhouse()
        fixture.write("Config/Shared.xcconfig", "BUNDLE_PREFIX = com.birdhouseapps\nDEVELOPMENT_TEAM =\n")
        fixture.write("project.yaml", "version: 1\nenvironment: sandbox\napp: { xcodeproj: Birdhouse.xcodeproj }\n")
        let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        #expect(check.output.contains("error[signing-team-mismatch]: the build has no signing team"), "\(check.output)")
    }

    /// App Store Connect's limits are notes in a `.storekit` checked on its own, synced or not,
    /// and not judged at all in the file the app's Run uses: a synced file's metadata is App
    /// Store Connect's own, and Xcode serves a local one whatever the store would accept.
    @Test func storeLimitsAreNotesInAFileAloneAndNotJudgedInTheRunsFile() throws {
        let fixture = Self.birdhouse()
        let long = String(repeating: "very.", count: 20) + "long.product.id"
        fixture.writeStoreKit("App/Local.storekit", products: [(long, "Consumable")], subscriptionGroup: ("Flock", ["com.birdhouseapps.birdhouse.flock"]))
        let text = readText(fixture.folder + "/App/Local.storekit")
            .replacingOccurrences(of: "\"settings\": { ", with: "\"settings\": { \"_applicationInternalID\": \"1234567890\", ")
        fixture.write("App/Synced.storekit", text)
        for name in ["Local", "Synced"] {
            let alone = try runIAPDoctor(["check", fixture.folder + "/App/\(name).storekit"])
            #expect(alone.output.contains("note[storekit-product-id-length]: product ID `\(long)` has 115 characters; the maximum is 100"), "\(name): \(alone.output)")
            #expect(alone.output.contains("note[storekit-group-not-localized]: subscription group `Flock` has no localized display name"), "\(name): \(alone.output)")
            #expect(alone.status == 0, "\(name): notes only")
            fixture.write("project.yaml", """
                version: 1
                environment: xcode
                app: { storekit_configuration: App/\(name).storekit }
                requests: [\(long), com.birdhouseapps.birdhouse.flock]
                """)
            let run = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--format", "json"])
            #expect(!run.output.contains("storekit-product-id-length") && !run.output.contains("storekit-group-not-localized"), "\(name): \(run.output)")
            #expect(!run.output.contains("\"verdict\": \"at_risk\"") && !run.output.contains("\"verdict\": \"invalid\""), "\(name): \(run.output)")
        }
    }

    @Test func theSimulatedLoadProductsFailureIsReportedForAFileCheckedAlone() throws {
        let fixture = ProjectFixture()
        fixture.writeStoreKit("Store.storekit", products: [("com.birdhouseapps.seeds", "Consumable")])
        let text = readText(fixture.folder + "/Store.storekit").replacingOccurrences(
            of: "\"settings\": { ", with: "\"settings\": { \"_storeKitErrors\": [ { \"current\": null, \"enabled\": true, \"name\": \"Load Products\" } ], ")
        fixture.write("Store.storekit", text)
        let check = try runIAPDoctor(["check", fixture.folder + "/Store.storekit"])
        #expect(check.status == 1)
        #expect(check.output.contains("error[storekit-load-products-failure]"), "\(check.output)")
    }

    /// Every line of an `.xcconfig` is a level of its own, so `X = $(inherited) $(inherited)` 4,000
    /// times doubles 4,000 times; resolution is bounded by the expansion budget, not by the input
    /// (a regressed resolver would not finish within the suite's time limit).
    @Test func inheritedChainsAreBoundedByTheOutputNeeded() throws {
        let fixture = ProjectFixture()
        let lines = (0..<4_000).map { "OTHER_LDFLAGS = $(inherited) $(inherited) -l\($0)" }
        fixture.write("Chain.xcconfig", lines.joined(separator: "\n") + "\nPRODUCT_BUNDLE_IDENTIFIER = com.birdhouseapps.$(OTHER_LDFLAGS:default=x)\n")
        fixture.projectBaseConfiguration = ["Debug": "Chain.xcconfig", "Release": "Chain.xcconfig"]
        let many = Dictionary(uniqueKeysWithValues: (0..<2_000).map { ("SETTING_\($0)", "$(inherited) $(SETTING_\(($0 + 1) % 2_000)) $(OTHER_LDFLAGS)") })
        fixture.targets = [.init(name: "Birdhouse", settings: ["Debug": many.merging(["OTHER_LDFLAGS": "$(inherited) $(OTHER_LDFLAGS)"]) { $1 }, "Release": many])]
        fixture.writeProject()
        let project = try XcodeProject.load(path: fixture.folder + "/Birdhouse.xcodeproj")
        let app = try #require(project.target(named: "Birdhouse"))
        let settings = project.settings(target: app, configuration: "Debug")
        let flags = try #require(settings.value("OTHER_LDFLAGS"))
        #expect(flags.value.utf8.count <= 1 << 17, "bounded by the expansion budget")
        // Cut short by the budget, it still holds references: unknown, never a value to compare.
        #expect(!BuildSettings.isResolved(flags.value))
        let bundle = try #require(settings.value("PRODUCT_BUNDLE_IDENTIFIER"))
        #expect(bundle.value.hasPrefix("com.birdhouseapps."))
        // Every setting of the target, as the fuzz target asks for them: each stays bounded too.
        let all = project.buildSettings(target: app, configuration: "Release")
        #expect(all.count >= 2_000)
        #expect(all.values.allSatisfy { $0.value.utf8.count <= 1 << 17 })
    }

    /// `project_root` widens what may be read, so a descriptor inside a checkout (one a pull
    /// request could change) cannot use it: the named files stay unread.
    @Test func aDescriptorInACheckoutCannotWidenItsRoot() throws {
        let fixture = Self.birdhouse()
        let checkout = fixture.folder + "-checkout"
        defer { try? FileManager.default.removeItem(atPath: checkout) }
        try FileManager.default.createDirectory(atPath: checkout + "/.git", withIntermediateDirectories: true)
        let name = (fixture.folder as NSString).lastPathComponent
        try "version: 1\nproject_root: ../\(name)\napp: { info_plist: ../\(name)/App/Info.plist }\n"
            .write(toFile: checkout + "/project.yaml", atomically: true, encoding: .utf8)
        let check = try runIAPDoctor(["check", checkout + "/project.yaml"])
        #expect(check.status == 2, "\(check.output)")
        #expect(check.output.contains("`project_root` is not used"), "\(check.output)")
        #expect(check.output.contains("refusing to read"), "\(check.output)")
    }

    /// With no `signing.profile.file`, the profile the build settings name is looked up where
    /// Xcode installs profiles under the home folder (a temporary one here).
    @Test func installedProfilesAreFoundInXcodesFolders() throws {
        let fixture = Self.birdhouse()
        let app = ["PRODUCT_BUNDLE_IDENTIFIER": "com.birdhouseapps.birdhouse", "DEVELOPMENT_TEAM": "AB12CD34EF", "CODE_SIGN_STYLE": "Manual",
                   "PROVISIONING_PROFILE_SPECIFIER": "Birdhouse Development", "INFOPLIST_FILE": "App/Info.plist"]
        fixture.targets = [.init(name: "Birdhouse", settings: ["Debug": app, "Release": app])]
        fixture.writeProject()
        fixture.write("project.yaml", "version: 1\nenvironment: sandbox\napp: { xcodeproj: Birdhouse.xcodeproj, bundle_id: com.birdhouseapps.birdhouse }\n")
        let home = fixture.folder + "-home"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let folder = home + "/Library/MobileDevice/Provisioning Profiles"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let profile = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>Name</key><string>Birdhouse Development</string>
            <key>UUID</key><string>0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0</string>
            <key>TeamIdentifier</key><array><string>AB12CD34EF</string></array>
            <key>CreationDate</key><date>2026-01-01T00:00:00Z</date>
            <key>ExpirationDate</key><date>2027-01-01T00:00:00Z</date>
            <key>ProvisionedDevices</key><array><string>00008030-001A</string></array>
            <key>Entitlements</key><dict><key>application-identifier</key><string>AB12CD34EF.*</string><key>get-task-allow</key><true/></dict>
            </dict></plist>
            """
        try profile.write(toFile: folder + "/0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0.mobileprovision", atomically: true, encoding: .utf8)
        let found = try runIAPDoctor(["check", fixture.folder + "/project.yaml"], environment: ["HOME": home])
        // The installed profile's facts are used: it is made for a wildcard App ID.
        #expect(found.output.contains("error[wildcard-profile]"), "\(found.output)")
        #expect(!found.output.contains("profile-not-installed"))
        // Named in the project but not installed: a finding that says where iapdoctor looked.
        try FileManager.default.removeItem(atPath: folder + "/0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0.mobileprovision")
        let missing = try runIAPDoctor(["check", fixture.folder + "/project.yaml"], environment: ["HOME": home])
        #expect(missing.output.contains("error[profile-not-installed]: the provisioning profile `Birdhouse Development` is not installed"), "\(missing.output)")
        #expect(missing.output.contains("looked for it in"))
        // `--profiles-dir` names another folder; without one (as in CI) nothing is looked up.
        let elsewhere = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--profiles-dir", home + "/nowhere"], environment: ["HOME": home])
        #expect(!elsewhere.output.contains("profile-not-installed]: the provisioning profile `Birdhouse"), "\(elsewhere.output)")
    }

    /// `init`'s walk (the shared FolderWalker, breadth first): shallow files come first, so its
    /// bound leaves out the deepest; the shared skip list, hidden folders and links to folders are
    /// not entered; a link to a file is listed like the file.
    @Test func initWalksBreadthFirstAndSkipsWhatTheScanSkips() throws {
        let fixture = ProjectFixture()
        let profile = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict/></plist>"
        for path in ["a/deep/x.mobileprovision", "b.mobileprovision", "z.mobileprovision", ".hidden/h.mobileprovision",
                     "Pods/p.mobileprovision", "xcuserdata/u.mobileprovision", "a/y.mobileprovision"] {
            fixture.write(path, profile)
        }
        try FileManager.default.createSymbolicLink(atPath: fixture.folder + "/c.mobileprovision", withDestinationPath: fixture.folder + "/b.mobileprovision")
        try FileManager.default.createSymbolicLink(atPath: fixture.folder + "/linked", withDestinationPath: fixture.folder + "/a")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.profileCandidates == [
            "b.mobileprovision", "c.mobileprovision", "z.mobileprovision", "a/y.mobileprovision", "a/deep/x.mobileprovision",
        ])
    }
}
