import Formats
import Model
import Loaders
import RuleEngine

/// A product must be cleared for sale in at least one storefront.
struct NotClearedForSaleRule: Rule {
    let id = RuleID.notClearedForSale.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard !project.products.isEmpty else { return [context.unknown("Which In-App Purchases exist for this app?", key: .products)] }
        var outcomes: [Outcome] = []
        for product in project.products {
            let id = product.productID?.value
            var findings: [Finding] = []
            if let cleared = product.clearedForSale, !cleared.value {
                findings.append(context.finding(
                    "product `\(product.name)` is not cleared for sale, so StoreKit returns it as invalid",
                    at: cleared.location,
                    help: "in App Store Connect → In-App Purchases → `\(product.name)` → Availability, select the storefronts to sell in; then \(cleared.recordFix("set `cleared_for_sale: true`"))",
                    product: id))
            }
            if let availability = product.availability, availability.value.isEmpty {
                findings.append(context.finding(
                    "product `\(product.name)` is available in no storefront (`availability: []`), which App Store Connect shows as Developer Removed from Sale",
                    at: availability.location,
                    help: availability.source == .appStoreConnect
                        ? "select at least one country or region under Availability in App Store Connect, then pull the snapshot again"
                        : "select at least one country or region under Availability, and list it in `availability` (or remove the key for all storefronts)",
                    product: id))
            }
            if let status = product.status, status.value == .developerRemovedFromSale || status.value == .removedFromSale {
                let who = status.value == .removedFromSale ? "Apple removed it" : "it was removed"
                findings.append(context.finding(
                    "product `\(product.name)` has status `\(status.value.rawValue)`: \(who) from sale, so StoreKit does not return it",
                    at: status.location,
                    help: status.value == .removedFromSale
                        ? "read the message from App Review in App Store Connect, fix the product and resubmit it"
                        : "make the product available again under Availability in App Store Connect, then update `status`",
                    product: id))
            }
            if !findings.isEmpty {
                outcomes += findings.map { context.fail($0, product: id) }
            } else if product.clearedForSale == nil {
                outcomes.append(context.unknown(
                    "Is `\(product.name)` cleared for sale (Availability in App Store Connect)?",
                    key: project.keyPath(.clearedForSale, of: product), product: id))
            } else {
                outcomes.append(context.pass(product: id))
            }
        }
        return outcomes
    }
}
