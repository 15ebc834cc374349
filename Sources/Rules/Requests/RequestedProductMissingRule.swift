import IAPDoctor

/// A requested ID that matches no known product, not even approximately.
struct RequestedProductMissingRule: Rule {
    let id = "requested-product-missing"

    func check(_ context: RuleContext) -> [Outcome] {
        guard let requests = context.knownRequests else {
            return [context.unknown(
                "Which product IDs does the app pass to StoreKit, exactly as the code writes them?", key: "requests")]
        }
        guard !context.productIndex.ids.isEmpty else {
            return [context.unknown(
                "Which In-App Purchases exist for this app in App Store Connect (product IDs, types, statuses)?",
                key: "products")]
        }
        return requests.compactMap { request -> Outcome? in
            switch request.match {
            case .missing:
                return context.fail(context.finding(
                    "no product has the ID `\(request.request.value)`: it is not among the \(context.productIndex.ids.count) known products",
                    at: request.request.location,
                    help: "create `\(request.request.value)` under In-App Purchases for this app in App Store Connect and add it to `products`, or request an existing product ID",
                    notes: ["product IDs belong to one app: a product of another app (or of the iOS record when this is the macOS one) is invalid here"],
                    product: request.request.value))
            case .bundleID:
                // One cause, one finding: `bundle-id-as-product-id` reports it.
                return nil
            default:
                return context.pass(product: request.verdictID)
            }
        }
    }
}
