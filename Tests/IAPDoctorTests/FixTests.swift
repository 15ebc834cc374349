import Foundation
import Formats
import IAPDoctor
import Rules
import Testing
import TestSupport

/// `check --fix`: every fixable rule's problematic example is fixed and then clean, a second
/// fix changes nothing, and what is not certain is refused with its reason.
@Suite("Fixes")
struct FixTests {
    static let fixable = RuleSet.builtin.rules.filter { $0.fix != nil }

    /// The snippet written as a file, the engine's findings on it pointed at that file.
    func findings(_ snippet: String, in folder: String) -> (file: String, findings: [Finding]) {
        let file = folder + "/snippet.yaml"
        try? snippet.write(toFile: file, atomically: true, encoding: .utf8)
        let found = diagnose(snippet: snippet).findings.map { finding -> Finding in
            var moved = finding
            if var fix = moved.fix, fix.location.file == "snippet.yaml" {
                fix.location.file = file
                moved.fix = fix
            }
            return moved
        }
        return (file, found)
    }

    @Test func theFixableRulesAreTheDocumentedOnes() {
        #expect(Set(Self.fixable.map(\.id)) == ["short-product-id", "product-id-case-mismatch", "product-id-whitespace", "descriptor-unknown-key"])
        for rule in RuleSet.builtin.rules where rule.fix == nil && rule.input == .descriptor {
            for snippet in rule.triggering {
                let fixed = diagnose(snippet: snippet).findings.filter { $0.rule == rule.id && $0.fix != nil }
                #expect(fixed.isEmpty, "\(rule.id) makes a fix, but rules.yaml documents none")
            }
        }
    }

    @Test("a fixable rule's example is fixed, then clean, then left alone", arguments: fixable.map(\.id))
    func fixedThenClean(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        let folder = try makeScratchFolder("fix-\(ruleID)")
        defer { removeScratch(folder) }
        var fixedAny = false
        for snippet in rule.triggering {
            let (file, found) = findings(snippet, in: folder)
            let fixes = found.filter { $0.rule == ruleID && $0.fix != nil }
            guard !fixes.isEmpty else { continue }
            fixedAny = true
            let plan = Fixer.plan(found, root: folder)
            #expect(plan.refused.isEmpty, "\(plan.refused.map(\.reason))")
            try Fixer.apply(plan)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text != snippet)
            // Only the fixed bytes changed: the comment marking the line is still there.
            #expect(text.contains("# <-"))
            let again = findings(text, in: folder)
            #expect(!again.findings.contains { $0.rule == ruleID }, "\(ruleID) still fires after the fix:\n\(text)")
            #expect(Fixer.plan(again.findings, root: folder).files.isEmpty, "a second fix changed something")
        }
        #expect(fixedAny, "no triggering example of \(ruleID) carries a fix")
    }

    /// Two products end with the request: which one was meant is not certain.
    @Test func twoCandidatesAreNotFixed() {
        let diagnosis = diagnose(snippet: """
            products:
              - {}
              - {}
              - {}
              - product_id: com.greenthumb.pocketgarden.extra.greenhouse
                reference_name: Greenhouse Extra
                type: non_consumable
            requests:
              - greenhouse
            """)
        let short = diagnosis.findings.filter { $0.rule == "short-product-id" }
        #expect(!short.isEmpty && short.allSatisfy { $0.fix == nil }, "\(short.map(\.message))")
    }

    /// The span reports carry (SARIF's `deletedRegion`): the whole span, inside quotes, or inside
    /// Objective-C's `@"…"`, from the widths alone; anything else is left to `--fix`.
    @Test func theReplacedSpanFromTheWidths() {
        func span(_ file: String, _ column: Int, _ end: Int, _ original: String) -> Formats.SourceLocation? {
            Fix(location: SourceLocation(file: file, line: 3, column: column, endLine: 3, endColumn: end), original: original, replacement: "x").replacedSpan
        }
        #expect(span("project.yaml", 5, 9, "gold") == SourceLocation(file: "project.yaml", line: 3, column: 5, endLine: 3, endColumn: 9))
        #expect(span("Store.swift", 5, 11, "gold") == SourceLocation(file: "Store.swift", line: 3, column: 6, endLine: 3, endColumn: 10))
        #expect(span("Store.m", 5, 12, "gold") == SourceLocation(file: "Store.m", line: 3, column: 7, endLine: 3, endColumn: 11))
        #expect(span("Store.swift", 5, 12, "gold") == nil)
        #expect(span("Store.swift", 5, 20, "gold") == nil)
    }

    @Test func linksOutsidersAndChangedTextAreRefused() throws {
        let folder = try makeScratchFolder("fix-refusals")
        defer { removeScratch(folder) }
        let project = folder + "/project"
        try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
        let code = "let ids = [\"gold\"]\n"
        try code.write(toFile: folder + "/Outside.swift", atomically: true, encoding: .utf8)
        try code.write(toFile: project + "/Store.swift", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: project + "/Linked.swift", withDestinationPath: project + "/Store.swift")
        func fix(_ file: String, original: String = "gold") -> Finding {
            var finding = Finding(rule: "short-product-id", severity: .error, checklist: nil, message: "m",
                                  location: SourceLocation(file: file, line: 1, column: 12, endLine: 1, endColumn: 18))
            finding.fix = Fix(location: finding.location!, original: original, replacement: "com.acme.gold")
            return finding
        }
        let plan = Fixer.plan([fix(folder + "/Outside.swift"), fix(project + "/Linked.swift"), fix(project + "/Store.swift", original: "silver")], root: project)
        #expect(plan.files.isEmpty)
        let reasons = plan.refused.map(\.reason)
        #expect(reasons.contains { $0.contains("outside the project's folder") }, "\(reasons)")
        #expect(reasons.contains { $0.contains("is a link") }, "\(reasons)")
        #expect(reasons.contains { $0.contains("is `\"gold\"`, not `silver`") }, "\(reasons)")

        let good = Fixer.plan([fix(project + "/Store.swift"), fix(project + "/Store.swift")], root: project)
        #expect(good.fixCount == 1 && good.refused.isEmpty)
        #expect(Fixer.diff(good) == """
            --- a/\(Paths.displayPath(project + "/Store.swift"))
            +++ b/\(Paths.displayPath(project + "/Store.swift"))
            @@ -1,1 +1,1 @@
            -let ids = ["gold"]
            +let ids = ["com.acme.gold"]

            """)
        try Fixer.apply(good)
        #expect(try String(contentsOfFile: project + "/Store.swift", encoding: .utf8) == "let ids = [\"com.acme.gold\"]\n")
        // The link still points at the file; it was not replaced.
        #expect(FileSystem.isSymbolicLink(project + "/Linked.swift"))
    }
}

/// `check --fix` and `--fix --diff` through the binary.
@Suite("check --fix")
struct FixCommandTests {
    @Test func diffThenFixThenNothing() throws {
        let folder = try makeScratchFolder("fix-command")
        defer { removeScratch(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/App", withIntermediateDirectories: true)
        let store = """
            import StoreKit

            func load() async throws {
                let products = try await Product.products(for: ["gold100", "com.acme.coins.Silver"])
                print(products)
            }

            """
        try store.write(toFile: folder + "/App/Store.swift", atomically: true, encoding: .utf8)
        try """
            version: 1
            environment: sandbox
            app:
              bundle_id: com.acme.coins
              sources: [App]
            products:
              - product_id: com.acme.coins.gold100
              - product_id: com.acme.coins.silver
            """.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        let diff = try runIAPDoctor(["check", "--fix", "--diff", folder + "/project.yaml"])
        #expect(diff.status == 1, "\(diff.errors)")
        #expect(diff.output.contains("-    let products = try await Product.products(for: [\"gold100\", \"com.acme.coins.Silver\"])"), "\(diff.output)")
        #expect(diff.output.contains("+    let products = try await Product.products(for: [\"com.acme.coins.gold100\", \"com.acme.coins.silver\"])"))
        #expect(try String(contentsOfFile: folder + "/App/Store.swift", encoding: .utf8) == store, "--diff wrote the file")

        let fixed = try runIAPDoctor(["check", "--fix", "--format", "json", folder + "/project.yaml"])
        #expect(fixed.errors.contains("fixed 2 problems in 1 file"), "\(fixed.errors)")
        #expect(!fixed.output.contains("short-product-id") && !fixed.output.contains("product-id-case-mismatch"))
        let again = try runIAPDoctor(["check", "--fix", "--format", "json", folder + "/project.yaml"])
        #expect(again.errors.contains("nothing to fix"), "\(again.errors)")
        let unusable = try runIAPDoctor(["check", "--diff", folder + "/project.yaml"])
        #expect(unusable.status == 2 && unusable.errors.contains("--diff is for --fix"))
    }

    /// The same edits in Dart, TypeScript (a template literal too) and Objective-C (`@"…"`).
    @Test func otherLanguagesLiterals() throws {
        let folder = try makeScratchFolder("fix-languages")
        defer { removeScratch(folder) }
        let files = [
            "lib/store.dart": "Future<void> load() async {\n  await InAppPurchase.instance.queryProductDetails({'gold100', 'com.acme.coins.Silver'});\n}\n",
            "src/store.ts": "import { getProducts } from 'react-native-iap';\nexport const load = () => getProducts({ skus: [\"gold100\", `com.acme.coins.Silver`] });\n",
            "objc/Store.m": "#import <StoreKit/StoreKit.h>\nvoid load(void) {\n    [[[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObjects:@\"gold100\", nil]] start];\n}\n",
        ]
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: folder + "/" + Paths.directoryName(of: path), withIntermediateDirectories: true)
            try text.write(toFile: folder + "/" + path, atomically: true, encoding: .utf8)
        }
        try """
            version: 1
            environment: sandbox
            app:
              bundle_id: com.acme.coins
              sources: [lib, src, objc]
            products:
              - product_id: com.acme.coins.gold100
              - product_id: com.acme.coins.silver
            """.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        let fixed = try runIAPDoctor(["check", "--fix", "--format", "json", folder + "/project.yaml"])
        #expect(fixed.errors.contains("fixed 5 problems in 3 files"), "\(fixed.errors)")
        #expect(try String(contentsOfFile: folder + "/lib/store.dart", encoding: .utf8).contains("{'com.acme.coins.gold100', 'com.acme.coins.silver'}"))
        #expect(try String(contentsOfFile: folder + "/src/store.ts", encoding: .utf8).contains("[\"com.acme.coins.gold100\", `com.acme.coins.silver`]"))
        #expect(try String(contentsOfFile: folder + "/objc/Store.m", encoding: .utf8).contains("@\"com.acme.coins.gold100\", nil"))
    }
}
