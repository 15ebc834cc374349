import CodeScanner
import Foundation
import Testing

/// `file:line:column id api via` for each request: the form the expectations are written in.
private func rows(_ scan: SourceScan) -> [String] {
    scan.requests.map { "\($0.location) \($0.id) \($0.api) \($0.viaConstant ?? "-")" }
}

/// A fresh folder under the system's temporary folder.
private func makeTemporaryFolder() -> String {
    let path = FileManager.default.temporaryDirectory.path + "/iapdoctor-scan-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

private func write(_ text: String, to path: String) {
    write(Array(text.utf8), to: path)
}

private func write(_ bytes: [UInt8], to path: String) {
    let folder = (path as NSString).deletingLastPathComponent
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
}

@Suite("Source scanner")
struct SourceScannerTests {
    @Test func storeKit2FetchWithLiterals() {
        let source = #"""
        import StoreKit

        func load() async throws {
            let products = try await Product.products(for: ["com.x.pro", "com.x.gold"])
            _ = try await Product.products(for: Set(["com.x.set"]))
            _ = try await StoreKit.Product.products(for: [" com.x.Spaced "])
            _ = try await Product.products(for: Set<String>(arrayLiteral: "com.x.literal"))
            print(products)
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Store.swift")
        #expect(rows(scan) == [
            "Store.swift:4:53 com.x.pro Product.products(for:) -",
            "Store.swift:4:66 com.x.gold Product.products(for:) -",
            "Store.swift:5:46 com.x.set Product.products(for:) -",
            "Store.swift:6:51 \u{20}com.x.Spaced  Product.products(for:) -",
            "Store.swift:7:67 com.x.literal Product.products(for:) -",
        ])
        #expect(scan.usesStoreKit2)
        #expect(!scan.usesStoreKit1)
        #expect(scan.filesScanned == 1)
        #expect(scan.problems.isEmpty)
    }

    @Test func fetchedProductThatIsPurchased() {
        let source = #"""
        func buyCoins() async throws {
            _ = try await Product.products(for: ["com.x.coins"]).first?.purchase()
        }
        func buyLifetime() async throws {
            let products = try await Product.products(for: ["com.x.lifetime"])
            if let product = products.first {
                _ = try await product.purchase()
            }
        }
        func onlyFetch() async throws {
            let products = try await Product.products(for: ["com.x.shown"])
            show(products)
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Buy.swift")
        #expect(rows(scan) == [
            "Buy.swift:2:42 com.x.coins Product.purchase -",
            "Buy.swift:5:53 com.x.lifetime Product.purchase -",
            "Buy.swift:11:53 com.x.shown Product.products(for:) -",
        ])
        #expect(scan.usesStoreKit2)
    }

    @Test func storeKit1Requests() {
        let source = #"""
        import StoreKit

        final class LegacyStore: NSObject, SKProductsRequestDelegate {
            func fetch() {
                let request = SKProductsRequest(productIdentifiers: ["upgradetopro"])
                let other = SKProductsRequest(productIdentifiers: Set(["com.x.a", "com.x.b"]))
                request.start(); other.start()
            }
            func buy() {
                SKPaymentQueue.default().add(SKPayment(productIdentifier: "com.x.pay"))
                let payment = SKMutablePayment()
                payment.productIdentifier = "com.x.mutable"
                payment.quantity = 2
            }
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Legacy.swift")
        #expect(rows(scan) == [
            "Legacy.swift:5:62 upgradetopro SKProductsRequest(productIdentifiers:) -",
            "Legacy.swift:6:64 com.x.a SKProductsRequest(productIdentifiers:) -",
            "Legacy.swift:6:75 com.x.b SKProductsRequest(productIdentifiers:) -",
            "Legacy.swift:10:67 com.x.pay SKPayment(productIdentifier:) -",
            "Legacy.swift:12:37 com.x.mutable SKMutablePayment.productIdentifier -",
        ])
        #expect(scan.usesStoreKit1)
        #expect(!scan.usesStoreKit2)
    }

    @Test func productIdentifierOfAnotherTypeIsNotAPayment() {
        let source = #"""
        struct CatalogItem { var productIdentifier = "" }
        var item = CatalogItem()
        item.productIdentifier = "com.x.model"
        """#
        let scan = SourceScanner.scan(source: source, file: "Model.swift")
        #expect(scan.requests.isEmpty)
        #expect(!scan.usesStoreKit1)
    }

    @Test func constantsDefinedInAnotherFile() {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write(#"""
        enum StoreIDs {
            static let pro = "com.x.pro"
            public static let gold = "com.x.gold"
            static let all: Set<String> = [pro, gold]
            static var bundle: [String] { ["com.x.bundle"] }
        }
        let kLifetime = "com.x.lifetime"
        """#, to: root + "/App/StoreIDs.swift")
        write(#"""
        fileprivate let kPromo = "com.x.promo"
        final class Store {
            private let fallback = "com.x.fallback"
            func load() async throws {
                _ = try await Product.products(for: StoreIDs.all)
                _ = try await Product.products(for: [kLifetime, fallback, kPromo])
                _ = try await Product.products(for: StoreIDs.bundle)
            }
            func buy() -> SKPayment { SKPayment(productIdentifier: StoreIDs.gold) }
        }
        extension StoreIDs {
            static func legacy() -> SKProductsRequest {
                SKProductsRequest(productIdentifiers: [Self.pro])
            }
        }
        """#, to: root + "/App/Store.swift")
        let scan = SourceScanner.scan(paths: ["App"], baseDirectory: root)
        let file = root + "/App/StoreIDs.swift"
        #expect(rows(scan) == [
            "\(root)/App/Store.swift:1:26 com.x.promo Product.products(for:) kPromo",
            "\(root)/App/Store.swift:3:28 com.x.fallback Product.products(for:) Store.fallback",
            "\(file):2:22 com.x.pro Product.products(for:) StoreIDs.pro",
            "\(file):2:22 com.x.pro SKProductsRequest(productIdentifiers:) StoreIDs.pro",
            "\(file):3:30 com.x.gold Product.products(for:) StoreIDs.gold",
            "\(file):3:30 com.x.gold SKPayment(productIdentifier:) StoreIDs.gold",
            "\(file):5:36 com.x.bundle Product.products(for:) StoreIDs.bundle",
            "\(file):7:17 com.x.lifetime Product.products(for:) kLifetime",
        ])
        #expect(scan.filesScanned == 2)
        #expect(scan.usesStoreKit1 && scan.usesStoreKit2)
    }

    @Test func localConstantsBelongToTheirBlock() {
        let source = #"""
        func fetchBasic() async throws {
            let ids = ["com.x.basic"]
            _ = try await Product.products(for: ids)
        }
        func fetchPremium() async throws {
            let ids = ["com.x.premium1", "com.x.premium2"]
            _ = try await Product.products(for: ids)
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Local.swift")
        #expect(rows(scan) == [
            "Local.swift:2:16 com.x.basic Product.products(for:) ids",
            "Local.swift:6:16 com.x.premium1 Product.products(for:) ids",
            "Local.swift:6:34 com.x.premium2 Product.products(for:) ids",
        ])
    }

    @Test func enumRawValues() {
        let source = #"""
        enum ProductID: String, CaseIterable {
            case pro = "com.x.pro"
            case gold = "com.x.gold", silver = "com.x.silver"
            case lifetime
        }
        enum Tier: Int { case one = 1 }

        func fetchAll() async throws {
            _ = try await Product.products(for: ProductID.allCases.map(\.rawValue))
        }
        func fetchClosure() async throws {
            _ = try await Product.products(for: Set(ProductID.allCases.map { $0.rawValue }))
        }
        func buyPro() {
            _ = SKPayment(productIdentifier: ProductID.pro.rawValue)
            _ = SKPayment(productIdentifier: .gold.rawValue)
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "IDs.swift")
        #expect(rows(scan) == [
            "IDs.swift:2:16 com.x.pro Product.products(for:) ProductID.pro",
            "IDs.swift:2:16 com.x.pro SKPayment(productIdentifier:) ProductID.pro",
            "IDs.swift:3:17 com.x.gold Product.products(for:) ProductID.gold",
            "IDs.swift:3:17 com.x.gold SKPayment(productIdentifier:) ProductID.gold",
            "IDs.swift:3:40 com.x.silver Product.products(for:) ProductID.silver",
            "IDs.swift:4:10 lifetime Product.products(for:) ProductID.lifetime",
        ])
    }

    @Test func objectiveCForms() {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write(#"""
        #import <Foundation/Foundation.h>
        #define kCoins @"com.x.coins"
        extern NSString *const kGold;
        """#, to: root + "/StoreIDs.h")
        write(#"""
        #import <StoreKit/StoreKit.h>
        #pragma mark - Apple's "store" helpers
        static NSString * const kPro = @"com.x.pro";
        NSString *const kGold = @"com.x.gold";

        @implementation Store
        - (void)fetch {
            SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObjects:@"com.x.a", kPro, nil]];
            NSSet *more = [NSSet setWithArray:@[kGold, @"com.x.b"]];
            SKProductsRequest *other = [[SKProductsRequest alloc] initWithProductIdentifiers:more];
            char quote = '"';
        }
        - (void)buy {
            SKPayment *payment = [SKPayment paymentWithProductIdentifier:kCoins];
            SKMutablePayment *mutablePayment = [[SKMutablePayment alloc] init];
            mutablePayment.productIdentifier = @"com.x.mutable";
        }
        @end
        """#, to: root + "/Store.m")
        let scan = SourceScanner.scan(paths: ["."], baseDirectory: root)
        #expect(rows(scan) == [
            "\(root)/Store.m:3:32 com.x.pro -initWithProductIdentifiers: kPro",
            "\(root)/Store.m:4:25 com.x.gold -initWithProductIdentifiers: kGold",
            "\(root)/Store.m:8:110 com.x.a -initWithProductIdentifiers: -",
            "\(root)/Store.m:9:48 com.x.b -initWithProductIdentifiers: more",
            "\(root)/Store.m:16:40 com.x.mutable SKMutablePayment.productIdentifier -",
            "\(root)/StoreIDs.h:2:16 com.x.coins +paymentWithProductIdentifier: kCoins",
        ])
        #expect(scan.usesStoreKit1)
        #expect(!scan.usesStoreKit2)
        #expect(scan.filesScanned == 2)
    }

    @Test func commentsAndStringsAreNotCalls() {
        let source = ##"""
        // Product.products(for: ["com.x.comment"])
        /* outer /* nested Product.products(for: ["com.x.nested"]) */ SKPayment(productIdentifier: "com.x.c2") */
        let text = "Product.products(for: [\"com.x.instring\"])"
        let escaped = "a\\"
        let multi = """
            SKProductsRequest(productIdentifiers: ["com.x.multi"])
            """
        let raw = #"Product.products(for: ["com.x.raw")"#
        let regex = #/Product.products\(for: "com.x.regex"\)/#
        let unrelated = "com.x.unrelated"
        func load() async throws {
            _ = try await Product.products(for: ["com.x.real"])
        }
        """##
        let scan = SourceScanner.scan(source: source, file: "Noise.swift")
        #expect(rows(scan) == ["Noise.swift:12:42 com.x.real Product.products(for:) -"])
    }

    @Test func objectiveCCommentsAndStringsAreNotCalls() {
        let source = #"""
        // [SKPayment paymentWithProductIdentifier:@"com.x.comment"];
        /* [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObject:@"com.x.block"]]; */
        NSString *log = @"[SKPayment paymentWithProductIdentifier:@\"com.x.instring\"]";
        SKPayment *payment = [SKPayment paymentWithProductIdentifier:@"com.x.real"];
        """#
        let scan = SourceScanner.scan(source: source, file: "Noise.m")
        #expect(rows(scan) == ["Noise.m:4:62 com.x.real +paymentWithProductIdentifier: -"])
    }

    @Test func interpolatedIDsAreSkipped() {
        let source = #"""
        let dynamicID = "com.x.\(tier)"
        func load(tier: String) async throws {
            _ = try await Product.products(for: ["com.x.\(tier).monthly", "com.x.fixed", dynamicID])
        }
        """#
        let scan = SourceScanner.scan(source: source, file: "Tiers.swift")
        #expect(rows(scan) == ["Tiers.swift:3:67 com.x.fixed Product.products(for:) -"])
        // The two elements built from a parameter and a run-time value are named, not dropped silently.
        #expect(scan.unresolved.map(\.kind) == [.partial])
        #expect(scan.unresolved.first?.reason.hasPrefix("2 elements of") == true)
    }

    @Test func rawEscapedAndNonASCIIStrings() {
        let source = ##"""
        let banner = """
            Welcome "in" \(name)
            """
        func load() async throws {
            /* prix en €: */ _ = try await Product.products(for: [#"com.x.raw"#, "com.x.\u{70}ro", "com.x.\"quoted\""])
        }
        """##
        let scan = SourceScanner.scan(source: source, file: "Strings.swift")
        #expect(rows(scan) == [
            "Strings.swift:5:59 com.x.raw Product.products(for:) -",
            "Strings.swift:5:74 com.x.pro Product.products(for:) -",
            "Strings.swift:5:92 com.x.\"quoted\" Product.products(for:) -",
        ])
    }

    @Test func folderWalkSkipsDependenciesBuildOutputAndLoops() throws {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let call = #"let r = SKProductsRequest(productIdentifiers: ["com.x.app"])"#
        write(call, to: root + "/App/Store.swift")
        write(#"_ = Product.products(for: ["com.x.z"])"#, to: root + "/App/Z.swift")
        write("not code: SKProductsRequest(productIdentifiers: [\"com.x.txt\"])", to: root + "/App/notes.txt")
        for skipped in ["Pods/Lib", "Carthage/Checkouts/Lib", ".build/checkouts", "build", "DerivedData/App",
                        "node_modules/lib", ".git/hooks", "App.xcodeproj", "App.xcworkspace",
                        // Skipped by `init` first; one skip list now (FolderWalker.skippedFolderNames).
                        ".swiftpm/xcode", "xcuserdata/me.xcuserdatad"] {
            write(call.replacingOccurrences(of: "com.x.app", with: "com.x.\(skipped)"), to: root + "/" + skipped + "/Vendored.swift")
        }
        // A link back to the root is a loop; a link to a folder outside is followed.
        try FileManager.default.createSymbolicLink(atPath: root + "/App/loop", withDestinationPath: root)
        let outside = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        write(#"_ = Product.products(for: ["com.x.shared"])"#, to: outside + "/Shared.swift")
        try FileManager.default.createSymbolicLink(atPath: root + "/App/Shared", withDestinationPath: outside)
        // Too large to be the app's own code; invalid UTF-8 still scans.
        write(Array(repeating: UInt8(ascii: " "), count: (4 << 20) + 1), to: root + "/App/Generated.swift")
        write(Array("_ = Product.products(for: [\"com.x.bytes\"]) // \u{FF}".utf8) + [0xFF, 0xFE, 0x0A]
                + Array(#"_ = Product.products(for: ["com.x.after"])"#.utf8), to: root + "/App/Latin1.swift")

        let scan = SourceScanner.scan(paths: ["."], baseDirectory: root)
        #expect(rows(scan) == [
            "\(root)/App/Latin1.swift:1:28 com.x.bytes Product.products(for:) -",
            "\(root)/App/Latin1.swift:2:28 com.x.after Product.products(for:) -",
            "\(root)/App/Shared/Shared.swift:1:28 com.x.shared Product.products(for:) -",
            "\(root)/App/Store.swift:1:48 com.x.app SKProductsRequest(productIdentifiers:) -",
            "\(root)/App/Z.swift:1:28 com.x.z Product.products(for:) -",
        ])
        #expect(scan.filesScanned == 4)
        #expect(scan.problems.count == 2)
        #expect(scan.problems.contains { $0.message.contains("\(root)/App/Generated.swift") && $0.message.contains("4 MiB") })
        #expect(scan.problems.contains { $0.message.contains("\(root)/App/loop") && $0.message.contains("loop") })
    }

    @Test func missingPathsAreProblemsNotFailures() {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        write(#"_ = Product.products(for: ["com.x.one"])"#, to: root + "/One.swift")
        let scan = SourceScanner.scan(paths: ["Missing", "One.swift"], baseDirectory: root)
        #expect(rows(scan) == ["\(root)/One.swift:1:28 com.x.one Product.products(for:) -"])
        #expect(scan.problems.map(\.message) == ["cannot read `\(root)/Missing`: no such file or folder"])
        #expect(SourceScanner.scan(source: "x", file: "README.md").problems.count == 1)
    }

    @Test func resultsAreDeterministic() {
        let root = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for index in 0..<12 {
            write("""
            enum IDs\(index) { static let id = "com.x.\(index)" }
            func load\(index)() async throws { _ = try await Product.products(for: [IDs\(index).id, "com.x.direct\(index)"]) }
            """, to: root + "/Module\(index % 3)/File\(index).swift")
        }
        let first = SourceScanner.scan(paths: ["Module2", "Module0", "Module1"], baseDirectory: root)
        let second = SourceScanner.scan(paths: ["Module0", "Module1", "Module2"], baseDirectory: root)
        #expect(first.requests.count == 24)
        #expect(first.requests == second.requests)
        #expect(first.requests == first.requests.sorted { $0.location < $1.location })
        #expect(rows(first).first == "\(root)/Module0/File0.swift:1:29 com.x.0 Product.products(for:) IDs0.id")
    }
}
