import Formats
import Model
import Loaders
import RuleEngine

/// `iapdoctor report --format markdown`: the content of the HTML report as GitHub-flavoured
/// Markdown, for a pull-request comment or `$GITHUB_STEP_SUMMARY`. It escapes with
/// the ``Markdown`` helpers, so a value from the inputs cannot add HTML or break a table.
public struct MarkdownReport: Sendable {
    public init() {}

    public func report(_ diagnosis: Diagnosis) -> String { render(ReportDocument(diagnosis)) }

    public func render(_ document: ReportDocument) -> String {
        var out: [String] = []
        header(document, into: &out)
        summary(document, into: &out)
        if !document.inputProblems.isEmpty {
            out.append("## Problems with the inputs")
            out.append("")
            out.append(ReportDocument.inputProblemsIntro)
            out.append("")
            for finding in document.inputProblems { out += Self.finding(finding) }
            out.append("")
        }
        checklist(document, into: &out)
        if document.hasDescriptor { products(document, into: &out) }
        if !document.catalogs.isEmpty { catalogs(document, into: &out) }
        unchecked(document, into: &out)
        rulesInForce(document, into: &out)
        while out.last == "" { out.removeLast() }
        return Escaping.controlCharacters(out.joined(separator: "\n") + "\n")
    }

    // MARK: Sections

    private func header(_ document: ReportDocument, into out: inout [String]) {
        out.append("# iapdoctor report: " + Self.literal(document.title))
        out.append("")
        out.append(document.checklistKind)
        out.append("")
        out.append("| | |")
        out.append("|---|---|")
        if document.hasDescriptor {
            func origin(_ place: String?) -> String { place.map { " (from " + Markdown.code($0, inTable: true) + ")" } ?? "" }
            out.append(Markdown.row(["App", document.appName.map { Self.literal($0) + origin(document.appNameOrigin) } ?? "not stated"]))
            out.append(Markdown.row(["Bundle ID", document.bundleID.map { Markdown.code($0, inTable: true) + origin(document.bundleIDOrigin) } ?? "not stated"]))
            out.append(Markdown.row(["Platform", document.platform.map { Self.literal($0) + origin(document.platformOrigin) } ?? "not stated"]))
            var environment = Markdown.code(document.environment.rawValue, inTable: true)
            environment += document.environmentQualifiers
            out.append(Markdown.row(["Environment", environment]))
        }
        if let checkedAt = document.checkedAt { out.append(Markdown.row(["Checked at", Self.literal(checkedAt)])) }
        out.append(Markdown.row(["Inputs", Self.codeList(document.inputs)]))
        out.append("")
    }

    private func summary(_ document: ReportDocument, into out: inout [String]) {
        let tally = document.tally
        out.append("## At a glance")
        out.append("")
        out.append("**\(Self.symbol(document.readiness.status)) \(Self.literal(document.readinessLabel)):** \(Self.literal(document.readinessDetail))")
        out.append("")
        if document.evaluated {
            out.append("- Checklist items: \(tally.pass) ✅ pass · \(tally.fail) ❌ fail · \(tally.warn) ⚠️ warn · \(tally.unknown) ❓ unknown · \(tally.notApplicable) ➖ not applicable")
        }
        if !document.products.isEmpty {
            out.append("- Products: \(tally.validProducts) ✅ valid · \(tally.invalidProducts) ❌ invalid · \(tally.atRiskProducts) ⚠️ at risk · \(tally.unknownProducts) ❓ unknown")
        }
        out.append("- Findings: \(Self.count(tally.errors, "error")) · \(Self.count(tally.warnings, "warning")) · \(Self.count(tally.notes, "note"))")
        out.append("")
        if !document.nextSteps.isEmpty {
            out.append("### Next steps")
            out.append("")
            for (index, step) in document.nextSteps.enumerated() { out.append("\(index + 1). " + Markdown.inline(step.sentence)) }
            out.append("")
        }
        out.append(Markdown.inline(document.profileNote))
        out.append("")
    }

    private func checklist(_ document: ReportDocument, into out: inout [String]) {
        out.append("## Checklist")
        out.append("")
        if !document.evaluated {
            out.append(ReportDocument.checklistNotEvaluated)
            out.append("")
        }
        out.append("| # | Item | Question | Status | Findings |")
        out.append("|--:|---|---|---|---|")
        for row in document.checklist {
            var question = Markdown.inline(row.question, inTable: true)
            if row.isAdvice { question += " (advice: never makes a product invalid)" }
            if row.status == .notApplicable, !row.reasons.isEmpty {
                question += " *Not applicable: " + Markdown.inline(row.reasons.joined(separator: "; "), inTable: true) + "*"
            }
            let findings = row.findings.map { "[\($0.number)]" }.joined(separator: " ")
            out.append(Markdown.row([
                String(row.number), Markdown.code(row.id, inTable: true), question,
                Markdown.status(row.status), findings.isEmpty ? "–" : findings,
            ]))
        }
        out.append("")
        let detailed = document.checklist.filter(\.hasDetails)
        guard !detailed.isEmpty else { return }
        for row in detailed {
            out.append("### \(row.number). \(Markdown.code(row.id)): \(Markdown.status(row.status))")
            out.append("")
            out.append(Markdown.inline(row.question))
            out.append("")
            for question in row.questions {
                out.append("- ❓ " + Self.question(question.question, key: question.key, productID: question.productID))
            }
            for finding in row.findings { out += Self.finding(finding) }
            out.append("")
        }
    }

    private func products(_ document: ReportDocument, into out: inout [String]) {
        out.append("## Products")
        out.append("")
        guard !document.products.isEmpty else {
            out.append(document.noProductsSentence)
            out.append("")
            return
        }
        out.append("| Product | Type | Status | Cleared for sale | Price | Localizations | Verdict | Why |")
        out.append("|---|---|---|---|---|---|---|---|")
        for product in document.products {
            var identity = Markdown.code(product.productID, inTable: true)
            if let name = product.referenceName { identity += " · " + Self.literal(name) }
            if !product.requestedAs.isEmpty { identity += " · requested as " + Self.codeList(product.requestedAs) }
            var cells = [identity]
            if product.inDescriptor {
                let names = product.localizations.map { Self.literal($0.locale) + ": " + ($0.displayName.map(Self.literal) ?? "not stated") }
                cells += [
                    product.type.map(Self.literal) ?? "not stated", product.status.map(Self.literal) ?? "not stated",
                    product.clearedForSale.map(Self.literal) ?? "not stated", product.price.map(Self.literal) ?? "not stated",
                    names.isEmpty ? "not stated" : names.joined(separator: "; "),
                ]
            } else {
                cells += ["not in the descriptor's `products`", "–", "–", "–", "–"]
            }
            cells.append(Markdown.verdict(product.verdict))
            cells.append(Self.why(product))
            out.append(Markdown.row(cells))
        }
        out.append("")
    }

    private func catalogs(_ document: ReportDocument, into out: inout [String]) {
        out.append("## Bulk product XML catalogs")
        out.append("")
        out.append("| Catalog | Result | Errors | Warnings | Notes | Findings |")
        out.append("|---|---|--:|--:|--:|---|")
        for catalog in document.catalogs {
            let numbers = catalog.findingNumbers.map { "[\($0)]" }.joined(separator: " ")
            out.append(Markdown.row([
                Markdown.code(catalog.file, inTable: true), Markdown.status(catalog.status),
                String(catalog.errors), String(catalog.warnings), String(catalog.notes), numbers.isEmpty ? "none" : numbers,
            ]))
        }
        out.append("")
    }

    private func unchecked(_ document: ReportDocument, into out: inout [String]) {
        out.append("## What no rule could check")
        out.append("")
        out.append("### Questions to answer")
        out.append("")
        out.append(document.openQuestionsLead)
        if document.evaluated, !document.openQuestions.isEmpty {
            out.append("")
            out.append("| Item | Question | Descriptor key |")
            out.append("|---|---|---|")
            for open in document.openQuestions {
                var question = Markdown.inline(open.question, inTable: true)
                if let product = open.productID { question += " (for " + Markdown.code(product, inTable: true) + ")" }
                out.append(Markdown.row([
                    Markdown.code(open.itemID, inTable: true), question,
                    open.key.isEmpty ? "none" : Markdown.code(open.key, inTable: true),
                ]))
            }
        }
        out.append("")
        out.append("### Not applicable here")
        out.append("")
        if let none = document.noneNotApplicableSentence {
            out.append(none)
        } else {
            out.append("| Item | Question | Why not |")
            out.append("|---|---|---|")
            for item in document.notApplicable {
                out.append(Markdown.row([
                    Markdown.code(item.itemID, inTable: true), Markdown.inline(item.question, inTable: true),
                    Markdown.inline(item.reasons.joined(separator: "; "), inTable: true),
                ]))
            }
        }
        out.append("")
    }

    private func rulesInForce(_ document: ReportDocument, into out: inout [String]) {
        let rules = document.rules
        out.append("## Version and rules")
        out.append("")
        out.append("- iapdoctor: " + Markdown.code(rules.toolVersion))
        out.append("- Rules in force: " + document.rulesInForce(code: { Markdown.code($0, inTable: true) }))
        out.append("- Configuration file: " + (rules.configurationFile.map { Markdown.code($0) } ?? ReportDocument.noConfigurationFile))
        out.append("- Rules turned off: " + (rules.disabledRules.isEmpty ? "none" : Self.codeList(rules.disabledRules)))
        if !rules.changes.isEmpty {
            out.append("- Changed from the defaults:")
            for change in rules.changes {
                out.append("  - \(Markdown.code(change.rule)) \(change.option.map { "option " + Markdown.code($0) } ?? "severity"): \(Markdown.code(change.value)) (default \(Markdown.code(change.defaultValue)))")
            }
        }
        out.append("- Fails at: " + Markdown.code("--fail-on \(rules.failOn)"))
        out.append("- iapdoctor check would say: " + Self.literal(document.summaryLine))
        out.append("")
    }

    // MARK: Pieces

    /// A finding as a list item, with its source line, notes, fix and rule page indented under it.
    static func finding(_ finding: ReportDocument.FindingEntry) -> [String] {
        var head = "- **[\(finding.number)] \(finding.severity.rawValue)** \(Markdown.code(finding.rule))"
        if let location = finding.location { head += " at " + Markdown.code(location.description) }
        head += ": " + Markdown.inline(finding.message)
        var lines = [head]
        if let location = finding.location, let source = location.sourceLine {
            lines.append("  - line \(location.line): " + Markdown.code(source.trimmingLeadingWhitespace()))
        }
        for note in finding.notes { lines.append("  - note: " + Markdown.inline(note)) }
        if let help = finding.help { lines.append("  - fix: " + Markdown.inline(help)) }
        if let url = finding.docsURL {
            lines.append("  - docs: [\(Markdown.plain(finding.docsPath))](\(url))")
        } else {
            lines.append("  - docs: custom rule, see the configuration file")
        }
        return lines
    }

    /// "fails `a` [2], `b` [4]; unknown `c`": the items that decide the verdict, with their findings.
    static func why(_ product: ReportDocument.ProductRow) -> String {
        guard !product.reasons.isEmpty else { return "every item that applies passes" }
        var parts: [String] = []
        for (status, word) in [(Diagnosis.ItemStatus.fail, "fails"), (.warn, "at risk"), (.unknown, "unknown")] {
            let items = product.reasons.filter { $0.status == status }.map { reason in
                ([Markdown.code(reason.itemID, inTable: true)] + reason.findingNumbers.map { "[\($0)]" }).joined(separator: " ")
            }
            if !items.isEmpty { parts.append(word + " " + items.joined(separator: ", ")) }
        }
        return parts.joined(separator: "; ")
    }

    static func question(_ question: String, key: String, productID: String?) -> String {
        var text = Markdown.inline(question)
        if !key.isEmpty { text += " Set " + Markdown.code(key) + "." }
        if let productID { text += " (for " + Markdown.code(productID) + ")" }
        return text
    }

    static func symbol(_ status: Diagnosis.ItemStatus) -> String {
        switch status {
        case .pass: return "✅"
        case .fail: return "❌"
        case .warn: return "⚠️"
        case .unknown: return "❓"
        case .notApplicable: return "➖"
        }
    }

    static func count(_ number: Int, _ word: String) -> String { "\(number) \(word)\(number == 1 ? "" : "s")" }

    /// Text from the inputs, shown exactly: no code spans, every markup character escaped (also
    /// the backtick, which ``Markdown/plain(_:)`` leaves to its callers).
    static func literal(_ text: String) -> String {
        Markdown.plain(Markdown.oneLine(text)).replacingOccurrences(of: "`", with: "\\`")
    }

    static func codeList(_ values: [String]) -> String {
        values.isEmpty ? "none" : values.map { Markdown.code($0, inTable: true) }.joined(separator: ", ")
    }
}

private extension String {
    func trimmingLeadingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" })
    }
}
