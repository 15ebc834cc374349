import Foundation
import IAPDoctor
@testable import Loaders
import TestSupport
import Rules
import Testing

/// `init` at the root of a cross-platform app: the folders of its language are sources, and an
/// Expo app without `ios/` takes its bundle ID and team from its config.
@Suite struct CrossPlatformInitTests {
    @Test func aManagedExpoAppTakesItsIdentityFromItsConfig() {
        let fixture = ProjectFixture()
        fixture.write("app.json", #"{ "expo": { "name": "Coins", "ios": { "bundleIdentifier": "com.acme.coins" } } }"#)
        fixture.write("eas.json", #"{ "submit": { "preview": { "ios": { "appleTeamId": "AAAAAAAAAA" } }, "production": { "ios": { "appleTeamId": "Q7XK2L9M3N" } } } }"#)
        fixture.write("package.json", #"{ "dependencies": { "expo-iap": "^2.0.0" } }"#)
        fixture.write("App.tsx", "import { useIAP } from 'expo-iap';\n")
        fixture.write("metro.config.js", "module.exports = {};\n")
        fixture.write("src/shop.ts", "export const SKUS = ['com.acme.coins.100'];\n")
        fixture.write("__tests__/shop.test.ts", "test('x', () => {});\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == "com.acme.coins")
        #expect(survey.bundleIDReason?.hasPrefix("`expo.ios.bundleIdentifier` in app.json") == true)
        #expect(survey.teamID == "Q7XK2L9M3N")
        #expect(survey.teamReason == "`submit.production.ios.appleTeamId` in eas.json")
        #expect(survey.sources == ["src", "App.tsx"])
    }

    /// An app on any RevenueCat SDK shows its offerings' products: the descriptor asks for the
    /// RevenueCat snapshot, naming the manifest that says so.
    @Test(arguments: [
        ("package.json", #"{ "dependencies": { "react-native-purchases": "^8.2.0", "react": "18.3.1" } }"#, "`react-native-purchases` in `package.json`"),
        ("package.json", #"{ "dependencies": { "@revenuecat/purchases-capacitor": "^10.0.0" } }"#, "`@revenuecat/purchases-capacitor` in `package.json`"),
        ("pubspec.yaml", "dependencies:\n  flutter:\n    sdk: flutter\n  purchases_flutter: ^8.1.0\n", "`purchases_flutter` in `pubspec.yaml`"),
        ("ios/Podfile", "target 'Runner' do\n  pod 'RevenueCat', '~> 5.0'\nend\n", "`RevenueCat` in `ios/Podfile`"),
        ("Packages/manifest.json", #"{ "dependencies": { "com.revenuecat.purchases-unity": "https://github.com/RevenueCat/purchases-unity.git#upm" } }"#, "`com.revenuecat.purchases-unity` in `Packages/manifest.json`"),
    ])
    func anAppOnRevenueCatIsAskedForItsSnapshot(_ file: String, _ text: String, _ found: String) {
        let fixture = ProjectFixture()
        fixture.write(file, text)
        fixture.write("src/store.ts", "export {};\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.revenueCat == found)
        let descriptor = StarterDescriptor.render(survey, name: "Coins", surveyedFolder: fixture.folder, descriptorFolder: fixture.folder)
        #expect(descriptor.contains("# RevenueCat (\(found)): the app shows the products of its RevenueCat\n"), "\(descriptor)")
        #expect(descriptor.contains("`iapdoctor revenuecat pull -o revenuecat-snapshot.json`"))
        #expect(descriptor.contains("\n# revenuecat:\n#   snapshot: revenuecat-snapshot.json\n"))
    }

    @Test func anAppWithoutRevenueCatIsNotAsked() {
        let fixture = ProjectFixture()
        // Named, but not as a dependency: a comment, another package with the word in it.
        fixture.write("package.json", #"{ "description": "not react-native-purchases", "dependencies": { "react-native-iap": "^12.0.0" } }"#)
        fixture.write("ios/Podfile", "# pod 'RevenueCat' later\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.revenueCat == nil)
        #expect(!StarterDescriptor.render(survey, name: "Coins", surveyedFolder: fixture.folder, descriptorFolder: fixture.folder).contains("revenuecat"))
    }

    @Test func theSwiftPackageInTheXcodeProjectCounts() {
        let fixture = ProjectShapeTests.birdhouse()
        fixture.remotePackages = ["https://github.com/RevenueCat/purchases-ios-spm.git"]
        fixture.writeProject()
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.revenueCat == "the Swift package `https://github.com/RevenueCat/purchases-ios-spm.git` in `Birdhouse.xcodeproj`")
    }

    /// A file shaped like a product ID list is listed only when a source file names it: one the
    /// app ships but never reads holds no request.
    @Test func aProductListNoSourceNamesIsNotListed() {
        let fixture = ProjectFixture()
        fixture.write("Cards/Config.swift", "let path = Bundle.main.path(forResource: \"ProductIds\", ofType: \"plist\")\n")
        fixture.write("Cards/ProductIds.plist", "<plist version=\"1.0\"><array><string>com.acme.cards.solitaire</string></array></plist>\n")
        fixture.write("Cards/Products.plist", "<plist version=\"1.0\"><array><string>com.acme.cards.old</string></array></plist>\n")
        fixture.write("web/shop.ts", "import catalog from './products.json';\n")
        fixture.write("web/products.json", "[\"com.acme.cards.web\"]\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.productIDLists == ["Cards/ProductIds.plist", "web/products.json"])
        #expect(survey.unnamedProductIDLists == ["Cards/Products.plist"])
        #expect(StarterDescriptor.render(survey, name: "Cards", surveyedFolder: fixture.folder, descriptorFolder: fixture.folder)
            .contains("  # not listed, since no source file names them: Cards/Products.plist"))
    }

    /// A Capacitor app whose purchase code sits at its top beside its tools' scripts.
    @Test func scriptsAtTheTopAreSourcesUnlessTheyConfigureTools() {
        let fixture = ProjectFixture()
        fixture.write("capacitor.config.json", #"{ "appId": "com.acme.words" }"#)
        for name in ["purchase.js", "gulpfile.js", "vite.config.ts", ".eslintrc.js", "jest.setup.js", "shop.test.ts", "babel.config.js"] {
            fixture.write(name, "export {};\n")
        }
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.sources == ["purchase.js"])
    }

    @Test func anAppConfigScriptWithAnEnvironmentFallback() {
        let fixture = ProjectFixture()
        fixture.write("app.config.ts", """
            export default {
              name: 'Coins',
              ios: {
                bundleIdentifier: process.env.BUNDLE_ID ?? "com.acme.coins.dev",
                appleTeamId: 'Q7XK2L9M3N',
              },
            };
            """)
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == "com.acme.coins.dev")
        #expect(survey.bundleIDReason?.contains("used when `BUNDLE_ID` is not set") == true)
        #expect(survey.teamID == "Q7XK2L9M3N")
    }

    /// A bundle ID in a `const` chosen by a variant flag: the production build's branch, with
    /// the other named; a flag that names no variant leaves the bundle ID a question.
    @Test(arguments: [
        ("const isDevVariant = variant === 'dev';\nconst iosBundle = isDevVariant ? 'com.acme.coins.dev' : 'com.acme.coins';", "com.acme.coins",
         "the production build's value: `isDevVariant` is false there; otherwise the app is `com.acme.coins.dev`"),
        ("const IS_PRODUCTION = process.env.APP_ENV === 'production';\nconst iosBundle = IS_PRODUCTION ? \"com.acme.coins\" : \"com.acme.coins.beta\";", "com.acme.coins",
         "the production build's value: `IS_PRODUCTION` is true there; otherwise the app is `com.acme.coins.beta`"),
        ("const iosBundle = useAlternate ? 'com.acme.coins.b' : 'com.acme.coins';", nil, nil),
    ] as [(String, String?, String?)])
    func anAppConfigBundleIDChosenByAVariant(declarations: String, bundleID: String?, caveat: String?) {
        let fixture = ProjectFixture()
        fixture.write("app.config.ts", """
            \(declarations)
            export default ({ config }) => ({
              name: isDevVariant ? "Coins Dev" : "Coins",
              ios: {
                bundleIdentifier: iosBundle,
              },
            });
            """)
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == bundleID)
        if let caveat { #expect(survey.bundleIDReason?.contains(caveat) == true, "\(survey.bundleIDReason ?? "")") }
        #expect(survey.projectName == (bundleID == nil ? nil : "Coins"))
    }

    /// `app.json` and a config script together: what the script sets wins, the rest comes from
    /// `app.json`.
    @Test func anAppJSONAndAConfigScriptTogether() {
        let fixture = ProjectFixture()
        fixture.write("app.json", #"{ "expo": { "name": "Coins", "ios": { "supportsTablet": false, "appleTeamId": "Q7XK2L9M3N" } } }"#)
        fixture.write("app.config.js", "export default ({ config }) => ({ ...config, ios: { ...config.ios, bundleIdentifier: 'com.acme.coins' } });\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == "com.acme.coins")
        #expect(survey.bundleIDReason?.hasPrefix("`ios.bundleIdentifier` in app.config.js") == true, "\(survey.bundleIDReason ?? "")")
        #expect(survey.teamID == "Q7XK2L9M3N")
        #expect(survey.projectName == "Coins")
    }

    /// A bundle ID imported from the app's own module: a TypeScript constant, or a JSON file's
    /// member; a package's import is not followed.
    @Test(arguments: [
        ("import { BUNDLE_ID } from './src/constants/app';\nexport default { ios: { bundleIdentifier: BUNDLE_ID } };\n",
         "src/constants/app.ts", "export const BUNDLE_ID = 'com.acme.coins';\n", "com.acme.coins"),
        ("import base from './app.base.json';\nexport default { ios: { bundleIdentifier: base.ios.bundleIdentifier } };\n",
         "app.base.json", #"{ "ios": { "bundleIdentifier": "com.acme.coins" } }"#, "com.acme.coins"),
        ("const shared = require('./shared.json');\nmodule.exports = { ios: { bundleIdentifier: shared.bundleId } };\n",
         "shared.json", #"{ "bundleId": "com.acme.coins" }"#, "com.acme.coins"),
        ("import { BUNDLE_ID } from '@acme/config';\nexport default { ios: { bundleIdentifier: BUNDLE_ID } };\n",
         "node_modules/@acme/config/index.js", "export const BUNDLE_ID = 'com.acme.other';\n", nil),
    ] as [(String, String, String, String?)])
    func anAppConfigBundleIDFromAnImportedModule(config: String, module: String, text: String, bundleID: String?) {
        let fixture = ProjectFixture()
        fixture.write("app.config.ts", config)
        fixture.write(module, text)
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == bundleID, "\(survey.bundleIDReason ?? "")")
        if bundleID != nil { #expect(survey.bundleIDReason?.contains("imported") == true, "\(survey.bundleIDReason ?? "")") }
    }

    /// Capacitor's `appName` and Cordova's `<name>` name the app.
    @Test func aCapacitorOrCordovaAppIsNamedByItsConfig() {
        let capacitor = ProjectFixture()
        capacitor.write("capacitor.config.ts", "const config = { appId: 'com.acme.coins', appName: 'Coins', webDir: 'dist' };\nexport default config;\n")
        #expect(ProjectSurvey.survey(directory: capacitor.folder).projectName == "Coins")
        let cordova = ProjectFixture()
        cordova.write("config.xml", "<?xml version='1.0'?>\n<widget id=\"com.acme.coins\" version=\"1.0.0\">\n  <name>Coin Jar</name>\n</widget>\n")
        let survey = ProjectSurvey.survey(directory: cordova.folder)
        #expect(survey.projectName == "Coin Jar")
        #expect(survey.bundleID == "com.acme.coins")
    }

    /// A library's repository whose app is one folder down (`example-expo/`): its config is read
    /// there, and said to be.
    @Test func anExpoAppOneFolderDown() {
        let fixture = ProjectFixture()
        fixture.write("package.json", #"{ "name": "coins-library" }"#)
        fixture.write("src/index.ts", "export {};\n")
        fixture.write("example-expo/app.config.ts", "export default { ios: { bundleIdentifier: 'com.acme.example' } };\n")
        fixture.write("example-expo/App.tsx", "export default function App() {}\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == "com.acme.example")
        #expect(survey.bundleIDReason?.hasPrefix("`ios.bundleIdentifier` in example-expo/app.config.ts") == true, "\(survey.bundleIDReason ?? "")")
        // Two apps one folder down: neither is the app.
        fixture.write("example-bare/app.json", #"{ "expo": { "ios": { "bundleIdentifier": "com.acme.bare" } } }"#)
        #expect(ProjectSurvey.survey(directory: fixture.folder).bundleID == nil)
    }

    @Test func aFlutterAppsDartFolderIsASource() {
        let fixture = ProjectFixture()
        fixture.write("pubspec.yaml", "name: coins\n")
        fixture.write("lib/main.dart", "void main() {}\n")
        fixture.write("test/widget_test.dart", "void main() {}\n")
        fixture.write(".dart_tool/package_config.dart", "void main() {}\n")
        fixture.write("ios/Runner/AppDelegate.swift", "import Flutter\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.sources == ["lib", "ios"])
    }
}

extension CrossPlatformInitTests {
    /// A Unity project whose settings name no iOS bundle ID or team: the descriptor says where
    /// to set them, and never takes another platform's identifier for iOS.
    @Test func aUnityProjectWithoutItsIOSIdentityAsksForIt() {
        let fixture = ProjectFixture()
        fixture.write("ProjectSettings/ProjectSettings.asset", """
            %YAML 1.1
            PlayerSettings:
              applicationIdentifier:
                Standalone: com.DefaultCompany.Coins
              appleDeveloperTeamID:\u{20}
            """)
        fixture.write("Assets/Scripts/Store.cs", "using UnityEngine.Purchasing;\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == nil)
        #expect(survey.teamID == nil)
        #expect(survey.platform == .ios)
        #expect(survey.unresolved[XcodeProject.SettingKey.productBundleIdentifier]
            == "ProjectSettings/ProjectSettings.asset sets no `applicationIdentifier` for iPhone (only `Standalone: com.DefaultCompany.Coins`): set Player Settings → iOS → Other Settings → Bundle Identifier to the App Store Connect app's")
        #expect(survey.unresolved[XcodeProject.SettingKey.developmentTeam]?.hasPrefix("ProjectSettings/ProjectSettings.asset sets no `appleDeveloperTeamID`") == true)
    }
}

extension CrossPlatformInitTests {
    /// Settings saved in Unity's binary serialization are not read, and the questions say so
    /// rather than that the settings lack a bundle ID.
    @Test func aUnityProjectWithBinarySettingsSaysItCannotReadThem() throws {
        let fixture = ProjectFixture()
        fixture.write("Assets/Scripts/Store.cs", "using UnityEngine.Purchasing;\n")
        try FileManager.default.createDirectory(atPath: fixture.folder + "/ProjectSettings", withIntermediateDirectories: true)
        // A binary asset: a header of big-endian sizes, then the type tree; `iPhone` and a bundle
        // ID may appear in it, but not as `key: value` lines.
        let binary: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 22, 0, 0, 0, 0] + Array("2022.3.10f1\0iPhone\0com.acme.coins\0".utf8)
        try Data(binary).write(to: URL(fileURLWithPath: fixture.folder + "/ProjectSettings/ProjectSettings.asset"))
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == nil)
        let question = survey.unresolved[XcodeProject.SettingKey.productBundleIdentifier] ?? ""
        #expect(question.hasPrefix("ProjectSettings/ProjectSettings.asset is in Unity's binary serialization, which iapdoctor does not read"), "\(question)")
        #expect(survey.unresolved[XcodeProject.SettingKey.developmentTeam]?.contains("binary serialization") == true)
    }
}

extension CrossPlatformInitTests {
    @Test func aUnityProjectTakesItsIdentityFromItsSettings() {
        let fixture = ProjectFixture()
        fixture.write("ProjectSettings/ProjectSettings.asset", """
            %YAML 1.1
            PlayerSettings:
              productName: Coins
              applicationIdentifier:
                Android: com.acme.coins.android
                iPhone: com.acme.coins
              appleDeveloperTeamID: Q7XK2L9M3N
            """)
        fixture.write("Assets/Scripts/Store.cs", "using UnityEngine.Purchasing;\n")
        fixture.write("Assets/Resources/IAPProductCatalog.json", """
            {"appleSKU":"","appleTeamID":"","products":[
              {"id":"coins","type":0,"storeIDs":[{"store":"GooglePlay","id":"coins_android"},{"store":"AppleAppStore","id":"com.acme.coins.ios"}]},
              {"id":"com.acme.coins.pro","type":1,"storeIDs":[]}
            ]}
            """)
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == "com.acme.coins")
        #expect(survey.teamID == "Q7XK2L9M3N")
        #expect(survey.sources == ["Assets"])
        #expect(survey.productIDLists == ["Assets/Resources/IAPProductCatalog.json"])
        let ids = try? ProductIDList.load(path: fixture.folder + "/Assets/Resources/IAPProductCatalog.json")
        #expect(ids?.map(\.value) == ["com.acme.coins.ios", "com.acme.coins.pro"])
    }

    @Test func aMAUIAppTakesItsBundleIDFromItsProject() {
        let fixture = ProjectFixture()
        fixture.write("Coins/Coins.csproj", """
            <Project><PropertyGroup><ApplicationId>com.acme.maui</ApplicationId></PropertyGroup>
            <PropertyGroup Condition="'$(Configuration)' == 'Release'"><CodesignKey>Apple Distribution: Acme Inc (Q7XK2L9M3N)</CodesignKey></PropertyGroup></Project>
            """)
        fixture.write("Coins/Services/Billing.cs", "using Plugin.InAppBilling;\n")
        var survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == "com.acme.maui")
        #expect(survey.bundleIDReason?.hasPrefix("`<ApplicationId>` in Coins/Coins.csproj") == true)
        #expect(survey.sources == ["Coins"])
        #expect(survey.teamID == "Q7XK2L9M3N")
        // The Info.plist's own CFBundleIdentifier wins: the build maps ApplicationId only to a
        // plist without one.
        fixture.write("Coins/Platforms/iOS/Info.plist", "<plist><dict><key>CFBundleIdentifier</key><string>com.acme.other</string></dict></plist>")
        survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == "com.acme.other")
        #expect(survey.bundleIDReason == "`CFBundleIdentifier` in Coins/Platforms/iOS/Info.plist, which wins over `<ApplicationId>com.acme.maui</ApplicationId>` in Coins/Coins.csproj; the .NET build writes the Xcode project")
        // The iOS head's Info.plist and entitlements are the app's; its title names it.
        fixture.write("Coins/Platforms/iOS/Entitlements.plist", "<plist><dict/></plist>")
        fixture.write("Coins/Coins.csproj", "<Project><PropertyGroup><ApplicationTitle>Coin Jar</ApplicationTitle><ApplicationId>com.acme.maui</ApplicationId></PropertyGroup></Project>")
        survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.infoPlist == "Coins/Platforms/iOS/Info.plist")
        #expect(survey.entitlements == "Coins/Platforms/iOS/Entitlements.plist")
        #expect(survey.projectName == "Coin Jar")
    }

    /// A Xamarin app signed with automatic provisioning and a generic identity: the team is
    /// chosen in the IDE, and the descriptor says so.
    @Test func aXamarinAppWithAutomaticSigningAsksForItsTeam() {
        let fixture = ProjectFixture()
        fixture.write("Coins.iOS/Coins.iOS.csproj", """
            <Project><PropertyGroup><ProvisioningType>automatic</ProvisioningType></PropertyGroup>
            <PropertyGroup><CodesignKey>iPhone Developer</CodesignKey></PropertyGroup></Project>
            """)
        fixture.write("Coins.iOS/Info.plist", "<plist><dict><key>CFBundleIdentifier</key><string>com.acme.coins</string></dict></plist>")
        fixture.write("Coins/Billing.cs", "using Plugin.InAppBilling;\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == "com.acme.coins")
        #expect(survey.teamID == nil)
        #expect(survey.unresolved[XcodeProject.SettingKey.developmentTeam]
            == "`<ProvisioningType>automatic</ProvisioningType>` and `<CodesignKey>iPhone Developer</CodesignKey>` in Coins.iOS/Coins.iOS.csproj: the team is the one chosen in the IDE (iOS Bundle Signing), not written in the project")
    }
}

extension CrossPlatformInitTests {
    @Test(arguments: [
        ("capacitor.config.json", #"{ "appId": "com.acme.cap", "appName": "Coins", "webDir": "dist" }"#, "com.acme.cap"),
        ("capacitor.config.ts", "const config: CapacitorConfig = {\n  appId: 'com.acme.capts',\n  webDir: 'dist',\n};\n", "com.acme.capts"),
        ("config.xml", #"<?xml version='1.0'?><widget id="com.acme.cordova" ios-CFBundleIdentifier="com.acme.cordova.ios" version="1.0.0"></widget>"#, "com.acme.cordova.ios"),
    ])
    func capacitorAndCordovaAppsWithoutTheirIOSFolder(_ file: String, _ text: String, _ bundleID: String) {
        let fixture = ProjectFixture()
        fixture.write(file, text)
        fixture.write("src/app.ts", "export {};\n")
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        #expect(survey.bundleID == bundleID)
        #expect(survey.bundleIDReason?.contains(file) == true)
        // The framework's own tool writes the Xcode project, never Expo's.
        let tool = file == "config.xml" ? "`cordova platform add ios`" : "`npx cap add ios`"
        #expect(survey.bundleIDReason?.hasSuffix(tool + " writes the Xcode project") == true, "\(survey.bundleIDReason ?? "")")
        #expect(survey.bundleIDReason?.contains("expo") == false)
    }
}

extension CrossPlatformInitTests {
    /// A monorepo: the app's sibling packages are sources, inside the repository only.
    @Test func theSiblingPackagesAnAppDependsOn() throws {
        let fixture = ProjectFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder + "/.git", withIntermediateDirectories: true)
        fixture.write("apps/mobile/pubspec.yaml", """
            name: mobile
            dependencies:
              flutter:
                sdk: flutter
              store_ids:
                path: ../../packages/store_ids
              outside:
                path: ../../../elsewhere
            dev_dependencies:
              test_helpers:
                path: ../../packages/test_helpers
            """)
        fixture.write("apps/mobile/lib/main.dart", "void main() {}\n")
        fixture.write("packages/store_ids/lib/ids.dart", "const kPro = 'com.acme.pro';\n")
        fixture.write("packages/test_helpers/lib/h.dart", "void h() {}\n")
        fixture.write("package.json", #"{ "private": true, "workspaces": ["apps/*", "libs/*"] }"#)
        fixture.write("apps/web/package.json", #"{ "name": "web", "dependencies": { "@acme/iap": "workspace:*", "react": "^18.0.0", "local-kit": "file:../../kits/local" } }"#)
        fixture.write("apps/web/src/index.ts", "export {};\n")
        fixture.write("libs/iap/package.json", #"{ "name": "@acme/iap" }"#)
        fixture.write("libs/iap/src/skus.ts", "export const SKUS = ['com.acme.web.pro'];\n")
        fixture.write("kits/local/index.ts", "export {};\n")
        #expect(ProjectSurvey.survey(directory: fixture.folder + "/apps/mobile").sources == ["lib", "../../packages/store_ids/lib"])
        #expect(ProjectSurvey.survey(directory: fixture.folder + "/apps/web").sources == ["src", "../../kits/local", "../../libs/iap/src"])
    }
}

extension CrossPlatformInitTests {
    /// Without an Xcode project, a `project.yaml` is an XcodeGen spec only if `init` did not write
    /// it: a second `init --force` replaces its own descriptor.
    @Test func aDescriptorInitWroteIsNotAnXcodeGenSpec() throws {
        let fixture = ProjectFixture()
        fixture.write("app.json", #"{ "expo": { "ios": { "bundleIdentifier": "com.acme.coins" } } }"#)
        let survey = ProjectSurvey.survey(directory: fixture.folder)
        let text = StarterDescriptor.render(survey, name: "Coins", surveyedFolder: fixture.folder, descriptorFolder: fixture.folder, projectRoot: nil)
        fixture.write("project.yaml", text)
        let again = ProjectSurvey.survey(directory: fixture.folder)
        #expect(again.xcodeproj == nil)
        #expect(again.bundleID == "com.acme.coins")
        // The command itself, twice.
        #expect(try runReport(["init", ".", "--force"], in: fixture.folder).status == 0)
        #expect(try runReport(["init", ".", "--force"], in: fixture.folder).status == 0)
    }
}

extension CrossPlatformInitTests {
    /// In a Flutter app the plugin, not the app's code, chooses StoreKit 1 or 2: the question says so.
    @Test func theStoreKitQuestionNamesThePlugin() {
        let fixture = ProjectFixture()
        fixture.write("project.yaml", """
            version: 1
            app:
              name: Coins
              platform: ios
              bundle_id: com.acme.coins
              deployment_target: "13.0"
              sources: [lib]
            """)
        fixture.write("lib/store.dart", """
            import 'package:in_app_purchase/in_app_purchase.dart';
            Future<void> load() async { await InAppPurchase.instance.queryProductDetails({'com.acme.coins.pro'}); }
            """)
        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: [fixture.folder + "/project.yaml"]))
        let questions = diagnosis.checklist.first { $0.item.id == "os-version" }?.questions.map(\.question) ?? []
        #expect(questions.contains { $0.hasPrefix("Which StoreKit does `in_app_purchase` call in this build") }, "\(questions)")
    }
}

/// The plugin versions a manifest or lock file pins, where the version alone says StoreKit 1.
@Suite struct LockedVersionTests {
    @Test func rangesThatFixAMajor() {
        #expect(LockedVersions.pinnedMajor("^4.4.0") == 4)
        #expect(LockedVersions.pinnedMajor("~12.10.2") == 12)
        #expect(LockedVersions.pinnedMajor("10.1") == 10)
        #expect(LockedVersions.pinnedMajor(">=4.0.0") == nil)
        #expect(LockedVersions.pinnedMajor("^4.0.0 || ^12.0.0") == nil)
        #expect(LockedVersions.pinnedMajor("github:dooboolab/react-native-iap") == nil)
        #expect(LockedVersions.pinnedMajor("0.9.0") == nil)
    }

    @Test func pubVersionsCompareWithTheirBuildNumber() {
        #expect(LockedVersions.isBefore("0.3.6+1", "0.3.18+1"))
        #expect(LockedVersions.isBefore("0.3.18", "0.3.18+1"))
        #expect(!LockedVersions.isBefore("0.3.18+1", "0.3.18+1"))
        #expect(!LockedVersions.isBefore("0.4.0", "0.3.18+1"))
    }

    @Test func aLockFileOrAManifestPinsStoreKit1() {
        let app = FixtureFolder("locked")
        app.write("lib/main.dart", "import 'package:in_app_purchase/in_app_purchase.dart';\n")
        app.write("pubspec.lock", """
            packages:
              in_app_purchase:
                dependency: "direct main"
                version: "3.1.5"
              in_app_purchase_storekit:
                dependency: transitive
                version: "0.3.6+1"
            """)
        #expect(LockedVersions.storeKit1Only(["in_app_purchase"], roots: [app.folder + "/lib"])
            == ["in_app_purchase": "pubspec.lock locks in_app_purchase_storekit 0.3.6+1"])
        app.write("pubspec.lock", "packages:\n  in_app_purchase_storekit:\n    version: \"0.4.0\"\n")
        #expect(LockedVersions.storeKit1Only(["in_app_purchase"], roots: [app.folder + "/lib"]).isEmpty)
        let script = FixtureFolder("locked-js")
        script.write("package.json", #"{ "dependencies": { "react-native-iap": "^4.4.0" } }"#)
        #expect(LockedVersions.storeKit1Only(["react-native-iap"], roots: [script.folder + "/src"]) == ["react-native-iap": "package.json pins react-native-iap ^4.4.0"])
        script.write("package.json", #"{ "dependencies": { "react-native-iap": "^12.10.0" } }"#)
        #expect(LockedVersions.storeKit1Only(["react-native-iap"], roots: [script.folder + "/src"]).isEmpty)
    }
}
