import IAPDoctor
import XMLReader

/// Every element below `in_app_purchases` must be one the spec knows in that place.
struct CatalogUnknownElementRule: Rule {
    let id = "catalog-unknown-element"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            guard let purchases = package.inAppPurchases else { continue }
            // Iterative walk: (node, its parent's name).
            var stack: [XMLNode] = [purchases]
            while let node = stack.popLast() {
                guard let allowed = CatalogSchema.children[node.name] else { continue }
                for child in node.children.reversed() {
                    if allowed.contains(child.name) {
                        stack.append(child)
                        continue
                    }
                    // `family` / `subscription_group` in the wrong version is its own rule.
                    if node.name == "in_app_purchases", child.name == "family" || child.name == "subscription_group" { continue }
                    let choices = allowed.sorted()
                    var help = "remove it, or use one of \(choices.map { "`\($0)`" }.joined(separator: ", "))"
                    if let suggestion = closestMatch(to: child.name, in: choices) { help = "did you mean `<\(suggestion)>`?" }
                    findings.append(context.finding(
                        "element `<\(child.name)>` is not allowed in `<\(node.name)>`",
                        at: package.location(of: child), help: help,
                        notes: ["Transporter rejects it with ITMS-3000 (\"element … not allowed anywhere\")"]))
                }
            }
        }
        return context.outcomes(findings.sorted(by: { $0.location! < $1.location! }))
    }
}
