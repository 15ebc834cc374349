import Formats
import Model
import Loaders
import RuleEngine

/// `--format github`: GitHub Actions workflow commands, which the runner turns into annotations on
/// the changed files (`shared/knowledge/linter-anchors.md` §5.2). Annotations never fail the job;
/// the exit code does.
public struct GitHubReporter: Reporter {
    public static let identifier = "github"

    public init() {}

    public func report(_ diagnosis: Diagnosis) -> String {
        var lines = diagnosis.findings.map(Self.command)
        // A plain line: the runner prints it as is, and it says why the step failed or passed.
        lines.append(diagnosis.summaryLine)
        return Escaping.controlCharacters(lines.joined(separator: "\n") + "\n")
    }

    /// `::error file=…,line=…,endLine=…,col=…,endColumn=…,title=<rule>::<message>`, with the help
    /// on the annotation's second line.
    static func command(_ finding: Finding) -> String {
        let level: String
        switch finding.severity {
        case .error: level = "error"
        case .warning: level = "warning"
        case .note: level = "notice"
        }
        var properties: [(String, String)] = []
        if let location = finding.location, !location.file.isEmpty {
            properties.append(("file", location.file))
            if location.line >= 1 {
                properties.append(("line", String(location.line)))
                if location.hasEnd { properties.append(("endLine", String(location.endLine))) }
                if location.column >= 1 { properties.append(("col", String(location.column))) }
                // Columns only on one line, and GitHub's end column is the last character's
                // (inclusive, defaulting to `col`): one less than the span's exclusive end.
                if location.isOneLine, location.endColumn > location.column {
                    properties.append(("endColumn", String(location.endColumn - 1)))
                }
            }
        }
        properties.append(("title", finding.rule))
        var message = finding.message
        if let help = finding.help { message += "\nhelp: \(help)" }
        let list = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(level) \(list)::\(escapeData(message))"
    }

    /// `escapeData` of actions/toolkit `packages/core/src/command.ts`: a raw newline would end the
    /// command and let the rest of the text run as a command of its own.
    static func escapeData(_ text: String) -> String {
        escape(text, alsoDelimiters: false)
    }

    /// `escapeProperty` of the same file: `:` and `,` also delimit properties.
    static func escapeProperty(_ text: String) -> String {
        escape(text, alsoDelimiters: true)
    }

    /// Works on scalars, not characters: Swift reads CR LF as one character, the runner as two.
    private static func escape(_ text: String, alsoDelimiters: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case ":" where alsoDelimiters: result += "%3A"
            case "," where alsoDelimiters: result += "%2C"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
