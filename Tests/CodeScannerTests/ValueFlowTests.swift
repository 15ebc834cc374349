import CodeScanner
import Testing

/// `file:line id` for each requested ID: the form value-flow expectations are written in.
func requestedIDs(_ files: [(file: String, text: String)], platform: String? = nil, bundleIdentifier: String? = nil) -> [String] {
    SourceScanner.scan(sources: files, platform: platform, bundleIdentifier: bundleIdentifier).requests
        .map { "\($0.location.file):\($0.location.line) \($0.id)" }
}

/// Each unresolved call site's note, as `file:line kind: reason`.
func unresolvedNotes(_ files: [(file: String, text: String)]) -> [String] {
    SourceScanner.scan(sources: files).unresolved.map { "\($0.location.file):\($0.location.line) \($0.kind.rawValue): \($0.reason)" }
}

/// Each shape is one an app sells through; every expectation is the exact list of IDs and the
/// lines their literals are on.
@Suite("Value flow")
struct ValueFlowTests {
    /// A list that lost elements iapdoctor cannot tell has no known positions: an index into it
    /// is unknown with the reason, never the element that happens to sit there among the known
    /// ones; and every call site reading such a constant is told, not only the first.
    @Test func anIndexIntoAListWithUnknownElementsIsUnknown() {
        let swift = [("Store.swift", #"""
        import StoreKit
        let ids = [remoteID(), "com.shop.coins"]
        func load() async throws {
            _ = try await Product.products(for: [ids[0]])
            _ = try await Product.products(for: [ids[1]])
            _ = try await Product.products(for: ids)
        }
        """#)]
        #expect(requestedIDs(swift) == ["Store.swift:2 com.shop.coins"])
        #expect(unresolvedNotes(swift) == [
            "Store.swift:4 unresolved: `remoteID(…)` is computed by a call",
            "Store.swift:5 unresolved: `remoteID(…)` is computed by a call",
            "Store.swift:6 partial: 1 element of `ids` could not be resolved (`remoteID(…)` is computed by a call)",
        ])
        let script = [("src/store.ts", #"""
        import { Platform } from 'react-native';
        import { getProducts, requestPurchase } from 'react-native-iap';
        const itemSkus = Platform.select({ ios: [...remoteSkus(), 'com.shop.coins'], android: ['coins'] });
        export async function load() {
          await getProducts({ skus: itemSkus });
          await requestPurchase({ sku: itemSkus[0] });
        }
        """#)]
        #expect(requestedIDs(script) == ["src/store.ts:3 com.shop.coins"])
        #expect(unresolvedNotes(script) == [
            "src/store.ts:5 partial: 1 element of `itemSkus` could not be resolved (`remoteSkus(…)` is computed by a call)",
            "src/store.ts:6 unresolved: `remoteSkus(…)` is computed by a call",
        ])
    }

    @Test func dictionaryKeysReachTheFetch() {
        let files = [("Tips.swift", #"""
        import StoreKit
        let tipNames: [String: String] = [
            "com.acme.tip.small": "Small tip",
            "com.acme.tip.large": "Large tip",
        ]
        func load() async throws {
            _ = try await Product.products(for: Set(tipNames.keys))
        }
        """#)]
        #expect(requestedIDs(files) == ["Tips.swift:3 com.acme.tip.small", "Tips.swift:4 com.acme.tip.large"])
    }

    @Test func enumPropertyThatSwitchesOverItsCases() {
        let files = [("Plan.swift", #"""
        enum Plan: CaseIterable {
            case monthly, annual
            var identifier: String {
                switch self {
                case .monthly: return "com.acme.plan.monthly"
                case .annual:
                    return "com.acme.plan.annual"
                }
            }
            static var allIdentifiers: [String] { allCases.map(\.identifier) }
        }
        """#), ("Store.swift", #"""
        import StoreKit
        func loadPlans() async throws {
            _ = try await Product.products(for: Set(Plan.allIdentifiers))
            _ = try await Product.products(for: Plan.allCases.map { plan in plan.identifier })
        }
        func buyAnnual() async throws {
            _ = try await Product.products(for: [Plan.annual.identifier])
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Plan.swift:5 com.acme.plan.monthly",
            "Plan.swift:7 com.acme.plan.annual",
        ])
        // The single case gives only its own clause.
        let single = SourceScanner.scan(sources: files).requests.filter { $0.location.line == 7 }
        #expect(single.count == 1)
        #expect(unresolvedNotes(files).isEmpty)
    }

    @Test func switchExpressionsAndDefaultClauses() {
        let files = [("Tier.swift", #"""
        import StoreKit
        enum Tier: CaseIterable {
            case basic, plus, family
            var productID: String {
                switch self {
                case .basic: "com.acme.basic"
                default: "com.acme.premium"
                }
            }
        }
        func load() async throws {
            _ = try await Product.products(for: [Tier.plus.productID, Tier.basic.productID])
        }
        """#)]
        #expect(requestedIDs(files) == ["Tier.swift:6 com.acme.basic", "Tier.swift:7 com.acme.premium"])
    }

    @Test func setsBuiltInBodiesAndClosures() {
        let files = [("IDs.swift", #"""
        import StoreKit
        enum StoreIDs {
            static let subscriptionIDs: Set<String> = ["com.acme.sub.month", "com.acme.sub.year"]
            static let lifetimeID = "com.acme.lifetime"
            static var everything: Set<String> {
                var ids = subscriptionIDs
                ids.insert(lifetimeID)
                return ids
            }
            static let tips: [String] = {
                var list = [String]()
                list.append("com.acme.tip.1")
                list += ["com.acme.tip.2"]
                return list
            }()
            static func consumables() -> [String] { ["com.acme.coins"] + tips }
        }
        func load() async throws {
            _ = try await Product.products(for: StoreIDs.everything)
            _ = try await Product.products(for: StoreIDs.consumables())
        }
        """#)]
        #expect(requestedIDs(files) == [
            "IDs.swift:3 com.acme.sub.month",
            "IDs.swift:3 com.acme.sub.year",
            "IDs.swift:4 com.acme.lifetime",
            "IDs.swift:12 com.acme.tip.1",
            "IDs.swift:13 com.acme.tip.2",
            "IDs.swift:16 com.acme.coins",
        ])
    }

    @Test func reduceUnionAndLoops() {
        let files = [("Catalog.swift", #"""
        import StoreKit
        enum Pack: String, CaseIterable {
            case small = "com.acme.pack.small"
            case large = "com.acme.pack.large"
            var productID: String { rawValue }
        }
        let extras: Set<String> = ["com.acme.extra"]
        func load() async throws {
            let packs = Pack.allCases.reduce(into: Set<String>()) { $0.insert($1.rawValue) }
            _ = try await Product.products(for: packs.union(extras))
        }
        func loadInLoop() async throws {
            var ids: [String] = []
            for pack in Pack.allCases where pack != .small {
                ids.append(pack.productID)
            }
            _ = try await Product.products(for: ids)
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Catalog.swift:3 com.acme.pack.small",
            "Catalog.swift:4 com.acme.pack.large",
            "Catalog.swift:7 com.acme.extra",
        ])
    }

    @Test func localsChangedBeforeTheCall() {
        let files = [("Paywall.swift", #"""
        import StoreKit
        final class Paywall {
            var showsLifetime = true
            func load() async throws {
                var ids: Set<String> = ["com.acme.month"]
                if showsLifetime {
                    ids.insert("com.acme.lifetime")
                }
                Task {
                    ids.formUnion(["com.acme.week"])
                    _ = try await Product.products(for: ids)
                }
            }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Paywall.swift:5 com.acme.month",
            "Paywall.swift:7 com.acme.lifetime",
            "Paywall.swift:10 com.acme.week",
        ])
    }

    @Test func parametersResolvedThroughTheirCallSites() {
        let files = [("StoreID.swift", #"""
        enum StoreID: String, CaseIterable {
            case pro = "com.acme.pro"
            case lifetime = "com.acme.lifetime"
            case legacy = "com.acme.legacy"
        }
        """#), ("Store.swift", #"""
        import StoreKit
        final class Store {
            func fetch(_ identifiers: [StoreID]) async throws -> [Product] {
                try await Product.products(for: Set(identifiers.map { $0.rawValue }))
            }
        }
        """#), ("Paywall.swift", #"""
        final class Paywall {
            let store = Store()
            func appear() async throws {
                _ = try await store.fetch([.pro, .lifetime])
            }
        }
        """#)]
        // `legacy` is a case no call passes: not requested.
        #expect(requestedIDs(files) == ["StoreID.swift:2 com.acme.pro", "StoreID.swift:3 com.acme.lifetime"])
        #expect(unresolvedNotes(files).isEmpty)
    }

    @Test func wrappersOfWrappers() {
        let files = [("Kettle.swift", #"""
        import StoreKit
        final class Kettle {
            var task: Task<Void, Never>?
            func begin(_ ids: [String]) {
                task = Task { _ = await self.load(ids) }
            }
            func load(_ ids: [String]) async -> [Product]? {
                let wanted = Set<String>(ids)
                return try? await Product.products(for: wanted)
            }
        }
        final class Home {
            func start() { Kettle().begin(["com.acme.tip.one", "com.acme.tip.two"]) }
        }
        """#), ("Gifts.swift", #"""
        import SwiftyStoreKit
        final class Till {
            static let shared = Till()
            static let bundles = ["com.acme.bundle.a", "com.acme.bundle.b"]
            func purchaseCoins(_ id: String, user: String) {
                SwiftyStoreKit.purchaseProduct(id, quantity: 1, atomically: false, applicationUsername: user) { _ in }
            }
        }
        final class CoinScreen {
            func tap(row: Int) { purchaseCoins(id: Till.bundles[row]) }
            func purchaseCoins(id: String) { Till.shared.purchaseCoins(id, user: "u") }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Gifts.swift:4 com.acme.bundle.a",
            "Gifts.swift:4 com.acme.bundle.b",
            "Kettle.swift:13 com.acme.tip.one",
            "Kettle.swift:13 com.acme.tip.two",
        ])
        #expect(unresolvedNotes(files).isEmpty)
    }

    @Test func platformBranchesChooseThePrefix() {
        let files = [("Store.swift", #"""
        import StoreKit
        enum Prefix {
            #if os(macOS)
            static let value = "com.acme.mac"
            #else
            static let value = "com.acme.ios"
            #endif
        }
        #if canImport(AppKit)
        let tipsID = "com.acme.mac.tips"
        #elseif canImport(UIKit)
        let tipsID = "com.acme.ios.tips"
        #endif
        func load() async throws {
            _ = try await Product.products(for: ["\(Prefix.value).pro", tipsID])
        }
        """#)]
        #expect(requestedIDs(files, platform: "macos") == ["Store.swift:10 com.acme.mac.tips", "Store.swift:15 com.acme.mac.pro"])
        #expect(requestedIDs(files, platform: "ios") == ["Store.swift:12 com.acme.ios.tips", "Store.swift:15 com.acme.ios.pro"])
        // Without the platform, every branch is a possible ID.
        #expect(requestedIDs(files) == [
            "Store.swift:10 com.acme.mac.tips",
            "Store.swift:12 com.acme.ios.tips",
            "Store.swift:15 com.acme.ios.pro",
            "Store.swift:15 com.acme.mac.pro",
        ])
    }

    @Test func bundleIdentifierWithASuffix() {
        let files = [("Perks.swift", #"""
        import StoreKit
        enum Perk: CaseIterable {
            case supporter
            var id: String { Bundle.main.bundleIdentifier! + ".supporter" }
        }
        func loadPerks() async throws {
            _ = try await Product.products(for: Perk.allCases.map { $0.id })
        }
        """#)]
        #expect(requestedIDs(files, bundleIdentifier: "com.acme.app") == ["Perks.swift:4 com.acme.app.supporter"])
        #expect(requestedIDs(files).isEmpty)
    }

    @Test func helperFunctionsAndTernaries() {
        let files = [("Tipper.swift", #"""
        import StoreKit
        final class Tipper {
            enum Tip: String, CaseIterable { case small = "tip.small"; case big = "tip.big" }
            var isPremiumEdition = false
            func productID(_ tip: Tip) -> String {
                return isPremiumEdition ? "premium." + tip.rawValue : tip.rawValue
            }
            func load() async throws {
                let ids = Tip.allCases.map { productID($0) }
                _ = try await Product.products(for: Set(ids))
            }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Tipper.swift:3 tip.small",
            "Tipper.swift:3 tip.big",
            "Tipper.swift:6 premium.tip.big",
            "Tipper.swift:6 premium.tip.small",
        ])
    }

    @Test func indexIntoAConstantList() {
        let files = [("Packs.swift", #"""
        import SwiftyStoreKit
        enum Vault { static let packs = ["com.acme.coins.10", "com.acme.coins.50", "com.acme.coins.99"] }
        final class PackModel {
            func buyBest() { SwiftyStoreKit.purchaseProduct(Vault.packs[2]) { _ in } }
        }
        """#)]
        #expect(requestedIDs(files) == ["Packs.swift:2 com.acme.coins.99"])
    }

    /// Strings shaped like product IDs that never reach StoreKit: none is requested.
    @Test func lookAlikesAreNotRequests() {
        let files = [("Lookalikes.swift", #"""
        import StoreKit
        import UIKit
        enum Keys {
            static let bundle = "com.acme.app"
            static let didBuy = Notification.Name("com.acme.app.didBuy")
            static let lastTip = "com.acme.app.lastTip"
        }
        let links: [String: String] = ["com.acme.app.pro": "https://acme.com/pro"]
        let groupName = "group.com.acme.app"
        func remember(_ id: String) { UserDefaults.standard.set(true, forKey: id) }
        func setUp() {
            remember("com.acme.app.remembered")
            NotificationCenter.default.post(name: Keys.didBuy, object: nil)
            UserDefaults.standard.set(links["com.acme.app.pro"], forKey: Keys.lastTip)
            _ = URL(string: "https://acme.com/com.acme.app.pro")
            _ = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: groupName)
        }
        func fetch(_ ids: [String]) async throws -> [Product] {
            try await Product.products(for: ids)
        }
        """#)]
        #expect(requestedIDs(files).isEmpty)
    }

    /// A call site whose IDs come from somewhere the files cannot tell says so, at its line.
    @Test func notesSayWhatIsUnknown() {
        let files = [("Remote.swift", #"""
        import StoreKit
        func loadRemote() async throws {
            let ids = UserDefaults.standard.stringArray(forKey: "ids") ?? []
            _ = try await Product.products(for: ids)
        }
        func loadMixed(extra: String) async throws {
            _ = try await Product.products(for: ["com.acme.known", extra])
        }
        func fetch(_ ids: [String]) async throws -> [Product] {
            try await Product.products(for: ids)
        }
        """#)]
        #expect(requestedIDs(files) == ["Remote.swift:7 com.acme.known"])
        let notes = unresolvedNotes(files)
        #expect(notes.count == 3)
        #expect(notes.first == "Remote.swift:4 unresolved: `UserDefaults.standard` is read from UserDefaults at run time")
        #expect(notes.contains { $0.hasPrefix("Remote.swift:6 wrapperWithoutCalls:") || $0.hasPrefix("Remote.swift:7 partial:") })
        #expect(notes.contains { $0.hasPrefix("Remote.swift:9 wrapperWithoutCalls:") })
    }
}

/// Bodies that call each other many times, and long chains of calls: resolution stops at its
/// budget and says so, whatever the code.
@Suite("Value flow bounds")
struct ValueFlowBoundsTests {
    @Test func callsThatFanOutStopAtTheBudget() {
        var source = "import StoreKit\nfunc f0(_ x: String) -> [String] { [x] }\n"
        for level in 1...5 {
            let calls = (0..<40).map { _ in "f\(level - 1)(x)" }.joined(separator: " + ")
            source += "func f\(level)(_ x: String) -> [String] { \(calls) }\n"
        }
        source += "func load() async throws { _ = try await Product.products(for: f5(\"com.acme.x\")) }\n"
        let scan = SourceScanner.scan(sources: [("Fan.swift", source)])
        #expect(scan.resolutionWork > SourceScan.maxResolutionWork)
        #expect(scan.resolutionWork <= SourceScan.maxResolutionWork + 64)
        #expect(scan.unresolved.count == 1)
        #expect(scan.unresolved.first?.reason.contains("stopped following") == true)
    }

    @Test func recursionIsNotFollowedForever() {
        let files = [("Loop.swift", #"""
        import StoreKit
        func ids(_ n: Int) -> [String] { n == 0 ? ["com.acme.base"] : ids(n - 1) + ["com.acme.more"] }
        var all: [String] { var list = all; list.append("com.acme.self"); return list }
        func load() async throws {
            _ = try await Product.products(for: ids(3))
            _ = try await Product.products(for: all)
        }
        """#)]
        let scan = SourceScanner.scan(sources: files)
        #expect(scan.resolutionWork < 1_000)
        #expect(scan.requests.map(\.id).contains("com.acme.base"))
    }
}

@Suite("Value flow: what is not a request")
struct NotARequestTests {
    /// A view showing a product StoreKit returned repeats its ID: no new request, no note.
    @Test func productViewOfAFetchedProduct() {
        let files = [("Paywall.swift", #"""
        import StoreKit
        import SwiftUI
        struct Paywall: View {
            let products: [Product]
            var body: some View {
                ForEach(products) { product in ProductView(id: product.id) }
            }
        }
        struct Row: View {
            let tierID: String
            var body: some View { ProductView(id: tierID) }
        }
        """#)]
        #expect(requestedIDs(files).isEmpty)
        // The row's ID is a parameter nobody sets in these files: that one is noted.
        #expect(unresolvedNotes(files).count == 1)
        #expect(unresolvedNotes(files).first?.hasPrefix("Paywall.swift:11") == true)
    }

    /// A RevenueCat paywall shows the products of an offering: a note that says so, no ID; an
    /// app's own view of the same name, without RevenueCatUI, is nothing.
    @Test func revenueCatPaywalls() {
        let files = [("Paywall.swift", #"""
        import SwiftUI
        import RevenueCatUI
        struct Upsell: View {
            var body: some View { PaywallView(displayCloseButton: true) }
        }
        """#), ("Own.swift", #"""
        import SwiftUI
        struct Settings: View {
            var body: some View { PaywallView(title: "Pro") }
        }
        """#)]
        #expect(requestedIDs(files).isEmpty)
        #expect(SourceScanner.scan(sources: files).unresolved.map { "\($0.location.file):\($0.location.line) \($0.kind.rawValue)" } == [
            "Paywall.swift:4 offerings",
        ])
    }

    /// Buying a product already fetched, or looking one up for a transaction, through the app's
    /// functions: no wrapper of IDs, no note.
    @Test func purchasesOfFetchedProductsThroughFunctions() {
        let files = [("Buy.swift", #"""
        import StoreKit
        final class Store {
            func buy(_ product: SKProduct) { RMStore.default().addPayment(product.productIdentifier) }
            func product(for id: String) async -> Product? { try? await Product.products(for: [id]).first }
            func refresh() async {
                for await result in Transaction.currentEntitlements {
                    if case .verified(let transaction) = result { _ = await product(for: transaction.productID) }
                }
            }
        }
        """#), ("Buy.m", #"""
        #import "RMStore.h"
        @implementation Upgrade
        - (void)purchase:(SKProduct *)product {
            [[RMStore defaultStore] addPayment:product.productIdentifier success:nil failure:nil];
        }
        - (void)tap { [self purchase:self.yearlyProduct]; }
        @end
        """#)]
        #expect(requestedIDs(files).isEmpty)
        #expect(unresolvedNotes(files).isEmpty)
    }
}

/// Nesting a hostile file can hold is bounded explicitly, with a problem that says so.
@Suite("Scanner nesting limits")
struct ScannerNestingTests {
    /// `"\("\("…` a hundred thousand deep on one line, and the multi-line form: no stack overflow.
    @Test func deeplyNestedInterpolation() {
        for (open, name) in [("\"\\(", "Line.swift"), ("\"\"\"\n\\(", "Block.swift")] {
            let text = "let x = " + String(repeating: open, count: 100_000) + "\nlet ids = [\"com.acme.after\"]\n"
                + "func load() async throws { _ = try await Product.products(for: ids) }\n"
            let scan = SourceScanner.scan(sources: [(name, text)])
            #expect(scan.problems.map(\.message).contains { $0.contains("strings nested in string interpolation more than 32 deep") }, "\(name)")
        }
    }

    /// Ten thousand nested types: their paths are kept only 16 deep, so memory stays linear.
    @Test func deeplyNestedTypes() {
        var text = ""
        for level in 0..<10_000 { text += "struct S\(level) {\n" }
        text += "static let id = \"com.acme.deep\"\n" + String(repeating: "}\n", count: 10_000)
        text += "func load() async throws { _ = try await Product.products(for: [S0.S1.id]) }\n"
        let scan = SourceScanner.scan(sources: [("Deep.swift", text)])
        #expect(scan.problems.map(\.message) == ["`Deep.swift`: types nested more than 16 deep are read as members of the one at that depth"])
    }

    /// SwiftyStoreKit's `purchaseProduct(_ product: SKProduct)` takes a fetched product, not an ID:
    /// a wrapper that passes one on is no request left unknown.
    @Test func aFetchedProductPassedOnIsNoUnknownRequest() {
        let files = [(file: "VM.swift", text: """
            import StoreKit
            import SwiftyStoreKit
            final class VM {
                var yearly: SKProduct?
                func load() {
                    SwiftyStoreKit.retrieveProductsInfo(["com.acme.app.yearly"]) { result in self.yearly = result.retrievedProducts.first }
                }
                func buyYearly() { purchase(yearly) }
                private func purchase(_ product: SKProduct?) {
                    guard let product = product else { return }
                    SwiftyStoreKit.purchaseProduct(product) { _ in }
                }
            }
            """)]
        #expect(unresolvedNotes(files).isEmpty, "\(unresolvedNotes(files))")
        #expect(requestedIDs(files) == ["VM.swift:6 com.acme.app.yearly"])
    }

    /// `Self("…")` in a type's extension makes that type, as `ProductID("…")` does.
    @Test func selfMakesTheEnclosingType() {
        let files = [(file: "IDs.swift", text: """
            import StoreKit
            struct ProductID: Hashable {
                init(_ string: String) { self.string = string }
                let string: String
            }
            extension ProductID {
                static let pro = Self("com.acme.app.pro")
            }
            func fetch(_ ids: [ProductID]) async throws -> [Product] {
                try await Product.products(for: ids.map { $0.string })
            }
            func load() async throws { _ = try await fetch([.pro]) }
            """)]
        #expect(requestedIDs(files) == ["IDs.swift:7 com.acme.app.pro"])
    }
}
