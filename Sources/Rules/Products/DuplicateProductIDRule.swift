import IAPDoctor

/// Product IDs are unique within an app.
struct DuplicateProductIDRule: Rule {
    let id = "duplicate-product-id"

    func check(_ context: RuleContext) -> [Outcome] {
        var first: [String: Fact<String>] = [:]
        var findings: [Finding] = []
        for product in context.project.products {
            guard let id = product.productID else { continue }
            if let earlier = first[id.value] {
                findings.append(context.finding(
                    "product ID `\(id.value)` is listed twice; product IDs are unique within an app",
                    at: id.location,
                    help: "remove this entry or give it a new, never-used product ID",
                    notes: ["first listed at \(earlier.location)"], product: id.value))
            } else {
                first[id.value] = id
            }
        }
        return context.outcomes(findings)
    }
}
