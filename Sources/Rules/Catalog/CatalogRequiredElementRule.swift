import Formats
import Model
import Loaders
import RuleEngine
import XMLReader

/// Each in-app purchase carries what a create needs: ID, reference name, type, a localization with
/// title and description, and whether it is cleared for sale with a price.
struct CatalogRequiredElementRule: CatalogItemRule {
    let id = RuleID.catalogRequiredElement.rawValue

    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        var missing: [String] = []
        let node = streamed.element
        let inGroup = streamed.groupKind != nil
        let inFamily = streamed.groupKind == .family
        // The names are checked one by one, not from an array: this runs for every item.
        func require(_ name: XMLName) {
            guard node.child(name) == nil else { return }
            // One cause, one finding: a misspelt element is `catalog-unknown-element`'s to report.
            let allowed = CatalogSchema.children["in_app_purchase"] ?? []
            let misspelt = node.children.map(\.name).filter { !allowed.contains($0) }
            if misspelt.contains(where: { boundedEditDistance($0, name.description, limit: 2) != nil }) { return }
            missing.append("<\(name)>")
        }
        require("product_id")
        // A family member's reference name was optional (software5.0–5.6).
        if !inFamily { require("reference_name") }
        require("type")
        // The locales are walked in place (no array of them: this runs for every item).
        var hasLocale = false
        if let locales = node["locales"] {
            for locale in locales.children where locale.isNamed("locale") {
                hasLocale = true
                func requireInLocale(_ name: XMLName) {
                    if locale.child(name) == nil { missing.append("<\(name)> in locale `\(locale.attribute("name") ?? "?")`") }
                }
                requireInLocale("title")
                requireInLocale("description")
                if locale.attribute("name") == nil { missing.append("the `name` attribute of a `<locale>`") }
            }
        }
        // In a family, the family's localizations may stand for its members.
        if !hasLocale, !inFamily { missing.append("<locales><locale name=…>") }
        let product = node["products", "product"]
        let subscriptionInGroup = inGroup && streamed.groupKind == .subscriptionGroup
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
        guard !missing.isEmpty else { return [] }
        return [context.finding(
            "in-app purchase `\(streamed.item.name)` has no \(missing.joined(separator: ", "))",
            at: streamed.item.location,
            help: "add \(missing.count == 1 ? "it" : "them") to this `<in_app_purchase>`; Transporter refuses an item without \(missing.count == 1 ? "it" : "them")",
            product: streamed.item.productID?.value)]
    }

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { context.itemFindings(in: $0) })
    }
}
