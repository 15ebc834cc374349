import IAPDoctor

/// Reference names are unique in an app.
struct CatalogDuplicateReferenceNameRule: Rule {
    let id = "catalog-duplicate-reference-name"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            var first: [String: Fact<String>] = [:]
            for item in package.items {
                guard let name = item.referenceName, !name.value.isEmpty else { continue }
                if let earlier = first[name.value] {
                    findings.append(context.finding(
                        "reference name `\(name.value)` of `\(item.name)` is already used in the package",
                        at: name.location, help: "give each in-app purchase its own reference name",
                        notes: ["first used at \(earlier.location)"], product: item.productID?.value))
                } else {
                    first[name.value] = name
                }
            }
        }
        return context.outcomes(findings)
    }
}
