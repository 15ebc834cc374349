import IAPDoctor

/// A subscription is sold only where it has a price: available in a territory without one, it
/// stays in Missing Metadata, and a tester in that storefront gets nothing.
struct ASCSubscriptionPriceCoverageRule: Rule {
    let id = RuleID.ascSubscriptionPriceCoverage.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard context.project.ascSnapshot != nil else { return [] }
        return context.project.products.compactMap { product -> Outcome? in
            guard let record = product.store, record.kind == .subscription else { return nil }
            let id = product.productID?.value
            guard let available = record.availableTerritories, let priced = record.pricedTerritories, !priced.value.isEmpty else {
                // A typed price (a tier) is equalized to every territory.
                let typedPrice = product.priceTier != nil || product.price != nil
                return (record.availableTerritories == nil || record.pricedTerritories == nil) && !typedPrice
                    ? context.unknown("In which territories does `\(product.name)` have a price, and where is it available?", key: .appStoreConnectSnapshot, product: id)
                    : context.pass(product: id)
            }
            let unpriced = Set(available.value).subtracting(priced.value)
            guard !unpriced.isEmpty else { return context.pass(product: id) }
            let storefront = context.project.testing.sandboxAccount.storefront?.value
            var notes = ["it is priced in \(priced.value.count) (\(priced.location))"]
            if let storefront, unpriced.contains(storefront) { notes.append("the sandbox tester's storefront `\(storefront)` is one of them") }
            return context.fail(context.finding(
                "subscription `\(product.name)` is available in \(available.value.count) territories but has no price in \(unpriced.count) of them (\(ASCMissingMetadataRule.sample(unpriced)))",
                at: available.location,
                help: "set its price in App Store Connect → Subscriptions → `\(product.referenceName?.value ?? product.name)` → Subscription Prices (let it equalize to every territory), or remove those territories from its availability",
                notes: notes, related: [RelatedSpan(priced.location, label: "priced here", note: notes[0])], product: id), product: id)
        }
    }
}
