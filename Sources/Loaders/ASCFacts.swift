import Formats
import Model

/// Turns an App Store Connect snapshot into project facts, so every rule reads App Store Connect's
/// answer where it reads the descriptor's: the app record (exact bundle ID match: the API's filter
/// is fuzzy), the App ID and its In-App Purchase capability, the profile, the products and their
/// metadata, subscription groups, the sandbox tester's storefront. The snapshot wins over typed
/// facts; each disagreement is kept with both values and positions.
public enum ASCFacts {
    public static func apply(_ snapshot: ASCSnapshot, namedAt: SourceLocation, to project: inout Project) {
        var mapper = Mapper(snapshot: snapshot, facts: ASCSnapshotFacts(snapshot: snapshot, namedAt: namedAt))
        mapper.apply(to: &project)
        project.ascSnapshot = mapper.facts
        project.requestShownGroups()
    }

    /// Requests under these paths list the app record.
    static let appListPaths = ["/v1/apps?", "/v1/apps "]

    struct Mapper {
        let snapshot: ASCSnapshot
        var facts: ASCSnapshotFacts
        /// The snapshot's failed requests by path segment (see ``ASCSnapshot/failuresBySegment()``).
        lazy var failures: [String: [ASCSnapshot.FailedRequest]] = snapshot.failuresBySegment()

        mutating func apply(to project: inout Project) {
            let ours = project.app.bundleID?.value
                ?? project.appID.bundlePart.flatMap { $0.value.hasSuffix("*") ? nil : $0.value }
                ?? project.evidence.runningBundleID?.value
                ?? snapshot.bundleID?.value
                ?? single(snapshot.resources(ofType: "apps"))?.string("bundleId")?.value
            facts.bundleID = ours
            matchApp(ours, &project)
            if facts.otherApp == nil {
                if let ours { applyAppID(ours, &project) }
                applyGroups(&project)
                applyProducts(&project)
            }
            applyProfile(&project)
            applyTesters(&project)
        }

        private func single(_ resources: [ASCSnapshot.Resource]) -> ASCSnapshot.Resource? {
            resources.count == 1 ? resources[0] : nil
        }

        // MARK: App record

        private mutating func matchApp(_ ours: String?, _ project: inout Project) {
            let apps = snapshot.resources(ofType: "apps")
            if let ours, let app = apps.first(where: { $0.string("bundleId")?.value == ours }) {
                facts.app = app
                let record = Fact(true, at: app.string("bundleId")?.location ?? app.location, source: .appStoreConnect)
                project.appStoreConnect.appRecord = merged(
                    project.appStoreConnect.appRecord, record, subject: "whether an app record exists", key: DescriptorKeyPath(.appStoreConnectAppRecord),
                    item: ChecklistID.bundleIdMatches.rawValue, describe: { String($0) })
                return
            }
            facts.nearMisses = apps.compactMap { $0.string("bundleId") }
            guard let ours else { return }
            if let pulledFor = snapshot.bundleID, pulledFor.value != ours {
                facts.otherApp = pulledFor
            } else if snapshot.isCompletePull, snapshot.bundleID != nil, snapshot.failures(matching: ASCFacts.appListPaths).isEmpty {
                // Pulled for this bundle ID, and no app has it exactly: there is no app record.
                let record = Fact(false, at: apps.first?.string("bundleId")?.location ?? snapshot.bundleID!.location, source: .appStoreConnect)
                project.appStoreConnect.appRecord = merged(
                    project.appStoreConnect.appRecord, record, subject: "whether an app record exists", key: DescriptorKeyPath(.appStoreConnectAppRecord),
                    item: ChecklistID.bundleIdMatches.rawValue, describe: { String($0) })
            } else if snapshot.bundleID == nil, let other = apps.first?.string("bundleId") {
                facts.otherApp = other
            }
        }

        // MARK: App ID

        private mutating func applyAppID(_ ours: String, _ project: inout Project) {
            let bundleIDs = snapshot.resources(ofType: "bundleIds")
            let explicit = bundleIDs.first { $0.string("identifier")?.value == ours }
            let wildcard = bundleIDs.first {
                guard let identifier = $0.string("identifier")?.value, identifier.hasSuffix("*") else { return false }
                return ours.hasPrefix(identifier.dropLast())
            }
            guard let record = explicit ?? wildcard, let identifier = record.string("identifier") else {
                if snapshot.isCompletePull, snapshot.bundleID?.value == ours, snapshot.failures(matching: ["/v1/bundleIds"]).isEmpty {
                    facts.appIDMissing = snapshot.bundleID?.location
                }
                return
            }
            let seed = record.string("seedId")?.value
            let full = identifier.map { (seed.map { "\($0)." } ?? "") + $0 }
            project.appID.identifier = merged(
                project.appID.identifier, full, subject: "the App ID", key: DescriptorKeyPath(.appIDIdentifier), item: ChecklistID.bundleIdMatches.rawValue, describe: { $0 })
            if let capabilities = snapshot.related(record, "bundleIdCapabilities"),
                let location = record.relationships["bundleIdCapabilities"]?.location
            {
                // The list holds only enabled capabilities: In-App Purchase missing from it is off.
                let enabled = capabilities.first { $0.string("capabilityType")?.value == "IN_APP_PURCHASE" }
                let fact = Fact(enabled != nil, at: enabled?.string("capabilityType")?.location ?? location, source: .appStoreConnect)
                project.appID.inAppPurchase = merged(
                    project.appID.inAppPurchase, fact, subject: "In-App Purchase on the App ID", key: DescriptorKeyPath(.appIDInAppPurchase),
                    item: ChecklistID.appIdIapEnabled.rawValue, describe: { $0 ? "enabled" : "off" })
            }
        }

        // MARK: Profiles

        private mutating func applyProfile(_ project: inout Project) {
            let name = project.signing.profile.name?.value ?? project.evidence.profile?.name?.value
            let uuid = project.evidence.profile?.uuid?.value
            guard name != nil || uuid != nil,
                let record = snapshot.resources(ofType: "profiles").first(where: {
                    (uuid != nil && $0.string("uuid")?.value == uuid) || (name != nil && $0.string("name")?.value == name)
                })
            else { return }
            facts.profileName = record.string("name")?.value
            facts.profileState = record.string("profileState")
            var profile = project.signing.profile
            if let type = record.string("profileType"), let mapped = ProfileType(appStoreConnect: type.value) {
                profile.type = merged(profile.type, type.map { _ in mapped }, subject: "the profile's type", key: DescriptorKeyPath(.signingProfileType),
                                      item: ChecklistID.provisioningProfile.rawValue, describe: { $0.rawValue })
            }
            if let expires = record.string("expirationDate"), let when = Timestamp(iso8601: expires.value) {
                profile.expiresAt = merged(profile.expiresAt, expires.map { _ in when }, subject: "the profile's expiry", key: DescriptorKeyPath(.signingProfileExpiresAt),
                                           item: ChecklistID.provisioningProfile.rawValue, describe: { $0.description })
            }
            if let created = record.string("createdDate"), let when = Timestamp(iso8601: created.value) {
                profile.createdAt = merged(profile.createdAt, created.map { _ in when }, subject: "the profile's creation date", key: DescriptorKeyPath(.signingProfileCreatedAt),
                                           item: ChecklistID.provisioningProfile.rawValue, describe: { $0.description })
            }
            if let bundle = snapshot.related(record, "bundleId")?.first, let identifier = bundle.string("identifier") {
                let prefix = (bundle.string("seedId")?.value).map { "\($0)." } ?? ""
                let full = identifier.map { prefix + $0 }
                profile.appID = merged(profile.appID, full, subject: "the profile's App ID", key: DescriptorKeyPath(.signingProfileAppID),
                                       item: ChecklistID.provisioningProfile.rawValue, describe: { $0 })
            }
            project.signing.profile = profile
        }

        // MARK: Sandbox testers

        private mutating func applyTesters(_ project: inout Project) {
            let testers = snapshot.resources(ofType: "sandboxTesters")
            let fetched = !testers.isEmpty || (snapshot.isCompletePull && snapshot.failures(matching: ["/v1/sandboxTesters", "/v2/sandboxTesters"]).isEmpty)
            guard fetched else { return }
            facts.sandboxTesterCount = testers.count
            guard let email = project.testing.sandboxAccount.email else { return }
            guard let tester = testers.first(where: { $0.string("acAccountName")?.value.lowercased() == email.value.lowercased() }) else {
                facts.sandboxTesterMissing = email
                return
            }
            // Listed by this app's App Store Connect: the tester belongs to the app's team.
            if project.testing.sandboxAccount.teamID == nil, let team = project.account.teamID?.value ?? project.appID.teamPrefix,
                let account = tester.string("acAccountName")
            {
                project.testing.sandboxAccount.teamID = account.map { _ in team }
            }
            if let territory = tester.string("territory") {
                project.testing.sandboxAccount.storefront = merged(
                    project.testing.sandboxAccount.storefront, territory, subject: "the sandbox tester's storefront",
                    key: DescriptorKeyPath(.testingSandboxAccountStorefront), item: ChecklistID.storefrontAvailability.rawValue, describe: { $0 })
            }
        }

        // MARK: Merging

        /// The snapshot's fact, else the typed one; a disagreement between them is recorded.
        mutating func merged<T>(
            _ typed: Fact<T>?, _ store: Fact<T>?, subject: String, key: DescriptorKeyPath, item: String, describe: (T) -> String
        ) -> Fact<T>? {
            guard let store else { return typed }
            if let typed, typed.source == .descriptor, describe(typed.value) != describe(store.value) {
                facts.disagreements.append(ASCSnapshotFacts.Disagreement(
                    subject: subject, checklistItem: item, descriptor: typed.map(describe), snapshot: store.map(describe), key: key))
            }
            return store
        }
    }
}

extension ProfileType {
    /// `IOS_APP_DEVELOPMENT`, `MAC_APP_STORE`, `TVOS_APP_ADHOC`…; `nil` for kinds the descriptor
    /// has no word for (Developer ID, Catalyst direct).
    init?(appStoreConnect type: String) {
        if type.hasSuffix("_DEVELOPMENT") { self = .development }
        else if type.hasSuffix("_APP_STORE") { self = .appStore }
        else if type.hasSuffix("_ADHOC") { self = .adHoc }
        else if type.hasSuffix("_INHOUSE") { self = .enterprise }
        else { return nil }
    }
}
