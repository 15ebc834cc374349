import Foundation
import Formats
@testable import IAPDoctor
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
        #expect(Set(Self.fixable.map(\.id)) == ["short-product-id", "bundle-id-prefixed-product-id", "product-id-case-mismatch", "product-id-whitespace", "descriptor-unknown-key"])
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

    /// A fix that edits the descriptor (its `requests:` list) says so: the app's code still
    /// requests what the descriptor said before.
    @Test func fixingTheDescriptorSaysTheCodeMustChangeToo() throws {
        let folder = try makeScratchFolder("fix-descriptor")
        defer { removeScratch(folder) }
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.copyItem(atPath: repositoryFile("examples/runmonster"), toPath: folder)
        let fixed = try runIAPDoctor(["check", "--fix", folder + "/project.yaml"])
        #expect(fixed.errors.contains("fixed 1 problem in 1 file: "), "\(fixed.errors)")
        #expect(fixed.errors.contains("project.yaml` is the descriptor: it only describes the app"), "\(fixed.errors)")
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
        #expect(String(decoding: Fixer.diff(good), as: UTF8.self) == """
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

/// What `--fix` refuses to write: code, protected files; and what `--diff` prints for names and
/// bytes that are not plain text.
@Suite("Fixes under attack")
struct HostileFixTests {
    func finding(_ file: String, original: String = "gold", replacement: String, column: Int = 12, line: Int = 1) -> Finding {
        var finding = Finding(rule: "short-product-id", severity: .error, checklist: nil, message: "m",
                              location: SourceLocation(file: file, line: line, column: column, endLine: line, endColumn: column + original.count + 2))
        finding.fix = Fix(location: finding.location!, original: original, replacement: replacement)
        return finding
    }

    /// A product ID from the descriptor or App Store Connect that would close the literal and
    /// run code is never written, in any language.
    @Test func replacementsThatAreNotProductIDsAreRefused() throws {
        let folder = try makeScratchFolder("fix-hostile")
        defer { removeScratch(folder) }
        let code = "let ids = [\"gold\"]\n"
        try code.write(toFile: folder + "/Store.swift", atomically: true, encoding: .utf8)
        for replacement in ["com.acme.gold\"]; exit(0); let x = [\"", "com.acme.\\(run())", "com.acme.${run()}", "com.acme.'gold", "com.acme.gold\nx", "", String(repeating: "a", count: 256)] {
            let plan = Fixer.plan([finding(folder + "/Store.swift", replacement: replacement)], root: folder)
            #expect(plan.files.isEmpty, "\(replacement.debugDescription) was written")
            #expect(plan.refused.first?.reason.contains("is not a product ID of letters, digits") == true, "\(plan.refused.map(\.reason))")
        }
        #expect(try String(contentsOfFile: folder + "/Store.swift", encoding: .utf8) == code)
        #expect(Fixer.plan([finding(folder + "/Store.swift", replacement: "com.acme-2.gold_100")], root: folder).fixCount == 1)
    }

    /// A rule offers no fix to a product ID that is not one: the descriptor's product holds a quote.
    @Test func rulesOfferNoFixToUnsafeProductIDs() {
        let diagnosis = diagnose(snippet: """
            products:
              - product_id: 'com.acme"+run()+".gold100'
                reference_name: Gold
                type: consumable
            requests:
              - gold100
            """)
        let short = diagnosis.findings.filter { $0.rule == "short-product-id" }
        #expect(!short.isEmpty, "\(diagnosis.findings.map(\.rule))")
        #expect(short.allSatisfy { $0.fix == nil })
    }

    /// The escaping each literal gets, though a product ID never needs it.
    @Test func escapedForTheLiteralsLanguage() {
        func escaped(_ text: String, _ quote: Character?, _ file: String) -> String? {
            Fixer.escaped(text, quote: quote.map { UInt8(ascii: $0.unicodeScalars.first!) }, file: file).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(escaped(#"a"b\(c)"#, "\"", "S.swift") == #"a\"b\\(c)"#)
        #expect(escaped("a'$b", "'", "s.dart") == #"a\'\$b"#)
        #expect(escaped("a`${b}", "`", "s.ts") == #"a\`\${b}"#)
        #expect(escaped("a$b", "\"", "s.ts") == "a$b")
        #expect(escaped("a'b\\", "'", "p.yaml") == "a''b\\")
        #expect(escaped("a: b", nil, "p.yaml") == nil)
        #expect(escaped("com.acme.gold", nil, "p.yaml") == "com.acme.gold")
        #expect(escaped("a\u{7}b", "\"", "S.swift") == nil)
    }

    @Test func readOnlyFilesAreLeftAlone() throws {
        let folder = try makeScratchFolder("fix-read-only")
        defer { removeScratch(folder) }
        let path = folder + "/Store.swift"
        try "let ids = [\"gold\"]\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
        let plan = Fixer.plan([finding(path, replacement: "com.acme.gold")], root: folder)
        #expect(plan.files.isEmpty)
        #expect(plan.refused.first?.reason.contains("is read-only; iapdoctor leaves it alone") == true, "\(plan.refused.map(\.reason))")
    }

    /// A byte order mark is not a column: the fix on line 1 lands on the literal.
    @Test func aByteOrderMarkIsNotAColumn() throws {
        let folder = try makeScratchFolder("fix-bom")
        defer { removeScratch(folder) }
        let path = folder + "/Store.swift"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0xEF, 0xBB, 0xBF] + Array("let ids = [\"gold\"]\r\n".utf8))))
        let plan = Fixer.plan([finding(path, replacement: "com.acme.gold")], root: folder)
        #expect(plan.refused.isEmpty, "\(plan.refused.map(\.reason))")
        #expect(plan.files.first?.after == [0xEF, 0xBB, 0xBF] + Array("let ids = [\"com.acme.gold\"]\r\n".utf8))
    }

    /// `patch -p1` makes exactly what `--fix` writes: a newline in a name is quoted, Latin-1
    /// bytes and a missing final newline are kept.
    @Test func theDiffIsWhatTheFixWrites() throws {
        let folder = try makeScratchFolder("fix-diff-bytes")
        defer { removeScratch(folder) }
        let names = ["Plain.swift", "Line\nBreak +++ b.swift", "Quote\"d é.swift"]
        var findings: [Finding] = []
        for name in names {
            let latin1: [UInt8] = Array("// caf".utf8) + [0xE9] + Array("\nlet ids = [\"gold\"]".utf8)
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(latin1)))
            findings.append(finding(folder + "/" + name, replacement: "com.acme.gold", line: 2))
        }
        let plan = Fixer.plan(findings, root: folder)
        #expect(plan.fixCount == 3, "\(plan.refused.map(\.reason))")
        // Named from the folder, as `--diff` names them from the current folder.
        let diff = plan.files.flatMap { Fixer.diff(before: $0.before, after: $0.after, name: String($0.path.dropFirst(folder.count + 1))) }
        #expect(String(decoding: diff, as: UTF8.self).contains("--- \"a/Line\\nBreak +++ b.swift\"\n"))
        #expect(!String(decoding: diff, as: UTF8.self).split(separator: "\n").contains { $0.hasPrefix("+++ b.swift") })
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/patch") else { return }
        #expect(FileManager.default.createFile(atPath: folder + "/fix.diff", contents: Data(diff)))
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/patch")
        patch.arguments = ["-p1", "-s", "-i", "fix.diff"]
        patch.currentDirectoryURL = URL(fileURLWithPath: folder)
        try patch.run()
        patch.waitUntilExit()
        #expect(patch.terminationStatus == 0)
        for file in plan.files {
            #expect([UInt8](FileManager.default.contents(atPath: file.path) ?? Data()) == file.after, "\(file.path)")
        }
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
        // The code was edited, not the descriptor: no reminder that the code must change too.
        #expect(!fixed.errors.contains("is the descriptor"), "\(fixed.errors)")
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
