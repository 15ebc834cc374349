import Formats
import Model
import Loaders
import RuleEngine

/// `--format checkstyle`: Checkstyle XML for Jenkins (warnings-ng) and Sonar, in ShellCheck's shape
/// (`shared/knowledge/linter-anchors.md` §5.6). Findings are grouped by file, files in sorted order.
public struct CheckstyleReporter: Reporter {
    public static let identifier = "checkstyle"

    public init() {}

    public func report(_ diagnosis: Diagnosis) -> String {
        // Project-level findings have no file; they belong to the descriptor.
        var findingsByFile: [String: [Finding]] = [:]
        for finding in diagnosis.findings {
            findingsByFile[FindingFingerprints.path(of: finding, in: diagnosis), default: []].append(finding)
        }
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<checkstyle version="4.3">"#]
        for file in findingsByFile.keys.sorted() {
            lines.append("  " + XMLEscaping.startTag("file", [("name", file)]))
            for finding in findingsByFile[file]! {
                var attributes: [(String, String)] = []
                if let location = finding.location, location.line >= 1 {
                    attributes.append(("line", String(location.line)))
                    if location.column >= 1 { attributes.append(("column", String(location.column))) }
                }
                attributes += [
                    ("severity", Self.severity(finding.severity)),
                    ("message", finding.message),
                    ("source", "iapdoctor.\(finding.rule)"),
                ]
                lines.append("    " + XMLEscaping.element("error", attributes))
            }
            lines.append("  </file>")
        }
        lines.append("</checkstyle>")
        return Escaping.controlCharacters(lines.joined(separator: "\n") + "\n")
    }

    /// Checkstyle's severities are `error`, `warning`, `info` and `ignore`.
    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "info"
        }
    }
}
