import Foundation
import Formats
import Model
import Loaders
import RuleEngine

/// `--format xcode`: the gcc/clang diagnostic line Xcode parses from a Run Script build phase
/// (`shared/knowledge/linter-anchors.md` §5.1): `path:line:col: error: message [rule]`. Paths are
/// made absolute, because Xcode only jumps to a file it can find from an absolute path.
public struct XcodeReporter: Reporter {
    public static let identifier = "xcode"
    /// Where relative paths are resolved from: the directory iapdoctor runs in.
    public var baseDirectory: String

    public init(baseDirectory: String = FileManager.default.currentDirectoryPath) {
        self.baseDirectory = baseDirectory
    }

    public func report(_ diagnosis: Diagnosis) -> String {
        var lines = diagnosis.findings.map(line)
        // Xcode ignores lines that are not diagnostics; a person reading the build log does not.
        lines.append(diagnosis.summaryLine)
        return Escaping.lines(lines)
    }

    func line(_ finding: Finding) -> String {
        var prefix = ""
        if let location = finding.location, !location.file.isEmpty {
            prefix = absolute(location.file)
            if location.line >= 1 {
                prefix += ":\(location.line)"
                if location.column >= 1 { prefix += ":\(location.column)" }
            }
            prefix += ": "
        }
        // One diagnostic per line: a newline inside a value would start a line Xcode misreads.
        let message = String(String.UnicodeScalarView(finding.message.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
        return "\(prefix)\(finding.severity.rawValue): \(message) [\(finding.rule)]"
    }

    func absolute(_ path: String) -> String {
        if path.hasPrefix("/") || baseDirectory.isEmpty { return path }
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return baseDirectory.hasSuffix("/") ? baseDirectory + relative : baseDirectory + "/" + relative
    }
}
