import IAPDoctor

/// A subscription group needs a localized display name before its subscriptions can be submitted
/// (TN3188 lists it as missing information).
struct SubscriptionGroupLocalizationRule: Rule {
    let id = RuleID.subscriptionGroupNotLocalized.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        let subscriptions = project.products.filter { $0.type?.value == .autoRenewable }
        guard !subscriptions.isEmpty else {
            return [context.notApplicable("the app has no auto-renewable subscriptions")]
        }
        var outcomes: [Outcome] = []
        for (index, group) in project.subscriptionGroups.enumerated() {
            guard let name = group.referenceName?.value else { continue }
            let members = subscriptions.filter { $0.subscriptionGroup?.value == name }
            guard !members.isEmpty else { continue }
            let memberIDs = members.compactMap { $0.productID?.value }
            let failure: Finding?
            if let localizations = group.localizations {
                if localizations.value.isEmpty {
                    failure = context.finding(
                        "subscription group `\(name)` has no localization, so its subscriptions cannot reach Ready to Submit",
                        at: localizations.location,
                        help: "add a localized group display name in App Store Connect → Subscriptions → `\(name)` → Localization, and `en-US: { display_name: … }` under its `localizations`",
                        notes: ["subscriptions in the group: \(memberIDs.quotedList)"])
                } else if let unnamed = localizations.value.first(where: { $0.displayName == nil }) {
                    failure = context.finding(
                        "the `\(unnamed.locale.value)` localization of subscription group `\(name)` has no display name",
                        at: unnamed.locale.location,
                        help: "add `display_name` to the `\(unnamed.locale.value)` localization of the group")
                } else {
                    failure = nil
                }
            } else {
                for id in memberIDs {
                    outcomes.append(context.unknown(
                        "Does subscription group `\(name)` have a localized display name in App Store Connect?",
                        key: DescriptorKeyPath(SubscriptionGroupKey.localizations, in: "subscription_groups[\(index)]"), product: id))
                }
                continue
            }
            for id in memberIDs {
                outcomes.append(failure.map { context.fail($0, product: id) } ?? context.pass(product: id))
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }
}
