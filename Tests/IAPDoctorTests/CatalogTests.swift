import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

@Suite("rules.yaml, implementations and docs stay in step")
struct CatalogTests {
    @Test func everyCatalogEntryHasAnImplementationAndViceVersa() {
        let unmatched = BuiltinRules.engine().unmatchedRules
        #expect(unmatched.withoutImplementation.isEmpty, "rules.yaml entries without Swift logic or a check: \(unmatched.withoutImplementation)")
        #expect(unmatched.withoutMetadata.isEmpty, "Swift rules missing from rules.yaml: \(unmatched.withoutMetadata)")
    }

    /// `BuiltinRules.all` is generated from the rule files: every `let id = RuleID.x.rawValue` under
    /// Sources/Rules is registered once, in rules.yaml's order (a rule file added without running
    /// scripts/generate.sh fails here).
    @Test func theGeneratedRegistryHasEveryRuleFile() {
        let root = repositoryFile("Sources/Rules")
        let caseNames = Dictionary(uniqueKeysWithValues: RuleID.allCases.map { ("\($0)", $0.rawValue) })
        var declared: [String] = []
        for case let file as String in FileManager.default.enumerator(atPath: root)! where file.hasSuffix(".swift") && !file.hasPrefix("Generated/") {
            var rest = Substring(readText(root + "/" + file))
            while let range = rest.range(of: "let id = RuleID.") {
                let name = rest[range.upperBound...].prefix(while: { $0.isLetter || $0.isNumber })
                declared.append(caseNames[String(name)] ?? "unknown case \(name) in \(file)")
                rest = rest[range.upperBound...]
            }
        }
        let registered = BuiltinRules.all.map(\.id)
        #expect(declared.count > 90)
        let unregistered = Set(declared).symmetricDifference(registered).sorted()
        #expect(unregistered.isEmpty, "run scripts/generate.sh: \(unregistered)")
        #expect(registered.count == Set(registered).count, "a rule is registered twice")
        #expect(registered == RuleSet.builtin.rules.map(\.id).filter(Set(registered).contains), "not in rules.yaml's order")
    }

    @Test func theEmbeddedCopyMatchesRulesYAML() {
        let file = readText(repositoryFile("rules.yaml"))
        let same = RuleSet.builtinSource == file || RuleSet.builtinSource + "\n" == file
        #expect(same, "the rules.yaml built into the binary differs from the file: run scripts/generate.sh")
    }

    /// The start-up decodes a tree that scripts/embed-rules.py composed; it must be exactly what
    /// the YAML reader makes of the embedded text (texts, quoting, lines, columns, order).
    @Test func theEmbeddedTreeIsWhatTheYAMLReaderComposes() throws {
        let composed = try YAMLTreeReader.read(bytes: Array(RuleSet.builtinSource.utf8), file: "rules.yaml").tree
        let decoded = RuleSet.builtinTree
        #expect(decoded != nil, "the embedded tree does not decode: run scripts/generate.sh")
        if let composed, let decoded {
            let difference = firstDifference(composed, decoded)
            #expect(difference == nil, "the embedded tree differs from rules.yaml: run scripts/generate.sh (\(difference ?? ""))")
        }
    }

    func firstDifference(_ a: YAMLTree, _ b: YAMLTree) -> String? {
        switch (a, b) {
        case (.scalar(let x), .scalar(let y)):
            return x == y ? nil : "\(x) vs \(y)"
        case (.mapping(let x, let p), .mapping(let y, let q)):
            guard p == q, x.count == y.count else { return "mapping at \(p) vs \(q)" }
            for (left, right) in zip(x, y) {
                if left.key != right.key { return "key \(left.key) vs \(right.key)" }
                if let difference = firstDifference(left.value, right.value) { return difference }
            }
            return nil
        case (.sequence(let x, let p), .sequence(let y, let q)):
            guard p == q, x.count == y.count else { return "sequence at \(p) vs \(q)" }
            for (left, right) in zip(x, y) { if let difference = firstDifference(left, right) { return difference } }
            return nil
        default:
            return "\(a.location): \(a.kindDescription) vs \(b.kindDescription)"
        }
    }

    @Test func docsPagesAreGeneratedFromTheCatalog() {
        for rule in RuleSet.builtin.rules {
            let path = repositoryFile("docs/rules/\(rule.id).md")
            let same = readText(path) == RuleDocs.page(for: rule)
            #expect(same, "\(path) is stale: run scripts/generate.sh")
        }
        let indexIsCurrent = readText(repositoryFile("docs/rules/README.md")) == RuleDocs.index(for: .builtin)
        #expect(indexIsCurrent, "docs/rules/README.md is stale: run scripts/generate.sh")
    }

    @Test func theGeneratedRuleIDsAreTheCatalogs() {
        #expect(RuleID.allCases.map(\.rawValue) == RuleSet.builtin.rules.map(\.id), "RuleIDs.swift is stale: run scripts/generate.sh")
        let inputRules = Set(RuleSet.builtin.rules.filter { $0.checklist == nil }.map(\.id))
        #expect(Engine.inputRuleIDs == inputRules)
    }

    @Test func everyBuiltinRuleSaysSinceWhenAndHowSettled() {
        for rule in RuleSet.builtin.rules {
            #expect(rule.since.map { $0.split(separator: ".").count == 3 } == true, "\(rule.id) has no `since: x.y.z`")
        }
        #expect(RuleSet.builtin.rule("asc-missing-metadata")?.status == .preview)
        #expect(RuleSet.builtin.rule("status-not-served")?.status == .stable)
    }

    @Test func aStatusThatIsNoneIsAConfigurationError() throws {
        let text = "- id: my-rule\n  severity: warning\n  title: t\n  rationale: r\n  help: h\n  status: beta\n"
        do {
            _ = try RuleSet.parse(bytes: Array(text.utf8), file: "rules.yaml")
            Issue.record("a rule with `status: beta` was accepted")
        } catch {
            #expect(error.problems.contains { $0.message.contains("status `beta`") && $0.location?.line == 6 })
        }
    }

    @Test func everyChecklistItemIsAnsweredBySomeRule() {
        let answered = Set(RuleSet.builtin.rules.compactMap(\.checklist))
        let missing = Checklist.items.map(\.id).filter { !answered.contains($0) }
        #expect(missing.isEmpty, "checklist items without a rule: \(missing)")
    }

    @Test func everyChecklistRuleHasTriggeringAndPassingExamples() {
        for rule in RuleSet.builtin.rules where rule.checklist != nil {
            #expect(!rule.triggering.isEmpty, "\(rule.id) has no triggering example")
            // The feed-retired note fires on every catalog by design.
            let alwaysFires = ["storekit-configuration-incomplete", "catalog-xml-feed-retired"]
            #expect(!rule.passing.isEmpty || alwaysFires.contains(rule.id), "\(rule.id) has no passing example")
        }
    }

    @Test func everyRuleHasTitleRationaleAndHelp() {
        for rule in RuleSet.builtin.rules {
            #expect(!rule.title.isEmpty && rule.title != rule.id, "\(rule.id) has no title")
            #expect(!rule.rationale.isEmpty, "\(rule.id) has no rationale")
            #expect(!rule.help.isEmpty, "\(rule.id) has no help")
        }
    }

    @Test
    func checklistMatchesTheSpec() throws {
        let spec = readText(SharedFolder.file("spec/checklist.md"))
        try #require(!spec.isEmpty, "\(SharedFolder.file("spec/checklist.md")) is missing or empty")
        for item in Checklist.items {
            #expect(spec.contains("| \(item.number) | `\(item.id)` |"), "checklist item \(item.number) `\(item.id)` is not in the spec")
        }
    }

    /// A review screenshot larger than iapdoctor reads: its size is compared, and one warning says
    /// its checksum and dimensions are not checked (no claim that it is not an image).
    @Test func anOversizeScreenshotIsNamedNotSkipped() throws {
        let folder = try makeScratchFolder("iapdoctor-oversize-screenshot")
        let package = folder + "/Store.itmsp"
        try FileManager.default.createDirectory(atPath: package, withIntermediateDirectories: true)
        // A sparse file: 65 MiB on paper, nothing written.
        #expect(FileManager.default.createFile(atPath: package + "/huge.png", contents: nil))
        #expect(truncate(package + "/huge.png", 65 << 20) == 0)
        let item = FindingCostTests.item(0).replacingOccurrences(of: "missing_0.png", with: "huge.png")
        try (catalogEnvelopeHead + item + catalogEnvelopeTail).write(toFile: package + "/metadata.xml", atomically: true, encoding: .utf8)
        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: [package]))
        let oversize = diagnosis.findings.filter { $0.rule == "catalog-screenshot-checksum" }
        #expect(oversize.contains { $0.severity == .warning && $0.message.contains("is 68157440 bytes, more than iapdoctor reads (64 MiB)") }, "\(oversize.map(\.message))")
        #expect(oversize.contains { $0.message.contains("`<size>` of review screenshot `huge.png` is `3636`, but the file has 68157440 bytes") })
        #expect(!diagnosis.findings.contains { $0.rule == "catalog-screenshot-dimensions" })
    }
}
