@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
@testable import RuleEngine
@testable import Reporters
import Testing
import TestSupport

/// The JUnit and Checkstyle reports' escaping, done on bytes, against its definition on scalars.
@Suite("XML escaping by bytes")
struct XMLEscapingTests {
    /// The definition: markup characters as entities, tab and carriage return (and newline in
    /// an attribute) as references, U+007F–U+009F as references, other control characters and
    /// U+FFFE/U+FFFF as U+FFFD; after control characters from the inputs are made visible.
    static func reference(_ value: String, newlineAsReference: Bool) -> String {
        var result = ""
        for scalar in Escaping.controlCharacters(value).unicodeScalars {
            switch scalar {
            case "\t": result += "&#9;"
            case "\r": result += "&#13;"
            case "\n": result += newlineAsReference ? "&#10;" : "\n"
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "\u{FFFD}"
            case _ where scalar.value >= 0x7F && scalar.value <= 0x9F: result += "&#\(scalar.value);"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Random texts over the bytes the escaping looks at, their neighbours (U+00A0, U+00C2,
    /// U+EFBF, U+F000, U+FFEF, U+FFFD), and text that needs nothing, at every position.
    @Test func bytesAndScalarsEscapeAlike() {
        let alphabet: [String] = [
            "a", " ", "\t", "\n", "\r", "&", "<", ">", "\"", "'", "\u{1}", "\u{1B}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}", "\u{A0}",
            "Â", "é", "\u{EFBF}", "\u{F000}", "\u{FFEF}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{2028}", "😀", "plain words",
        ]
        var generator = SystemRandomNumberGenerator()
        for length in 0..<12 {
            for _ in 0..<300 {
                let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
                #expect(XMLEscaping.attribute(text) == Self.reference(text, newlineAsReference: true), "\(Array(text.unicodeScalars))")
                #expect(XMLEscaping.text(text) == Self.reference(text, newlineAsReference: false), "\(Array(text.unicodeScalars))")
            }
        }
        #expect(XMLEscaping.attribute("a<b & \"c\"\n") == "a&lt;b &amp; &quot;c&quot;&#10;")
        #expect(XMLEscaping.text("line\nnext\u{FFFF}") == "line\nnext\u{FFFD}")
    }
}

/// The Markdown outputs' escaping, done on bytes, against its definition on scalars.
@Suite("Markdown escaping by bytes")
struct MarkdownEscapingTests {
    static func plainReference(_ text: String) -> String {
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

    static func oneLineReference(_ text: String) -> String {
        Escaping.controlCharacters(String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 })))
    }

    @Test func bytesAndScalarsEscapeAlike() {
        let alphabet: [String] = [
            "a", " ", "\n", "\r", "\r\n", "\t", "&", "<", ">", "\\", "*", "_", "[", "]", "~", "|", "`", "\u{1B}", "\u{85}", "é", "€",
            "😀", "\u{2028}", "plain words",
        ]
        var generator = SystemRandomNumberGenerator()
        for length in 0..<12 {
            for _ in 0..<300 {
                let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
                #expect(Markdown.plain(text) == Self.plainReference(text), "\(Array(text.unicodeScalars))")
                #expect(Markdown.oneLine(text) == Self.oneLineReference(text), "\(Array(text.unicodeScalars))")
            }
        }
        #expect(Markdown.plain("a_b <c> | d") == "a\\_b &lt;c&gt; \\| d")
    }
}

/// An input cannot start a line of its own in the text or Xcode output: a CI runner would take a
/// line that starts with `::` for a workflow command.
@Suite("Workflow commands in inputs")
struct WorkflowCommandTests {
    @Test func newlinesInInputsStayInTheirLine() {
        let text = Escaping.lines(["error: the app is `Shop\n::add-mask::secret`", "::error file=x::boom", "  plain"])
        #expect(text == "error: the app is `Shop\\u{A}::add-mask::secret`\n\\u{3A}:error file=x::boom\n  plain\n")
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("::") })
        #expect(Escaping.lines(["a\r\nb"]) == "a\\u{D}\\u{A}b\n")
    }

    @Test func aHostileProductIDThroughCheck() throws {
        let folder = try makeScratchFolder("workflow")
        defer { removeScratch(folder) }
        let descriptor = folder + "/project.yaml"
        try "version: 1\napp:\n  bundle_id: com.acme.app\nrequests:\n  - \"com.acme.pro\\n::error file=a.swift::fake\"\n"
            .write(toFile: descriptor, atomically: true, encoding: .utf8)
        for format in ["text", "xcode"] {
            let run = try runIAPDoctor(["check", descriptor, "--format", format])
            #expect(!run.output.split(separator: "\n", omittingEmptySubsequences: false).contains { $0.hasPrefix("::") }, "\(format): \(run.output)")
        }
    }
}
