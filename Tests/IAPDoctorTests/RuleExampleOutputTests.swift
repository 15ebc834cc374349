import Foundation
@testable import IAPDoctor
import Model
import Rules
import Testing
import TestSupport

/// What every rule's triggering examples in `rules.yaml` make it say, compared with
/// `Tests/Fixtures/rule-examples.txt`: each finding's span (`line:column` in the snippet), its
/// severity and its exact message; for a fixable rule, the edit and the snippet after it, which
/// the rule must then pass. `IAPDOCTOR_BLESS=1 swift test` rewrites the file instead (review the
/// diff), as it does the examples' golden outputs.
@Suite("Rule example outputs")
struct RuleExampleOutputTests {
    static let golden = "Tests/Fixtures/rule-examples.txt"

    /// A text as the golden file shows it: the repository's files relative to it, a scratch file
    /// by its name without the scratch folder and the UUID that made it unique.
    static func shown(_ text: String) -> String {
        text.replacingOccurrences(of: repositoryRoot + "/", with: "")
            .replacingOccurrences(of: scratchRoot + "/", with: "<scratch>/")
            .replacing(try! Regex("-[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}"), with: "")
    }

    /// The findings of `rule` on `snippet`, with the line offset of the snippet inside the file
    /// that was checked (a catalog's snippet sits inside a package written around it).
    static func findings(of rule: RuleMetadata, on snippet: String) throws -> (findings: [Finding], file: String?, offset: Int) {
        switch rule.input {
        case .descriptor:
            return (diagnose(snippet: snippet).findings.filter { $0.rule == rule.id }, "snippet.yaml", 0)
        case .catalog:
            let (diagnosis, path, offset) = try diagnose(catalogSnippet: snippet, rule: rule)
            return (diagnosis.findings.filter { $0.rule == rule.id }, path, offset)
        case .storekit:
            return (try diagnose(storeKitSnippet: snippet).findings.filter { $0.rule == rule.id }, nil, 0)
        case .asc:
            return (diagnose(ascSnippet: snippet).diagnosis.findings.filter { $0.rule == rule.id }, "snapshot.json", 0)
        case .build:
            return (try diagnose(buildSnippet: snippet).findings.filter { $0.rule == rule.id }, nil, 0)
        }
    }

    /// `snippet` with the fixes applied, when every one of them is inside it.
    static func fixed(_ snippet: String, _ fixes: [Fix]) -> String? {
        var bytes = Array(snippet.utf8)
        // From the end, so earlier offsets stay true.
        for fix in fixes.sorted(by: { $0.location > $1.location }) {
            guard case .success(let (range, _)) = Fixer.range(of: fix, in: bytes) else { return nil }
            bytes.replaceSubrange(range, with: Array(fix.replacement.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func render() throws -> String {
        var text = """
            # What each rule's triggering examples in rules.yaml make it say: the span in the snippet
            # (line:column), the severity and the message; for a fixable rule, the edit and the
            # snippet after it. Written by `IAPDOCTOR_BLESS=1 swift test --filter RuleExampleOutputTests`.

            """
        for rule in RuleSet.builtin.rules.sorted(by: { $0.id < $1.id }) where !rule.triggering.isEmpty {
            for (index, snippet) in rule.triggering.enumerated() {
                let (findings, file, offset) = try findings(of: rule, on: snippet)
                text += "\n## \(rule.id), example \(index + 1)\n"
                if findings.isEmpty { text += "(nothing)\n" }
                let ordered = findings.sorted {
                    ($0.location?.file ?? "", $0.location?.line ?? 0, $0.location?.column ?? 0, $0.message)
                        < ($1.location?.file ?? "", $1.location?.line ?? 0, $1.location?.column ?? 0, $1.message)
                }
                for finding in ordered {
                    let place: String
                    if let location = finding.location, location.line > 0 {
                        let inSnippet = file == nil || location.file == file
                        let line = inSnippet ? location.line - offset : location.line
                        place = (inSnippet ? "" : shown(location.file) + ":") + "\(line):\(location.column)"
                    } else {
                        place = finding.location.map { shown($0.file) } ?? "-"
                    }
                    text += "\(place): \(finding.severity.rawValue): \(shown(finding.message))\n"
                    if let fix = finding.fix { text += "  fix: `\(fix.original)` → `\(fix.replacement)`\n" }
                }
                let fixes = findings.compactMap(\.fix).filter { $0.location.file == "snippet.yaml" }
                if !fixes.isEmpty, let after = fixed(snippet, fixes) {
                    text += "  fixed:\n" + after.split(separator: "\n").map { "    " + $0 + "\n" }.joined()
                }
            }
        }
        return text
    }

    @Test func everyTriggeringExampleSaysWhatTheGoldenFileSays() throws {
        let text = try Self.render()
        if GoldenTests.blessing {
            try text.write(toFile: repositoryFile(Self.golden), atomically: true, encoding: .utf8)
            print("blessed \(Self.golden)")
        } else {
            #expect(text == readText(repositoryFile(Self.golden)), "rule example outputs differ from \(Self.golden); run IAPDOCTOR_BLESS=1 swift test --filter RuleExampleOutputTests and review the diff")
        }
    }

    /// A fixable rule's triggering examples are fixed by the edits it offers: after them, the rule
    /// passes the snippet. (An example may show a case the rule does not fix, such as a
    /// suggestion that is not certain; at least one must be fixable.)
    @Test(arguments: RuleSet.builtin.rules.filter { $0.fix != nil && $0.input == .descriptor }.map(\.id))
    func fixedExamplesPass(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        var fixable = 0
        for snippet in rule.triggering {
            let fixes = diagnose(snippet: snippet).findings.filter { $0.rule == ruleID }.compactMap(\.fix)
            guard !fixes.isEmpty else { continue }
            fixable += 1
            let after = try #require(Self.fixed(snippet, fixes), "\(ruleID)'s fixes are not inside:\n\(snippet)")
            let still = diagnose(snippet: after).findings.filter { $0.rule == ruleID }
            #expect(still.isEmpty, "\(ruleID) still fires after its fix:\n\(after)\n\(still.map(\.message))")
        }
        #expect(fixable > 0, "no triggering example of \(ruleID) offers its fix")
    }
}
