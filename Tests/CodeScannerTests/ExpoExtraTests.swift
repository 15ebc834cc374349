import CodeScanner
import Foundation
import Testing
import TestSupport

/// `Constants.expoConfig.extra.NAME` reads the `extra` entry of the app's Expo config (app.json,
/// app.config.js or .ts), whose value may itself come from an `.env` file.
@Suite("Expo extra")
struct ExpoExtraTests {
    static func scan(_ files: [String: String], sources: [String] = ["src"]) throws -> SourceScan {
        let folder = try makeScratchFolder("expo-extra")
        defer { removeScratch(folder) }
        for (path, text) in files {
            let full = folder + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
        var scan = SourceScanner.scan(paths: sources, baseDirectory: folder, root: folder, platform: "ios")
        // Paths from the folder, so expectations do not depend on where it is.
        scan.revenueCat = scan.revenueCat.map { reference in
            var shown = reference
            shown.location.file = String(reference.location.file.dropFirst(folder.count + 1))
            return shown
        }
        scan.requests = scan.requests.map { request in
            var shown = request
            shown.location.file = String(request.location.file.dropFirst(folder.count + 1))
            return shown
        }
        return scan
    }

    static let purchases = """
        import Purchases from 'react-native-purchases';
        import Constants from 'expo-constants';
        export function start() {
          Purchases.configure({ apiKey: Constants.expoConfig?.extra?.revenueCatIosKey ?? '' });
        }
        """

    @Test func aKeyInAppJSON() throws {
        let scan = try Self.scan([
            "app.json": #"{ "expo": { "name": "Sprout", "extra": { "revenueCatIosKey": "appl_SYNTHETICextra01", "eas": { "projectId": "x" } } } }"#,
            "src/purchases.ts": Self.purchases,
        ])
        #expect(scan.revenueCat.map { "\($0.location.file):\($0.location.line) \($0.value ?? "?")" } == ["app.json:1 appl_SYNTHETICextra01"])
    }

    @Test func aKeyInAppConfigFromAnEnvFile() throws {
        let scan = try Self.scan([
            "app.config.ts": """
                export default ({ config }) => ({
                  ...config,
                  extra: {
                    eas: { projectId: 'x' },
                    revenueCatIosKey: process.env.REVENUECAT_IOS_KEY,
                  },
                });
                """,
            ".env": "REVENUECAT_IOS_KEY=appl_SYNTHETICextra02\n",
            "src/purchases.ts": Self.purchases,
        ])
        #expect(scan.revenueCat.map { "\($0.location.file):\($0.location.line) \($0.value ?? "?")" } == [".env:1 appl_SYNTHETICextra02"])
    }

    @Test func aKeyFromTheBuildEnvironmentIsUnknown() throws {
        let scan = try Self.scan([
            "app.config.js": "module.exports = { expo: { extra: { revenueCatIosKey: process.env.REVENUECAT_IOS_KEY } } };\n",
            "src/purchases.ts": Self.purchases,
        ])
        #expect(scan.revenueCat.map { $0.value ?? "?" } == ["?"])
    }

    @Test func productIDsInExtra() throws {
        let scan = try Self.scan([
            "app.json": #"{ "expo": { "extra": { "skus": ["com.example.sprout.seeds", "com.example.sprout.pro"] } } }"#,
            "src/shop.ts": """
                import { getProducts } from 'react-native-iap';
                import Constants from 'expo-constants';
                export const load = () => getProducts({ skus: Constants.expoConfig.extra.skus });
                """,
        ])
        #expect(scan.requests.map { "\($0.location.file) \($0.id)" } == ["app.json com.example.sprout.seeds", "app.json com.example.sprout.pro"])
    }
}
