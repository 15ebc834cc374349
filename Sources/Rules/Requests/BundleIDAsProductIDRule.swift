import Formats
import Model
import Loaders
import RuleEngine

/// The bundle ID is not a product ID.
struct BundleIDAsProductIDRule: Rule {
    let id = RuleID.bundleIdAsProductId.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let requests = context.knownRequests else { return [] }
        return requests.map { request in
            guard case .bundleID(let candidates) = request.match else { return context.pass(product: request.verdictID) }
            let help = candidates.isEmpty
                ? "request the product's own ID (as listed under In-App Purchases in App Store Connect), not the bundle ID"
                : "request a product ID such as \(Array(candidates.prefix(3)).quotedList) instead of the bundle ID"
            return context.fail(context.finding(
                "`\(request.request.value)` is the app's bundle ID, not a product ID",
                at: request.request.location, help: help, product: request.verdictID))
        }
    }
}
