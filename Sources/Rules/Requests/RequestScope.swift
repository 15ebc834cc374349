import Formats
import Model
import Loaders
import RuleEngine

extension RuleContext {
    /// `nil` when no requested ID is known (then `unknownRequests` says what to ask).
    var knownRequests: [ResolvedRequest]? { requests.isEmpty ? nil : requests }

    func unknownRequests() -> Outcome {
        unknown(
            "Which product IDs does the app pass to StoreKit, exactly as the code writes them?",
            key: .requests)
    }

    /// Where a request is written, for a "requested at" note.
    func requestPlace(_ request: ResolvedRequest) -> String {
        request.request.location.line > 0 ? "requested at \(request.request.location)" : "requested in \(request.request.location.file)"
    }
}
