import CodeScanner
import Foundation
import IAPDoctor
import Testing
import TestSupport

/// `file:line:column id api via` for each request.
private func rows(_ scan: SourceScan) -> [String] {
    scan.requests.map { "\($0.location) \($0.id) \($0.api) \($0.viaConstant ?? "-")" }
}

/// `file:line:column kind api | argument` for each call site that could not be resolved.
private func notes(_ scan: SourceScan) -> [String] {
    scan.unresolved.map { "\($0.location) \($0.kind.rawValue) \($0.api) | \($0.argument)" }
}

private func ids(_ scan: SourceScan) -> [String] { scan.requests.map(\.id) }

/// The fixtures below are written for these tests, each in the shape of a real app's store code
/// (Apple's sample, an open-source Mastodon client, a chat app) without copying it.
@Suite("Source scanner entry points")
struct EntryPointTests {
    @Test func storeKitViews() {
        let source = #"""
        import StoreKit
        import SwiftUI

        enum Shop { static let seeds = "com.x.seeds" }

        struct Shelf: View {
            @Binding var chosen: String
            var body: some View {
                StoreView(ids: ["com.x.nectar", Shop.seeds])
                ProductView(id: Shop.seeds)
                StoreKit.ProductView(id: chosen)
                SubscriptionStoreView(productIDs: ["com.x.pass.monthly"])
                SubscriptionStoreView(groupID: "21430001")
            }
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Shelf.swift")
        #expect(rows(scan) == [
            "Shelf.swift:4:32 com.x.seeds ProductView(id:) Shop.seeds",
            "Shelf.swift:4:32 com.x.seeds StoreView(ids:) Shop.seeds",
            "Shelf.swift:9:25 com.x.nectar StoreView(ids:) -",
            "Shelf.swift:12:44 com.x.pass.monthly SubscriptionStoreView(productIDs:) -",
        ])
        // A group ID is a group, not a requested product.
        #expect(scan.subscriptionGroups.map(\.groupID) == ["21430001"])
        #expect(notes(scan) == ["Shelf.swift:11:9 unresolved ProductView(id:) | chosen"])
        #expect(scan.unresolved.first?.reason == "`chosen` is not a constant iapdoctor can follow")
        #expect(scan.usesStoreKit2)
        #expect(scan.importedLibraries == ["StoreKit"])
    }

    /// Apple's sample shape: the app's own function hands its parameter to StoreKit, and its call
    /// sites carry the IDs (a literal array in one file, constants through an instance in another).
    @Test func wrapperFunctionsOneLevelDeep() throws {
        let store = #"""
        import StoreKit

        final class Store {
            var products: [Product] = []
            func requestProducts(_ ids: [String]) async {
                products = (try? await Product.products(for: ids)) ?? []
            }
            func legacy(identifiers: Set<String>) {
                let request = SKProductsRequest(productIdentifiers: identifiers)
                request.start()
            }
            func unused(for ids: [String]) async throws -> [Product] {
                try await Product.products(for: Set(ids))
            }
        }
        """#
        let screen = #"""
        struct Paywall {
            let store: Store
            private let tiers = ["com.x.tier.gold", "com.x.tier.silver"]
            func load() async {
                await store.requestProducts(["com.x.lifetime"])
                await store.requestProducts(tiers)
                store.legacy(identifiers: ["com.x.legacy"])
            }
        }
        """#
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write(store, to: root + "/Store.swift")
        try write(screen, to: root + "/Paywall.swift")
        let scan = SourceScanner.scan(paths: ["."], baseDirectory: root)
        #expect(ids(scan).sorted() == ["com.x.legacy", "com.x.lifetime", "com.x.tier.gold", "com.x.tier.silver"])
        #expect(scan.requests.first { $0.id == "com.x.lifetime" }?.wrapper == "requestProducts(_:)")
        #expect(scan.requests.first { $0.id == "com.x.legacy" }?.api == "SKProductsRequest(productIdentifiers:)")
        // The wrapper nobody calls is named, at its declaration.
        #expect(notes(scan) == ["\(root)/Store.swift:12:10 wrapperWithoutCalls unused(for:) → Product.products(for:) | "])
    }

    @Test func interpolationAndConcatenationWithKnownParts() {
        let source = #"""
        enum IDs {
            static let prefix = "com.x"
            static let bundle = "com.x.app"
            static let consumables = [bundle + ".coins"]
            static let subscriptions = ["\(prefix).monthly", "\(prefix).yearly"]
            static let all = consumables + subscriptions
        }
        func load(tier: String) async throws {
            _ = try await Product.products(for: IDs.all)
            _ = try await Product.products(for: ["\(IDs.prefix).pro", IDs.bundle + "." + "gold", "com.x.\(tier)"])
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "IDs.swift")
        #expect(ids(scan).sorted() == ["com.x.app.coins", "com.x.app.gold", "com.x.monthly", "com.x.pro", "com.x.yearly"])
        // `tier` is a parameter: that one element is named in a note, the others are kept.
        #expect(notes(scan) == ["IDs.swift:10:19 partial Product.products(for:) | [\"\\(IDs.prefix).pro\", IDs.bundle + \".\" + \"gold\", \"com.x.\\(tier)\"]"])
    }

    /// The tip-jar shape: `allCases.map(\.productID)` through an enum's computed property that
    /// interpolates its raw value, handed to RevenueCat.
    @Test func enumComputedPropertiesAndRevenueCat() {
        let source = #"""
        import RevenueCat

        enum Tip: String, CaseIterable {
            case small, large, supporter
            var productID: String { "com.x.tips.\(rawValue)" }
        }

        func loadTips() {
            Purchases.shared.getProducts(Tip.allCases.map(\.productID)) { _ in }
            Purchases.shared.getProducts([Tip.supporter.productID]) { _ in }
            Purchases.shared.getOfferings { _, _ in }
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Tips.swift")
        #expect(Set(ids(scan)) == ["com.x.tips.small", "com.x.tips.large", "com.x.tips.supporter"])
        #expect(scan.requests.allSatisfy { $0.api == "Purchases.shared.getProducts(_:)" })
        #expect(notes(scan) == ["Tips.swift:11:5 offerings Purchases.shared.getOfferings(completion:) | "])
        #expect(scan.importedLibraries == ["RevenueCat"])
    }

    @Test func swiftyStoreKit() {
        let source = #"""
        import SwiftyStoreKit
        let sharedSecret = "0123456789abcdef0123456789abcdef"
        func buy() {
            SwiftyStoreKit.retrieveProductsInfo(["com.x.pro", "com.x.coins"]) { _ in }
            SwiftyStoreKit.purchaseProduct("com.x.pro", quantity: 1) { _ in }
            _ = AppleReceiptValidator(service: .production, sharedSecret: "fedcba9876543210fedcba9876543210")
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Buy.swift")
        #expect(rows(scan) == [
            "Buy.swift:4:42 com.x.pro SwiftyStoreKit.retrieveProductsInfo(_:) -",
            "Buy.swift:4:55 com.x.coins SwiftyStoreKit.retrieveProductsInfo(_:) -",
            "Buy.swift:5:36 com.x.pro SwiftyStoreKit.purchaseProduct(_:) -",
        ])
        // Where the secrets are, under which name: never their value.
        #expect(scan.secrets.map { "\($0.location) \($0.name)" } == ["Buy.swift:2:20 sharedSecret", "Buy.swift:6:67 sharedSecret"])
    }

    /// A `guard let` of the same name hides the type's empty placeholder: the IDs come from the
    /// server, so the call site is named instead of silently resolving to nothing.
    @Test func shadowingBindingsAndEmptyPlaceholders() {
        let source = #"""
        struct Form {
            var productIDs: [String] = []
            func load(session: Session) async {
                guard let productIDs = session.productIDs() else { return }
                _ = try? await Product.products(for: productIDs)
            }
            func reload() async {
                _ = try? await Product.products(for: productIDs)
            }
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Form.swift")
        #expect(scan.requests.isEmpty)
        #expect(notes(scan) == [
            "Form.swift:5:24 unresolved Product.products(for:) | productIDs",
            "Form.swift:8:24 empty Product.products(for:) | productIDs",
        ])
    }

    @Test func importsOfEveryKind() {
        #expect(SourceScanner.scan(source: "@preconcurrency import StoreKit\n", file: "A.swift").importedLibraries == ["StoreKit"])
        #expect(SourceScanner.scan(source: "import class RevenueCat.Purchases\n", file: "A.swift").importedLibraries == ["RevenueCat"])
        #expect(SourceScanner.scan(source: "#import <StoreKit/StoreKit.h>\n", file: "A.m").importedLibraries == ["StoreKit"])
        #expect(SourceScanner.scan(source: "#import \"MKStoreKit.h\"\n#define kSharedSecret @\"0123456789abcdef0123456789abcdef\"\n", file: "A.h").importedLibraries == ["MKStoreKit"])
        let plain = SourceScanner.scan(source: "import SwiftUI\nlet storeKitNote = \"import StoreKit\"\n", file: "A.swift")
        #expect(plain.importedLibraries.isEmpty)
        #expect(!plain.mentionsInAppPurchase)
        let secret = SourceScanner.scan(source: "#define kSharedSecret @\"0123456789abcdef0123456789abcdef\"\n", file: "Config.h")
        #expect(secret.secrets.map(\.name) == ["kSharedSecret"])
    }

    /// One file reached by 200 hard links (and a symbolic link) is read and scanned once.
    @Test func aFileReachedByManyNamesIsScannedOnce() throws {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("import StoreKit\nfunc load() async throws { _ = try await Product.products(for: [\"com.x.one\"]) }\n", to: root + "/App/Store.swift")
        for k in 0..<200 { try FileManager.default.linkItem(atPath: root + "/App/Store.swift", toPath: root + "/App/Copy\(k).swift") }
        try FileManager.default.createSymbolicLink(atPath: root + "/App/Link.swift", withDestinationPath: root + "/App/Store.swift")
        let scan = SourceScanner.scan(paths: ["App"], baseDirectory: root)
        #expect(scan.filesScanned == 1)
        #expect(scan.requests.count == 1)
    }

    @Test func libraryConfigurationFilesAreFound() throws {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("import StoreKit\n", to: root + "/App/Store.swift")
        try write("<plist/>", to: root + "/App/Vendor/MKStoreKitConfigs.plist")
        // The library's own request is fed from that file: no note for it. The app's own is noted.
        let request = "- (void)load {\n    [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:ids]];\n}\n"
        try write(request, to: root + "/App/Vendor/MKStoreManager.m")
        try write(request, to: root + "/App/Shop.m")
        let scan = SourceScanner.scan(paths: ["App"], baseDirectory: root)
        #expect(scan.libraryConfigurationFiles == ["\(root)/App/Vendor/MKStoreKitConfigs.plist"])
        #expect(scan.unresolved.map { ($0.location.file as NSString).lastPathComponent } == ["Shop.m"])
    }
}

@Suite("Product ID lists in dictionary form")
struct ProductIDListFormTests {
    /// StoreHelper's layout: products in an array, subscriptions in groups with a name.
    @Test func productsAndSubscriptionGroups() throws {
        let path = try temporaryFile("Products.plist", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>Products</key><array><string>com.x.flowers</string><string>com.x.plant</string></array>
          <key>Subscriptions</key><array>
            <dict><key>Group</key><string>vip</string><key>Products</key><array><string>com.x.vip.gold</string></array></dict>
            <dict><key>Group</key><string>standard</string><key>Products</key><array><string>com.x.green</string></array></dict>
          </array>
        </dict></plist>
        """)
        #expect(try ProductIDList.load(path: path).map(\.value) == ["com.x.flowers", "com.x.plant", "com.x.vip.gold", "com.x.green"])
    }

    /// MKStoreKit's layout: consumables and subscriptions keyed by product ID, a shared secret
    /// beside them that must never become a "requested product".
    @Test func idKeyedDictionariesAndSecrets() throws {
        let path = try temporaryFile("MKStoreKitConfigs.plist", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>Consumables</key><dict>
            <key>com.x.coins500</key><dict><key>Count</key><integer>500</integer><key>Name</key><string>Basket</string></dict>
          </dict>
          <key>Non-Consumables</key><array><string>com.x.pro</string></array>
          <key>Subscriptions</key><dict><key>com.x.weekly</key><integer>7</integer></dict>
          <key>Others</key><array><string>com.x.other</string></array>
          <key>SharedSecret</key><string>0123456789abcdef0123456789abcdef</string>
        </dict></plist>
        """)
        let contents = try ProductIDList.read(path: path)
        #expect(contents.ids.map(\.value) == ["com.x.coins500", "com.x.pro", "com.x.weekly", "com.x.other"])
        #expect(contents.secrets.map { "\($0.location.line) \($0.name)" } == ["9 SharedSecret"])
    }

    @Test func flatDictionariesSkipSecretsAndKeys() throws {
        let path = try temporaryFile("Config.plist", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>pro</key><string>com.x.pro</string>
          <key>SharedSecret</key><string>0123456789abcdef0123456789abcdef</string>
          <key>revenueCatAPIKey</key><string>appl_notAProductID</string>
        </dict></plist>
        """)
        let contents = try ProductIDList.read(path: path)
        #expect(contents.ids.map(\.value) == ["com.x.pro"])
        #expect(contents.secrets.count == 1)
    }

    @Test func nestedJSONAndEmptyLists() throws {
        let json = try temporaryFile("iap.json", #"{"inAppPurchases": {"consumables": ["com.x.a"], "non_consumables": [{"productId": "com.x.b"}]}, "apiKey": "0123456789abcdef0123456789abcdef"}"#)
        #expect(try ProductIDList.load(path: json).map(\.value) == ["com.x.a", "com.x.b"])
        let empty = try temporaryFile("Empty.plist", "<plist version=\"1.0\"><dict><key>Products</key><array/></dict></plist>")
        #expect(try ProductIDList.load(path: empty).isEmpty)
    }
}

@Suite("What the scan could not tell, in the output")
struct SourceFindingTests {
    /// The committed secret is reported at its file (no source line is shown) and no output format
    /// carries any part of the value.
    @Test func theSharedSecretIsNeverPrinted() throws {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let secret = "0123456789abcdef0123456789abcdef"
        try write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>Products</key><array><string>com.x.pro</string></array>
          <key>SharedSecret</key><string>\(secret)</string>
        </dict></plist>
        """, to: root + "/Store.plist")
        try write("version: 1\napp:\n  product_id_lists: [Store.plist]\n", to: root + "/project.yaml")
        for format in ["text", "json", "sarif", "github", "markdown"] {
            let (output, status, _) = try runIAPDoctor(["check", root + "/project.yaml", "--format", format, "--fail-on", "never"])
            #expect(status == 0)
            #expect(output.contains("committed-shared-secret"), "\(format)")
            #expect(!output.contains(secret) && !output.contains(String(secret.suffix(4))), "\(format) shows the secret")
        }
    }

    @Test func aTypoInSourcesStopsTheRunWithAPositionedError() throws {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("version: 1\napp:\n  sources: [Sorces]\n", to: root + "/project.yaml")
        let (output, status, _) = try runIAPDoctor(["check", root + "/project.yaml"])
        #expect(status == 2)
        #expect(output.contains("cannot read `Sorces`: no such file or folder"))
        #expect(output.contains("project.yaml:3:"))
    }
}

private func makeTemporaryFolder() -> String {
    let path = FileManager.default.temporaryDirectory.path + "/iapdoctor-entry-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

private func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

private func temporaryFile(_ name: String, _ text: String) throws -> String {
    let path = makeTemporaryFolder() + "/" + name
    try write(text, to: path)
    return path
}

@Suite("Product ID lists keyed by ID")
struct KeyedProductIDListTests {
    /// A tip jar's plist: the keys are the IDs, the values what the app shows. The values are never
    /// taken for IDs; a plist whose values are the IDs is still read by its values.
    @Test func keysOrValuesByTheirShape() throws {
        let keyed = try temporaryFile("Products.plist", """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>com.acme.tip.small</key><string>☕️ Small tip</string>
          <key>com.acme.tip.large</key><string>🍰 Large tip</string>
        </dict></plist>
        """)
        #expect(try ProductIDList.load(path: keyed).map(\.value) == ["com.acme.tip.small", "com.acme.tip.large"])
        let dotted = try temporaryFile("Candy.plist", """
        <plist version="1.0"><dict><key>candy.lollipop</key><string>Lollipop</string></dict></plist>
        """)
        #expect(try ProductIDList.load(path: dotted).map(\.value) == ["candy.lollipop"])
        let named = try temporaryFile("IDs.plist", """
        <plist version="1.0"><dict><key>pro</key><string>com.acme.pro</string><key>gold</key><string>com.acme.gold</string></dict></plist>
        """)
        #expect(try ProductIDList.load(path: named).map(\.value) == ["com.acme.pro", "com.acme.gold"])
    }
}
