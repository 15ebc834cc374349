import Formats
import Model
import Loaders
import RuleEngine

/// An auto-renewable subscription needs its duration.
struct SubscriptionDurationRule: Rule {
    let id = RuleID.subscriptionDurationMissing.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.project.products.filter { $0.type?.value == .autoRenewable }.map { product in
            let id = product.productID?.value
            guard product.subscriptionDuration == nil else { return context.pass(product: id) }
            return context.fail(context.finding(
                "auto-renewable subscription `\(product.name)` has no duration",
                at: product.type?.location ?? product.anchor,
                help: "set the duration in App Store Connect and `subscription_duration` to one of \(SubscriptionDuration.choices)",
                notes: ["the duration cannot change after the subscription is submitted"], product: id))
        }
    }
}
