import Formats
import Model
import Loaders
import RuleEngine

/// GitHub-flavoured Markdown as both Markdown outputs write it: `check --format markdown`
/// (``MarkdownCheckReporter``, the compact summary) and `report --format markdown`
/// (``MarkdownReport``, the report's full document). Every value from the inputs goes through these
/// escapes, so a product name cannot inject HTML or break a table; SARIF's Markdown help uses them too.
enum Markdown {
    static func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }

    /// A word with the emoji, so the status reads in plain text and to screen readers.
    static func status(_ status: Diagnosis.ItemStatus) -> String {
        switch status {
        case .pass: return "✅ pass"
        case .fail: return "❌ fail"
        case .warn: return "⚠️ warn"
        case .unknown: return "❓ unknown"
        case .notApplicable: return "➖ not applicable"
        }
    }

    static func verdict(_ verdict: Diagnosis.Verdict) -> String {
        switch verdict {
        case .valid: return "✅ valid"
        case .invalid: return "❌ invalid"
        case .atRisk: return "⚠️ at risk"
        case .unknown: return "❓ unknown"
        }
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
        if content.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") }) {
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

    /// Escapes what Markdown would read as markup: HTML by entity, the rest by backslash. On the
    /// UTF-8, whose bytes below 0x80 are only ever ASCII characters (a faulty catalog's Markdown
    /// summary spent most of its time appending scalar by scalar); text with none of them, nearly
    /// all of it, is returned as it is.
    static func plain(_ text: String) -> String {
        var text = text
        guard let first = text.withUTF8({ $0.firstIndex { markup[Int($0)] } }) else { return text }
        return text.withUTF8 { utf8 -> String in
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count + 16)
            out.append(contentsOf: utf8[..<first])
            for byte in utf8[first...] {
                guard markup[Int(byte)] else {
                    out.append(byte)
                    continue
                }
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                default: out.append(contentsOf: [UInt8(ascii: "\\"), byte])
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The bytes ``plain(_:)`` escapes.
    private static let markup: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "&<>\\*_[]~|".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// A newline inside a table cell or list item would end it; other control characters are
    /// shown escaped (`\u{1B}`), as in every text format.
    static func oneLine(_ text: String) -> String {
        var probe = text
        guard probe.withUTF8({ $0.contains(0x0A) || $0.contains(0x0D) }) else { return Escaping.controlCharacters(text) }
        return Escaping.controlCharacters(String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
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
