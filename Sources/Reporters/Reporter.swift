import Formats
import Model
import Loaders
import RuleEngine

/// Formats a ``Diagnosis``. Reporters compute nothing: the same words appear in every format.
public protocol Reporter: Sendable {
    /// The `--format` name.
    static var identifier: String { get }
    /// Whether this format lists every finding (``FindingListing``), not only the first
    /// ``Engine/maxListedFindingsPerRule`` of each rule and a note that counts the rest: a
    /// machine reads it whole (JSON, SARIF), where a person reading the text would not.
    static var listsEveryFinding: Bool { get }
    /// Whether this format quotes the source line under a finding (``Diagnosis/sourceQuotes``,
    /// read before the report is written): the text report.
    static var quotesSources: Bool { get }
    func report(_ diagnosis: Diagnosis) -> String
    /// The report, streamed to `output` (by default ``report(_:)`` written at once).
    func write(_ diagnosis: Diagnosis, to output: ReportOutput)
}

extension Reporter {
    public static var listsEveryFinding: Bool { false }
    public static var quotesSources: Bool { false }

    public func write(_ diagnosis: Diagnosis, to output: ReportOutput) {
        output.write(report(diagnosis))
    }
}

/// A JSON report of every finding (``FindingListing``): written whole for ``Reporter/report(_:)``,
/// streamed in pieces for ``Reporter/write(_:to:)``.
protocol ListingReporter: Reporter {
    /// About how many bytes a finding takes (to reserve the whole report's room at once).
    static var bytesPerFinding: Int { get }
    static func write(_ diagnosis: Diagnosis, listing: FindingListing, into json: inout JSONWriter)
}

extension ListingReporter {
    public func report(_ diagnosis: Diagnosis) -> String {
        let listing = FindingListing(diagnosis)
        var json = JSONWriter(reservingCapacity: 16_384 + listing.count * Self.bytesPerFinding)
        Self.write(diagnosis, listing: listing, into: &json)
        return json.outputLine()
    }

    public func write(_ diagnosis: Diagnosis, to output: ReportOutput) {
        var json = JSONWriter(streamingTo: output)
        Self.write(diagnosis, listing: FindingListing(diagnosis), into: &json)
        json.finish()
    }
}

public enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, sarif, junit, github, xcode, gitlab, checkstyle, markdown

    /// `width`: the terminal's columns, for the text format's wrapping (nil: no wrapping).
    public func reporter(color: Bool, verbose: Bool = false, width: Int? = nil) -> any Reporter {
        switch self {
        case .text: return TextReporter(color: color, verbose: verbose, width: width)
        case .json: return JSONReporter()
        case .sarif: return SARIFReporter()
        case .junit: return JUnitReporter()
        case .github: return GitHubReporter()
        case .xcode: return XcodeReporter()
        case .gitlab: return GitLabReporter()
        case .checkstyle: return CheckstyleReporter()
        case .markdown: return MarkdownCheckReporter()
        }
    }
}

extension Finding {
    /// Where the rule's documentation page lives in the repository (the JSON report's `docs`).
    public var docsPath: String { "docs/rules/\(rule).md" }

    /// The rule has a page: a built-in rule (`iapdoctor explain` prints it, and it is online at
    /// ``docsURL``); a custom rule from a configuration file has none.
    var isDocumented: Bool { Self.builtinRuleIDs.contains(rule) }

    /// The rule's page online, for a built-in rule.
    var docsURL: String? { isDocumented ? ReportDocument.docsBaseURL + rule + ".md" : nil }

    private static let builtinRuleIDs = Set(RuleSet.builtin.rules.map(\.id))

    /// The source line at the finding's location as the reports quote it: a secret masked, or no
    /// line at all when the secret cannot be masked on it.
    func quotedSourceLine(from sources: SourceQuotes) -> String? {
        guard let location, location.line > 0, let line = sources.line(location.line, in: location.file) else { return nil }
        guard let secret else { return line }
        return secret.maskedSourceLine(line)
    }
}
