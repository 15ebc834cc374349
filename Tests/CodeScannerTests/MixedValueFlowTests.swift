import CodeScanner
import Testing

/// Shapes that cross languages, libraries and macros, each seen in a shipped app (written anew
/// here with made-up names).
@Suite("Value flow across languages and libraries")
struct MixedValueFlowTests {
    @Test func dictionaryPropertyFilledWithSetObjectForKey() {
        let files = [("TipsViewController.m", #"""
        #import <StoreKit/StoreKit.h>
        @interface TipsViewController ()
        @property (nonatomic, strong) NSMutableDictionary *coffees;
        @end
        @implementation TipsViewController
        - (void)viewDidLoad {
            self.coffees = [[NSMutableDictionary alloc] initWithCapacity:2];
            [self.coffees setObject:@{@"name": @"Espresso"} forKey:@"com.acme.coffee.small"];
            [self.coffees setObject:@"Latte" forKey:@"com.acme.coffee.large"];
        }
        - (void)viewWillAppear:(BOOL)animated {
            NSMutableSet *ids = [NSMutableSet setWithArray:[self.coffees allKeys]];
            [[[SKProductsRequest alloc] initWithProductIdentifiers:ids] start];
        }
        @end
        """#)]
        #expect(requestedIDs(files) == [
            "TipsViewController.m:8 com.acme.coffee.small",
            "TipsViewController.m:9 com.acme.coffee.large",
        ])
    }

    @Test func objectiveCCallsASwiftWrapper() {
        let files = [("TipJar.swift", #"""
        import StoreKit
        @objc final class TipJar: NSObject {
            @objc static let shared = TipJar()
            @objc func start(_ ids: [String], parent: NSObject) {
                Task { _ = try? await Product.products(for: Set(ids)) }
            }
            @objc func load(tiers: [String]) {
                Task { _ = try? await Product.products(for: tiers) }
            }
        }
        """#), ("Home.m", #"""
        #import "Acme-Swift.h"
        @implementation Home
        - (void)viewDidLoad {
            [TipJar.shared start:@[ @"com.acme.tip.one", @"com.acme.tip.two" ]
                          parent:self];
            [[TipJar shared] loadWithTiers:@[ @"com.acme.tier.gold" ]];
        }
        @end
        """#)]
        #expect(requestedIDs(files) == [
            "Home.m:4 com.acme.tip.one",
            "Home.m:4 com.acme.tip.two",
            "Home.m:6 com.acme.tier.gold",
        ])
        #expect(unresolvedNotes(files).isEmpty)
    }

    @Test func rmStoreFromObjectiveCAndSwift() {
        let files = [("Upgrade.m", #"""
        #import "RMStore.h"
        static NSString *const kForever = @"com.acme.unlock.forever";
        @implementation Upgrade
        - (void)fetch {
            NSSet *wanted = [NSSet setWithArray:@[kForever, @"com.acme.unlock.month"]];
            [[RMStore defaultStore] requestProducts:wanted success:^(NSArray *products, NSArray *invalid) { } failure:nil];
            [[RMStore defaultStore] addPayment:@"com.acme.unlock.year" success:nil failure:nil];
        }
        @end
        """#), ("Tips.swift", #"""
        final class Tips {
            enum Tip: String, CaseIterable { case small = "tip.small", large = "tip.large" }
            var isProEdition = false
            func productID(_ tip: Tip) -> String {
                isProEdition ? String(format: "pro.%@", tip.rawValue) : tip.rawValue
            }
            func load() {
                let ids = Tip.allCases.map { productID($0) }
                RMStore.default().requestProducts(Set(ids)) { _, _ in } failure: { _ in }
            }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Tips.swift:2 tip.small",
            "Tips.swift:2 tip.large",
            "Tips.swift:5 pro.tip.large",
            "Tips.swift:5 pro.tip.small",
            "Upgrade.m:2 com.acme.unlock.forever",
            "Upgrade.m:5 com.acme.unlock.month",
            "Upgrade.m:7 com.acme.unlock.year",
        ])
    }

    @Test func functionLikeMacroWithStringification() {
        let files = [("Shop.m", #"""
        #import <StoreKit/StoreKit.h>
        #define kShopID(x) @("com.acme.shop." #x)
        @implementation Shop
        - (instancetype)init {
            if (self = [super init]) {
                NSSet *ids = [NSSet setWithArray:@[kShopID(extra_lives), kShopID(no_ads)]];
                _request = [[SKProductsRequest alloc] initWithProductIdentifiers:ids];
            }
            return self;
        }
        @end
        """#)]
        #expect(requestedIDs(files) == ["Shop.m:2 com.acme.shop.extra_lives", "Shop.m:2 com.acme.shop.no_ads"])
    }

    @Test func optionalBindingNamedLikeAnEntryPointIsNotACall() {
        let files = [("Paywall.swift", #"""
        import RevenueCat
        enum Paywall {
            static var current: Offering?
            static func refresh() {
                Purchases.shared.getOfferings { offerings, error in
                    if let offerings = offerings {
                        current = offerings.current
                    }
                }
            }
        }
        """#)]
        // One note for the real call, none for the `if let`.
        #expect(unresolvedNotes(files).count == 1)
        #expect(unresolvedNotes(files).first?.hasPrefix("Paywall.swift:5 offerings") == true)
    }

    @Test func wrapperCalledWithATrailingClosure() {
        let files = [("Gems.swift", #"""
        import SwiftyStoreKit
        final class GemShop {
            static let shared = GemShop()
            static let birthdayPack = "com.acme.gems.birthday"
            func purchaseGems(_ identifier: String, username: String, completion: @escaping (Bool) -> Void) {
                SwiftyStoreKit.purchaseProduct(identifier, quantity: 1, atomically: false, applicationUsername: username) { _ in }
            }
        }
        final class Promo {
            func buy() {
                GemShop.shared.purchaseGems(GemShop.birthdayPack, username: "") { [weak self] success in
                    _ = self
                }
            }
        }
        """#)]
        #expect(requestedIDs(files) == ["Gems.swift:4 com.acme.gems.birthday"])
        #expect(unresolvedNotes(files).isEmpty)
    }

    @Test func bundleExtensionAndSharedInstances() {
        let files = [("Bundle+Root.swift", #"""
        extension Bundle {
            var rootIdentifier: String? {
                guard isExtension else { return bundleIdentifier }
                return parentIdentifier as? String
            }
        }
        """#), ("Product.swift", #"""
        import StoreKit
        enum Supporter: String, CaseIterable {
            case yearly
            var identifier: String {
                guard let prefix = Bundle.main.rootIdentifier else { return "com.acme.app.supporter" }
                return prefix + ".supporter"
            }
        }
        func load() async throws {
            _ = try await Product.products(for: Supporter.allCases.map(\.identifier))
        }
        """#)]
        #expect(requestedIDs(files, bundleIdentifier: "com.acme.app") == [
            "Product.swift:5 com.acme.app.supporter",
            "Product.swift:6 com.acme.app.supporter",
        ])
    }
}

@Suite("Value flow through app types")
struct InstanceValueFlowTests {
    @Test func modelValuesWithAnIDField() {
        let files = [("Tips.swift", #"""
        import StoreKit
        struct Tip { let id: String; let title: String; let price: Int }
        enum TipJar {
            static let all = [
                Tip(id: "com.acme.tip.coffee", title: "Coffee", price: 3),
                Tip(id: "com.acme.tip.lunch", title: "Lunch", price: 10),
            ]
        }
        func load() async throws {
            _ = try await Product.products(for: TipJar.all.map(\.id))
        }
        """#)]
        #expect(requestedIDs(files) == ["Tips.swift:5 com.acme.tip.coffee", "Tips.swift:6 com.acme.tip.lunch"])
    }

    @Test func regionTablesInModelValuesThroughAProtocol() {
        let files = [("Catalog.swift", #"""
        import StoreKit
        enum Zone { case home, abroad }
        enum Suffix { static let trial = "trial" }
        struct Plan { var name: String; var idsByZone: [Zone: [String]] }
        final class Catalog {
            private let plans: [Plan] = [
                Plan(name: "prod", idsByZone: [.home: ["com.acme.m.home", "com.acme.m.home.\(Suffix.trial)"],
                                               .abroad: ["com.acme.m.abroad"]]),
                Plan(name: "beta", idsByZone: [.home: ["beta.m"], .abroad: ["beta.m.abroad"]]),
            ]
            func ids(for zone: Zone) -> [String] { plans.reduce([]) { $0 + ($1.idsByZone[zone] ?? []) } }
        }
        protocol Fetching { func fetch(_ ids: [String]) async throws -> [Product] }
        struct LiveFetching: Fetching {
            func fetch(_ ids: [String]) async throws -> [Product] { try await Product.products(for: ids) }
        }
        final class Shop {
            let catalog = Catalog()
            let fetcher: Fetching = LiveFetching()
            func load(zone: Zone) async { _ = try? await fetcher.fetch(catalog.ids(for: zone)) }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Catalog.swift:7 com.acme.m.home",
            "Catalog.swift:7 com.acme.m.home.trial",
            "Catalog.swift:8 com.acme.m.abroad",
            "Catalog.swift:9 beta.m",
            "Catalog.swift:9 beta.m.abroad",
        ])
    }
}

@Suite("Value flow through initializers")
struct InitializerValueFlowTests {
    /// A configuration object made by a convenience initializer that hands model values to the
    /// designated one, stored behind a protocol-typed property, asked through an overloaded method.
    @Test func configurationBuiltByInitializers() {
        let files = [("Configuration.swift", #"""
        enum Region: CaseIterable { case home, abroad }
        enum Constants { static let trial = "trial" }
        protocol Configuration { func identifiers(for region: Region) -> [String] }
        final class DefaultConfiguration: Configuration {
            private let plans: [PlanDefinition]
            convenience init() {
                self.init(definitions: [
                    .init(name: "Production",
                          idsByRegion: [.home: ["com.acme.plus.month", "com.acme.plus.month.\(Constants.trial)"],
                                        .abroad: ["com.acme.plus.month.row"]]),
                    .init(name: "Staging", idsByRegion: [.home: ["staging.month"], .abroad: []]),
                ])
            }
            init(definitions: [PlanDefinition]) {
                self.plans = definitions
            }
            func identifiers(for country: String) -> [String] {
                plans.reduce([], { $0 + $1.identifiers(for: country) })
            }
            func identifiers(for region: Region) -> [String] {
                plans.reduce([], { $0 + $1.identifiers(for: region) })
            }
        }
        struct PlanDefinition {
            var name: String
            var idsByRegion: [Region: [String]]
            func identifiers(for country: String) -> [String] { [] }
            func identifiers(for region: Region) -> [String] { idsByRegion[region] ?? [] }
        }
        """#), ("Store.swift", #"""
        import StoreKit
        final class Store {
            private let configuration: Configuration
            init() {
                self.configuration = DefaultConfiguration()
            }
            func load(region: Region) async throws {
                let ids = configuration.identifiers(for: region)
                _ = try await Product.products(for: ids)
            }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Configuration.swift:9 com.acme.plus.month",
            "Configuration.swift:9 com.acme.plus.month.trial",
            "Configuration.swift:10 com.acme.plus.month.row",
            "Configuration.swift:11 staging.month",
        ])
    }
}

@Suite("Value flow through stored parameters")
struct StoredParameterValueFlowTests {
    /// A store object keeps the IDs it is made with; another method requests them.
    @Test func idsGivenToAnInitializerAndRequestedLater() {
        let files = [("Vendor.swift", #"""
        import StoreKit
        final class Vendor: NSObject {
            private let skus: Set<String>
            private var request: SKProductsRequest?
            init(skus: Set<String>) { self.skus = skus; super.init() }
            func fetch() {
                request = SKProductsRequest(productIdentifiers: skus)
                request?.start()
            }
        }
        """#), ("Shelf.swift", #"""
        enum Shelf {
            static let noAds = "com.acme.kite.noads"
            static let vendor = Vendor(skus: [Shelf.noAds, "com.acme.kite.maps"])
        }
        final class Atlas {
            let catalog = Catalog(skus: ["com.acme.atlas.pro"])
        }
        """#), ("Catalog.swift", #"""
        import StoreKit
        final class Catalog {
            private let skus: [String]
            init(skus: [String]) { self.skus = skus }
            func load() async throws -> [Product] { try await Product.products(for: skus) }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Shelf.swift:2 com.acme.kite.noads",
            "Shelf.swift:3 com.acme.kite.maps",
            "Shelf.swift:6 com.acme.atlas.pro",
        ])
        #expect(unresolvedNotes(files).isEmpty)
    }

    /// A `RawRepresentable` struct whose initializer adds a prefix, and StoreKit 2's task modifier.
    @Test func rawRepresentableStructsAndTheProductsTask() {
        let files = [("Perk.swift", #"""
        import StoreKit
        import SwiftUI
        struct Perk: RawRepresentable, Hashable {
            let rawValue: String
            init?(rawValue: String) { self.rawValue = rawValue }
            private init(perk: String) { self.init(rawValue: "\(Self.head)\(perk)")! }
            static let head = "com.acme.perk."
            static let sync = Perk(perk: "sync")
            static let themes = Perk(perk: "themes")
            static var all: [Perk] { [.sync, .themes] }
        }
        struct PerksView: View {
            var body: some View {
                Text("Perks").storeProductsTask(for: Perk.all.map(\.rawValue)) { _ in }
            }
        }
        """#)]
        #expect(requestedIDs(files) == ["Perk.swift:6 com.acme.perk.sync", "Perk.swift:6 com.acme.perk.themes"])
    }
}

@Suite("Value flow through the app's bundle and Objective-C methods")
struct BundleValueFlowTests {
    static let info = BundleFiles(infoPlist: [
        "Shop IDs": [
            BundleString(key: "NoAds", value: "com.acme.kite.noads", location: CodeLocation(file: "Info.plist", line: 30, column: 12)),
            BundleString(key: "Maps", value: "com.acme.kite.maps", location: CodeLocation(file: "Info.plist", line: 32, column: 12)),
        ],
    ]) { path in
        path == "/app/Products.plist"
            ? [BundleString(value: "com.acme.till.pro", location: CodeLocation(file: path, line: 5, column: 10))] : nil
    }

    /// IDs in a custom Info.plist key, read into a helper that stores them.
    @Test func infoPlistKeysGivenToAStore() {
        let files = [("Products.swift", #"""
        enum Products {
            private static let table = Bundle.main.object(forInfoDictionaryKey: "Shop IDs") as! [String: String]
            static let noAds = table["NoAds"]!
            static let maps = table["Maps"]!
            static let store = Helper(productIds: [noAds, maps])
        }
        """#), ("Helper.swift", #"""
        import StoreKit
        open class Helper: NSObject {
            private let productIdentifiers: Set<String>
            public init(productIds: Set<String>) {
                productIdentifiers = productIds
                super.init()
            }
            public func request() { SKProductsRequest(productIdentifiers: productIdentifiers).start() }
        }
        """#)]
        let scan = SourceScanner.scan(sources: files, bundle: Self.info)
        #expect(scan.requests.map { "\($0.location.file):\($0.location.line) \($0.id)" } == [
            "Info.plist:30 com.acme.kite.noads", "Info.plist:32 com.acme.kite.maps",
        ])
        #expect(scan.unresolved.isEmpty)
        // Without the Info.plist (several app targets, none chosen), the note says what to set.
        #expect(unresolvedNotes(files) == [
            "Helper.swift:8 unresolved: `Shop IDs` is read from the app's Info.plist, which iapdoctor did not read (set `app.info_plist`, or `app.target` when the project has several apps)",
        ])
    }

    /// An Objective-C method whose parameter is requested, fed from a plist the app ships.
    @Test func objectiveCMethodParametersAndShippedPropertyLists() {
        let files = [("Till.m", #"""
        #import <StoreKit/StoreKit.h>
        @implementation Till
        + (NSArray *)listIDs {
            NSString *path = [[NSBundle mainBundle] pathForResource:@"Products" ofType:@"plist"];
            return [NSArray arrayWithContentsOfFile:path];
        }
        - (void)askStoreFor:(NSArray *)skus sender:(id)sender {
            SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:skus]];
            [request start];
        }
        - (void)refresh {
            [self askStoreFor:@[@"com.acme.till.basic"] sender:self];
            [self askStoreFor:[Till listIDs] sender:nil];
        }
        @end
        """#)]
        let scan = SourceScanner.scan(sources: files, bundle: Self.info, propertyLists: ["Products.plist": "/app/Products.plist"])
        #expect(scan.requests.map { "\($0.location.file):\($0.location.line) \($0.id)" } == [
            "/app/Products.plist:5 com.acme.till.pro", "Till.m:12 com.acme.till.basic",
        ])
        #expect(scan.unresolved.isEmpty)
    }
}

@Suite("Value flow through files the app reads")
struct FileReadValueFlowTests {
    static let bundle = BundleFiles { path in
        path == "/app/Products.plist"
            ? ["com.acme.shop.gold", "com.acme.shop.silver"].enumerated().map {
                BundleString(value: $0.element, location: CodeLocation(file: path, line: 5 + $0.offset, column: 10))
            } : nil
    }

    /// A plist keyed by product ID, read through `FileManager` and a cast; the keys are requested.
    @Test func theKeysOfAPropertyListReadByName() {
        let bundle = BundleFiles { path in
            path == "/app/Candy.plist" ? [
                BundleString(key: "com.acme.candy.lollipop", value: "Lollipop", location: CodeLocation(file: path, line: 4, column: 7)),
                BundleString(key: "com.acme.candy.toffee", value: "Toffee bar", location: CodeLocation(file: path, line: 6, column: 7)),
            ] : nil
        }
        let files = [("Shop.swift", #"""
        import StoreKit
        final class CandyShop {
            private let labelsByID: [String: String]
            init() {
                if let path = Bundle.main.path(forResource: "Candy", ofType: "plist"),
                   let raw = FileManager.default.contents(atPath: path) {
                    labelsByID = (try? PropertyListSerialization.propertyList(from: raw, format: nil) as? [String: String]) ?? [:]
                } else {
                    labelsByID = [:]
                }
            }
            func load() async throws -> [Product] { try await Product.products(for: labelsByID.keys) }
        }
        """#)]
        let scan = SourceScanner.scan(sources: files, bundle: bundle, propertyLists: ["Candy.plist": "/app/Candy.plist"])
        #expect(scan.requests.map { "\($0.location.line) \($0.id)" } == ["4 com.acme.candy.lollipop", "6 com.acme.candy.toffee"])
        #expect(scan.unresolved.isEmpty)
    }

    /// A helper reads a plist named by its caller; the IDs are that file's.
    @Test func aPropertyListReadByAHelper() {
        let files = [("Configuration.swift", #"""
        import Foundation
        enum Configuration {
            static func readPropertyFile(filename: String) -> [String: AnyObject]? {
                if let path = Bundle.main.path(forResource: filename, ofType: "plist") {
                    if let contents = NSDictionary(contentsOfFile: path) as? [String: AnyObject] { return contents }
                }
                return nil
            }
        }
        """#), ("Helper.swift", #"""
        import StoreKit
        final class Helper {
            func start() async {
                guard let config = Configuration.readPropertyFile(filename: "Products") else { return }
                let ids = config["Products"] as? [String] ?? []
                _ = try? await Product.products(for: ids)
            }
            func reload() async throws {
                let url = Bundle.main.url(forResource: "Products", withExtension: "plist")!
                let data = try Data(contentsOf: url)
                let list = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as! [String]
                _ = try await Product.products(for: list)
            }
        }
        """#)]
        let scan = SourceScanner.scan(sources: files, bundle: Self.bundle, propertyLists: ["Products.plist": "/app/Products.plist"])
        #expect(scan.requests.map { "\($0.location.file):\($0.location.line) \($0.id)" } == [
            "/app/Products.plist:5 com.acme.shop.gold", "/app/Products.plist:6 com.acme.shop.silver",
        ])
        #expect(scan.unresolved.isEmpty)
    }
}

@Suite("Value flow in SwiftUI views")
struct ViewValueFlowTests {
    /// `ForEach` over a list of model values: the closure's parameter is each of them, also when
    /// a helper function makes the view.
    @Test func forEachOverModelValues() {
        let files = [("Shelf.swift", #"""
        import SwiftUI
        import StoreKit
        struct Book: Identifiable {
            let id = UUID()
            let sku: String
        }
        let shelf: [Book] = [
            Book(sku: "com.acme.book.one"),
            Book(sku: "com.acme.book.two"),
        ]
        struct ShelfView: View {
            var body: some View {
                VStack(spacing: 8) {
                    ForEach(shelf) { book in
                        ProductView(id: book.sku)
                    }
                }
            }
        }
        struct CardsView: View {
            let extras = ["com.acme.book.three"]
            var body: some View {
                List(extras, id: \.self) { sku in card(sku: sku) }
            }
            func card(sku: String) -> some View { ProductView(id: sku) }
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Shelf.swift:8 com.acme.book.one",
            "Shelf.swift:9 com.acme.book.two",
            "Shelf.swift:21 com.acme.book.three",
        ])
        #expect(unresolvedNotes(files).isEmpty)
    }
}

@Suite("Value flow through helper classes and subclasses")
struct HelperClassValueFlowTests {
    /// An Objective-C helper keeps the IDs its initializer gets; a subclass makes one with them.
    /// The helper's own initializer shares StoreKit's selector: neither it nor its declaration is
    /// a request.
    @Test func objectiveCHelperMadeBySubclass() {
        let files = [("ShopBase.h", #"""
        #import <StoreKit/StoreKit.h>
        @interface ShopBase : NSObject <SKProductsRequestDelegate>
        - (instancetype)initWithProductIdentifiers:(NSSet *)productIdentifiers;
        @end
        """#), ("ShopBase.m", #"""
        #import "ShopBase.h"
        @implementation ShopBase {
            NSSet *_ids;
            SKProductsRequest *_request;
        }
        - (instancetype)initWithProductIdentifiers:(NSSet *)productIdentifiers {
            if ((self = [super init])) { _ids = productIdentifiers; }
            return self;
        }
        - (void)fetch {
            _request = [[SKProductsRequest alloc] initWithProductIdentifiers:_ids];
            [_request start];
        }
        @end
        """#), ("KiteShop.m", #"""
        #import "ShopBase.h"
        #define KITE_NO_ADS @"com.acme.kite.noads"
        @interface KiteShop : ShopBase
        @end
        @implementation KiteShop
        + (KiteShop *)shared {
            static KiteShop *s; static dispatch_once_t once;
            dispatch_once(&once, ^{ s = [[self alloc] initWithProductIdentifiers:[NSSet setWithObjects:KITE_NO_ADS, nil]]; });
            return s;
        }
        @end
        """#)]
        let scan = SourceScanner.scan(sources: files)
        #expect(scan.requests.map { "\($0.location.file):\($0.location.line) \($0.id) \($0.api)" } == [
            "KiteShop.m:2 com.acme.kite.noads -initWithProductIdentifiers:",
        ])
        #expect(scan.unresolved.isEmpty)
    }

    /// A Swift helper made through a subclass: an inherited initializer, or one that calls
    /// `super.init`.
    @Test func swiftHelperMadeBySubclasses() {
        let files = [("Till.swift", #"""
        import StoreKit
        class TillBase: NSObject {
            private let skus: Set<String>
            private var request: SKProductsRequest?
            init(skus: Set<String>) {
                self.skus = skus
                super.init()
            }
            func fetch() {
                request = SKProductsRequest(productIdentifiers: skus)
                request?.start()
            }
        }
        final class CafeTill: TillBase {
            static let shared = CafeTill(skus: ["com.acme.cafe.latte"])
        }
        final class BarTill: TillBase {
            init() { super.init(skus: ["com.acme.bar.tonic"]) }
        }
        let bar = BarTill()
        """#)]
        #expect(requestedIDs(files) == ["Till.swift:15 com.acme.cafe.latte", "Till.swift:18 com.acme.bar.tonic"])
        #expect(unresolvedNotes(files).isEmpty)
    }
}
