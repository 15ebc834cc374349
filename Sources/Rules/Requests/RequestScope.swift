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
            return "Which product IDs do the app's RevenueCat offerings hold (RevenueCat dashboard → Product catalog)? They are what StoreKit is asked for"
        }
        return "Which product IDs does the app pass to StoreKit, exactly as the code writes them?"
    }

    /// Where a request is written, for a "requested at" note.
    func requestPlace(_ request: ResolvedRequest) -> String {
        request.request.location.line > 0 ? "requested at \(request.request.location)" : "requested in \(request.request.location.file)"
    }
}
