import Formats
import Model
import Loaders
import RuleEngine

/// Family Sharing exists only for non-consumables and auto-renewable subscriptions.
struct FamilySharingTypeRule: Rule {
    let id = RuleID.familySharingNotAllowed.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.project.products.map { product in
            let id = product.productID?.value
            guard let shareable = product.familyShareable, shareable.value, let type = product.type,
                type.value == .consumable || type.value == .nonRenewing
            else { return context.pass(product: id) }
            return context.fail(context.finding(
                "product `\(product.name)` is a \(type.value.displayName), and Family Sharing is only for non-consumables and auto-renewable subscriptions",
                at: shareable.location, help: "set `family_shareable: false` for this product", product: id))
        }
    }
}
