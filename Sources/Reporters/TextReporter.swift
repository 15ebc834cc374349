import Formats
import Model
import Loaders
import RuleEngine

/// The terminal format: the checklist first, then the product verdicts, then the findings in
/// rustc style, then a summary line that says why the exit code is what it is.
public struct TextReporter: Reporter {
    public static let quotesSources = true
    public static let identifier = "text"
    public var color: Bool
    /// Every open question under its item and every unknown item of a product; by default the
    /// questions are summed up by where their answers live (``Diagnosis/nextSteps``).
    public var verbose: Bool
    /// The terminal's width in columns: prose lines (checklist items, verdicts, next steps, notes
    /// and helps) wrap under their own text; quoted source is never wrapped. Nil: no wrapping (a
    /// pipe or a file).
    public var width: Int?
    /// Stands for ESC in colour codes while the report is built: control characters from the
    /// inputs are escaped in the finished text (`\u{1B}`), then this becomes the real ESC. A
    /// private-use scalar and a number drawn per report, so no input can spell it.
    private let escape: String

    public init(color: Bool, verbose: Bool = false, width: Int? = nil) {
        self.color = color
        self.verbose = verbose
        self.width = width.map { max($0, 40) }
        var random = SystemRandomNumberGenerator()
        escape = "\u{E000}\(random.next())\u{E001}"
    }

    private func paint(_ text: String, _ code: String) -> String { color ? "\(escape)[\(code)m\(text)\(escape)[0m" : text }
    private func bold(_ text: String) -> String { paint(text, "1") }

    private func mark(_ status: Diagnosis.ItemStatus) -> String {
        switch status {
        case .pass: return paint("✔", "32")
        case .fail: return paint("✘", "31")
        case .warn: return paint("⚠", "35")
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
        if let name = diagnosis.appName?.value { header += ": \(name)" }
        if let bundle = diagnosis.bundleID?.value { header += " (\(bundle))" }
        out += wrap(bold(header), hang: 2)
        if diagnosis.hasDescriptor {
            // Where each fact of the first line came from, so a surprising one can be traced.
            var origins: [String] = []
            if let name = diagnosis.appName { origins.append("name from \(name.location)") }
            if let bundle = diagnosis.bundleID { origins.append("bundle ID from \(bundle.location)") }
            if let platform = diagnosis.platform { origins.append("\(platform.value.displayName) from \(platform.location)") }
            if !origins.isEmpty { out += wrap(origins.joined(separator: ", "), hang: 2) }
            var context = "environment: \(diagnosis.environment.rawValue)"
            if !diagnosis.environmentStated { context += " (not stated; set `environment`)" }
            if let checkedAt = diagnosis.checkedAt { context += ", checked at \(checkedAt)" }
            out.append(context)
        } else {
            let builds = !diagnosis.inputs.isEmpty && diagnosis.inputs.allSatisfy { InputKind(path: $0) == .build }
            out.append("\(builds ? "build" : "catalog") check: \(diagnosis.inputs.joined(separator: ", "))")
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
            // By default the items that need nothing (passing, not applicable) are only counted.
            let shown = verbose ? entries : entries.filter { $0.status != .pass && $0.status != .notApplicable }
            let width = shown.map(\.item.id.count).max() ?? 0
            for entry in shown {
                let number = entry.item.number < 10 ? " \(entry.item.number)" : "\(entry.item.number)"
                let id = entry.item.id.padding(toLength: width, withPad: " ", startingAt: 0)
                var line = "  \(mark(entry.status)) \(number) \(id)  \(entry.item.question)"
                if !entry.findings.isEmpty { line += " " + entry.findings.map { "[\($0 + 1)]" }.joined(separator: " ") }
                out.append(contentsOf: wrap(line, hang: 9 + width))
                switch entry.status {
                case .unknown, .fail, .warn:
                    guard verbose else { break }
                    for question in entry.questions { out.append(contentsOf: wrap(paint("          ? \(question.sentence)", "33"), hang: 12)) }
                case .notApplicable:
                    out.append(contentsOf: wrap(paint("          – not applicable: \(entry.reasons.joined(separator: "; "))", "2"), hang: 12))
                default: break
                }
            }
            var tallied = "  " + tally(entries)
            let folded = entries.count - shown.count
            if folded > 0 { tallied += paint(" (`--verbose` lists \(folded == entries.count ? "them" : "the \(folded) passing and not-applicable items"))", "2") }
            out.append(contentsOf: wrap(tallied, hang: 4))
            out.append("")
        }

        if !diagnosis.products.isEmpty {
            out.append(bold("Products"))
            for product in diagnosis.products {
                let symbol: String
                switch product.verdict {
                case .valid: symbol = mark(.pass)
                case .invalid: symbol = mark(.fail)
                case .atRisk: symbol = mark(.warn)
                case .unknown: symbol = mark(.unknown)
                }
                var line = "  \(symbol) \(product.productID)"
                let aliases = product.requestedAs.filter { $0 != product.productID }
                if !aliases.isEmpty { line += " (requested as \(aliases.map { "`\($0)`" }.joined(separator: ", ")))" }
                line += ": \(product.verdict.rawValue)"
                if !product.failing.isEmpty { line += "; fails \(product.failing.joined(separator: ", "))" }
                if !product.atRisk.isEmpty { line += "; at risk \(product.atRisk.joined(separator: ", "))" }
                if verbose {
                    if !product.unknown.isEmpty { line += "; unknown \(product.unknown.joined(separator: ", "))" }
                } else if let first = product.unknown.first {
                    let more = product.unknown.count - 1
                    line += "; unknown \(first)\(more > 0 ? " and \(more) more" : "")"
                    if let question = product.openQuestion { line += ": \(question.sentence)" }
                }
                out.append(contentsOf: wrap(line, hang: 4))
            }
            out.append("")
        }

        if !diagnosis.nextSteps.isEmpty {
            out.append(bold("Next steps"))
            for step in diagnosis.nextSteps { out.append(contentsOf: wrap("  \(step.sentence)", hang: 4)) }
            if !verbose, diagnosis.nextSteps.contains(where: { $0.source != .findings }) {
                out.append(paint("  (`--verbose` lists each item's questions)", "2"))
            }
            out.append("")
        }

        let sources = diagnosis.sourceQuotes
        for (index, finding) in diagnosis.findings.enumerated() {
            out.append(contentsOf: render(finding, number: index + 1, sources: sources))
            out.append("")
        }
        out.append(contentsOf: wrap(bold(diagnosis.summaryLine), hang: 0))
        let fixable = diagnosis.findings.filter { $0.fix != nil }.count
        if fixable > 0 {
            out.append(contentsOf: wrap("\(fixable) of them \(fixable == 1 ? "has" : "have") a certain fix: `iapdoctor check --fix` applies \(fixable == 1 ? "it" : "them") (`--fix --diff` shows the edits first)", hang: 0))
        }
        let text = Escaping.lines(out)
        return color ? text.replacingOccurrences(of: escape, with: "\u{1B}") : text
    }

    /// `line` broken at spaces to fit ``width`` (colour codes take no columns), each further line
    /// indented by `hang` columns; a word longer than the room left stays whole. One line without a width.
    func wrap(_ line: String, hang: Int) -> [String] {
        guard let width, visibleCount(line) > width else { return [line] }
        let indent = String(repeating: " ", count: min(hang, width / 2))
        var lines: [String] = []
        var current = ""
        var currentCount = 0
        // Leading spaces belong to the first line's first word.
        let leading = line.prefix { $0 == " " }
        for (index, word) in line.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            let wordCount = visibleCount(word)
            if index == 0 {
                current = String(leading) + String(word)
                currentCount = leading.count + wordCount
            } else if currentCount + 1 + wordCount > width && currentCount > indent.count {
                lines.append(current)
                current = indent + String(word)
                currentCount = indent.count + wordCount
            } else {
                current += " " + word
                currentCount += 1 + wordCount
            }
        }
        lines.append(current)
        return lines
    }

    /// Columns `text` takes on a terminal: characters, less the colour codes ``paint(_:_:)`` adds.
    private func visibleCount(_ text: some StringProtocol) -> Int {
        guard color else { return text.count }
        var count = 0
        var rest = Substring(text)
        while let range = rest.range(of: escape) {
            count += rest[..<range.lowerBound].count
            rest = rest[range.upperBound...]
            if let end = rest.firstIndex(of: "m") { rest = rest[rest.index(after: end)...] }
        }
        return count + rest.count
    }

    /// "1 fail · 2 warn · 14 unknown · 3 pass · 3 not applicable": the statuses that occur, worst first.
    private func tally(_ entries: [Diagnosis.ChecklistEntry]) -> String {
        let order: [(Diagnosis.ItemStatus, String)] = [(.fail, "fail"), (.warn, "warn"), (.unknown, "unknown"), (.pass, "pass"), (.notApplicable, "not applicable")]
        return order.compactMap { status, word in
            let count = entries.filter { $0.status == status }.count
            return count == 0 ? nil : "\(mark(status)) \(count) \(word)"
        }.joined(separator: " · ")
    }

    func render(_ finding: Finding, number: Int, sources: SourceQuotes) -> [String] {
        var lines = wrap("\(severityLabel(finding.severity))[\(finding.rule)]: \(bold(finding.message))  [\(number)]", hang: 2)
        guard let location = finding.location else {
            lines += tail(finding, drawn: [], gutter: "  ")
            return lines
        }
        // The primary span's file first, then each other file a related span is in (rustc's `:::`).
        var snippets = [Snippet(file: location.file, annotations: [Annotation(location: location, label: nil, isPrimary: true)])]
        for related in finding.related {
            let annotation = Annotation(location: related.location, label: related.label, isPrimary: false, note: related.note)
            if let index = snippets.firstIndex(where: { $0.file == related.location.file }) {
                snippets[index].annotations.append(annotation)
            } else {
                snippets.append(Snippet(file: related.location.file, annotations: [annotation]))
            }
        }
        for index in snippets.indices { snippets[index].load(from: sources, finding: finding) }
        let widestLine = snippets.flatMap { $0.rows.map(\.number) }.max() ?? location.line
        let pad = String(repeating: " ", count: max(1, String(max(widestLine, location.line)).count))
        let bar = paint("|", "34")
        var drawn: [String?] = []
        for (index, snippet) in snippets.enumerated() {
            let pointer = index == 0 ? location : snippet.annotations[0].location
            if index == 0 {
                lines.append("\(pad)\(paint("-->", "34")) \(pointer)")
            } else {
                guard !snippet.rows.isEmpty else { continue }
                lines.append("\(pad)\(paint(":::", "34")) \(pointer)")
            }
            guard !snippet.rows.isEmpty else { continue }
            lines.append("\(pad) \(bar)")
            var previous: Int?
            for row in snippet.rows {
                if let previous, row.number > previous + 1 { lines.append(paint("...", "34")) }
                previous = row.number
                let number = String(row.number)
                let gutter = String(repeating: " ", count: pad.count - number.count) + paint(number, "34")
                lines.append("\(gutter) \(bar) \(row.margin)\(row.text)")
                for mark in row.marks {
                    lines.append("\(pad) \(bar) \(mark.margin)\(paint(mark.text, mark.isPrimary ? "1;31" : "1;34"))\(mark.label.map { " " + paint($0, mark.isPrimary ? "1;31" : "1;34") } ?? "")")
                }
            }
            drawn += snippet.annotations.filter { $0.isDrawn }.map(\.note)
        }
        lines += tail(finding, drawn: Set(drawn.compactMap { $0 }), gutter: pad + " ")
        return lines
    }

    /// Notes (less those a drawn secondary span says already), the help, and where to read more.
    private func tail(_ finding: Finding, drawn: Set<String>, gutter: String) -> [String] {
        var lines: [String] = []
        let hang = gutter.count + 8
        for note in finding.notes where !drawn.contains(note) { lines += wrap("\(gutter)= \(bold("note")): \(note)", hang: hang) }
        if let help = finding.help { lines += wrap("\(gutter)= \(paint("help", "1;32")): \(help)", hang: hang) }
        // The installed binary has every built-in rule's page; a repository path would mean
        // nothing there. A custom rule (from a configuration file) has no page.
        if finding.isDocumented { lines.append("\(gutter)= \(paint("help", "1;32")): run `iapdoctor explain \(finding.rule)`") }
        return lines
    }
}

/// One span to draw under the source: the finding's own (`^^^`) or a related one (`---` and a label).
private struct Annotation {
    var location: SourceLocation
    var label: String?
    var isPrimary: Bool
    var note: String? = nil
    /// Its line could be quoted, so it was drawn (and its note need not be repeated).
    var isDrawn = false
}

/// The quoted lines of one file with their marks: rustc's layout. A one-line span is underlined
/// where it is; a span over several lines is joined to the left margin (`/` or ` _^` where it
/// starts, `|` down the lines, `|___^` under its last character), with the lines between its
/// first two and its last left out.
private struct Snippet {
    struct Mark {
        var margin: String
        var text: String
        var label: String?
        var isPrimary: Bool
    }

    struct Row {
        var number: Int
        var text: String
        var margin = ""
        var marks: [Mark] = []
    }

    let file: String
    var annotations: [Annotation]
    var rows: [Row] = []

    init(file: String, annotations: [Annotation]) {
        self.file = file
        self.annotations = annotations
    }

    mutating func load(from sources: SourceQuotes, finding: Finding) {
        var byLine: [Int: Row] = [:]
        var multiLine: (start: Int, end: Int)?
        for index in annotations.indices {
            let location = annotations[index].location
            guard location.line > 0, let first = quoted(location.line, sources, finding) else { continue }
            annotations[index].isDrawn = true
            if byLine[location.line] == nil { byLine[location.line] = Row(number: location.line, text: first.text) }
            guard location.column > 0 else { continue }
            let isPrimary = annotations[index].isPrimary
            let start = first.offset(ofColumn: location.column)
            if location.hasEnd, location.endLine > location.line, isPrimary, multiLine == nil,
                let last = quoted(location.endLine, sources, finding)
            {
                multiLine = (location.line, location.endLine)
                if byLine[location.endLine] == nil { byLine[location.endLine] = Row(number: location.endLine, text: last.text) }
                // The line after the first shows how the span goes on; the rest, up to the last, is left out.
                if location.endLine > location.line + 1, byLine[location.line + 1] == nil, let next = quoted(location.line + 1, sources, finding) {
                    byLine[location.line + 1] = Row(number: location.line + 1, text: next.text)
                }
                if first.scalars.prefix(start).allSatisfy({ $0 == " " || $0 == "\t" }) {
                    byLine[location.line]!.margin = "/ "
                } else {
                    byLine[location.line]!.marks.append(Mark(
                        margin: " _", text: String(repeating: "_", count: start) + "^", label: nil, isPrimary: true))
                }
                // `^` under the last character: the one before the (exclusive) end column.
                let end = max(1, last.offset(ofColumn: location.endColumn))
                byLine[location.endLine]!.marks.append(Mark(
                    margin: "|_", text: String(repeating: "_", count: end - 1) + "^", label: annotations[index].label, isPrimary: true))
                continue
            }
            // A point (no end known) gets one caret; a span over several lines that is not drawn
            // as one is underlined to the end of its first line.
            var end = start + 1
            if location.hasEnd {
                end = location.isOneLine ? first.offset(ofColumn: location.endColumn) : first.scalars.count
                end = max(end, start + 1)
            }
            let prefix = String(String.UnicodeScalarView(first.scalars.prefix(start).map { $0 == "\t" ? "\t" : " " }))
            byLine[location.line]!.marks.append(Mark(
                margin: "", text: prefix + String(repeating: isPrimary ? "^" : "-", count: end - start),
                label: annotations[index].label, isPrimary: isPrimary))
        }
        rows = byLine.values.sorted { $0.number < $1.number }
        guard let multiLine else { return }
        // Every row gets the margin, so the source stays aligned: `|` inside the span.
        for index in rows.indices {
            let number = rows[index].number
            if rows[index].margin.isEmpty {
                rows[index].margin = number > multiLine.start && number <= multiLine.end ? "| " : "  "
            }
            // Marks under a row: `|` while the span goes on below it (its own ` _^` and `|__^` have theirs).
            let goesOn = number >= multiLine.start && number < multiLine.end
            for mark in rows[index].marks.indices where rows[index].marks[mark].margin.isEmpty {
                rows[index].marks[mark].margin = goesOn ? "| " : "  "
            }
        }
    }

    /// The line as the report quotes it (a secret masked), as scalars, with a way to move a
    /// column of the file onto it.
    private func quoted(_ number: Int, _ sources: SourceQuotes, _ finding: Finding) -> QuotedLine? {
        guard let line = sources.line(number, in: file) else { return nil }
        guard let secret = finding.secret else { return QuotedLine(text: line, original: line, secret: nil) }
        guard let masked = secret.maskedSourceLine(line) else { return nil }
        return QuotedLine(text: masked, original: line, secret: secret)
    }
}

/// A quoted source line. Columns count Unicode scalars, as the readers count them; where a secret
/// was masked on the line, columns after it move by the difference in length.
private struct QuotedLine {
    var text: String
    var original: String
    var secret: Secret?

    var scalars: [Unicode.Scalar] { Array(text.unicodeScalars) }

    /// The 0-based offset in ``text`` of the file's 1-based `column`, clamped to the line.
    func offset(ofColumn column: Int) -> Int {
        let offset = secret?.maskedOffset(column - 1, in: original) ?? (column - 1)
        return min(max(0, offset), text.unicodeScalars.count)
    }
}
