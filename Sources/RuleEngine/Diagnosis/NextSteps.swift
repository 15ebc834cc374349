import Formats
import Model
import Loaders

/// Where the answer to an open question lives. Most of a first run's questions share a few places
/// (App Store Connect's API answers a dozen items at once), so the report says the one action per
/// place before the questions themselves.
public enum AnswerSource: String, Sendable, CaseIterable {
    /// Not a place but the findings themselves: an item that fails is fixed before any question
    /// is worth answering.
    case findings
    /// What `iapdoctor asc pull` reads: the app record, the App ID, the products and their groups.
    case ascPull = "asc_pull"
    /// App Store Connect pages the API does not expose to the pull (the app's versions).
    case appStoreConnect = "app_store_connect"
    /// App Store Connect → Business: the Paid Apps Agreement, banking, tax.
    case business
    /// The developer account on developer.apple.com: membership, license, team, the App ID's history.
    case developerAccount = "developer_account"
    /// The device and sandbox account the test runs with.
    case testDevice = "test_device"
    /// The project's own files: the Xcode project, Info.plist, entitlements, profiles, sources.
    case project
    /// Only the descriptor itself (the environment, a question with no key).
    case descriptor

    /// The place, as the sentence "… answers items 1, 2" starts.
    public var place: String {
        switch self {
        case .findings: return "The failing items"
        case .ascPull: return "App Store Connect"
        case .appStoreConnect: return "App Store Connect (your app's versions)"
        case .business: return "App Store Connect → Business"
        case .developerAccount: return "Your Apple Developer account"
        case .testDevice: return "Your test device and sandbox account"
        case .project: return "Your project's files"
        case .descriptor: return "The descriptor"
        }
    }

    /// Descriptor key prefixes and where their answers live; the longest matching prefix wins.
    static let prefixes: [(prefix: String, source: AnswerSource)] = [
        (DescriptorKey.products.rawValue, .ascPull),
        (DescriptorKey.subscriptionGroups.rawValue, .ascPull),
        (DescriptorKey.appStoreConnectAppRecord.rawValue, .ascPull),
        (DescriptorKey.appStoreConnectSnapshot.rawValue, .ascPull),
        (DescriptorKey.appIDIdentifier.rawValue, .ascPull),
        (DescriptorKey.appIDInAppPurchase.rawValue, .ascPull),
        (DescriptorKey.appBundleID.rawValue, .ascPull),
        (DescriptorKey.appStoreConnect.rawValue, .appStoreConnect),
        (DescriptorKey.developerAccountAgreements.rawValue, .business),
        (DescriptorKey.developerAccountBanking.rawValue, .business),
        (DescriptorKey.developerAccountTax.rawValue, .business),
        (DescriptorKey.developerAccount.rawValue, .developerAccount),
        (DescriptorKey.appIDInAppPurchaseEnabledAt.rawValue, .developerAccount),
        (DescriptorKey.appID.rawValue, .developerAccount),
        (DescriptorKey.testing.rawValue, .testDevice),
        (DescriptorKey.app.rawValue, .project),
        (DescriptorKey.signing.rawValue, .project),
        (DescriptorKey.requests.rawValue, .project),
        (DescriptorKey.catalogs.rawValue, .project),
    ]

    /// `key` without an index and what follows it: `products[2].updated_at` is `products`.
    static func listPath(of key: String) -> String {
        key.split(separator: "[", maxSplits: 1).first.map(String.init) ?? key
    }

    /// Where the answer to a question set at `key` lives (`products[2].updated_at` is a product's).
    public static func of(key: String) -> AnswerSource {
        let path = listPath(of: key)
        var best: (length: Int, source: AnswerSource)?
        for (prefix, source) in prefixes where path == prefix || path.hasPrefix(prefix + ".") {
            if prefix.count > best?.length ?? -1 { best = (prefix.count, source) }
        }
        return best?.source ?? .descriptor
    }
}

extension Diagnosis {
    /// One place and what it answers: "App Store Connect answers items 1, 2, 4: run …".
    public struct NextStep: Sendable {
        public var source: AnswerSource
        /// The items it answers, in checklist order.
        public var items: [ChecklistItem]
        /// The descriptor keys its answers go to, in the order first asked.
        public var keys: [String]
        /// Its questions, in the order first asked.
        public var questions: [Question]
        /// What to do, with `code` spans.
        public var action: String

        /// Adds `question` of `item`: the item once in a row, the key and the question once each
        /// (whichever product asked it); `asked` and `listed` are what the step holds already.
        mutating func record(_ question: Question, of item: ChecklistItem, key: String, asked: inout Set<String>, listed: inout Set<String>) {
            if items.last?.id != item.id { items.append(item) }
            if !key.isEmpty, listed.insert(key).inserted { keys.append(key) }
            if asked.insert(question.key + "\u{0}" + question.question).inserted { questions.append(question) }
        }

        /// "App Store Connect answers items 1, 2, 4, 9, 13–17: run …"; "Fix item 8 first: …".
        public var sentence: String {
            if source == .findings { return "Fix \(Self.itemList(items.map(\.number))) first: \(action)" }
            return "\(source.place) \(source == .testDevice || source == .project ? "answer" : "answers") \(Self.itemList(items.map(\.number))): \(action)"
        }

        /// The one step of a project that uses no In-App Purchase (``Project/noPurchaseReason``): the
        /// rest of the checklist waits until it does.
        static func noPurchase(_ reason: String) -> NextStep {
            let item = Checklist.item(ChecklistID.fullProductId.rawValue)!
            return NextStep(
                source: .project, items: [item], keys: [DescriptorKey.appSources.rawValue, DescriptorKey.requests.rawValue], questions: [],
                action: "\(reason). If the store code lives elsewhere (a package, another folder), add it to `app.sources` or list the requested IDs under `requests`; until the app sells something, the other questions can wait")
        }

        /// "item 10", "items 1, 2, 4, 13–17": runs of three or more numbers as a range.
        public static func itemList(_ numbers: [Int]) -> String {
            var parts: [String] = []
            var index = 0
            while index < numbers.count {
                var end = index
                while end + 1 < numbers.count, numbers[end + 1] == numbers[end] + 1 { end += 1 }
                if end - index >= 2 {
                    parts.append("\(numbers[index])–\(numbers[end])")
                } else {
                    parts += numbers[index...end].map(String.init)
                }
                index = end + 1
            }
            return (numbers.count == 1 ? "item " : "items ") + parts.joined(separator: ", ")
        }
    }

    /// The failing items first, with the first error's fix; then the open questions of
    /// `checklist` grouped by where their answers live, the place that answers most items first
    /// and the test device's last.
    /// `bundleID` (the archived configuration's) goes into the pull's command; without it the
    /// project's step, which asks for it, comes before App Store Connect's, and no command is
    /// printed with a placeholder. `hasSnapshot` says a snapshot was given (what it leaves open
    /// needs another pull, or the keys).
    static func nextSteps(checklist: [ChecklistEntry], findings: [Finding], bundleID: String?, hasSnapshot: Bool) -> [NextStep] {
        var steps: [AnswerSource: NextStep] = [:]
        // What each step already asks and lists: looked up, not searched (a snapshot of 6,000
        // failed requests asks 6,000 questions).
        var asked: [AnswerSource: Set<String>] = [:]
        var listed: [AnswerSource: Set<String>] = [:]
        for entry in checklist {
            for question in entry.questions {
                let source = question.key.isEmpty ? AnswerSource.descriptor : AnswerSource.of(key: question.key)
                // Changed in place: a copy taken out of the dictionary would be copied again on append.
                steps[source, default: NextStep(source: source, items: [], keys: [], questions: [], action: "")].record(
                    question, of: entry.item, key: AnswerSource.listPath(of: question.key),
                    asked: &asked[source, default: []], listed: &listed[source, default: []])
            }
        }
        var ordered = AnswerSource.allCases.compactMap { steps[$0] }
        for index in ordered.indices { ordered[index].action = action(for: ordered[index], bundleID: bundleID, hasSnapshot: hasSnapshot) }
        // The place that answers most items first; the device's questions last, as they matter only
        // once the products and their setup are known. Stable: among places that answer as many
        // items, the order of ``AnswerSource``.
        ordered = ordered.enumerated().sorted {
            ($0.element.source == .testDevice ? 0 : 1, $0.element.items.count, $1.offset)
                > ($1.element.source == .testDevice ? 0 : 1, $1.element.items.count, $0.offset)
        }.map(\.element)
        // The project's step leads App Store Connect's when it decides what to pull: the app
        // target (whose bundle ID the pull needs), or the product IDs the code requests (without
        // them no product can be judged).
        let decidesThePull: Set<String> = [DescriptorKey.appTarget.rawValue, DescriptorKey.appXcodeproj.rawValue, DescriptorKey.appScheme.rawValue]
        if let own = ordered.firstIndex(where: { $0.source == .project }) {
            let keys = Set(ordered[own].keys)
            let asksTarget = bundleID == nil && !keys.isDisjoint(with: decidesThePull)
            // Without a bundle ID, App Store Connect's step asks for it first.
            let asksRequests = bundleID != nil && keys.contains(DescriptorKey.requests.rawValue)
            if asksTarget || asksRequests, let pull = ordered.firstIndex(where: { $0.source == .ascPull }), own > pull {
                ordered.insert(ordered.remove(at: own), at: pull)
            }
        }
        if let fix = fixStep(checklist: checklist, findings: findings) { ordered.insert(fix, at: 0) }
        return ordered
    }

    /// The failing items, led by the first error of the first of them: its message, where, and
    /// its help.
    static func fixStep(checklist: [ChecklistEntry], findings: [Finding]) -> NextStep? {
        let failing = checklist.filter { $0.status == .fail }
        guard let first = failing.first else { return nil }
        let numbered = first.findings.first { $0 < findings.count && findings[$0].severity == .error } ?? first.findings.first
        var action = "see the findings below"
        if let numbered, numbered < findings.count {
            let finding = findings[numbered]
            action = "[\(numbered + 1)] \(finding.message)"
            if let location = finding.location, location.line > 0 { action += " (\(location))" }
            if let help = finding.help { action += "; \(help)" }
        }
        return NextStep(source: .findings, items: failing.map(\.item), keys: [], questions: [], action: action)
    }

    private static func action(for step: NextStep, bundleID: String?, hasSnapshot: Bool) -> String {
        let keys = step.keys.map { "`\($0)`" }.joined(separator: ", ")
        let set = keys.isEmpty ? "" : "set \(keys)"
        switch step.source {
        case .findings:
            return step.action
        case .ascPull:
            guard let bundleID else {
                // No command with a placeholder: `--asc-pull` takes the bundle ID from the descriptor.
                return "set `app.bundle_id` to the bundle ID the app is archived with (App Store Connect shows it under the app's General → App Information), then run `iapdoctor check --asc-pull` with an App Store Connect API key (App Manager role)"
            }
            let pull = "`iapdoctor asc pull --bundle-id \(bundleID) -o asc-snapshot.json`"
            if hasSnapshot {
                return "the snapshot does not say; pull it again with a key that can read them (\(pull)), or \(set)"
            }
            return "run \(pull) with an App Store Connect API key (App Manager role), then set `app_store_connect.snapshot: asc-snapshot.json` (or check with `--asc-pull`)"
        case .appStoreConnect:
            return "look at the app's versions in App Store Connect, then \(set)"
        case .business:
            return "the Account Holder sees their state there; \(set)"
        case .developerAccount:
            return "see developer.apple.com → Account (Membership, Agreements, Identifiers); \(set)"
        case .testDevice:
            let account = step.keys.contains { $0.hasPrefix(DescriptorKey.testingSandboxAccount.rawValue) }
            return "\(set) for the device\(account ? " and the sandbox account" : "") you test with"
        // Only the project's files and the user know these; their questions are specific
        // ("which target is the app?", with the candidates), so they are asked here in full.
        case .project, .descriptor:
            // What the code requests first: every product item depends on it.
            var ordered = step
            let requests = ordered.questions.filter { $0.key == DescriptorKey.requests.rawValue }
            ordered.questions = requests + ordered.questions.filter { $0.key != DescriptorKey.requests.rawValue }
            return collapsingProfileQuestions(ordered).joined(separator: " ")
        }
    }

    /// The profile's facts are asked one by one (its App ID, type, dates, whether it is installed);
    /// one file answers them all, so two or more become that one step.
    private static func collapsingProfileQuestions(_ step: NextStep) -> [String] {
        let isAboutProfile = { (question: Question) in question.key.hasPrefix(DescriptorKey.signingProfile.rawValue + ".") }
        let asked = step.questions.map(\.sentence)
        guard step.questions.filter(isAboutProfile).count > 1 else { return asked }
        let keys = step.keys.filter { $0.hasPrefix(DescriptorKey.signingProfile.rawValue + ".") }.map { "`\($0)`" }
        var questions = step.questions.filter { !isAboutProfile($0) }.map(\.sentence)
        // Where the first of them was: after the questions asked before it.
        let position = step.questions.prefix { !isAboutProfile($0) }.count
        // What a question says after asking (where a copy of the profile is) is kept.
        let context = step.questions.filter(isAboutProfile).compactMap { question -> String? in
            guard let mark = question.question.range(of: "? ") else { return nil }
            return String(question.question[mark.upperBound...])
        }
        questions.insert(
            (["Which provisioning profile signs the failing build? Set `\(DescriptorKey.signingProfileFile.rawValue)` to its .mobileprovision (or give `--profiles-dir`): it answers \(keys.joined(separator: ", "))."]
                + context).joined(separator: " "),
            at: position)
        return questions
    }
}
