import CodeScanner
import Testing

/// One file built to spend the resolver's budget beside ordinary files: the others' requests are
/// still found, and what was not followed says which bound stopped it.
@Suite("Value flow budget shares")
struct BudgetShareTests {
    /// `let dN = [dN-1, "idN"]` with a call per constant: the lists' lengths add up to n²/2 IDs.
    static func chain(_ prefix: String, count: Int) -> String {
        var lines = ["import StoreKit", "let \(prefix)0 = [\"\(prefix).id0\"]"]
        for k in 1..<count { lines.append("let \(prefix)\(k) = [\(prefix)\(k - 1), \"\(prefix).id\(k)\"]") }
        lines.append("func \(prefix)Load() async throws {")
        for k in 0..<count { lines.append("    _ = try await Product.products(for: \(prefix)\(k))") }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    static let ordinary = """
        import StoreKit
        enum Tier { static let monthly = "com.acme.pro.monthly"; static let all = [monthly, "com.acme.pro.yearly"] }
        func shop() async throws { _ = try await Product.products(for: Tier.all) }
        """

    static let literal = """
        import StoreKit
        func tip() async throws { _ = try await Product.products(for: ["com.acme.tip"]) }
        """

    @Test func oneFileSpendingItsShareLeavesTheOthersTheirs() {
        let scan = SourceScanner.scan(sources: [
            ("A.swift", Self.chain("a", count: 1_000)), ("B.swift", Self.ordinary), ("C.swift", Self.literal),
        ])
        let ids = Set(scan.requests.map(\.id))
        #expect(ids.isSuperset(of: ["com.acme.pro.monthly", "com.acme.pro.yearly", "com.acme.tip", "a.id0"]))
        #expect(scan.unresolved.allSatisfy { $0.location.file == "A.swift" })
        #expect(scan.unresolved.contains { $0.reason.contains("stopped following constants") && $0.reason.contains("for this file's requests") })
        // Control: the same ordinary files alone resolve the same IDs, with no note.
        let alone = SourceScanner.scan(sources: [("B.swift", Self.ordinary), ("C.swift", Self.literal)])
        #expect(alone.unresolved.isEmpty)
        #expect(Set(alone.requests.map(\.id)) == ["com.acme.pro.monthly", "com.acme.pro.yearly", "com.acme.tip"])
    }

    /// Past the project's total, constants are no longer followed anywhere, and the notes say so;
    /// a call site that names only literals is still read.
    @Test func pastTheProjectTotalLiteralsAreStillRead() {
        let bombs = (0..<5).map { ("A\($0).swift", Self.chain("a\($0)x", count: 1_000)) }
        let scan = SourceScanner.scan(sources: bombs + [("B.swift", Self.ordinary), ("C.swift", Self.literal)])
        #expect(scan.resolutionWork <= SourceScan.maxTotalResolutionWork + 1_000)
        #expect(scan.requests.contains { $0.id == "com.acme.tip" })
        #expect(scan.unresolved.contains { $0.location.file == "B.swift" && $0.reason.contains("IDs in all") })
    }

    /// Constants that double each other (`b = a + a`), in each language the scanner reads: the
    /// text cap stops them, the note names it, and a literal in another file is still reported.
    @Test(arguments: [
        ("Bomb.swift", "let a0 = \"com.example.x\"", "let a{k} = a{j} + a{j}",
         "func f() async throws { _ = try await Product.products(for: [{all}]) }",
         "Store.swift", "import StoreKit\nfunc g() async throws { _ = try await Product.products(for: [\"com.acme.pro\"]) }"),
        ("bomb.js", "import {getProducts} from 'react-native-iap';\nconst a0 = 'com.example.x';", "const a{k} = a{j} + a{j};", "getProducts({skus: [{all}]});",
         "store.js", "import {getProducts} from 'react-native-iap';\ngetProducts({skus: ['com.acme.pro']});"),
        ("bomb.dart", "const a0 = 'com.example.x';", "const a{k} = a{j} + a{j};",
         "void f() { InAppPurchase.instance.queryProductDetails({{all}}); }",
         "store.dart", "void g() { InAppPurchase.instance.queryProductDetails({'com.acme.pro'}); }"),
        ("Bomb.cs", "class A {\nconst string a0 = \"com.example.x\";", "const string a{k} = a{j} + a{j};",
         "async void F() { await CrossInAppBilling.Current.GetProductInfoAsync(ItemType.InAppPurchase, {all}); }}",
         "Store.cs", "class S { async void G() { await CrossInAppBilling.Current.GetProductInfoAsync(ItemType.InAppPurchase, \"com.acme.pro\"); } }"),
    ])
    func doublingConstantsStopAtTheTextCap(_ bomb: (String, String, String, String, String, String)) {
        let (file, first, step, call, other, otherText) = bomb
        var lines = [first]
        for k in 1..<40 {
            lines.append(step.replacingOccurrences(of: "{k}", with: "\(k)").replacingOccurrences(of: "{j}", with: "\(k - 1)"))
        }
        lines.append(call.replacingOccurrences(of: "{all}", with: (0..<40).map { "a\($0)" }.joined(separator: ", ")))
        let scan = SourceScanner.scan(sources: [(file, lines.joined(separator: "\n")), (other, otherText)])
        #expect(scan.requests.contains { $0.id == "com.acme.pro" && $0.location.file == other })
        // 13 bytes doubled 8 times is 3,328 bytes; once more passes the cap.
        #expect(scan.requests.contains { $0.id.utf8.count == 13 << 8 })
        #expect(!scan.requests.contains { $0.id.utf8.count > SourceScan.maxBuiltTextBytes })
        #expect(scan.unresolved.contains { $0.location.file == file && $0.reason.contains("longer than 4096 bytes") })
    }
}
