import IAPDoctor
import XMLReader

/// Each in-app purchase carries what a create needs: ID, reference name, type, a localization with
/// title and description, and whether it is cleared for sale with a price.
struct CatalogRequiredElementRule: Rule {
    let id = "catalog-required-element"

    func check(_ context: RuleContext) -> [Outcome] {
        var outcomes: [Outcome] = []
        for package in context.catalogPackages {
            for item in package.items {
                var missing: [String] = []
                let node = item.node
                let inGroup = item.group != nil
                let inFamily = inGroup && package.groups[item.group!].kind == .family
                // A family member's reference name was optional (software5.0–5.6).
                let required = inFamily ? ["product_id", "type"] : ["product_id", "reference_name", "type"]
                // One cause, one finding: a misspelt element is `catalog-unknown-element`'s to report.
                let allowed = CatalogSchema.children["in_app_purchase"] ?? []
                let misspelt = node.children.map(\.name).filter { !allowed.contains($0) }
                for name in required where node.child(name) == nil {
                    if misspelt.contains(where: { boundedEditDistance($0, name, limit: 2) != nil }) { continue }
                    missing.append("<\(name)>")
                }
                let locales = node["locales"]?.children(named: "locale") ?? []
                if locales.isEmpty {
                    // In a family, the family's localizations may stand for its members.
                    if !inFamily { missing.append("<locales><locale name=…>") }
                } else {
                    for locale in locales {
                        for name in ["title", "description"] where locale.child(name) == nil {
                            missing.append("<\(name)> in locale `\(locale.attribute("name") ?? "?")`")
                        }
                        if locale.attribute("name") == nil { missing.append("the `name` attribute of a `<locale>`") }
                    }
                }
                let product = node["products", "product"]
                let subscriptionInGroup = inGroup && package.groups[item.group!].kind == .subscriptionGroup
                if subscriptionInGroup {
                    if node.child("cleared_for_sale") == nil && product?.child("cleared_for_sale") == nil {
                        missing.append("<cleared_for_sale>")
                    }
                } else if let product {
                    if product.child("cleared_for_sale") == nil { missing.append("<cleared_for_sale> in <products><product>") }
                    if product.child("wholesale_price_tier") == nil && product.child("intervals") == nil {
                        missing.append("<wholesale_price_tier> or <intervals> in <products><product>")
                    }
                } else {
                    missing.append("<products><product> with <cleared_for_sale> and a price")
                }
                if missing.isEmpty {
                    outcomes.append(context.pass(product: item.productID?.value))
                    continue
                }
                outcomes.append(context.fail(context.finding(
                    "in-app purchase `\(item.name)` has no \(missing.joined(separator: ", "))",
                    at: item.location,
                    help: "add \(missing.count == 1 ? "it" : "them") to this `<in_app_purchase>`; Transporter refuses an item without \(missing.count == 1 ? "it" : "them")",
                    product: item.productID?.value)))
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }
}
