import Formats
import Model
import Loaders
import RuleEngine

/// A subscription is sold only where it has a price: available in a territory without one, it
/// stays in Missing Metadata, and a tester in that storefront gets nothing.
///
/// Where one tester loads it (Xcode, the sandbox, TestFlight) only the tester's storefront decides
/// whether it loads: an error there, a warning for the other territories. For App Review and the
/// App Store every unpriced territory is an error. App Store Connect's own state outranks the
/// snapshot's price list: past Missing Metadata, an unpriced territory is at most a warning.
struct ASCSubscriptionPriceCoverageRule: Rule {
    let id = RuleID.ascSubscriptionPriceCoverage.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard context.project.ascSnapshot != nil else { return [] }
        return context.project.products.flatMap { product -> [Outcome] in
            guard let record = product.store, record.kind == .subscription else { return [] }
            let id = product.productID?.value
            guard let available = record.availableTerritories, let priced = record.pricedTerritories, !priced.value.isEmpty else {
                // A typed price (a tier) is equalized to every territory.
                let typedPrice = product.priceTier != nil || product.price != nil
                return [(record.availableTerritories == nil || record.pricedTerritories == nil) && !typedPrice
                    ? context.unknown("In which territories does `\(product.name)` have a price, and where is it available?", key: .appStoreConnectSnapshot, product: id)
                    : context.pass(product: id)]
            }
            let unpriced = Set(available.value).subtracting(priced.value)
            guard !unpriced.isEmpty else { return [context.pass(product: id)] }
            return judge(product, record, available: available, priced: priced, unpriced: unpriced, in: context)
        }
    }

    private func judge(
        _ product: Product, _ record: StoreRecord, available: Fact<[String]>, priced: Fact<[String]>, unpriced: Set<String>,
        in context: RuleContext
    ) -> [Outcome] {
        let id = product.productID?.value
        let listed = ASCMissingMetadataRule.sample(unpriced)
        let pricedNote = "it is priced in \(priced.value.count) (\(priced.location))"
        var notes = [pricedNote]
        var related = [RelatedSpan(priced.location, label: "priced here", note: pricedNote)]
        var help = "set its price in App Store Connect → Subscriptions → `\(product.referenceName?.value ?? product.name)` → Subscription Prices (let it equalize to every territory), or remove those territories from its availability"
        var message = "subscription `\(product.name)` is available in \(available.value.count) territories but has no price in \(unpriced.count) of them (\(listed))"
        var severity = context.metadata.severity
        var outcomes: [Outcome] = []

        if context.environment.oneTesterStorefront {
            if let storefront = context.project.testing.sandboxAccount.storefront {
                let storefrontNote = "the tester's storefront is set at \(storefront.location)"
                notes.append(storefrontNote)
                related.append(RelatedSpan(storefront.location, label: "the tester's storefront", note: storefrontNote))
                if unpriced.contains(storefront.value) {
                    message = "subscription `\(product.name)` has no price in the tester's storefront `\(storefront.value)`, so StoreKit does not return it to this tester (it has none in \(unpriced.count) of its \(available.value.count) territories: \(listed))"
                } else {
                    // The tester gets it; testers elsewhere would not.
                    message = "subscription `\(product.name)` has no price in \(unpriced.count) of its \(available.value.count) territories (\(listed)): the tester's storefront `\(storefront.value)` has one, but a tester in \(unpriced.sorted()[0]) would not get it"
                    severity = min(severity, .warning)
                }
            } else {
                message = "subscription `\(product.name)` has no price in \(unpriced.count) of its \(available.value.count) territories (\(listed)): whether it loads depends on the tester's storefront"
                notes.append("a tester whose storefront is one of them does not get it; set `testing.sandbox_account.storefront` to know")
                severity = min(severity, .warning)
                outcomes.append(context.unknown(
                    "Which storefront (country or region) is the sandbox account in? (`\(product.name)` has no price in \(listed))",
                    key: .testingSandboxAccountStorefront, product: id))
            }
        }
        if let state = record.metadataComplete {
            // App Store Connect is the authority on complete metadata: the snapshot's prices may be
            // partial (pulled before a change, or cut short), or the territories newly added.
            let stateNote = StoreRecord.completeStateNote(state)
            notes.append(stateNote)
            notes.append("with its metadata complete, the unpriced territories are likely a partial price list in the snapshot, or territories added after the prices were set")
            related.append(RelatedSpan(state.location, label: "App Store Connect: metadata complete", note: stateNote))
            help = "pull the snapshot again; if those territories still show no price, " + help
            severity = min(severity, .warning)
        }
        var finding = context.finding(message, at: available.location, help: help, notes: notes, related: related, product: id)
        finding.severity = severity
        return [context.fail(finding, product: id)] + outcomes
    }
}
