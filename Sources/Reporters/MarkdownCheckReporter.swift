import Formats
import Model
import Loaders
import RuleEngine

/// `iapdoctor check --format markdown`: the check's compact output as GitHub-flavoured Markdown,
/// for a pull-request comment or `$GITHUB_STEP_SUMMARY`: the summary, the checklist and product
/// tables, then the findings. (`iapdoctor report --format markdown`, the whole pre-submission
/// report, is ``MarkdownReport``.) Every value from the inputs is escaped (``Markdown``), so a
/// product name cannot inject HTML or break a table.
public struct MarkdownCheckReporter: Reporter {
    public static let identifier = "markdown"

    public init() {}

    public func report(_ diagnosis: Diagnosis) -> String {
        var out: [String] = []
        var heading = "## iapdoctor"
        if let name = diagnosis.appName?.value { heading += ": " + Markdown.inline(name) }
        if let bundle = diagnosis.bundleID?.value { heading += " (" + Markdown.code(bundle) + ")" }
        out.append(heading)
        out.append("")
        out.append("**" + Markdown.inline(diagnosis.summaryLine) + "**")
        out.append("")
        var context = "Environment: " + Markdown.code(diagnosis.environment.rawValue)
        if !diagnosis.environmentStated { context += " (not stated; set `environment`)" }
        if let checkedAt = diagnosis.checkedAt { context += " · checked at " + Markdown.inline(checkedAt.description) }
        context += " · iapdoctor " + Markdown.inline(diagnosis.toolVersion)
        out.append(context)
        out.append("")

        out.append("### Checklist")
        out.append("")
        if !diagnosis.evaluated {
            out.append("The checklist was not evaluated: fix the input errors below first.")
        } else {
            out.append("| # | Item | Question | Status | Findings |")
            out.append("|--:|---|---|---|---|")
            for entry in diagnosis.checklist {
                let findings = entry.findings.map { "[\($0 + 1)]" }.joined(separator: " ")
                out.append(Markdown.row([
                    String(entry.item.number), Markdown.code(entry.item.id, inTable: true),
                    Markdown.inline(entry.item.question, inTable: true), Markdown.status(entry.status),
                    findings.isEmpty ? "–" : findings,
                ]))
            }
            let details = diagnosis.checklist.flatMap(Self.details)
            if !details.isEmpty {
                out.append("")
                out += details
            }
        }
        out.append("")

        if !diagnosis.products.isEmpty {
            out.append("### Products")
            out.append("")
            out.append("| Product ID | Requested as | Verdict | Failing | At risk |")
            out.append("|---|---|---|---|---|")
            for product in diagnosis.products {
                out.append(Markdown.row([
                    Markdown.code(product.productID, inTable: true),
                    Self.codeList(product.requestedAs, inTable: true),
                    Markdown.verdict(product.verdict),
                    Self.codeList(product.failing, inTable: true),
                    Self.codeList(product.atRisk, inTable: true),
                ]))
            }
            out.append("")
        }

        if !diagnosis.nextSteps.isEmpty {
            out.append("### Next steps")
            out.append("")
            for (index, step) in diagnosis.nextSteps.enumerated() { out.append("\(index + 1). " + Markdown.inline(step.sentence)) }
            out.append("")
        }

        out.append("### Findings")
        out.append("")
        if diagnosis.findings.isEmpty {
            out.append("No findings.")
        } else {
            for (index, finding) in diagnosis.findings.enumerated() {
                var line = "\(index + 1). **\(finding.severity.rawValue)** \(Markdown.code(finding.rule))"
                if let location = finding.location, !location.file.isEmpty { line += " at " + Markdown.code(location.description) }
                line += ": " + Markdown.inline(finding.message)
                out.append(line)
                // Indented under the number, so they stay part of the same list item.
                let indent = String(repeating: " ", count: String(index + 1).count + 2)
                for note in finding.notes { out.append(indent + "- note: " + Markdown.inline(note)) }
                if let help = finding.help { out.append(indent + "- help: " + Markdown.inline(help)) }
                // Linked to the page online, as the pre-submission report does.
                if let url = finding.docsURL { out.append(indent + "- docs: [" + Markdown.plain(finding.docsPath) + "](" + url + ")") }
            }
        }
        return Escaping.controlCharacters(out.joined(separator: "\n") + "\n")
    }

    /// What an unknown item needs answered, and why an item does not apply.
    /// Why an item does not apply; open questions are summed up under "Next steps" instead.
    static func details(_ entry: Diagnosis.ChecklistEntry) -> [String] {
        guard entry.status == .notApplicable else { return [] }
        return ["- \(Markdown.code(entry.item.id)) not applicable: " + Markdown.inline(entry.reasons.joined(separator: "; "))]
    }

    static func codeList(_ values: [String], inTable: Bool) -> String {
        values.isEmpty ? "–" : values.map { Markdown.code($0, inTable: inTable) }.joined(separator: ", ")
    }
}
