/// The terminal format: the checklist first, then the product verdicts, then the findings in
/// rustc style, then a summary line that says why the exit code is what it is.
public struct TextReporter: Reporter {
    public static let identifier = "text"
    public var color: Bool
    /// Stands for ESC in colour codes while the report is built: control characters from the
    /// inputs are escaped in the finished text (`\u{1B}`), then this becomes the real ESC. A
    /// private-use scalar and a number drawn per report, so no input can spell it.
    private let escape: String

    public init(color: Bool) {
        self.color = color
        var random = SystemRandomNumberGenerator()
        escape = "\u{E000}\(random.next())\u{E001}"
    }

    private func paint(_ text: String, _ code: String) -> String { color ? "\(escape)[\(code)m\(text)\(escape)[0m" : text }
    private func bold(_ text: String) -> String { paint(text, "1") }

    private func mark(_ status: Diagnosis.ItemStatus) -> String {
        switch status {
        case .pass: return paint("✔", "32")
        case .fail: return paint("✘", "31")
        case .unknown: return paint("?", "33")
        case .notApplicable: return paint("–", "2")
        }
    }

    private func severityLabel(_ severity: Severity) -> String {
        switch severity {
        case .error: return paint("error", "1;31")
        case .warning: return paint("warning", "1;33")
        case .note: return paint("note", "1;36")
        }
    }

    public func report(_ diagnosis: Diagnosis) -> String {
        var out: [String] = []
        var header = "iapdoctor \(diagnosis.toolVersion)"
        if let name = diagnosis.appName { header += ": \(name)" }
        if let bundle = diagnosis.bundleID { header += " (\(bundle))" }
        out.append(bold(header))
        if diagnosis.hasDescriptor {
            var context = "environment: \(diagnosis.environment.rawValue)"
            if !diagnosis.environmentStated { context += " (not stated; set `environment`)" }
            if let checkedAt = diagnosis.checkedAt { context += ", checked at \(checkedAt)" }
            out.append(context)
        } else {
            out.append("catalog check: \(diagnosis.inputs.joined(separator: ", "))")
        }
        if let file = diagnosis.configurationFile { out.append("rules configuration: \(file)") }
        out.append("")

        if !diagnosis.evaluated {
            out.append("The checklist was not evaluated: fix the input errors below first.")
            out.append("")
        } else {
            out.append(bold("Checklist"))
            // Without a descriptor only the catalog items have anything to say.
            let entries = diagnosis.hasDescriptor ? diagnosis.checklist : diagnosis.checklist.filter { $0.status != .notApplicable }
            let width = entries.map(\.item.id.count).max() ?? 0
            for entry in entries {
                let number = entry.item.number < 10 ? " \(entry.item.number)" : "\(entry.item.number)"
                let id = entry.item.id.padding(toLength: width, withPad: " ", startingAt: 0)
                var line = "  \(mark(entry.status)) \(number) \(id)  \(entry.item.question)"
                if !entry.findings.isEmpty { line += " " + entry.findings.map { "[\($0 + 1)]" }.joined(separator: " ") }
                out.append(line)
                switch entry.status {
                case .unknown:
                    for question in entry.questions {
                        var ask = "          ? \(question.question)"
                        if !question.key.isEmpty { ask += " Set `\(question.key)`." }
                        out.append(paint(ask, "33"))
                    }
                case .notApplicable:
                    out.append(paint("          – not applicable: \(entry.reasons.joined(separator: "; "))", "2"))
                default: break
                }
            }
            out.append("")
        }

        if !diagnosis.products.isEmpty {
            out.append(bold("Products"))
            for product in diagnosis.products {
                let symbol: String
                switch product.verdict {
                case .valid: symbol = paint("✔", "32")
                case .invalid: symbol = paint("✘", "31")
                case .unknown: symbol = paint("?", "33")
                }
                var line = "  \(symbol) \(product.productID)"
                let aliases = product.requestedAs.filter { $0 != product.productID }
                if !aliases.isEmpty { line += " (requested as \(aliases.map { "`\($0)`" }.joined(separator: ", ")))" }
                line += ": \(product.verdict.rawValue)"
                if !product.failing.isEmpty { line += "; fails \(product.failing.joined(separator: ", "))" }
                if !product.unknown.isEmpty { line += "; unknown \(product.unknown.joined(separator: ", "))" }
                out.append(line)
            }
            out.append("")
        }

        let sources = SourceLines()
        for (index, finding) in diagnosis.findings.enumerated() {
            out.append(contentsOf: render(finding, number: index + 1, sources: sources))
            out.append("")
        }
        out.append(bold(diagnosis.summaryLine))
        let text = Escaping.controlCharacters(out.joined(separator: "\n") + "\n")
        return color ? text.replacingOccurrences(of: escape, with: "\u{1B}") : text
    }

    func render(_ finding: Finding, number: Int, sources: SourceLines) -> [String] {
        var lines = ["\(severityLabel(finding.severity))[\(finding.rule)]: \(bold(finding.message))  [\(number)]"]
        guard let location = finding.location else {
            lines += tail(finding, gutter: "  ")
            return lines
        }
        let gutterWidth = max(1, String(location.line).count)
        let pad = String(repeating: " ", count: gutterWidth)
        lines.append("\(pad)\(paint("-->", "34")) \(location)")
        if let source = finding.quotedSourceLine(from: sources) {
            let bar = paint("|", "34")
            lines.append("\(pad) \(bar)")
            lines.append("\(paint(String(location.line), "34")) \(bar) \(source)")
            if location.column > 0 {
                let prefix = String(source.prefix(location.column - 1).map { $0 == "\t" ? "\t" : " " as Character })
                let width = max(1, Self.tokenWidth(in: source, fromColumn: location.column))
                lines.append("\(pad) \(bar) \(prefix)\(paint(String(repeating: "^", count: width), "1;31"))")
            }
        }
        lines += tail(finding, gutter: pad + " ")
        return lines
    }

    private func tail(_ finding: Finding, gutter: String) -> [String] {
        var lines: [String] = []
        for note in finding.notes { lines.append("\(gutter)= \(bold("note")): \(note)") }
        if let help = finding.help { lines.append("\(gutter)= \(paint("help", "1;32")): \(help)") }
        lines.append("\(gutter)= docs: \(finding.docsPath)")
        return lines
    }

    /// How many characters to underline: the value starting at `column`, up to a comment or the line's end.
    static func tokenWidth(in line: String, fromColumn column: Int) -> Int {
        let characters = Array(line)
        guard column - 1 < characters.count else { return 1 }
        var end = characters.count
        // A quoted string (Swift `"…"`, Objective-C `@"…"`): up to its closing quote.
        let quoteStart = characters[column - 1] == "@" && column < characters.count && characters[column] == "\"" ? column : column - 1
        if characters[quoteStart] == "\"" {
            var index = quoteStart + 1
            while index < characters.count {
                if characters[index] == "\\" { index += 2; continue }
                if characters[index] == "\"" { return index - (column - 1) + 1 }
                index += 1
            }
        }
        if characters[column - 1] == "<" {
            // An XML element: its start tag.
            if let close = characters[(column - 1)...].firstIndex(of: ">") { return close - (column - 1) + 1 }
        }
        for index in (column - 1)..<characters.count where characters[index] == "#" && index > column - 1 && characters[index - 1] == " " {
            end = index
            break
        }
        while end > column - 1, characters[end - 1] == " " { end -= 1 }
        return end - (column - 1)
    }
}
