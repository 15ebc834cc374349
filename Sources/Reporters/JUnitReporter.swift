import Formats
import Model
import Loaders
import RuleEngine

/// `--format junit`: JUnit XML, the test-report shape most CI systems show
/// (`shared/knowledge/linter-anchors.md` §5.4). Each finding is a failed test case; each checklist
/// item that passed is a passing one, and each item that could not be answered is skipped, so the
/// test tab reads as the checklist.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"

    public init() {}

    public func report(_ diagnosis: Diagnosis) -> String {
        var testCases: [String] = []
        var names = UniqueNames()
        var skipped = 0

        for finding in diagnosis.findings {
            var name = finding.rule
            if let location = finding.location, !location.file.isEmpty { name += " at \(location)" }
            if let productID = finding.productID { name += " for \(productID)" }
            var attributes = [("classname", finding.rule), ("name", names.unique(name))]
            if let location = finding.location, !location.file.isEmpty {
                attributes.append(("file", location.file))
                if location.line >= 1 { attributes.append(("line", String(location.line))) }
            }
            let failure = XMLEscaping.element(
                "failure", [("message", finding.message), ("type", finding.severity.rawValue)],
                text: Self.failureBody(finding))
            testCases.append("    " + XMLEscaping.element("testcase", attributes, children: ["      " + failure], indent: "    "))
        }

        for entry in diagnosis.checklist {
            let attributes = [("classname", "checklist"), ("name", names.unique("\(entry.item.number) \(entry.item.id): \(entry.item.question)"))]
            switch entry.status {
            case .pass:
                testCases.append("    " + XMLEscaping.element("testcase", attributes))
            case .unknown, .notApplicable:
                skipped += 1
                let skip = XMLEscaping.element("skipped", [("message", Self.skipReason(entry))])
                testCases.append("    " + XMLEscaping.element("testcase", attributes, children: ["      " + skip], indent: "    "))
            case .fail, .warn:
                // Its findings are the failed test cases above.
                break
            }
        }

        let counts = [
            ("tests", String(testCases.count)), ("failures", String(diagnosis.findings.count)),
            ("errors", "0"), ("skipped", String(skipped)),
        ]
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(XMLEscaping.startTag("testsuites", [("name", "iapdoctor")] + counts))
        lines.append("  " + XMLEscaping.startTag("testsuite", [("name", "iapdoctor")] + counts))
        lines += testCases
        lines.append("  </testsuite>")
        lines.append("</testsuites>")
        return Escaping.controlCharacters(lines.joined(separator: "\n") + "\n")
    }

    /// The whole finding, as the text report writes it, for the failure's detail view.
    static func failureBody(_ finding: Finding) -> String {
        var lines = ["\(finding.severity.rawValue)[\(finding.rule)]: \(finding.message)"]
        if let location = finding.location, !location.file.isEmpty { lines.append("location: \(location)") }
        if let productID = finding.productID { lines.append("product: \(productID)") }
        for note in finding.notes { lines.append("note: \(note)") }
        if let help = finding.help { lines.append("help: \(help)") }
        // As the text report says it: a repository path would mean nothing where the report is read.
        if finding.isDocumented { lines.append("help: run `iapdoctor explain \(finding.rule)`") }
        return lines.joined(separator: "\n")
    }

    static func skipReason(_ entry: Diagnosis.ChecklistEntry) -> String {
        if entry.status == .notApplicable {
            return "not applicable: " + entry.reasons.joined(separator: "; ")
        }
        let questions = entry.questions.map(\.sentence)
        return (["unknown"] + questions).joined(separator: ": ")
    }

    /// GitLab drops test cases whose classname and name repeat, so a repeated name gets ` (2)`, ` (3)`…
    struct UniqueNames {
        private var taken: Set<String> = []

        mutating func unique(_ name: String) -> String {
            var candidate = name
            var number = 1
            while taken.contains(candidate) {
                number += 1
                candidate = "\(name) (\(number))"
            }
            taken.insert(candidate)
            return candidate
        }
    }
}

/// Writes XML that any parser accepts whatever the inputs hold: markup characters become entities,
/// and control characters that XML 1.0 forbids even as references become U+FFFD.
enum XMLEscaping {
    static func startTag(_ name: String, _ attributes: [(String, String)]) -> String {
        "<\(name)" + attributes.map { " \($0.0)=\"\(attribute($0.1))\"" }.joined() + ">"
    }

    /// An element on one line (`<a x="1"/>`, `<a>text</a>`), or spanning lines around `children`.
    static func element(_ name: String, _ attributes: [(String, String)], text: String? = nil,
                        children: [String] = [], indent: String = "") -> String {
        let start = "<\(name)" + attributes.map { " \($0.0)=\"\(attribute($0.1))\"" }.joined()
        if !children.isEmpty { return start + ">\n" + children.joined(separator: "\n") + "\n\(indent)</\(name)>" }
        if let text { return start + ">" + self.text(text) + "</\(name)>" }
        return start + "/>"
    }

    /// Attribute values: whitespace other than spaces is written as a reference, because parsers
    /// turn a raw tab or newline in an attribute into a space.
    static func attribute(_ value: String) -> String {
        escape(value, newlineAsReference: true)
    }

    /// Element text: newlines stay (they separate the lines of a failure's detail); a carriage
    /// return or tab is written as a reference so no control character appears raw.
    static func text(_ value: String) -> String {
        escape(value, newlineAsReference: false)
    }

    /// Which bytes ``escape(_:newlineAsReference:)`` looks at: below 0x20, `&<>"'`, and the
    /// first byte of U+FFFE/U+FFFF (0xEF). DEL and U+0080–U+009F never reach it: the control
    /// characters but tab and newline are already written as `\u{…}`.
    private static let special: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in 0..<0x20 { table[byte] = true }
        for byte in "&<>\"'".utf8 { table[Int(byte)] = true }
        table[0xEF] = true
        return table
    }()

    /// Byte by byte over the UTF-8 (a faulty catalog's JUnit report spent most of its time
    /// appending scalar by scalar); a value with none of the ``special`` bytes, nearly all of
    /// them, is returned as it is.
    private static func escape(_ value: String, newlineAsReference: Bool) -> String {
        // Control characters from the inputs are shown escaped (`\u{1B}`), as in every text format.
        var value = Escaping.controlCharacters(value)
        guard let first = value.withUTF8({ $0.firstIndex { special[Int($0)] } }) else { return value }
        return value.withUTF8 { utf8 -> String in
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count + 16)
            out.append(contentsOf: utf8[..<first])
            func append(_ text: StaticString) { text.withUTF8Buffer { out.append(contentsOf: $0) } }
            var index = first
            while index < utf8.count {
                let byte = utf8[index]
                index += 1
                guard special[Int(byte)] else {
                    out.append(byte)
                    continue
                }
                switch byte {
                case 0x09: append("&#9;")
                case 0x0D: append("&#13;")
                case 0x0A: if newlineAsReference { append("&#10;") } else { out.append(byte) }
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                case UInt8(ascii: ">"): append("&gt;")
                case UInt8(ascii: "\""): append("&quot;")
                case UInt8(ascii: "'"): append("&apos;")
                case 0xEF where index + 1 < utf8.count && utf8[index] == 0xBF && utf8[index + 1] >= 0xBE:
                    // U+FFFE and U+FFFF: not characters in XML 1.0.
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    index += 2
                case ..<0x20:
                    // Control characters XML 1.0 forbids even as references (none is left by
                    // `controlCharacters`; kept so the output stays XML whatever it lets through).
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                default:
                    out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
