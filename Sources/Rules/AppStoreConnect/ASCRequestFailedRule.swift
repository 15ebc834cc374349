import Formats
import Model
import Loaders
import RuleEngine

/// A request the snapshot's maker could not complete leaves its facts unknown, never passed or
/// failed: each is reported where the snapshot lists it, with what it leaves open and which key
/// role can read it. (A lapsed agreement is the answer itself: `asc-agreement-lapsed`.)
struct ASCRequestFailedRule: Rule {
    let id = RuleID.ascRequestFailed.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot else { return [] }
        var outcomes: [Outcome] = []
        for failed in facts.snapshot.unavailable where !failed.isAgreementLapse {
            let area = ASCRequestArea(request: failed.request)
            var finding = context.finding(
                "App Store Connect did not answer \(failed.shownRequest) (\(failed.summary)), so \(area.whatItLeavesOpen) is unknown",
                at: failed.location,
                help: area.help(status: failed.status, snapshot: failed.location.file),
                notes: ["facts behind a failed request are neither passed nor failed; the descriptor's typed values are used where there are some"])
            finding.checklist = area.item
            outcomes.append(context.passWithNotes([finding], item: area.item))
            // Typed facts answer what the request would have; otherwise the item stays open.
            guard !area.isAnswered(in: context.project) else { continue }
            outcomes.append(context.unknown(
                "\(area.question) (App Store Connect did not answer \(failed.shownRequest): \(failed.summary))",
                key: area.key, item: area.item))
        }
        return outcomes
    }
}

/// What a request path reads, for messages: which facts, which checklist item, which role.
struct ASCRequestArea {
    var whatItLeavesOpen: String
    var question: String
    var item: String
    var role: String

    /// The descriptor key that can state the fact instead.
    var key: DescriptorKeyPath {
        switch item {
        case ChecklistID.appIdIapEnabled.rawValue: return DescriptorKeyPath(.appIDInAppPurchase)
        case ChecklistID.provisioningProfile.rawValue: return DescriptorKeyPath(.signingProfile)
        case ChecklistID.sandboxAccount.rawValue: return DescriptorKeyPath(.testingSandboxAccount)
        case ChecklistID.bundleIdMatches.rawValue: return DescriptorKeyPath(.appStoreConnectAppRecord)
        case ChecklistID.clearedForSale.rawValue: return DescriptorKeyPath(ProductKey.clearedForSale, in: "products[]")
        case ChecklistID.productMetadata.rawValue: return DescriptorKeyPath(ProductKey.localizations, in: "products[]")
        default: return DescriptorKeyPath(.products)
        }
    }

    init(request: String) {
        let path = request.split(separator: " ").last.map(String.init) ?? request
        if path.hasPrefix("/v1/bundleIds") || path.hasPrefix("/v1/bundleIdCapabilities") {
            self.init("the App ID and its In-App Purchase capability", "Is the App ID explicit, with In-App Purchase enabled?", ChecklistID.appIdIapEnabled.rawValue,
                      "Admin, or Developer with access to Certificates, Identifiers & Profiles")
        } else if path.hasPrefix("/v1/profiles") {
            self.init("the provisioning profile's state", "Is the build's provisioning profile current and made for this App ID?", ChecklistID.provisioningProfile.rawValue,
                      "Admin, or Developer with access to Certificates, Identifiers & Profiles")
        } else if path.contains("sandboxTesters") {
            self.init("the sandbox testers", "Is there a sandbox test account from this team?", ChecklistID.sandboxAccount.rawValue, "Admin or App Manager")
        } else if path.hasPrefix("/v1/apps?") || path == "/v1/apps" {
            self.init("the app record and its products", "Is there an App Store Connect app record for the bundle ID?", ChecklistID.bundleIdMatches.rawValue,
                      "App Manager, Admin, Developer, Marketing or Finance")
        } else if path.contains("subscriptionGroup") || path.contains("/subscriptions") || path.hasPrefix("/v1/subscription") {
            self.init("the subscriptions and their groups", "Which subscriptions exist, in which groups, with which metadata?", ChecklistID.productExists.rawValue, "App Manager or Admin")
        } else if path.contains("vailabilit") || path.contains("Territories") {
            self.init("where the product is sold", "In which territories is the product available?", ChecklistID.clearedForSale.rawValue, "App Manager or Admin")
        } else if path.contains("rice") {
            self.init("the product's price", "Does the product have a price?", ChecklistID.productMetadata.rawValue, "App Manager or Admin")
        } else if path.contains("ocalization") || path.contains("Screenshot") || path.contains("/versions") {
            self.init("the product's metadata", "Does the product have its localizations and review screenshot?", ChecklistID.productMetadata.rawValue, "App Manager or Admin")
        } else {
            self.init("the In-App Purchases", "Which In-App Purchases exist for this app, with which states?", ChecklistID.productExists.rawValue, "App Manager or Admin")
        }
    }

    /// Whether other facts (typed, or from the rest of the snapshot) answer what the request reads.
    func isAnswered(in project: Project) -> Bool {
        switch item {
        case ChecklistID.appIdIapEnabled.rawValue: return project.appID.inAppPurchase != nil
        case ChecklistID.provisioningProfile.rawValue: return project.signing.profile.expiresAt != nil || project.evidence.profile != nil
        case ChecklistID.sandboxAccount.rawValue: return project.testing.sandboxAccount.email != nil
        case ChecklistID.bundleIdMatches.rawValue: return project.appStoreConnect.appRecord != nil
        case ChecklistID.clearedForSale.rawValue: return !project.products.isEmpty && project.products.allSatisfy { $0.clearedForSale != nil }
        case ChecklistID.productMetadata.rawValue: return !project.products.isEmpty && project.products.allSatisfy { $0.price != nil || $0.priceTier != nil }
        default: return !project.products.isEmpty
        }
    }

    private init(_ what: String, _ question: String, _ item: String, _ role: String) {
        whatItLeavesOpen = what
        self.question = question
        self.item = item
        self.role = role
    }

    func help(status: Int?, snapshot: String) -> String {
        switch status {
        case nil:
            let shown = Paths.displayPath(snapshot)
            let stem = shown.hasSuffix(".json") ? String(shown.dropLast(5)) : shown
            return "continue the pull where it stopped, an hour later or with another key: `iapdoctor asc pull --resume \(shown) -o \(stem)-resumed.json` asks only for what this snapshot lacks"
        case 401:
            return "the key was refused: make an App Store Connect API key (Users and Access → Integrations → App Store Connect API; an In-App Purchase key is a different kind) and pull again"
        case 403:
            return "pull again with a key whose role can read it (\(role)), or state the facts in the descriptor"
        case 404:
            return "check the bundle ID and the key's team, then pull again"
        default:
            return "pull again (`iapdoctor asc pull`) once App Store Connect answers, or state the facts in the descriptor"
        }
    }
}
