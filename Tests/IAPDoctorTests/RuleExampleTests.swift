import IAPDoctor
import Rules
import Testing

/// Every rule's examples from rules.yaml run here: a triggering snippet must make the rule fire
/// (at the `# <-` line when one is marked), a passing snippet must not.
@Suite("Rule examples")
struct RuleExampleTests {
    static let rulesWithExamples = RuleSet.builtin.rules.filter { !$0.triggering.isEmpty || !$0.passing.isEmpty }

    static let descriptorRules = rulesWithExamples.filter { $0.input == .descriptor }
    static let catalogRules = rulesWithExamples.filter { $0.input == .catalog }
    static let storeKitRules = rulesWithExamples.filter { $0.input == .storekit }
    static let ascRules = rulesWithExamples.filter { $0.input == .asc }
    static let buildRules = rulesWithExamples.filter { $0.input == .build }

    @Test("built-app examples fire and pass", arguments: buildRules.map(\.id))
    func buildExamples(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        for snippet in rule.triggering {
            let diagnosis = try diagnose(buildSnippet: snippet)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(!fired.isEmpty, "\(ruleID) did not fire on:\n\(snippet)\nfindings: \(diagnosis.findings.map { "\($0.rule): \($0.message)" })")
            for finding in fired { #expect(!finding.message.hasSuffix("."), "no trailing period: \(finding.message)") }
        }
        for snippet in rule.passing {
            let diagnosis = try diagnose(buildSnippet: snippet)
            expectEvaluated(diagnosis, rule: rule, snippet: snippet)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(fired.isEmpty, "\(ruleID) fired on a passing example:\n\(snippet)\n\(fired.map(\.message))")
        }
    }

    @Test("App Store Connect examples fire and pass", arguments: ascRules.map(\.id))
    func ascExamples(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        for snippet in rule.triggering {
            let (diagnosis, snapshot) = diagnose(ascSnippet: snippet)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(!fired.isEmpty, "\(ruleID) did not fire on:\n\(snippet)\nfindings: \(diagnosis.findings.map { "\($0.rule): \($0.message)" })")
            for line in markedLines(snapshot) {
                #expect(
                    fired.contains { $0.location?.file == "snapshot.json" && $0.location?.line == line },
                    "\(ruleID) fired at \(fired.map { $0.location?.description ?? "-" }), not at snapshot line \(line)")
            }
            for finding in fired { #expect(!finding.message.hasSuffix("."), "no trailing period: \(finding.message)") }
        }
        for snippet in rule.passing {
            let (diagnosis, _) = diagnose(ascSnippet: snippet)
            expectEvaluated(diagnosis, rule: rule, snippet: snippet)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(fired.isEmpty, "\(ruleID) fired on a passing example:\n\(snippet)\n\(fired.map(\.message))")
        }
    }

    @Test("StoreKit examples fire and pass", arguments: storeKitRules.map(\.id))
    func storeKitExamples(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        for snippet in rule.triggering {
            let diagnosis = try diagnose(storeKitSnippet: snippet)
            #expect(diagnosis.findings.contains { $0.rule == ruleID }, "\(ruleID) did not fire on:\n\(snippet)\n\(diagnosis.findings.map(\.rule))")
        }
        for snippet in rule.passing {
            let diagnosis = try diagnose(storeKitSnippet: snippet)
            expectEvaluated(diagnosis, rule: rule, snippet: snippet)
            #expect(!diagnosis.findings.contains { $0.rule == ruleID }, "\(ruleID) fired on a passing example:\n\(snippet)")
        }
    }

    @Test("triggering examples fire", arguments: descriptorRules.map(\.id))
    func triggeringExamplesFire(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        for snippet in rule.triggering {
            let diagnosis = diagnose(snippet: snippet)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(!fired.isEmpty, "\(ruleID) did not fire on:\n\(snippet)\nfindings: \(diagnosis.findings.map(\.rule))")
            for line in markedLines(snippet) {
                #expect(
                    fired.contains { $0.location?.file == "snippet.yaml" && $0.location?.line == line },
                    "\(ruleID) fired at \(fired.map { $0.location?.description ?? "-" }), not at snippet line \(line)")
            }
            for finding in fired {
                #expect(!finding.message.hasSuffix("."), "no trailing period: \(finding.message)")
            }
        }
    }

    @Test("passing examples stay quiet", arguments: descriptorRules.map(\.id))
    func passingExamplesStayQuiet(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        for snippet in rule.passing {
            let diagnosis = diagnose(snippet: snippet)
            expectEvaluated(diagnosis, rule: rule, snippet: snippet)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(fired.isEmpty, "\(ruleID) fired on a passing example:\n\(snippet)\n\(fired.map(\.message))")
        }
    }

    @Test("catalog triggering examples fire", arguments: catalogRules.map(\.id))
    func catalogTriggeringExamplesFire(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        for snippet in rule.triggering {
            let (diagnosis, path, offset) = try diagnose(catalogSnippet: snippet, rule: rule)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(!fired.isEmpty, "\(ruleID) did not fire on:\n\(snippet)\nfindings: \(diagnosis.findings.map { "\($0.rule): \($0.message)" })")
            for line in markedLines(snippet) {
                #expect(
                    fired.contains { $0.location?.file == path && $0.location?.line == offset + line },
                    "\(ruleID) fired at \(fired.map { $0.location?.line ?? 0 }), not at line \(offset + line)")
            }
        }
    }

    @Test("catalog passing examples stay quiet", arguments: catalogRules.map(\.id))
    func catalogPassingExamplesStayQuiet(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        for snippet in rule.passing {
            let (diagnosis, _, _) = try diagnose(catalogSnippet: snippet, rule: rule)
            expectEvaluated(diagnosis, rule: rule, snippet: snippet)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(fired.isEmpty, "\(ruleID) fired on a passing example:\n\(snippet)\n\(fired.map(\.message))")
        }
    }

    /// A passing example proves something only if the rule ran on it: no input problem (an error
    /// stops the engine; an unknown key or a malformed file means the snippet was not read as
    /// meant), and the rule's checklist item was evaluated rather than not applicable.
    func expectEvaluated(_ diagnosis: Diagnosis, rule: RuleMetadata, snippet: String,
                         sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let problems = Self.whyNotEvaluated(diagnosis, rule: rule)
        #expect(problems.isEmpty, "\(rule.id) did not really run on a passing example:\n\(snippet)\n\(problems)",
                sourceLocation: sourceLocation)
    }

    static func whyNotEvaluated(_ diagnosis: Diagnosis, rule: RuleMetadata) -> [String] {
        var problems: [String] = []
        if !diagnosis.evaluated || diagnosis.hasInputErrors { problems.append("an input error stopped the engine") }
        problems += diagnosis.findings.filter { Engine.inputRuleIDs.contains($0.rule) }.map { "\($0.rule): \($0.message)" }
        if let item = rule.checklist, let entry = diagnosis.checklist.first(where: { $0.item.id == item }), entry.status == .notApplicable {
            problems.append("checklist item \(item) was not applicable: \(entry.reasons)")
        }
        return problems
    }

    /// The check above fails on a snippet the engine could not read, or read other than meant.
    @Test func aPassingExampleThatWasNotReadFailsTheCheck() throws {
        let rule = try #require(RuleSet.builtin.rule("wildcard-app-id"))
        #expect(Self.whyNotEvaluated(diagnose(snippet: ""), rule: rule).isEmpty)
        for snippet in ["app: [unclosed\n", "app:\n  bundle_identifer: com.x.y\n"] {
            #expect(!Self.whyNotEvaluated(diagnose(snippet: snippet), rule: rule).isEmpty, "\(snippet) would count as a passing example")
        }
    }

    @Test func theHealthyBaseIsClean() {
        let diagnosis = diagnose(snippet: "")
        #expect(diagnosis.findings.isEmpty, "\(diagnosis.findings.map { "\($0.rule): \($0.message)" })")
        #expect(diagnosis.exitCode == 0)
        #expect(diagnosis.products.allSatisfy { $0.verdict == .valid })
        #expect(!diagnosis.checklist.contains { $0.status == .fail || $0.status == .unknown })
    }
}
