import Formats
import Model
import Loaders
import RuleEngine

/// What `iapdoctor report` shows, taken from a ``Diagnosis`` once so that the HTML page and the
/// Markdown report say the same things in the same order. It decides nothing the diagnosis did
/// not: it only groups, counts and words what the engine concluded.
public struct ReportDocument: Sendable {
    /// Where a finding points, with the line of the file it points at when that can be read.
    public struct Location: Sendable {
        public var description: String
        public var line: Int
        /// The source line, without its line break and trailing spaces.
        public var sourceLine: String?
        /// The part of ``sourceLine`` the finding's span covers (offsets in Unicode scalars).
        public var highlight: Range<Int>?
    }

    public struct FindingEntry: Sendable {
        /// The finding's number in the diagnosis (`[3]` in every format).
        public var number: Int
        public var severity: Severity
        public var rule: String
        public var message: String
        public var help: String?
        public var notes: [String]
        public var location: Location?
        public var productID: String?
        /// The rule's page in the repository, `docs/rules/<id>.md`.
        public var docsPath: String
        /// The same page online; `nil` for a custom rule, which has no page.
        public var docsURL: String?
    }

    public struct ChecklistRow: Sendable {
        public var number: Int
        public var id: String
        public var question: String
        /// Community advice: never makes a product invalid.
        public var isAdvice: Bool
        public var status: Diagnosis.ItemStatus
        public var findings: [FindingEntry]
        /// For `unknown`: what to answer and which descriptor key to set.
        public var questions: [Diagnosis.Question]
        /// For `not_applicable`: why.
        public var reasons: [String]

        /// Items whose findings and questions are spelled out under the checklist.
        public var hasDetails: Bool { !findings.isEmpty || !questions.isEmpty }
    }

    public struct LocalizedName: Sendable {
        public var locale: String
        public var displayName: String?
    }

    /// One checklist item that makes a product invalid (`fail`), puts it at risk (`warn`) or leaves
    /// it undecided (`unknown`).
    public struct ProductReason: Sendable {
        public var itemNumber: Int
        public var itemID: String
        public var status: Diagnosis.ItemStatus
        /// The item's findings that are about this product or the whole app.
        public var findingNumbers: [Int]
    }

    public struct ProductRow: Sendable {
        public var productID: String
        /// An `id` attribute value made of the product ID's safe characters, unique in the report.
        public var anchor: String
        /// How the code asks for it, when that differs from the product ID.
        public var requestedAs: [String]
        /// `false` when the code requests a product the descriptor does not list.
        public var inDescriptor: Bool
        public var referenceName: String?
        public var type: String?
        public var status: String?
        public var clearedForSale: String?
        public var price: String?
        public var localizations: [LocalizedName]
        public var verdict: Diagnosis.Verdict
        public var reasons: [ProductReason]
    }

    /// One bulk product XML package and what its findings add up to.
    public struct CatalogResult: Sendable {
        public var file: String
        /// `fail` when an error is about it, `warn` when only warnings or notes are, as in the checklist.
        public var status: Diagnosis.ItemStatus
        public var errors: Int
        public var warnings: Int
        public var notes: Int
        public var findingNumbers: [Int]
    }

    public struct OpenQuestion: Sendable {
        public var itemNumber: Int
        public var itemID: String
        public var question: String
        /// The descriptor key that answers it (empty when no key does).
        public var key: String
        public var productID: String?
    }

    public struct NotApplicableItem: Sendable {
        public var itemNumber: Int
        public var itemID: String
        public var question: String
        public var reasons: [String]
    }

    /// The overall answer at the top of the report.
    /// The overall answer, in the checklist's and the verdicts' order: an item fails, else one is
    /// answered "probably not" (`at_risk`), else one is open, else every item that applies passes.
    public enum Readiness: String, Sendable {
        case ready
        case notReady = "not_ready"
        case atRisk = "at_risk"
        case unconfirmed
        case notEvaluated = "not_evaluated"

        /// The status whose icon and colour show it.
        public var status: Diagnosis.ItemStatus {
            switch self {
            case .ready: return .pass
            case .notReady, .notEvaluated: return .fail
            case .atRisk: return .warn
            case .unconfirmed: return .unknown
            }
        }
    }

    public struct Tally: Sendable {
        public var pass = 0, fail = 0, warn = 0, unknown = 0, notApplicable = 0
        public var validProducts = 0, invalidProducts = 0, atRiskProducts = 0, unknownProducts = 0
        public var errors = 0, warnings = 0, notes = 0
    }

    /// A rule whose severity or option the configuration changed from the built-in default.
    public struct RuleChange: Sendable {
        public var rule: String
        /// The option changed; `nil` when it is the severity.
        public var option: String?
        public var value: String
        public var defaultValue: String
    }

    public struct RulesInForce: Sendable {
        public var toolVersion: String
        public var ruleCount: Int
        public var customRules: [String]
        public var configurationFile: String?
        public var disabledRules: [String]
        public var changes: [RuleChange]
        /// `--fail-on`, or `never`.
        public var failOn: String
    }

    public var title: String
    public var appName: String?
    public var bundleID: String?
    public var platform: String?
    /// Where each of the three came from (`RunMonster/Info.plist:12:10`, `project.yaml:5:9`).
    public var appNameOrigin: String?
    public var bundleIDOrigin: String?
    public var platformOrigin: String?
    public var environment: Environment
    public var environmentStated: Bool
    /// `environment: review`: checked as App Review sees the app, before submitting.
    public var isPreSubmission: Bool
    public var checkedAt: String?
    public var hasDescriptor: Bool
    public var inputs: [String]
    public var evaluated: Bool
    public var readiness: Readiness
    /// "Not ready", "Ready to submit": the first words of the answer.
    public var readinessLabel: String
    /// The rest of the answer: what fails or is unknown, and the products.
    public var readinessDetail: String
    /// What the environment means for this report (the pre-submission profile, or how to get it).
    public var profileNote: String
    public var tally: Tally
    /// What `iapdoctor check` says about the findings and its exit code.
    public var summaryLine: String
    /// Findings no checklist item answers: input and configuration problems.
    public var inputProblems: [FindingEntry]
    public var checklist: [ChecklistRow]
    public var products: [ProductRow]
    public var catalogs: [CatalogResult]
    public var openQuestions: [OpenQuestion]
    /// The open questions by where their answers live, the place that answers most first.
    public var nextSteps: [Diagnosis.NextStep]
    public var notApplicable: [NotApplicableItem]
    public var rules: RulesInForce

    /// Where the rule pages are published (the repository SARIF's `helpUri` points into).
    public static let docsBaseURL = SARIFReporter.informationURI + "/blob/main/docs/rules/"

    public init(_ diagnosis: Diagnosis) {
        let sources = diagnosis.sourceQuotes
        // Rules of the engine's own catalog have a page in docs/rules; custom rules have none.
        let documentedIDs = Set(diagnosis.defaultRuleSet.rules.map(\.id))
        let entries = diagnosis.findings.enumerated().map { index, finding in
            ReportDocument.entry(for: finding, number: index + 1, sources: sources, documented: documentedIDs.contains(finding.rule))
        }

        appName = diagnosis.appName?.value
        bundleID = diagnosis.bundleID?.value
        platform = diagnosis.platform?.value.displayName
        appNameOrigin = diagnosis.appName?.location.description
        bundleIDOrigin = diagnosis.bundleID?.location.description
        platformOrigin = diagnosis.platform?.location.description
        environment = diagnosis.environment
        environmentStated = diagnosis.environmentStated
        isPreSubmission = diagnosis.environment == .review
        checkedAt = diagnosis.checkedAt?.description
        hasDescriptor = diagnosis.hasDescriptor
        inputs = diagnosis.inputs
        evaluated = diagnosis.evaluated
        summaryLine = diagnosis.summaryLine
        title = diagnosis.appName?.value ?? (diagnosis.hasDescriptor ? diagnosis.bundleID?.value ?? "In-App Purchase" : "Bulk product XML check")

        checklist = diagnosis.checklist.map { entry in
            ChecklistRow(
                number: entry.item.number, id: entry.item.id, question: entry.item.question, isAdvice: entry.item.isAdvice,
                status: entry.status, findings: entry.findings.map { entries[$0] },
                // Unevaluated, every item asks "fix the inputs first"; the report says that once.
                questions: diagnosis.evaluated ? entry.questions : [], reasons: entry.reasons)
        }
        let answered = Set(diagnosis.checklist.flatMap(\.findings))
        inputProblems = entries.indices.filter { !answered.contains($0) }.map { entries[$0] }

        var tally = Tally()
        tally.errors = diagnosis.count(.error)
        tally.warnings = diagnosis.count(.warning)
        tally.notes = diagnosis.count(.note)
        for entry in diagnosis.checklist {
            switch entry.status {
            case .pass: tally.pass += 1
            case .fail: tally.fail += 1
            case .warn: tally.warn += 1
            case .unknown: tally.unknown += 1
            case .notApplicable: tally.notApplicable += 1
            }
        }
        for product in diagnosis.products {
            switch product.verdict {
            case .valid: tally.validProducts += 1
            case .invalid: tally.invalidProducts += 1
            case .atRisk: tally.atRiskProducts += 1
            case .unknown: tally.unknownProducts += 1
            }
        }
        self.tally = tally

        var anchors = Set<String>()
        products = diagnosis.products.map { verdict in
            ReportDocument.row(for: verdict, checklist: diagnosis.checklist, findings: diagnosis.findings, anchors: &anchors)
        }
        catalogs = ReportDocument.catalogResults(diagnosis)

        if diagnosis.evaluated {
            openQuestions = diagnosis.checklist.flatMap { entry in
                entry.questions.map {
                    OpenQuestion(itemNumber: entry.item.number, itemID: entry.item.id, question: $0.question, key: $0.key, productID: $0.productID)
                }
            }
        } else {
            // Every item carries the same "fix the inputs first" question then; the input problems say it once.
            openQuestions = []
        }
        nextSteps = diagnosis.nextSteps
        notApplicable = diagnosis.checklist.filter { $0.status == .notApplicable }.map {
            NotApplicableItem(itemNumber: $0.item.number, itemID: $0.item.id, question: $0.item.question, reasons: $0.reasons)
        }
        rules = ReportDocument.rulesInForce(diagnosis)

        let plural = { (count: Int, word: String) in "\(count) \(word)\(count == 1 ? "" : "s")" }
        let productsPart: String = {
            guard !diagnosis.products.isEmpty else { return "" }
            let total = diagnosis.products.count
            if tally.invalidProducts > 0 { return "; \(tally.invalidProducts) of \(plural(total, "product")) \(tally.invalidProducts == 1 ? "is" : "are") invalid" }
            if tally.atRiskProducts > 0 { return "; \(tally.atRiskProducts) of \(plural(total, "product")) \(tally.atRiskProducts == 1 ? "is" : "are") at risk" }
            if tally.unknownProducts > 0 { return "; \(tally.unknownProducts) of \(plural(total, "product")) \(tally.unknownProducts == 1 ? "is" : "are") undecided" }
            return total == 1 ? "; the product is valid" : "; all \(total) products are valid"
        }()
        let goal = isPreSubmission ? " to submit" : ""
        if !diagnosis.evaluated {
            readiness = .notEvaluated
            readinessLabel = "Not checked"
            readinessDetail = "an input or the configuration could not be used; fix the problems with the inputs and run again."
        } else if tally.fail > 0 {
            readiness = .notReady
            readinessLabel = "Not ready" + goal
            readinessDetail = "\(plural(tally.fail, "checklist item")) \(tally.fail == 1 ? "fails" : "fail")\(productsPart)."
        } else if tally.warn > 0 {
            readiness = .atRisk
            readinessLabel = "At risk" + (isPreSubmission ? " for submission" : "")
            readinessDetail = "\(plural(tally.warn, "checklist item")) \(tally.warn == 1 ? "is" : "are") answered \"no\" by warnings or notes\(productsPart)\(tally.unknown > 0 ? ", and \(plural(tally.unknown, "item")) \(tally.unknown == 1 ? "is" : "are") unknown" : "")."
        } else if tally.unknown > 0 {
            readiness = .unconfirmed
            readinessLabel = "Not confirmed" + goal
            readinessDetail = "\(plural(tally.unknown, "checklist item")) \(tally.unknown == 1 ? "is" : "are") unknown\(productsPart); answer the questions below."
        } else {
            readiness = .ready
            readinessLabel = "Ready" + goal
            readinessDetail = "every checklist item that applies passes\(productsPart)."
        }
        if isPreSubmission {
            profileNote = "Pre-submission profile: checked as App Review will see the app (`environment: review`), so the items that matter only for submission, such as the binary, the review screenshot and the review notes, are checked strictly."
        } else if diagnosis.hasDescriptor {
            profileNote = "Checked for the `\(diagnosis.environment.rawValue)` environment\(diagnosis.environmentStated ? "" : " (not stated in the descriptor; set `environment`)"). Before submitting, run `iapdoctor report --environment review` for the pre-submission profile."
        } else {
            profileNote = "Only bulk product XML was checked; give the project descriptor as well to answer the whole checklist."
        }
    }

    // MARK: Building the parts

    static func entry(for finding: Finding, number: Int, sources: SourceQuotes, documented: Bool) -> FindingEntry {
        var location: Location?
        if let pointer = finding.location, !pointer.file.isEmpty {
            var sourceLine: String?
            var highlight: Range<Int>?
            if pointer.line > 0, var line = finding.quotedSourceLine(from: sources),
                line.contains(where: { $0 != " " && $0 != "\t" })
            {
                while line.last == " " || line.last == "\t" { line.removeLast() }
                sourceLine = line
                let original = sources.line(pointer.line, in: pointer.file) ?? line
                highlight = highlightRange(in: line, of: pointer, original: original, secret: finding.secret)
            }
            location = Location(description: pointer.description, line: pointer.line, sourceLine: sourceLine, highlight: highlight)
        }
        return FindingEntry(
            number: number, severity: finding.severity, rule: finding.rule, message: finding.message, help: finding.help,
            notes: finding.notes, location: location, productID: finding.productID, docsPath: finding.docsPath,
            docsURL: documented ? docsBaseURL + finding.rule + ".md" : nil)
    }

    /// The part of the quoted `line` the finding's span covers, in Unicode scalars: from its
    /// start column to its end column, or to the line's end when the span goes on to later lines;
    /// one scalar when only the start is known. `line` may have a secret masked on it.
    static func highlightRange(in line: String, of location: SourceLocation, original: String, secret: Secret?) -> Range<Int>? {
        let count = line.unicodeScalars.count
        func offset(_ column: Int) -> Int { min(count, max(0, secret?.maskedOffset(column - 1, in: original) ?? column - 1)) }
        guard location.column > 0 else { return nil }
        let start = offset(location.column)
        guard start < count else { return nil }
        var end = start + 1
        if location.hasEnd { end = max(end, location.isOneLine ? offset(location.endColumn) : count) }
        return start..<end
    }

    static func row(
        for verdict: Diagnosis.ProductVerdict, checklist: [Diagnosis.ChecklistEntry], findings: [Finding], anchors: inout Set<String>
    ) -> ProductRow {
        let product = verdict.product
        var reasons: [ProductReason] = []
        for (ids, status) in [(verdict.failing, Diagnosis.ItemStatus.fail), (verdict.atRisk, .warn), (verdict.unknown, .unknown)] {
            for id in ids {
                guard let entry = checklist.first(where: { $0.item.id == id }) else { continue }
                let numbers = entry.findings.filter { findings[$0].productID == nil || findings[$0].productID == verdict.productID }.map { $0 + 1 }
                reasons.append(ProductReason(itemNumber: entry.item.number, itemID: id, status: status, findingNumbers: numbers))
            }
        }
        reasons.sort { $0.itemNumber < $1.itemNumber }

        var price: String?
        switch (product?.priceTier?.value, product?.price?.value) {
        case let (tier?, amount?): price = "tier \(tier) (\(amount))"
        case let (tier?, nil): price = "tier \(tier)"
        case let (nil, amount?): price = amount
        case (nil, nil): price = nil
        }
        let cleared = product?.clearedForSale.map { $0.value ? "yes" : "no" }

        return ProductRow(
            productID: verdict.productID, anchor: uniqueAnchor(for: verdict.productID, in: &anchors),
            requestedAs: verdict.requestedAs.filter { $0 != verdict.productID }, inDescriptor: product != nil,
            referenceName: product?.referenceName?.value, type: product?.type?.value.displayName,
            status: product?.status.map { $0.value.rawValue.replacingOccurrences(of: "_", with: " ") },
            clearedForSale: cleared, price: price,
            localizations: product?.localizations?.value.map { LocalizedName(locale: $0.locale.value, displayName: $0.displayName?.value) } ?? [],
            verdict: verdict.verdict, reasons: reasons)
    }

    /// `product-` and the product ID's letters, digits, `.`, `_` and `-` (others become `-`), made unique.
    static func uniqueAnchor(for productID: String, in taken: inout Set<String>) -> String {
        let safe = String(productID.unicodeScalars.map { scalar -> Character in
            let isSafe = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "." || scalar == "_" || scalar == "-"
            return isSafe ? Character(scalar) : "-"
        })
        var anchor = "product-" + safe
        var suffix = 2
        while taken.contains(anchor) {
            anchor = "product-\(safe)-\(suffix)"
            suffix += 1
        }
        taken.insert(anchor)
        return anchor
    }

    /// One result per bulk product XML input, with the findings located in its `metadata.xml`.
    static func catalogResults(_ diagnosis: Diagnosis) -> [CatalogResult] {
        var files: [String] = []
        for input in diagnosis.inputs where InputKind(path: input) == .catalog {
            let file = CatalogPackage.metadataPath(for: input)
            if !files.contains(file) { files.append(file) }
        }
        return files.map { file in
            let given = diagnosis.inputs.filter { CatalogPackage.metadataPath(for: $0) == file }
            let numbers = diagnosis.findings.indices.filter { index in
                guard let located = diagnosis.findings[index].location?.file else { return false }
                return located == file || given.contains(located)
            }
            let mine = numbers.map { diagnosis.findings[$0] }
            let errors = mine.filter { $0.severity == .error }.count
            let warnings = mine.filter { $0.severity == .warning }.count
            let status: Diagnosis.ItemStatus
            if !diagnosis.evaluated && errors == 0 {
                status = .unknown
            } else {
                status = errors > 0 ? .fail : warnings > 0 ? .warn : .pass
            }
            return CatalogResult(
                file: file, status: status, errors: errors, warnings: warnings, notes: mine.count - errors - warnings,
                findingNumbers: numbers.map { $0 + 1 })
        }
    }

    static func rulesInForce(_ diagnosis: Diagnosis) -> RulesInForce {
        var custom: [String] = []
        var changes: [RuleChange] = []
        for rule in diagnosis.ruleSet.rules {
            guard let original = diagnosis.defaultRuleSet.rule(rule.id) else {
                custom.append(rule.id)
                continue
            }
            if rule.severity != original.severity {
                changes.append(RuleChange(rule: rule.id, option: nil, value: rule.severity.rawValue, defaultValue: original.severity.rawValue))
            }
            for option in rule.options {
                guard let defaultValue = original.option(option.name), defaultValue != option.value else { continue }
                changes.append(RuleChange(rule: rule.id, option: option.name, value: option.value.description, defaultValue: defaultValue.description))
            }
        }
        return RulesInForce(
            toolVersion: diagnosis.toolVersion, ruleCount: diagnosis.ruleSet.rules.count, customRules: custom,
            configurationFile: diagnosis.configurationFile, disabledRules: diagnosis.disabledRules, changes: changes,
            failOn: diagnosis.failOn?.rawValue ?? "never")
    }
}

// MARK: Sentences

// The sentences the HTML page and the Markdown report both say, written once here so the two
// cannot drift apart; each rendering only adds its markup around them. None holds a value from the
// inputs, so they need no escaping in either format.
extension ReportDocument {
    /// Under the title: which checklist this is.
    public var checklistKind: String { isPreSubmission ? "In-App Purchase pre-submission checklist" : "In-App Purchase checklist" }

    /// After the environment's name in the header.
    public var environmentQualifiers: String {
        (isPreSubmission ? " (pre-submission profile)" : "") + (environmentStated ? "" : " (not stated)")
    }

    public static let inputProblemsIntro =
        "These are about the inputs and the configuration, not a checklist item; errors among them stop the check."

    /// Above the checklist when the input errors kept it from being evaluated.
    public static let checklistNotEvaluated = "The checklist was not evaluated: fix the problems with the inputs first."

    /// Instead of the product table, when it has no rows.
    public var noProductsSentence: String {
        evaluated ? "The descriptor lists no products and the code requests none." : "No verdicts: the checklist was not evaluated."
    }

    /// Above the open questions' table, or instead of it when there is none.
    public var openQuestionsLead: String {
        if !evaluated { return "None yet: the checklist was not evaluated." }
        return openQuestions.isEmpty
            ? "None: every item that applies was answered from the inputs."
            : "Nothing in the inputs answers these; set the descriptor key and run again."
    }

    /// Instead of the not-applicable table; nil when there is one to show.
    public var noneNotApplicableSentence: String? {
        if !evaluated { return "None yet: the checklist was not evaluated." }
        return notApplicable.isEmpty ? "None: every item applies." : nil
    }

    /// How many rules are in force and whether any are custom, the custom ones written by `code`.
    public func rulesInForce(code: (String) -> String) -> String {
        "\(rules.ruleCount)" + (rules.customRules.isEmpty ? " (all built in)" : ", including custom rules " + rules.customRules.map(code).joined(separator: ", "))
    }

    /// The configuration file's line when there is none.
    public static let noConfigurationFile = "none: the built-in defaults"
}
