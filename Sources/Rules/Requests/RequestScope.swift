import Formats
import Model
import Loaders
import RuleEngine

extension RuleContext {
    /// `nil` when no requested ID is known (then `unknownRequests` says what to ask).
    var knownRequests: [ResolvedRequest]? { requests.isEmpty ? nil : requests }

    func unknownRequests() -> Outcome {
        unknown(Self.requestsQuestion(project), key: .requests)
    }

    /// What to ask when no requested ID is known: an app that fetches RevenueCat offerings, and
    /// names no ID in code, shows the products its offerings hold.
    static func requestsQuestion(_ project: Project) -> String {
        let unresolved = project.evidence.sources.unresolved
        if !unresolved.isEmpty, unresolved.allSatisfy({ $0.kind == .offerings }) {
            return "Which product IDs do the app's RevenueCat offerings hold? They are what StoreKit is asked for (`iapdoctor revenuecat pull -o revenuecat-snapshot.json` reads them into a snapshot for `check --revenuecat`)"
        }
        return "Which product IDs does the app pass to StoreKit, exactly as the code writes them?"
    }

    /// The help that corrects a requested ID: `help` for an ID the app's files write; for one from
    /// a RevenueCat offering, the edit in RevenueCat, where the ID is set.
    func requestHelp(_ request: ResolvedRequest, to real: String, _ help: String) -> String {
        guard request.request.source == .revenueCat else { return help }
        return "in RevenueCat, set the App Store product's store identifier to `\(real)`, exactly as App Store Connect has it (Product catalog → Products; a product's identifier cannot be edited, so create it anew and attach it to the package)"
    }

    /// Where a request is written, for a "requested at" note.
    func requestPlace(_ request: ResolvedRequest) -> String {
        request.request.location.line > 0 ? "requested at \(request.request.location)" : "requested in \(request.request.location.file)"
    }
}
