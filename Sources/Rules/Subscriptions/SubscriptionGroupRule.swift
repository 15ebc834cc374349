import Formats
import Model
import Loaders
import RuleEngine

/// Every auto-renewable subscription belongs to a subscription group that exists.
struct SubscriptionGroupRule: Rule {
    let id = RuleID.subscriptionWithoutGroup.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        let subscriptions = project.products.filter { $0.type?.value == .autoRenewable }
        guard !subscriptions.isEmpty else {
            return [context.notApplicable("the app has no auto-renewable subscriptions")]
        }
        let groupNames = project.subscriptionGroups.compactMap { $0.referenceName?.value }
        return subscriptions.map { product in
            let id = product.productID?.value
            guard let group = product.subscriptionGroup else {
                let help = groupNames.isEmpty
                    ? "create a subscription group in App Store Connect, add it to `subscription_groups`, and set `subscription_group` on this product"
                    : "set `subscription_group` to one of \(groupNames.quotedList)"
                return context.fail(context.finding(
                    "auto-renewable subscription `\(product.name)` belongs to no subscription group",
                    at: product.type?.location ?? product.anchor, help: help,
                    notes: ["every auto-renewable subscription is part of exactly one group; a customer holds one subscription per group"],
                    product: id))
            }
            guard groupNames.contains(group.value) else {
                var help = "add a group with `reference_name: \(group.value)` to `subscription_groups`, or correct the name"
                if let suggestion = closestMatch(to: group.value, in: groupNames) {
                    help = "did you mean `\(suggestion)`? Set `subscription_group: \(suggestion)`"
                }
                return context.fail(context.finding(
                    "subscription group `\(group.value)` of `\(product.name)` is not among the app's subscription groups\(groupNames.isEmpty ? "" : " (\(groupNames.quotedList))")",
                    at: group.location, help: help, product: id))
            }
            return context.pass(product: id)
        }
    }
}
