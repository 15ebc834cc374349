import Formats
import Model
import Loaders
import RuleEngine

/// StoreKit omits products that are not available in the account's storefront. Where one tester
/// loads the products (the sandbox, TestFlight) that is the tester's storefront; for App Review
/// and the App Store each reviewer's or customer's own, so a product sold in some territory passes.
/// A product sold in none is `not-cleared-for-sale`'s finding, in every environment.
struct StorefrontAvailabilityRule: Rule {
    let id = RuleID.storefrontNotAvailable.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        let restricted = project.products.filter { $0.availability.map { !$0.value.isEmpty } ?? false }
        guard !restricted.isEmpty else { return [context.pass()] }
        guard context.environment.oneTesterStorefront else { return restricted.map { context.pass(product: $0.productID?.value) } }
        guard let storefront = project.testing.sandboxAccount.storefront else {
            return [context.unknown(
                "Which storefront (country or region) is the sandbox account in?", key: .testingSandboxAccountStorefront)]
        }
        return restricted.map { product in
            let id = product.productID?.value
            let availability = product.availability!
            let codes = availability.value.map(\.value)
            guard !codes.contains(storefront.value) else { return context.pass(product: id) }
            let note = "the tester's storefront is set at \(storefront.location)"
            return context.fail(context.finding(
                "product `\(product.name)` is not available in the tester's storefront `\(storefront.value)` (it is sold in \(codes.quotedList)), so StoreKit omits it",
                at: availability.location,
                help: "add `\(storefront.value)` to the product's availability in App Store Connect\(availability.source == .appStoreConnect ? "" : " and to `availability`"), or test with a sandbox account in one of its storefronts (then sign out and back in on the device)",
                notes: [note], related: [RelatedSpan(storefront.location, label: "the tester's storefront", note: note)], product: id))
        }
    }
}
