import IAPDoctor

/// A product ID appears once per StoreKit configuration file (products, non-renewing
/// subscriptions and every group's subscriptions together).
struct StoreKitDuplicateProductIDRule: Rule {
    let id = "storekit-duplicate-product-id"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for configuration in context.project.storeKitCatalogs {
            var first: [String: Fact<String>] = [:]
            for product in configuration.products {
                guard let id = product.productID else { continue }
                if let earlier = first[id.value] {
                    findings.append(context.finding(
                        "product ID `\(id.value)` appears twice in the StoreKit configuration",
                        at: id.location, help: "remove one of the two products, or give this one its own product ID",
                        notes: ["first used at \(earlier.location)"], product: id.value))
                } else {
                    first[id.value] = id
                }
            }
        }
        return context.outcomes(findings)
    }
}
