import Formats
import Model

/// A view that shows a subscription group (`SubscriptionStoreView(groupID:)`) asks StoreKit for
/// every subscription of that group: they are the app's requests, at the view's line. Which
/// subscriptions a group holds is what the files that list the group say: the StoreKit
/// configuration file Xcode serves (its groups carry an `id`) when the app runs from Xcode with
/// one, else the App Store Connect snapshot, whose group resources carry App Store Connect's ID.
/// A group no read file lists stays a question, never a guess. Run when the files are loaded and
/// again when a snapshot is applied: each run starts from the code's groups alone.
extension Project {
    public mutating func requestShownGroups() {
        var sources = evidence.sources
        guard !sources.subscriptionGroups.isEmpty else { return }
        sources.unresolved.removeAll { $0.kind == .groupMembersUnknown }
        // The scan puts no request at a group ID's position: what is there, an earlier run added.
        let shownAt = Set(sources.subscriptionGroups.map { $0.id.location })
        requests.removeAll { $0.source == .code && shownAt.contains($0.location) }
        let served = effectiveEnvironment == .xcode ? evidence.storeKit : nil
        let known = Set(requests.map { "\($0.value)@\($0.location)" })
        var added = Set<String>()
        for index in sources.subscriptionGroups.indices {
            var shown = sources.subscriptionGroups[index]
            shown.members = []
            shown.listedBy = []
            let id = shown.id.value
            if let served {
                // Xcode serves only the file: App Store Connect's list does not count.
                if let group = served.groups.firstIndex(where: { $0.id?.value == id }) {
                    shown.members = served.products.filter { $0.group == group }.compactMap { $0.productID?.value }
                    shown.listedBy = [served.file]
                }
            } else {
                if let group = subscriptionGroups.first(where: { $0.storeID?.value == id }), let name = group.referenceName?.value {
                    shown.members = products.filter { $0.store != nil && $0.subscriptionGroup?.value == name }.compactMap { $0.productID?.value }
                    shown.listedBy = [group.location.file]
                } else if let file = storeKitFiles.first(where: { $0.groups.contains { $0.id?.value == id } }),
                          let group = file.groups.firstIndex(where: { $0.id?.value == id })
                {
                    // A file synced with App Store Connect carries its group IDs and members.
                    shown.members = file.products.filter { $0.group == group }.compactMap { $0.productID?.value }
                    shown.listedBy = [file.file]
                }
            }
            for member in shown.members {
                let key = "\(member)@\(shown.id.location)"
                guard !known.contains(key), added.insert(key).inserted else { continue }
                requests.append(Fact(member, at: shown.id.location, source: .code))
            }
            if shown.listedBy.isEmpty, served == nil {
                var note = SourceEvidence.UnresolvedRequest(
                    location: shown.id.location, api: shown.api, argument: id,
                    reason: Self.unlistedGroupReason(id, storeKitFiles: storeKitFiles), kind: .groupMembersUnknown)
                note.isGroup = true
                sources.unresolved.append(note)
            }
            sources.subscriptionGroups[index] = shown
        }
        evidence.sources = sources
    }

    /// Why the group's subscriptions are not known: no file the run read lists a group with that ID.
    static func unlistedGroupReason(_ id: String, storeKitFiles: [StoreKitConfiguration]) -> String {
        let fileGroups = storeKitFiles.flatMap { file in
            file.groups.compactMap { group in group.id.map { "`\($0.value)` in `\(Paths.fileName(of: file.file))`" } }
        }
        if fileGroups.isEmpty {
            return "no file iapdoctor read lists a subscription group with the ID `\(id)`"
        }
        return "no file iapdoctor read lists a subscription group with the ID `\(id)` (the StoreKit files' groups: \(fileGroups.joined(separator: ", ")))"
    }
}
