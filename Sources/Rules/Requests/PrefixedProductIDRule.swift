import Formats
import Model
import Loaders
import RuleEngine

/// The bundle ID put in front of a real product ID: StoreKit matches IDs exactly and adds
/// nothing, so `com.acme.app.coins100` does not find `coins100`. The fix is to drop the prefix,
/// not to create a product under the longer ID.
struct PrefixedProductIDRule: Rule {
    let id = RuleID.bundleIdPrefixedProductId.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let requests = context.knownRequests else { return [] }
        return requests.map { request in
            guard case .prefixed(let real, let bundleID) = request.match else { return context.pass(product: request.verdictID) }
            return context.fail(context.finding(
                "`\(request.request.value)` is the bundle ID `\(bundleID)` and `.` before the product ID `\(real)`; did you mean `\(real)`?",
                at: request.request.location,
                help: context.requestHelp(request, to: real, "request `\(real)`: StoreKit matches the product ID exactly and does not add or expect the bundle ID"),
                notes: ["the product `\(real)` exists; no product has the longer ID, so creating one is not the fix"],
                product: real).fixed(by: context.literalFix(request, to: real)))
        }
    }
}
