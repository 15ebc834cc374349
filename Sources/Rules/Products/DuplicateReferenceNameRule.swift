import IAPDoctor

/// Reference names are unique within an app.
struct DuplicateReferenceNameRule: Rule {
    let id = "duplicate-reference-name"

    func check(_ context: RuleContext) -> [Outcome] {
        var first: [String: Fact<String>] = [:]
        var findings: [Finding] = []
        for product in context.project.products {
            guard let name = product.referenceName else { continue }
            if let earlier = first[name.value] {
                findings.append(context.finding(
                    "reference name `\(name.value)` of `\(product.name)` is already used by another product; reference names are unique within an app",
                    at: name.location, help: "give `\(product.name)` a distinct reference name",
                    notes: ["first used at \(earlier.location)"], product: product.productID?.value))
            } else {
                first[name.value] = name
            }
        }
        return context.outcomes(findings)
    }
}
