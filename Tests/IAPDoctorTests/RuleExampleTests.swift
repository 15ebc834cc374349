import IAPDoctor
import Rules
import Testing

/// Every rule's examples from rules.yaml run here: a triggering snippet must make the rule fire
/// (at the `# <-` line when one is marked), a passing snippet must not.
@Suite("Rule examples")
struct RuleExampleTests {
    static let rulesWithExamples = RuleCatalog.builtin.rules.filter { !$0.triggering.isEmpty || !$0.passing.isEmpty }

    static let descriptorRules = rulesWithExamples.filter { $0.input == .descriptor }
    static let catalogRules = rulesWithExamples.filter { $0.input == .catalog }
    static let storeKitRules = rulesWithExamples.filter { $0.input == .storekit }

    @Test("StoreKit examples fire and pass", arguments: storeKitRules.map(\.id))
    func storeKitExamples(ruleID: String) throws {
        let rule = try #require(RuleCatalog.builtin.rule(ruleID))
        for snippet in rule.triggering {
            let diagnosis = try diagnose(storeKitSnippet: snippet)
            #expect(diagnosis.findings.contains { $0.rule == ruleID }, "\(ruleID) did not fire on:\n\(snippet)\n\(diagnosis.findings.map(\.rule))")
        }
        for snippet in rule.passing {
            let diagnosis = try diagnose(storeKitSnippet: snippet)
            #expect(!diagnosis.findings.contains { $0.rule == ruleID }, "\(ruleID) fired on a passing example:\n\(snippet)")
        }
    }

    @Test("triggering examples fire", arguments: descriptorRules.map(\.id))
    func triggeringExamplesFire(ruleID: String) throws {
        let rule = try #require(RuleCatalog.builtin.rule(ruleID))
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
        let rule = try #require(RuleCatalog.builtin.rule(ruleID))
        for snippet in rule.passing {
            let diagnosis = diagnose(snippet: snippet)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(fired.isEmpty, "\(ruleID) fired on a passing example:\n\(snippet)\n\(fired.map(\.message))")
        }
    }

    @Test("catalog triggering examples fire", arguments: catalogRules.map(\.id))
    func catalogTriggeringExamplesFire(ruleID: String) throws {
        let rule = try #require(RuleCatalog.builtin.rule(ruleID))
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
        let rule = try #require(RuleCatalog.builtin.rule(ruleID))
        for snippet in rule.passing {
            let (diagnosis, _, _) = try diagnose(catalogSnippet: snippet, rule: rule)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(fired.isEmpty, "\(ruleID) fired on a passing example:\n\(snippet)\n\(fired.map(\.message))")
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
