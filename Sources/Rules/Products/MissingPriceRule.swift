import Formats
import Model
import Loaders
import RuleEngine

/// Without a price a product does not load, even in the sandbox.
struct MissingPriceRule: Rule {
    let id = RuleID.missingPrice.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.project.products.map { product in
            let id = product.productID?.value
            if product.priceTier != nil || product.price != nil { return context.pass(product: id) }
            if let record = product.store {
                guard let priced = record.pricedTerritories else {
                    return context.unknown(
                        "Does `\(product.name)` have a price in App Store Connect? (the snapshot does not include its prices)",
                        key: context.project.keyPath(.priceTier, of: product), product: id)
                }
                if let state = record.metadataComplete {
                    // App Store Connect gives this state only to a product with a price: the
                    // snapshot's price list is what is short, so the answer is App Store Connect's.
                    var note = context.finding(
                        "the snapshot shows no price for `\(product.name)`, but App Store Connect reports it \(StoreRecord.displayName(ofState: state.value)), which needs a price",
                        at: priced.location,
                        help: "pull the snapshot again with the product's prices (its price schedule, or Subscription Prices)",
                        notes: [StoreRecord.completeStateNote(state)],
                        related: [RelatedSpan(state.location, label: "App Store Connect: metadata complete", note: StoreRecord.completeStateNote(state))], product: id)
                    note.severity = .note
                    return context.passWithNotes([note], product: id)
                }
                return context.fail(context.finding(
                    "product `\(product.name)` has no price in App Store Connect, and a product without a price does not load, even in the sandbox",
                    at: priced.location,
                    help: "set a price in App Store Connect (the product's Price Schedule, or Subscription Prices), then pull the snapshot again",
                    product: id))
            }
            return context.fail(context.finding(
                "product `\(product.name)` has no price (`price_tier` or `price`), and a product without a price does not load, even in the sandbox",
                at: product.anchor,
                help: "set a price under Pricing in App Store Connect, then add `price_tier: 1` (or `price: \"0.99\"`) to this product",
                notes: product.type?.value == .autoRenewable
                    ? ["an auto-renewable subscription needs prices for every storefront it is sold in"] : [],
                product: id))
        }
    }
}
