import Formats
import Model

/// One input problem, already written as a finding.
public struct InputProblem: Error, Sendable {
    public var finding: Finding
    /// Files read before the problem was found (a spec whose YAML is malformed, its includes):
    /// their lines may be quoted under it.
    public var readFiles: [String] = []

    public init(_ finding: Finding) {
        self.finding = finding
    }

    /// A file that could not be read, as the positioned `input-unreadable` finding every loader
    /// reports: the file system's message and help (which say what went wrong: missing, a folder,
    /// too large, outside the project), then `hint`, the loader's word on where the path comes from
    /// ("`app.product_id_lists` paths are relative to the descriptor's folder").
    public static func unreadable(_ problem: FileSystem.Problem, at location: SourceLocation?, hint: String? = nil, notes: [String] = []) -> InputProblem {
        InputProblem(Finding(
            rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil, message: problem.message,
            help: hint.map { "\(problem.help); \($0)" } ?? problem.help, notes: notes, location: location))
    }
}
