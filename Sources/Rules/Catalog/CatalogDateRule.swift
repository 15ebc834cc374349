import IAPDoctor

/// Dates in a package are calendar dates written `YYYY-MM-DD`.
struct CatalogDateRule: Rule {
    let id = "catalog-date"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            for item in package.items {
                item.node.forEachDescendant { node in
                    guard node.name == "start_date" || node.name == "end_date" else { return }
                    let text = node.text
                    if text.count == 10, Timestamp(iso8601: text) != nil { return }
                    findings.append(context.finding(
                        "`<\(node.name)>` of `\(item.name)` is `\(text)`; expected a date written `YYYY-MM-DD`",
                        at: package.location(of: node), help: "write the date as year-month-day, e.g. `2026-11-22`",
                        product: item.productID?.value))
                }
            }
        }
        return context.outcomes(findings)
    }
}
