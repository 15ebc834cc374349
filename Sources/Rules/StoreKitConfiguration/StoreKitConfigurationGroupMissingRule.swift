import Formats
import Model
import Loaders
import RuleEngine

/// A view that shows a subscription group (`SubscriptionStoreView(groupID:)`) shows nothing when
/// the StoreKit configuration file Xcode serves has no group with that ID, or the group holds no
/// subscription. The code's ID is App Store Connect's; a local file gives its groups IDs of its own.
struct StoreKitConfigurationGroupMissingRule: Rule {
    let id = RuleID.storekitConfigurationGroupMissing.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        let shown = project.evidence.sources.subscriptionGroups
        guard !shown.isEmpty else { return [context.notApplicable("the code shows no subscription group by its ID")] }
        // Without the served file, `storekit-configuration-incomplete` asks which it is.
        guard let file = project.evidence.storeKit else { return [] }
        let name = Paths.fileName(of: file.file)
        var findings: [Finding] = []
        var reported = Set<String>()
        for group in shown where reported.insert(group.id.value).inserted {
            let id = group.id.value
            if let index = file.groups.firstIndex(where: { $0.id?.value == id }) {
                guard group.members.isEmpty else { continue }
                let listed = file.groups[index]
                findings.append(context.finding(
                    "`\(group.api)` shows the subscription group `\(id)`, which has no subscriptions in `\(name)`, so it shows none",
                    at: group.id.location,
                    help: "add the group's subscriptions to `\(name)` in Xcode (the + button → Add Auto-Renewable Subscription, in the group \(listed.name.map { "`\($0.value)`" } ?? "`\(id)`"))",
                    related: [RelatedSpan(listed.location, label: "the empty group", note: "the group is at \(listed.location)")]))
                continue
            }
            let groups = file.groups.compactMap { group -> String? in
                guard let groupID = group.id?.value else { return nil }
                return "`\(groupID)`" + (group.name.map { " (\($0.value))" } ?? "")
            }
            var help = "create the file synced with App Store Connect (File → New → File → StoreKit Configuration File, “Sync this file with an app in App Store Connect”), whose groups carry App Store Connect's IDs"
            var related: [RelatedSpan] = []
            if file.groups.count == 1, let only = file.groups.first, let written = only.id {
                help = "in `\(name)`, replace `\"\(written.value)\"` with `\"\(id)\"` in the group's `id` and its subscriptions' `subscriptionGroupID`, or " + help
                related = [RelatedSpan(written.location, label: "the file's group", note: "the file's one group has the ID `\(written.value)` (\(written.location))")]
            }
            var notes = [groups.isEmpty
                ? "`\(name)` has no subscription groups"
                : "the groups of `\(name)`: \(groups.joined(separator: ", "))"]
            if !file.isSynced {
                notes.append("the code's ID is App Store Connect's; a StoreKit file made by hand gives each group an ID of its own")
            }
            findings.append(context.finding(
                "`\(group.api)` shows the subscription group `\(id)`, which `\(name)` does not have, and Xcode serves only that file's groups",
                at: group.id.location, help: help, notes: notes, related: related))
        }
        return context.outcomes(findings)
    }
}
