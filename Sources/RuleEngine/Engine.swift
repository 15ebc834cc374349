#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Formats
import Model
import Loaders

/// Runs the rules over a project and derives the checklist, the product verdicts and the
/// numbered findings from their outcomes.
public struct Engine: Sendable {
    public let ruleSet: RuleSet
    public let implementations: [String: any Rule]

    public init(ruleSet: RuleSet, rules: [any Rule]) {
        self.ruleSet = ruleSet
        var implementations: [String: any Rule] = [:]
        for rule in rules { implementations[rule.id] = rule }
        self.implementations = implementations
    }

    /// Catalog ids whose rule has neither Swift logic nor a declarative check (a test keeps this empty),
    /// and implementations with no catalog entry.
    public var unmatchedRules: (withoutImplementation: [String], withoutMetadata: [String]) {
        let metadataOnly = ruleSet.rules.filter { implementations[$0.id] == nil && $0.check == nil && !Engine.inputRuleIDs.contains($0.id) }
        let codeOnly = implementations.keys.filter { ruleSet.rule($0) == nil }
        return (metadataOnly.map(\.id), codeOnly.sorted())
    }

    /// Rules that report problems with inputs and configuration; the loaders emit them.
    public static let inputRuleIDs: Set<String> = Set(RuleID.inputRules.map(\.rawValue))

    /// Why a rule has nothing to read in this run, if so.
    static func missingInput(for metadata: RuleMetadata, in project: Project) -> String? {
        switch metadata.input {
        case .descriptor where !project.hasDescriptor:
            return "no project descriptor was given; only the catalogs were checked"
        case .catalog where project.catalogPackages.isEmpty:
            return "no bulk product XML is given (`catalogs` in the descriptor, or a metadata.xml or .itmsp on the command line)"
        case .storekit where project.storeKitFiles.isEmpty:
            return "no StoreKit configuration file is given (the scheme's, `app.storekit_configuration`, or a .storekit on the command line)"
        default:
            return nil
        }
    }

    /// Most findings of one rule listed in a report. Beyond it each finding still counts (verdicts,
    /// exit code, totals) but only a light stand-in is kept: a catalog or descriptor with a problem
    /// on every one of 90,000 items would otherwise keep about 4 KB per finding and write 1 KB of
    /// JSON for each.
    public static let maxListedFindingsPerRule = 2_000

    /// How many of each catalog check's findings a scan keeps whole when it keeps the rest
    /// compactly (``Engine/Options/keepsUnlisted``): the report that asked lists them all anyway.
    public static let wholeFindingsPerRuleWhenKept = 100

    /// `outcomes` with the findings past the listing limit replaced by one stand-in per outcome
    /// (it keeps the outcome's severity for verdicts), counted in `elided`, and one note that says
    /// how many more there are.
    ///
    /// A catalog scan's stand-in names the products of the findings it counts: each of them that
    /// a verdict is asked about (`verdictProducts`) gets an outcome of its own, so verdicts are
    /// those of the findings it stands for.
    ///
    /// `unlisted`, when given, keeps the findings past the limit (compactly) for the reports that
    /// list every finding; `reportedRules` gets the rule when a catalog scan's stand-in shows that
    /// its own store holds more.
    static func limitListing(
        _ outcomes: [Outcome], rule: RuleMetadata, elided: inout [Severity: Int], verdictProducts: Set<String> = [],
        unlisted: CompactFindings? = nil, reportedRules: inout Set<String>
    ) -> [Outcome] {
        var listed = 0
        var beyond = 0
        var result = outcomes
        var perProduct: [Outcome] = []
        for index in result.indices {
            guard case .fail(let findings) = result[index].status else { continue }
            // Stand-ins from a catalog scan (``CatalogScan``) are already past the limit.
            guard listed + findings.count > maxListedFindingsPerRule || findings.contains(where: \.isElided) else {
                listed += findings.count
                continue
            }
            var kept: [Finding] = []
            for finding in findings {
                if finding.isElided {
                    reportedRules.insert(finding.rule)
                    beyond += finding.elidedWeight
                    elided[finding.severity, default: 0] += finding.elidedWeight
                    var standIn = finding
                    standIn.elidedWeight = 1
                    standIn.elidedProducts = []
                    if !kept.contains(where: { $0.isElided && $0.severity == finding.severity }) { kept.append(standIn) }
                    var named = Set<String>()
                    for product in finding.elidedProducts where product != result[index].productID && verdictProducts.contains(product) {
                        guard named.insert(product).inserted else { continue }
                        standIn.productID = product
                        perProduct.append(Outcome(item: result[index].item, productID: product, status: .fail([standIn]), rule: result[index].rule))
                    }
                    continue
                }
                if listed < maxListedFindingsPerRule {
                    listed += 1
                    kept.append(finding)
                    continue
                }
                beyond += 1
                elided[finding.severity, default: 0] += 1
                if let unlisted, unlisted.append(finding) { reportedRules.insert(finding.rule) }
                if !kept.contains(where: { $0.isElided && $0.severity == finding.severity }) {
                    var standIn = Finding(rule: finding.rule, severity: finding.severity, checklist: finding.checklist, message: "", location: nil)
                    standIn.isElided = true
                    kept.append(standIn)
                }
            }
            result[index].status = .fail(kept)
        }
        result += perProduct
        guard beyond > 0, let item = rule.checklist else { return result }
        var note = Finding(
            rule: rule.id, severity: .note, checklist: item,
            message: "`\(rule.id)` found \(beyond) more problems like the \(listed) listed; they are counted, not listed",
            help: "fix the listed ones (usually the same mistake) and run again", location: nil)
        note.summarizesUnlisted = true
        return result + [Outcome(item: item, productID: nil, status: .passWithNotes([note]), rule: rule.id)]
    }

    /// With no product known, "every product passes" and "no product needs this" say nothing: the
    /// item asks which products exist instead. Failures and questions stand.
    static func askingForProducts(_ outcome: Outcome) -> Outcome {
        switch outcome.status {
        case .pass, .passWithNotes, .notApplicable:
            var asking = outcome
            asking.status = .unknown(
                question: "Which In-App Purchases exist for this app in App Store Connect (IDs, types, statuses, prices, territories)?",
                key: DescriptorKey.products.rawValue)
            return asking
        default:
            return outcome
        }
    }

    /// A context-only rule's findings say something worth knowing about its item without answering
    /// the item's question (``RuleMetadata/contextOnly``): they are reported under it, and the item's
    /// answer and the verdicts come from the other rules.
    static func asContext(_ outcome: Outcome) -> Outcome {
        guard case .fail(let findings) = outcome.status else { return outcome }
        var context = outcome
        context.status = .passWithNotes(findings)
        return context
    }

    /// In a project that uses no In-App Purchase (``Project/noPurchaseReason``), what a rule finds
    /// matters only once it does: its findings are notes, saying so (a secret or another
    /// context-only finding keeps its severity).
    static func asAdvice(_ outcome: Outcome, because reason: String) -> Outcome {
        guard case .fail(var findings) = outcome.status else { return outcome }
        for index in findings.indices where findings[index].severity > .note {
            findings[index].severity = .note
            findings[index].notes.append("if you add In-App Purchase, this will matter; for now it is a note: \(reason)")
        }
        // Notes only: the item is answered "yes, for now" with them, as a context-only rule's
        // are, so the checklist shows no warning the summary does not count.
        var advice = outcome
        advice.status = findings.contains { $0.severity > .note } ? .fail(findings) : .passWithNotes(findings)
        return advice
    }

    public struct Options: Sendable {
        public var configuration = Configuration()
        public var failOn: Severity? = .error
        public var inputs: [String] = []
        /// Keep the findings past the listing limit (``Diagnosis/unlisted``) for a report that lists
        /// every finding (JSON, SARIF); the others show the limit's note instead.
        public var keepsUnlisted = false
        /// What each streamed catalog's scan found, by package file (``Engine/scanCatalog(path:configuration:keepingUnlisted:)``).
        public var catalogScans: [String: CatalogScanResults] = [:]
        /// Findings the user accepted: inline directives and a baseline.
        public var suppressions = Suppressions()

        public init(configuration: Configuration = Configuration(), failOn: Severity? = .error, inputs: [String] = [], keepsUnlisted: Bool = false) {
            self.configuration = configuration
            self.failOn = failOn
            self.inputs = inputs
            self.keepsUnlisted = keepsUnlisted
        }
    }

    /// Diagnoses a loaded project. `inputProblems` are the loaders' findings; when any is an error
    /// the rules do not run (their answers would rest on a misread descriptor).
    public func diagnose(_ project: Project, inputProblems: [Finding], options: Options) -> Diagnosis {
        let (activeRules, disabled) = options.configuration.apply(to: ruleSet)
        let now = project.checkedAt?.value ?? Timestamp(secondsSince1970: Int64(time(nil)))
        var findings = inputProblems.compactMap { finding -> Finding? in
            guard let metadata = activeRules.rule(finding.rule) else { return disabled.contains(finding.rule) ? nil : finding }
            var adjusted = finding
            adjusted.severity = metadata.severity
            return adjusted
        }
        let stopped = findings.contains { $0.severity == .error } || inputProblems.contains { $0.rule == RuleID.inputMalformed.rawValue || $0.rule == RuleID.inputUnreadable.rawValue }
        var ledger = Suppressions.Ledger(options.suppressions)
        if !options.suppressions.isEmpty { findings = findings.filter { !ledger.suppresses($0) } }
        let index = ProductIndex(gathering: { RequestResolver.knownProductIDs(project) })
        let requests = RequestResolver.resolve(project, index: index)
        var outcomes: [Outcome] = []
        var elided: [Severity: Int] = [:]
        let unlisted = options.keepsUnlisted ? CompactFindings() : nil
        var reportedRules = Set<String>()
        // The products `verdicts` is asked about (see there).
        let verdictProducts = requests.isEmpty
            ? Set(project.products.compactMap { $0.productID?.value }) : Set(requests.map(\.verdictID))
        // Products known to exist where this environment looks: App Store Connect's (the
        // descriptor's, bulk XML), or in Xcode the StoreKit configuration file it serves.
        let knowsStoreProducts = !project.products.isEmpty || !project.catalogPackages.isEmpty
            || (project.effectiveEnvironment == .xcode && project.evidence.storeKit != nil)
        let noPurchase = project.noPurchaseReason
        if !stopped {
            for metadata in activeRules.rules where !Engine.inputRuleIDs.contains(metadata.id) {
                guard let item = metadata.checklist else { continue }
                // Without a snapshot the App Store Connect rules say nothing, and without a built app
                // the build's rules (not even "not applicable": the items they share are answered
                // by the other rules).
                if metadata.input == .asc && project.ascSnapshot == nil { continue }
                if metadata.input == .build && project.builtApps.isEmpty { continue }
                if let reason = Engine.missingInput(for: metadata, in: project) {
                    outcomes.append(Outcome(item: item, productID: nil, status: .notApplicable(reason: reason), rule: metadata.id))
                    continue
                }
                guard metadata.applies(in: project.effectiveEnvironment) else {
                    let reason = metadata.notApplicableReason
                        ?? "it does not matter in the \(project.effectiveEnvironment.rawValue) environment"
                    outcomes.append(Outcome(item: item, productID: nil, status: .notApplicable(reason: reason), rule: metadata.id))
                    continue
                }
                let rule: any Rule = implementations[metadata.id] ?? DeclarativeRule(id: metadata.id)
                let context = RuleContext(project: project, metadata: metadata, now: now, requests: requests, productIndex: index, catalogScans: options.catalogScans)
                var checked = rule.check(context)
                if let noPurchase, !metadata.contextOnly { checked = checked.map { Engine.asAdvice($0, because: noPurchase) } }
                var answered = Engine.limitListing(
                    checked, rule: metadata, elided: &elided, verdictProducts: verdictProducts, unlisted: unlisted,
                    reportedRules: &reportedRules)
                if metadata.contextOnly { answered = answered.map(Engine.asContext) }
                if !knowsStoreProducts, Checklist.item(item)?.aboutProducts == true {
                    outcomes += answered.map(Engine.askingForProducts)
                } else {
                    outcomes += answered
                }
            }
        }
        if !options.suppressions.isEmpty {
            outcomes = outcomes.map { ledger.filter($0) }
            if !stopped { findings += ledger.notes() }
        }
        var diagnosis = assemble(
            project: project, ruleSet: activeRules, outcomes: outcomes, inputFindings: findings, requests: requests, stopped: stopped,
            disabled: disabled, options: options, now: now, into: &findings)
        diagnosis.elidedCounts = elided
        diagnosis.suppressedCount = ledger.suppressed
        if !stopped {
            diagnosis.nextSteps = noPurchase.map { [Diagnosis.NextStep.noPurchase($0)] }
                ?? Diagnosis.nextSteps(
                    checklist: diagnosis.checklist, findings: diagnosis.findings,
                    bundleID: (project.app.bundleID ?? project.evidence.storeBundleID)?.value, hasSnapshot: project.ascSnapshot != nil)
        }
        if options.keepsUnlisted {
            diagnosis.unlisted = project.catalogPackages.compactMap { options.catalogScans[$0.file]?.unlisted } + [unlisted].compactMap { $0 }
            diagnosis.unlistedRules = reportedRules
            diagnosis.keepsUnlisted = true
        }
        return diagnosis
    }

    private func assemble(
        project: Project, ruleSet: RuleSet, outcomes: [Outcome], inputFindings: [Finding], requests: [ResolvedRequest], stopped: Bool,
        disabled: [String], options: Options, now: Timestamp, into findings: inout [Finding]
    ) -> Diagnosis {
        // Findings: deduplicated, sorted and numbered once, here. Each finding is hashed once, for
        // the number of its first copy; outcomes keep those numbers, and the sort maps them to
        // positions (hashing whole findings three times each was an eighth of a faulty check).
        var numbers: [NumberingKey: Int] = [:]
        // Reserved for every finding: growing rehashes every finding in it.
        numbers.reserveCapacity(outcomes.reduce(findings.count) { total, outcome in
            switch outcome.status {
            case .fail(let reported), .passWithNotes(let reported): return total + reported.count
            default: return total
            }
        })
        for (offset, finding) in findings.enumerated() { _ = Engine.number(&numbers[NumberingKey(finding)], next: offset) }
        var reportedBy: [[Int]] = Array(repeating: [], count: outcomes.count)
        for (index, outcome) in outcomes.enumerated() {
            switch outcome.status {
            case .fail(let reported), .passWithNotes(let reported):
                for finding in reported where !finding.isElided {
                    let (number, isNew) = Engine.number(&numbers[NumberingKey(finding)], next: findings.count)
                    if isNew { findings.append(finding) }
                    reportedBy[index].append(number)
                }
            default: break
            }
        }
        // A stable sort of the numbers: among equal findings the first copy stays first, so its
        // position is where every copy is listed.
        // Sorted on their positions first (copying a finding out of the array for each comparison
        // retained and released all its strings); only a tie compares the findings. Files become
        // their rank among the files named, so a key is three numbers.
        var fileRank: [String: Int] = [:]
        for finding in findings { fileRank[finding.location?.file ?? "", default: 0] = 0 }
        for (rank, file) in fileRank.keys.sorted().enumerated() { fileRank[file] = rank }
        let keys = findings.map { (file: fileRank[$0.location?.file ?? ""]!, line: $0.location?.line ?? 0, column: $0.location?.column ?? 0) }
        let order = findings.indices.sorted { a, b in
            let ka = keys[a], kb = keys[b]
            if ka != kb { return ka < kb }
            return Finding.reportOrder(findings[a], findings[b])
        }
        var position = [Int](repeating: 0, count: findings.count)
        for (offset, number) in order.enumerated() { position[number] = offset }
        findings = order.map { findings[$0] }

        var outcomesByItem: [String: [Int]] = [:]
        for (index, outcome) in outcomes.enumerated() { outcomesByItem[outcome.item, default: []].append(index) }
        var checklist: [Diagnosis.ChecklistEntry] = []
        for item in Checklist.items {
            let mine = outcomesByItem[item.id] ?? []
            var entry = Diagnosis.ChecklistEntry(item: item, status: .notApplicable, findings: [], questions: [], reasons: [])
            if stopped {
                entry.status = .unknown
                entry.questions = [Diagnosis.Question(question: "Fix the input errors first: the checklist was not evaluated.", key: "", productID: nil)]
                checklist.append(entry)
                continue
            }
            // Sets beside the ordered lists keep this linear when one item has thousands of answers.
            var findingIndexes = Set<Int>(), questionsAsked = Set<Diagnosis.Question>(), reasonsGiven = Set<String>()
            for outcomeIndex in mine {
                let outcome = outcomes[outcomeIndex]
                switch outcome.status {
                case .fail, .passWithNotes:
                    for number in reportedBy[outcomeIndex] {
                        let index = position[number]
                        if findingIndexes.insert(index).inserted { entry.findings.append(index) }
                    }
                case .unknown(let question, let key):
                    let asked = Diagnosis.Question(question: question, key: key, productID: outcome.productID)
                    if questionsAsked.insert(asked).inserted { entry.questions.append(asked) }
                case .notApplicable(let reason):
                    if reasonsGiven.insert(reason).inserted { entry.reasons.append(reason) }
                case .pass: break
                }
            }
            entry.findings.sort()
            if mine.contains(where: { outcomes[$0].status.failsWithError }) {
                entry.status = .fail
            } else if mine.contains(where: { outcomes[$0].status.answersNo }) {
                // A warning or a note answers the question "no" too; only its severity is lower.
                entry.status = .warn
            } else if !entry.questions.isEmpty {
                entry.status = .unknown
            } else if mine.contains(where: {
                switch outcomes[$0].status {
                case .pass, .passWithNotes, .fail: return true
                default: return false
                }
            }) {
                entry.status = .pass
                entry.reasons = []
            } else {
                entry.status = .notApplicable
                if entry.reasons.isEmpty { entry.reasons = ["no enabled rule checks it"] }
            }
            checklist.append(entry)
        }

        var products = stopped ? [] : verdicts(project: project, outcomes: outcomes, requests: requests)
        for index in products.indices {
            let id = products[index].productID
            guard let first = products[index].unknown.first, let entry = checklist.first(where: { $0.item.id == first }) else { continue }
            products[index].openQuestion = entry.questions.first { $0.productID == nil || $0.productID == id }
        }
        return Diagnosis(
            environment: project.effectiveEnvironment, environmentStated: project.environment != nil,
            checkedAt: project.hasDescriptor ? now : nil, hasDescriptor: project.hasDescriptor,
            inputs: options.inputs.isEmpty ? [project.descriptorFile] : options.inputs,
            appName: project.app.name ?? project.evidence.appName,
            bundleID: project.app.bundleID ?? project.evidence.runningBundleID,
            platform: project.app.platform ?? project.evidence.platform,
            checklist: checklist, products: products, findings: findings, failOn: options.failOn, ruleSet: ruleSet,
            defaultRuleSet: self.ruleSet,
            disabledRules: disabled.sorted(), configurationFile: options.configuration.file,
            hasInputErrors: stopped || findings.contains { Engine.inputRuleIDs.contains($0.rule) && $0.severity == .error },
            evaluated: !stopped, parsedFiles: project.parsedFiles)
    }

    /// A finding as a key of the numbering table: equal when the findings are, hashed on what
    /// tells findings apart cheaply (rule, place, product), not on every text and note.
    private struct NumberingKey: Hashable {
        let finding: Finding
        init(_ finding: Finding) { self.finding = finding }
        static func == (a: NumberingKey, b: NumberingKey) -> Bool { a.finding == b.finding }
        func hash(into hasher: inout Hasher) {
            hasher.combine(finding.rule)
            hasher.combine(finding.location)
            hasher.combine(finding.productID)
            hasher.combine(finding.message.utf8.count)
        }
    }

    /// The number in `slot` (one hash lookup), or `next` stored there when it holds none.
    private static func number(_ slot: inout Int?, next: Int) -> (number: Int, isNew: Bool) {
        if let number = slot { return (number, false) }
        slot = next
        return (next, true)
    }

    /// A verdict for each requested product (or, when no request is known, each product).
    private func verdicts(project: Project, outcomes: [Outcome], requests: [ResolvedRequest]) -> [Diagnosis.ProductVerdict] {
        var order: [String] = []
        var requestedAs: [String: [String]] = [:]
        if requests.isEmpty {
            for product in project.products {
                guard let id = product.productID?.value, requestedAs[id] == nil else { continue }
                order.append(id)
                requestedAs[id] = []
            }
        } else {
            for request in requests {
                let id = request.verdictID
                if requestedAs[id] == nil {
                    order.append(id)
                    requestedAs[id] = []
                }
                if !requestedAs[id]!.contains(request.request.value) { requestedAs[id]!.append(request.request.value) }
            }
        }
        // Each item's outcomes, split into those about every product and those about one.
        struct Answers {
            var fails = false, risks = false, unknown = false
            mutating func add(_ other: Answers) {
                fails = fails || other.fails
                risks = risks || other.risks
                unknown = unknown || other.unknown
            }
        }
        var general: [String: Answers] = [:]
        var perProduct: [String: [String: Answers]] = [:]
        for outcome in outcomes {
            let answer: Answers
            switch outcome.status {
            // An error makes a product invalid and a warning puts it at risk; a note answers its
            // item "no" (`warn`) without saying the product may not load.
            case .fail(let findings):
                if outcome.status.failsWithError {
                    answer = Answers(fails: true)
                } else if findings.contains(where: { $0.severity == .warning }) {
                    answer = Answers(risks: true)
                } else {
                    continue
                }
            case .unknown: answer = Answers(unknown: true)
            default: continue
            }
            if let productID = outcome.productID {
                perProduct[outcome.item, default: [:]][productID, default: Answers()].add(answer)
            } else {
                general[outcome.item, default: Answers()].add(answer)
            }
        }
        var productsByID: [String: Product] = [:]
        for product in project.products {
            if let id = product.productID?.value, productsByID[id] == nil { productsByID[id] = product }
        }
        let items = Checklist.items.filter { !$0.isAdvice }
        return order.map { id in
            var failing: [String] = [], atRisk: [String] = [], unknown: [String] = []
            for item in items {
                var answers = general[item.id] ?? Answers()
                if let own = perProduct[item.id]?[id] { answers.add(own) }
                if answers.fails {
                    failing.append(item.id)
                } else if answers.risks {
                    atRisk.append(item.id)
                } else if answers.unknown {
                    unknown.append(item.id)
                }
            }
            let verdict: Diagnosis.Verdict =
                !failing.isEmpty ? .invalid : !atRisk.isEmpty ? .atRisk : !unknown.isEmpty ? .unknown : .valid
            return Diagnosis.ProductVerdict(
                productID: id, requestedAs: requestedAs[id] ?? [], verdict: verdict, failing: failing, atRisk: atRisk,
                unknown: unknown, product: productsByID[id])
        }
    }
}
