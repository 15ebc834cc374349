/// `--format markdown`: GitHub-flavoured Markdown for a pull-request comment or
/// `$GITHUB_STEP_SUMMARY`: the summary, the checklist and product tables, then the findings.
/// Every value from the inputs is escaped, so a product name cannot inject HTML or break a table.
public struct MarkdownReporter: Reporter {
    public static let identifier = "markdown"

    public init() {}

    public func report(_ diagnosis: Diagnosis) -> String {
        var out: [String] = []
        var heading = "## iapdoctor"
        if let name = diagnosis.appName { heading += ": " + Self.inline(name) }
        if let bundle = diagnosis.bundleID { heading += " (" + Self.code(bundle) + ")" }
        out.append(heading)
        out.append("")
        out.append("**" + Self.inline(diagnosis.summaryLine) + "**")
        out.append("")
        var context = "Environment: " + Self.code(diagnosis.environment.rawValue)
        if !diagnosis.environmentStated { context += " (not stated; set `environment`)" }
        if let checkedAt = diagnosis.checkedAt { context += " · checked at " + Self.inline(checkedAt.description) }
        context += " · iapdoctor " + Self.inline(diagnosis.toolVersion)
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
                out.append(Self.row([
                    String(entry.item.number), Self.code(entry.item.id, inTable: true),
                    Self.inline(entry.item.question, inTable: true), Self.status(entry.status),
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
            out.append("| Product ID | Requested as | Verdict | Failing |")
            out.append("|---|---|---|---|")
            for product in diagnosis.products {
                out.append(Self.row([
                    Self.code(product.productID, inTable: true),
                    Self.codeList(product.requestedAs, inTable: true),
                    Self.verdict(product.verdict),
                    Self.codeList(product.failing, inTable: true),
                ]))
            }
            out.append("")
        }

        out.append("### Findings")
        out.append("")
        if diagnosis.findings.isEmpty {
            out.append("No findings.")
        } else {
            for (index, finding) in diagnosis.findings.enumerated() {
                var line = "\(index + 1). **\(finding.severity.rawValue)** \(Self.code(finding.rule))"
                if let location = finding.location, !location.file.isEmpty { line += " at " + Self.code(location.description) }
                line += ": " + Self.inline(finding.message)
                out.append(line)
                // Indented under the number, so they stay part of the same list item.
                let indent = String(repeating: " ", count: String(index + 1).count + 2)
                for note in finding.notes { out.append(indent + "- note: " + Self.inline(note)) }
                if let help = finding.help { out.append(indent + "- help: " + Self.inline(help)) }
                // Linked to the page online, as the pre-submission report does.
                if let url = finding.docsURL { out.append(indent + "- docs: [" + Self.plain(finding.docsPath) + "](" + url + ")") }
            }
        }
        return Escaping.controlCharacters(out.joined(separator: "\n") + "\n")
    }

    static func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }

    /// A word with the emoji, so the status reads in plain text and to screen readers.
    static func status(_ status: Diagnosis.ItemStatus) -> String {
        switch status {
        case .pass: return "✅ pass"
        case .fail: return "❌ fail"
        case .unknown: return "❓ unknown"
        case .notApplicable: return "➖ not applicable"
        }
    }

    static func verdict(_ verdict: Diagnosis.Verdict) -> String {
        switch verdict {
        case .valid: return "✅ valid"
        case .invalid: return "❌ invalid"
        case .unknown: return "❓ unknown"
        }
    }

    /// What an unknown item needs answered, and why an item does not apply.
    static func details(_ entry: Diagnosis.ChecklistEntry) -> [String] {
        switch entry.status {
        case .unknown:
            return entry.questions.map { question in
                var line = "- \(code(entry.item.id)) unknown: " + inline(question.question)
                if !question.key.isEmpty { line += " Set " + code(question.key) + "." }
                return line
            }
        case .notApplicable:
            return ["- \(code(entry.item.id)) not applicable: " + inline(entry.reasons.joined(separator: "; "))]
        default:
            return []
        }
    }

    static func codeList(_ values: [String], inTable: Bool) -> String {
        values.isEmpty ? "–" : values.map { code($0, inTable: inTable) }.joined(separator: ", ")
    }

    /// Text from a message: the `code` spans the rules write stay code spans; everything else is
    /// escaped, so `<`, `>` and `&` show as themselves instead of becoming HTML.
    static func inline(_ text: String, inTable: Bool = false) -> String {
        let segments = oneLine(text).split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        var result = ""
        for (index, segment) in segments.enumerated() {
            let isCode = index % 2 == 1
            if isCode && index < segments.count - 1 {
                // `` would open a two-backtick span, so an empty pair is written as two escaped backticks.
                result += segment.isEmpty ? "\\`\\`" : code(segment, inTable: inTable)
            } else if isCode {
                // A backtick that nothing closes is a plain backtick.
                result += "\\`" + plain(segment)
            } else {
                result += plain(segment)
            }
        }
        return result
    }

    /// A code span that holds `value` exactly: fenced with more backticks than it contains, and
    /// padded when it starts or ends with one (or with spaces Markdown would strip). A value with
    /// `<`, `>` or `&` becomes an escaped `<code>` element instead: inside backticks an entity would
    /// show as typed, and the raw characters would look like HTML to anything but a Markdown parser.
    static func code(_ value: String, inTable: Bool = false) -> String {
        var content = oneLine(value)
        if content.unicodeScalars.contains(where: { $0 == "<" || $0 == ">" || $0 == "&" }) {
            return "<code>" + plain(content) + "</code>"
        }
        // GitHub splits table cells on `|` even inside code spans, unless it is escaped.
        if inTable { content = content.replacingPipes() }
        var longestRun = 0, run = 0
        for character in content {
            run = character == "`" ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let fence = String(repeating: "`", count: longestRun + 1)
        let needsPadding = content.hasPrefix("`") || content.hasSuffix("`")
            || (content.hasPrefix(" ") && content.hasSuffix(" ") && content.contains { $0 != " " })
        if needsPadding { content = " " + content + " " }
        return fence + content + fence
    }

    /// Escapes what Markdown would read as markup: HTML by entity, the rest by backslash.
    static func plain(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\\", "*", "_", "[", "]", "~", "|": result += "\\" + String(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A newline inside a table cell or list item would end it; other control characters are
    /// shown escaped (`\u{1B}`), as in every text format.
    static func oneLine(_ text: String) -> String {
        Escaping.controlCharacters(String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
            scalar == "\n" || scalar == "\r" ? " " : scalar
        })))
    }
}

private extension String {
    func replacingPipes() -> String {
        var result = ""
        for scalar in unicodeScalars {
            if scalar == "|" { result += "\\|" } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
