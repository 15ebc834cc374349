import Formats
import Model
import Loaders

/// The answer to the checklist: what every reporter formats. Built once by ``Engine``; reporters
/// never compute anything of their own.
public struct Diagnosis: Sendable {
    /// An item's answer. `fail`: an error-level finding answers its question "no"; `warn`: only
    /// warnings or notes do (the answer is "no" or "probably not", but StoreKit need not break);
    /// `pass`: nothing answers it "no". The severity of a finding decides `fail` against `warn`,
    /// never whether the item is answered "no" at all.
    public enum ItemStatus: String, Sendable {
        case pass, fail, warn, unknown
        case notApplicable = "not_applicable"
    }

    public struct Question: Sendable, Hashable {
        public var question: String
        public var key: String
        public var productID: String?

        /// The question and the key that answers it, as every text format asks it: "… Set `key`.".
        public var sentence: String {
            guard !key.isEmpty else { return question }
            // A question that ends in a statement ("…; there it requests no products") ends it first.
            let end = question.last == ")" ? question.dropLast().last : question.last
            let ended = end.map { ".?!".contains($0) } ?? true
            return "\(question)\(ended ? "" : ".") Set `\(key)`."
        }
    }

    public struct ChecklistEntry: Sendable {
        public var item: ChecklistItem
        public var status: ItemStatus
        /// Indexes into ``Diagnosis/findings``.
        public var findings: [Int]
        /// For `unknown`: what to answer, and where.
        public var questions: [Question]
        /// For `not_applicable`: why.
        public var reasons: [String]
    }

    /// `invalid`: an error says StoreKit will not return the product here; `at_risk`: only
    /// warnings apply to it (it may come back invalid); `unknown`: a question blocks the verdict;
    /// `valid`: nothing applies. In that order: the first that holds is the verdict.
    public enum Verdict: String, Sendable {
        case valid, invalid, unknown
        case atRisk = "at_risk"
    }

    public struct ProductVerdict: Sendable {
        public var productID: String
        public var requestedAs: [String]
        public var verdict: Verdict
        /// Items an error answers "no" for this product.
        public var failing: [String]
        /// Items a warning answers "no" for it (not those in ``failing``); notes leave the verdict alone.
        public var atRisk: [String] = []
        /// Items whose question is open for it.
        public var unknown: [String]
        /// The first question that blocks its verdict (of the first item in ``unknown``).
        public var openQuestion: Question?
        /// The descriptor's product, when there is one (for reports).
        public var product: Product?
    }

    public var toolVersion: String = IAPDoctorVersion.current
    public var environment: Environment
    public var environmentStated: Bool
    /// "Now" for time-based rules; `nil` for a catalog-only run, which has none (and so prints no time).
    public var checkedAt: Timestamp?
    /// `false` when only bulk product XML was checked, with no project descriptor.
    public var hasDescriptor: Bool
    public var inputs: [String]
    /// The app as the rules see it, each fact with where it came from: the descriptor's value,
    /// else the project files' (Info.plist, project.pbxproj).
    public var appName: Fact<String>?
    public var bundleID: Fact<String>?
    public var platform: Fact<Platform>?
    public var checklist: [ChecklistEntry]
    public var products: [ProductVerdict]
    /// The open questions grouped by where their answers live (``nextSteps(checklist:findings:bundleID:hasSnapshot:)``): the failing items first.
    public var nextSteps: [NextStep] = []
    public var findings: [Finding]
    /// The lowest severity that fails the run (`nil` = never).
    public var failOn: Severity?
    /// The rules in force (built-in and custom, with the configuration applied), for reporters
    /// that describe them (SARIF's `tool.driver.rules`).
    public var ruleSet: RuleSet
    /// The rules before the configuration (the engine's: rules.yaml's for the command
    /// line), for reporters that say what the configuration changed or link a rule's page.
    public var defaultRuleSet: RuleSet
    /// Rules turned off by the configuration.
    public var disabledRules: [String]
    public var configurationFile: String?
    /// `true` when an input or the configuration could not be used (exit code 2).
    public var hasInputErrors: Bool
    /// `false` when input errors stopped the run before any rule ran.
    public var evaluated: Bool
    /// The files the run parsed as what they were read for: the only ones whose lines the reports
    /// quote under findings.
    public var parsedFiles = ParsedFiles()
    /// The source lines the reports quote under the listed findings (``linesToQuote``), read by
    /// whoever runs the check before the reports are written (`Doctor` does, when asked).
    public var sourceQuotes = SourceQuotes()
    /// Findings left out by `iapdoctor:ignore` directives and the baseline (``Suppressions``).
    public var suppressedCount = 0

    /// Findings past the per-rule listing limit, by severity (counted, not listed).
    public var elidedCounts: [Severity: Int] = [:]

    /// The findings past the listing limit themselves, when the run was asked to keep them
    /// (``Engine/Options/keepsUnlisted``) for a report that lists every finding
    /// (``FindingListing``); only the records of ``unlistedRules`` are reported.
    public var unlisted: [CompactFindings] = []
    /// The run kept them (``Engine/Options/keepsUnlisted``): every finding is in ``findings`` or
    /// ``unlisted``, and the notes that count the rest say nothing a full listing does not.
    public var keepsUnlisted = false
    /// The rules whose findings past the limit were reported (a catalog scan keeps the findings of
    /// every rule it ran; a rule the environment leaves out reports none of them).
    public var unlistedRules: Set<String> = []

    public func count(_ severity: Severity) -> Int {
        findings.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) } + (elidedCounts[severity] ?? 0)
    }

    public var exitCode: Int32 {
        if hasInputErrors { return 2 }
        guard let failOn else { return 0 }
        return findings.contains { $0.severity >= failOn } || elidedCounts.contains { $0.key >= failOn && $0.value > 0 } ? 1 : 0
    }

    /// Says why the exit code is what it is: "2 errors, 1 warning; failing because --fail-on=error".
    public var summaryLine: String {
        let errors = count(.error), warnings = count(.warning), notes = count(.note)
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var counts = "\(plural(errors, "error")), \(plural(warnings, "warning")), \(plural(notes, "note"))"
        if suppressedCount > 0 { counts += " (\(suppressedCount) suppressed)" }
        if hasInputErrors {
            return "\(counts); exit code 2 because an input or the configuration could not be used"
        }
        switch exitCode {
        case 1: return "\(counts); exit code 1 because of findings at or above --fail-on=\(failOn!.rawValue)"
        default:
            if let failOn { return "\(counts); exit code 0: nothing at or above --fail-on=\(failOn.rawValue)" }
            return "\(counts); exit code 0 because --fail-on=never"
        }
    }
}
