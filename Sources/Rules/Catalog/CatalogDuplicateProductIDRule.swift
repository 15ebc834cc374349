import IAPDoctor

/// Product IDs are unique in an app, so also in a package.
struct CatalogDuplicateProductIDRule: Rule {
    let id = "catalog-duplicate-product-id"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            var first: [String: Fact<String>] = [:]
            for item in package.items {
                guard let id = item.productID else { continue }
                if let earlier = first[id.value] {
                    findings.append(context.finding(
                        "product ID `\(id.value)` appears twice in the package",
                        at: id.location, help: "remove one of the two `<in_app_purchase>` entries, or give this one a new product ID",
                        notes: ["first used at \(earlier.location)"], product: id.value))
                } else {
                    first[id.value] = id
                }
            }
        }
        return context.outcomes(findings)
    }
}
