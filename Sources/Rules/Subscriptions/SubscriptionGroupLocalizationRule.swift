import Formats
import Model
import Loaders
import RuleEngine

/// A subscription group needs a localized display name before its subscriptions can be submitted
/// (TN3188 lists it as missing information).
///
/// App Store Connect's state outranks the snapshot's list: a subscription it reports past Missing
/// Metadata has its group localized, so for it a group without a (named) localization is at most a
/// warning (the snapshot may be partial, or the localization pending). For the group's other
/// subscriptions (Missing Metadata, another state, or not in the snapshot) it stays an error.
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
            guard let localizations = group.localizations else {
                for id in members.compactMap({ $0.productID?.value }) {
                    outcomes.append(context.unknown(
                        "Does subscription group `\(name)` have a localized display name in App Store Connect?",
                        key: DescriptorKeyPath(SubscriptionGroupKey.localizations, in: "subscription_groups[\(index)]"), product: id))
                }
                continue
            }
            let unnamed = localizations.value.first { $0.displayName == nil }
            guard localizations.value.isEmpty || unnamed != nil else {
                outcomes += members.compactMap { $0.productID?.value }.map { context.pass(product: $0) }
                continue
            }
            // App Store Connect's word on each subscription: complete, or not (or not known).
            let complete = members.compactMap { member in
                member.store?.metadataComplete.flatMap { state in member.productID.map { (id: $0.value, state: state) } }
            }
            let completeIDs = Set(complete.map(\.id))
            let rest = members.compactMap { $0.productID?.value }.filter { !completeIDs.contains($0) }
            let shownBy = localizations.source == .appStoreConnect ? "the snapshot" : "the descriptor"

            if !rest.isEmpty {
                var finding: Finding
                if let unnamed {
                    finding = context.finding(
                        "the `\(unnamed.locale.value)` localization of subscription group `\(name)` has no display name",
                        at: unnamed.locale.location,
                        help: "add `display_name` to the `\(unnamed.locale.value)` localization of the group")
                } else {
                    let who = rest.count == members.count ? "its subscriptions" : rest.quotedList
                    finding = context.finding(
                        "subscription group `\(name)` has no localization, so \(who) cannot reach Ready to Submit",
                        at: localizations.location,
                        help: "add a localized group display name in App Store Connect → Subscriptions → `\(name)` → Localization, and `en-US: { display_name: … }` under its `localizations`",
                        notes: ["subscriptions in the group: \(members.compactMap { $0.productID?.value }.quotedList)"])
                }
                if !complete.isEmpty {
                    // Another subscription of the group is past Missing Metadata: say so, and what
                    // it would mean, without letting it change these subscriptions' error.
                    finding.notes.append(
                        "App Store Connect reports \(Self.states(complete)), a state it gives only once the metadata is complete: if the group has a localization \(shownBy) does not show, \(rest.quotedList) \(rest.count == 1 ? "lacks" : "lack") something else")
                }
                outcomes += rest.map { context.fail(finding, product: $0) }
            }
            if !complete.isEmpty {
                let its = complete.count == 1 ? "its subscription" : "its subscriptions"
                let gap = unnamed.map { "the `\($0.locale.value)` localization of subscription group `\(name)` has no display name in \(shownBy)" }
                    ?? "\(shownBy) shows no localization for subscription group `\(name)`"
                var finding = context.finding(
                    "\(gap), although App Store Connect reports \(its) \(Self.states(complete)) (metadata complete): \(shownBy) may be partial, or the localization pending",
                    at: unnamed?.locale.location ?? localizations.location,
                    help: "check the group's localizations in App Store Connect → Subscriptions → `\(name)` → Localization: if a display name is there, \(localizations.recordFix("add it under the group's `localizations` (`en-US: { display_name: … }`)")); if not, add one before submitting")
                for (id, state) in complete { finding = finding.deferring(to: state, subject: id.quoted) }
                outcomes += complete.map { context.fail(finding, product: $0.id) }
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }

    /// "`a` Ready to Submit and `b` Approved".
    static func states(_ members: [(id: String, state: Fact<String>)]) -> String {
        let items = members.map { "\($0.id.quoted) \(StoreRecord.displayName(ofState: $0.state.value))" }
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
