import Foundation

/// What `iapdoctor asc pull` made: the snapshot and how the pull went.
public struct PullResult: Sendable {
    /// The snapshot: pretty-printed, keys sorted, resources by type and id.
    public let contents: SnapshotContents
    /// Its text at once (`contents.write` writes it in pieces).
    public var text: String { contents.text }
    public let unavailable: [UnavailableRequest]
    /// What ended the pull early (a lapsed agreement, the rate limit), if something did.
    public let stoppedBy: StopReason?
    public let statistics: PullStatistics
    public let resourceCount: Int
    /// Requests not sent because the pull stopped early.
    public let notSentCount: Int
    /// Whether an app record with exactly this bundle ID was found.
    public let appFound: Bool
}

/// Reads what App Store Connect knows about one app's In-App Purchases into a snapshot
/// (`iapdoctor-asc-snapshot/1`, see the spec's asc-snapshot.md), through the GET operations of
/// API 4.4.1 only.
///
/// Order: the app record (by bundle ID, compared exactly: the API's filter is fuzzy); then, side
/// by side, the App ID with its capabilities and profiles, the sandbox testers, the app's In-App
/// Purchases and its subscription groups, and per product what the lists' `include=` did not
/// bring whole. Usually that is two requests per product: an In-App Purchase's territories and
/// its manual prices, a subscription's plan territories and its prices; localizations, review
/// screenshots and the base territory are asked for only when the lists did not settle them. At
/// most `APIClient.Configuration.concurrency` requests are in flight.
public struct SnapshotPull: Sendable {
    let client: APIClient
    let clock: @Sendable () -> Date
    /// The snapshot's size limits: past them nothing more is kept or sent.
    let maximumBytes: Int
    let maximumValues: Int

    public init(client: APIClient, clock: @escaping @Sendable () -> Date = { Date() }, maximumBytes: Int = SnapshotPull.defaultMaximumBytes,
                maximumValues: Int = SnapshotPull.defaultMaximumValues) {
        self.client = client
        self.clock = clock
        self.maximumBytes = maximumBytes
        self.maximumValues = maximumValues
    }

    /// What `iapdoctor check` reads of a snapshot (`ASCSnapshot.maxFileBytes`, `maxValues`).
    public static let checkedBytes = (1 << 28) - 1
    public static let checkedValues = 1 << 25
    /// The pull stops keeping short of them, leaving room for `meta`.
    public static let defaultMaximumBytes = checkedBytes - (4 << 20)
    public static let defaultMaximumValues = checkedValues - (1 << 18)

    /// Pulls the snapshot for `bundleID`. Resuming `earlier` (a snapshot a pull stopped short of
    /// finishing, by the hourly request limit say), it starts from what that one holds and asks
    /// only for the relationships it does not hold whole; the lists of apps, App IDs, sandbox
    /// testers and each group's subscriptions are asked again (a request each).
    public func run(bundleID: String, resuming earlier: PartialSnapshot? = nil) async throws(PullFailure) -> PullResult {
        let store = SnapshotStore(maximumBytes: maximumBytes, maximumValues: maximumValues)
        if let earlier {
            guard earlier.bundleID == bundleID else {
                throw PullFailure(message: "the snapshot to resume was pulled for `\(earlier.bundleID)`, not `\(bundleID)`",
                                  help: "resume with --bundle-id \(earlier.bundleID), or pull `\(bundleID)` without --resume")
            }
            await store.seed(earlier)
        }
        let fetch = APIFetcher(client: client, store: store)
        let fetchedAt = earlier?.fetchedAt ?? clock()
        let appsList = try await fetch.list(
            "/v1/apps", [("filter[bundleId]", bundleID), ("limit", "200")],
            keep: { $0["attributes"]?["bundleId"]?.stringValue == bundleID })
        var apps: [ResourceKey] = []
        if case .complete(let items) = appsList { apps = items.map(\.key) }
        var jobs: [@Sendable () async throws -> Void] = [
            { try await pullBundleIDs(bundleID, fetch) },
            { _ = try await fetch.list("/v2/sandboxTesters", [("limit", "200")]) },
        ]
        for app in apps {
            jobs.append { try await pullInAppPurchases(app, fetch) }
            jobs.append { try await pullSubscriptionGroups(app, fetch) }
        }
        try await SnapshotPull.concurrently(jobs)
        let resourceCount = await store.resourceCount
        return PullResult(
            contents: await store.takeContents(fetchedAt: fetchedAt, bundleID: bundleID), unavailable: await store.unavailableRequests,
            stoppedBy: await client.stoppedBy, statistics: await client.statistics, resourceCount: resourceCount,
            notSentCount: await store.notSentCount, appFound: !apps.isEmpty)
    }

    /// Runs the jobs side by side; the first failure ends them all and is the one reported.
    /// Runs the jobs side by side, at most `width` at a time (the client limits requests in
    /// flight; this limits the tasks waiting for them, which a list of thousands of products
    /// would otherwise start all at once).
    static func concurrently(_ jobs: [@Sendable () async throws -> Void], width: Int = 32) async throws(PullFailure) {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var pending = jobs.makeIterator()
                for _ in 0..<width {
                    guard let job = pending.next() else { break }
                    group.addTask { try await job() }
                }
                while try await group.next() != nil {
                    if let job = pending.next() { group.addTask { try await job() } }
                }
            }
        } catch let failure as PullFailure {
            throw failure
        } catch {
            throw PullFailure.cancelled
        }
    }

    // MARK: The App ID

    private func pullBundleIDs(_ bundleID: String, _ fetch: APIFetcher) async throws(PullFailure) {
        // Not `profileContent`: the whole .mobileprovision, base64, tens of kilobytes each.
        let profileFields = ("fields[profiles]", "bundleId,createdDate,expirationDate,name,platform,profileState,profileType,uuid")
        let limit = String(APIFetcher.includeLimit)
        guard case .complete(let bundleIDs) = try await fetch.list(
            "/v1/bundleIds",
            [("filter[identifier]", bundleID), ("limit", "200"), ("limit[bundleIdCapabilities]", limit), ("limit[profiles]", limit), profileFields],
            include: ["bundleIdCapabilities", "profiles"],
            keep: { $0["attributes"]?["identifier"]?.stringValue == bundleID }) else { return }
        for item in bundleIDs {
            let id = item.key.id
            _ = try await completeToMany(item, "bundleIdCapabilities", path: "/v1/bundleIds/\(id)/bundleIdCapabilities", [("limit", "200")], fetch)
            let profiles = try await completeToMany(item, "profiles", path: "/v1/bundleIds/\(id)/profiles", [("limit", "200"), profileFields], fetch)
            // Profiles listed under this App ID are its profiles: the inverse link is known too.
            for profile in profiles ?? [] {
                await fetch.link(profile, "bundleId", .one(item.key), origin: "")
            }
        }
    }

    // MARK: In-App Purchases

    private func pullInAppPurchases(_ app: ResourceKey, _ fetch: APIFetcher) async throws(PullFailure) {
        let path = "/v1/apps/\(app.id)/inAppPurchasesV2"
        let products: [APIFetcher.Item]
        if let held = await fetch.heldItems(app, "inAppPurchasesV2") {
            products = held
        } else {
            guard case .complete(let items) = try await fetch.list(
                path, [("limit", "200"), ("limit[inAppPurchaseLocalizations]", String(APIFetcher.includeLimit)), ("limit[versions]", String(APIFetcher.includeLimit))],
                include: ["inAppPurchaseLocalizations", "appStoreReviewScreenshot", "iapPriceSchedule", "inAppPurchaseAvailability", "versions"]) else { return }
            products = items
            await fetch.link(app, "inAppPurchasesV2", .many(items.map(\.key)), origin: path)
        }
        try await SnapshotPull.concurrently(products.map { product in { try await pullInAppPurchase(product, fetch) } })
    }

    private func pullInAppPurchase(_ product: APIFetcher.Item, _ fetch: APIFetcher) async throws(PullFailure) {
        let id = product.key.id
        let localizations = try await completeToMany(product, "inAppPurchaseLocalizations", path: "/v2/inAppPurchases/\(id)/inAppPurchaseLocalizations", [("limit", "200")], fetch)
        try await versionLocalizations(product, older: localizations, versionsPath: "/v2/inAppPurchases/\(id)/versions",
                                       localizationsPath: { "/v1/inAppPurchaseVersions/\($0)/localizations" }, fetch)
        _ = try await completeToOne(product, "appStoreReviewScreenshot", path: "/v2/inAppPurchases/\(id)/appStoreReviewScreenshot", fetch)
        if let availability = try await completeToOne(product, "inAppPurchaseAvailability", path: "/v2/inAppPurchases/\(id)/inAppPurchaseAvailability", fetch) {
            try await territories(of: availability, path: "/v1/inAppPurchaseAvailabilities/\(availability.id)/availableTerritories", fetch)
        }
        guard let schedule = try await completeToOne(product, "iapPriceSchedule", path: "/v2/inAppPurchases/\(id)/iapPriceSchedule", fetch) else { return }
        // Manual prices only: the automatic ones (one per other territory, ~174 with their price
        // points) follow from the base price, and no rule reads them.
        let path = "/v1/inAppPurchasePriceSchedules/\(schedule.id)/manualPrices"
        let prices: [APIFetcher.Item]
        if let held = await fetch.heldItems(schedule, "manualPrices", included: ["territory"]) {
            prices = held
        } else {
            guard case .complete(let items) = try await fetch.list(
                path, [("limit", "200"), ("fields[inAppPurchasePricePoints]", "customerPrice")], include: ["inAppPurchasePricePoint", "territory"]) else { return }
            prices = items
            await fetch.link(schedule, "manualPrices", .many(items.map(\.key)), origin: path)
        }
        // The base territory's price is manual: when every manual price is in one territory, that
        // one is the base and the price to show is known. Only several territories need asking.
        var territories: Set<ResourceKey?> = []
        for price in prices {
            if case .complete(.one(let territory))? = price.included["territory"] { territories.insert(territory) } else { territories.insert(nil) }
        }
        guard territories.count > 1 || territories.contains(nil), await fetch.held(schedule, "baseTerritory") == nil else { return }
        let basePath = "/v1/inAppPurchasePriceSchedules/\(schedule.id)/baseTerritory"
        switch try await fetch.one(basePath, notFound: .none) {
        case .resource(let territory): await fetch.link(schedule, "baseTerritory", .one(territory.key), origin: basePath)
        case .none: await fetch.link(schedule, "baseTerritory", .one(nil), origin: basePath)
        case .notFound, .unknown: break
        }
    }

    // MARK: Subscriptions

    private func pullSubscriptionGroups(_ app: ResourceKey, _ fetch: APIFetcher) async throws(PullFailure) {
        let path = "/v1/apps/\(app.id)/subscriptionGroups"
        let limit = String(APIFetcher.includeLimit)
        let groups: [APIFetcher.Item]
        if let held = await fetch.heldItems(app, "subscriptionGroups", included: ["subscriptions"]) {
            groups = held
        } else {
            guard case .complete(let items) = try await fetch.list(
                path, [("limit", "200"), ("limit[subscriptions]", limit), ("limit[subscriptionGroupLocalizations]", limit), ("limit[versions]", limit)],
                include: ["subscriptions", "subscriptionGroupLocalizations", "versions"]) else { return }
            groups = items
            await fetch.link(app, "subscriptionGroups", .many(items.map(\.key)), origin: path)
        }
        try await SnapshotPull.concurrently(groups.map { group in { try await pullSubscriptionGroup(group, fetch) } })
    }

    private func pullSubscriptionGroup(_ group: APIFetcher.Item, _ fetch: APIFetcher) async throws(PullFailure) {
        let id = group.key.id
        let localizations = try await completeToMany(group, "subscriptionGroupLocalizations", path: "/v1/subscriptionGroups/\(id)/subscriptionGroupLocalizations", [("limit", "200")], fetch)
        try await versionLocalizations(group, older: localizations, versionsPath: "/v1/subscriptionGroups/\(id)/versions",
                                       localizationsPath: { "/v1/subscriptionGroupVersions/\($0)/localizations" }, fetch)
        // The group's own list brings each subscription's localizations, screenshot and plans in
        // one request per group, where the group list's `include=subscriptions` brings none.
        let path = "/v1/subscriptionGroups/\(id)/subscriptions"
        var subscriptions: [APIFetcher.Item] = []
        let limit = String(APIFetcher.includeLimit)
        switch try await fetch.list(path, [("limit", "200"), ("limit[subscriptionLocalizations]", limit), ("limit[planAvailabilities]", limit), ("limit[versions]", limit)],
                                    include: ["subscriptionLocalizations", "appStoreReviewScreenshot", "planAvailabilities", "versions"]) {
        case .complete(let items):
            subscriptions = items
            await fetch.link(group.key, "subscriptions", .many(items.map(\.key)), origin: path)
        case .notFound, .unknown:
            // The group list's linkage still names them; their details come from their own endpoints.
            if case .complete(.many(let keys))? = group.included["subscriptions"] {
                subscriptions = keys.map { APIFetcher.Item(key: $0, resource: .null, included: [:]) }
            }
        }
        try await SnapshotPull.concurrently(subscriptions.map { subscription in { try await pullSubscription(subscription, group: group.key, fetch) } })
    }

    private func pullSubscription(_ subscription: APIFetcher.Item, group: ResourceKey, _ fetch: APIFetcher) async throws(PullFailure) {
        let id = subscription.key.id
        await fetch.link(subscription.key, "group", .one(group), origin: "")
        let localizations = try await completeToMany(subscription, "subscriptionLocalizations", path: "/v1/subscriptions/\(id)/subscriptionLocalizations", [("limit", "200")], fetch)
        try await versionLocalizations(subscription, older: localizations, versionsPath: "/v1/subscriptions/\(id)/versions",
                                       localizationsPath: { "/v1/subscriptionVersions/\($0)/localizations" }, fetch)
        _ = try await completeToOne(subscription, "appStoreReviewScreenshot", path: "/v1/subscriptions/\(id)/appStoreReviewScreenshot", fetch)
        try await pullSubscriptionAvailability(subscription, fetch)
        let pricesPath = "/v1/subscriptions/\(id)/prices"
        if await fetch.held(subscription.key, "prices") != nil { return }
        if case .complete(let prices) = try await fetch.list(
            pricesPath, [("limit", "200"), ("fields[subscriptionPrices]", "startDate,subscriptionPricePoint,territory"),
                         ("fields[subscriptionPricePoints]", "customerPrice")], include: ["subscriptionPricePoint", "territory"]) {
            await fetch.link(subscription.key, "prices", .many(prices.map(\.key)), origin: pricesPath)
        }
    }

    /// `planAvailabilities` (API 4.4.1), from the group's list when it came whole there; where the
    /// server does not have it (404), the deprecated `subscriptionAvailability`.
    private func pullSubscriptionAvailability(_ item: APIFetcher.Item, _ fetch: APIFetcher) async throws(PullFailure) {
        let subscription = item.key
        let id = subscription.id
        let limit = String(APIFetcher.includeLimit)
        var plans: [ResourceKey]?
        if case .complete(.many(let keys))? = item.included["planAvailabilities"] { plans = keys }
        if plans == nil, case .many(let keys)? = await fetch.held(subscription, "planAvailabilities") { plans = keys }
        if let plans {
            for plan in plans {
                try await territories(of: plan, path: "/v1/subscriptionPlanAvailabilities/\(plan.id)/availableTerritories", fetch)
            }
            return
        }
        // A resumed pull whose earlier part found only the older endpoint.
        if case .one(let availability)? = await fetch.held(subscription, "subscriptionAvailability") {
            if let availability {
                try await territories(of: availability, path: "/v1/subscriptionAvailabilities/\(availability.id)/availableTerritories", fetch)
            }
            return
        }
        let plansPath = "/v1/subscriptions/\(id)/planAvailabilities"
        switch try await fetch.list(plansPath, [("limit", "200"), ("limit[availableTerritories]", limit)], include: ["availableTerritories"], notFound: .report) {
        case .complete(let plans):
            await fetch.link(subscription, "planAvailabilities", .many(plans.map(\.key)), origin: plansPath)
            for plan in plans where !plan.isComplete("availableTerritories") {
                try await territories(of: plan.key, path: "/v1/subscriptionPlanAvailabilities/\(plan.key.id)/availableTerritories", fetch)
            }
        case .unknown:
            return
        case .notFound:
            let legacyPath = "/v1/subscriptions/\(id)/subscriptionAvailability"
            switch try await fetch.one(legacyPath, [("limit[availableTerritories]", limit)], include: ["availableTerritories"], notFound: .none) {
            case .resource(let availability):
                await fetch.link(subscription, "subscriptionAvailability", .one(availability.key), origin: legacyPath)
                if !availability.isComplete("availableTerritories") {
                    try await territories(of: availability.key, path: "/v1/subscriptionAvailabilities/\(availability.key.id)/availableTerritories", fetch)
                }
            case .none:
                await fetch.link(subscription, "subscriptionAvailability", .one(nil), origin: legacyPath)
            case .notFound, .unknown:
                break
            }
        }
    }

    // MARK: Localizations on versions (API 4.4.1)

    /// API 4.4.1 keeps localizations on versions of a product or group; the older list, now
    /// deprecated, still answers and comes free with the product lists' `include=`. When it is
    /// empty or did not answer, the latest version's localizations are read (a request more).
    private func versionLocalizations(_ item: APIFetcher.Item, older: [ResourceKey]?, versionsPath: String,
                                      localizationsPath: (String) -> String, _ fetch: APIFetcher) async throws(PullFailure) {
        guard older?.isEmpty ?? true,
              let versions = try await completeToMany(item, "versions", path: versionsPath, [("limit", "200")], fetch), !versions.isEmpty else { return }
        var latest = versions[0]
        var highest = Int64.min
        for version in versions {
            let number = await fetch.attribute(version, "version")?.integerValue ?? Int64.min
            if number >= highest {
                highest = number
                latest = version
            }
        }
        let holder = APIFetcher.Item(key: latest, resource: .null, included: [:])
        _ = try await completeToMany(holder, "localizations", path: localizationsPath(latest.id), [("limit", "200")], fetch)
    }

    // MARK: Relationships the list's include= did not bring whole

    private func territories(of availability: ResourceKey, path: String, _ fetch: APIFetcher) async throws(PullFailure) {
        if await fetch.held(availability, "availableTerritories") != nil { return }
        if case .complete(let territories) = try await fetch.list(path, [("limit", "200")]) {
            await fetch.link(availability, "availableTerritories", .many(territories.map(\.key)), origin: path)
        }
    }

    /// The to-many relationship's keys: from `include=` when it came whole, else from its own list.
    private func completeToMany(_ item: APIFetcher.Item, _ relationship: String, path: String, _ query: [(String, String)],
                                _ fetch: APIFetcher) async throws(PullFailure) -> [ResourceKey]? {
        if case .complete(.many(let keys))? = item.included[relationship] { return keys }
        if case .many(let keys)? = await fetch.held(item.key, relationship) { return keys }
        guard case .complete(let items) = try await fetch.list(path, query) else { return nil }
        let keys = items.map(\.key)
        await fetch.link(item.key, relationship, .many(keys), origin: path)
        return keys
    }

    /// The to-one relationship's resource: from `include=` when it said, else from the related
    /// endpoint, where a 404 means there is none. Nil when there is none or it is unknown.
    private func completeToOne(_ item: APIFetcher.Item, _ relationship: String, path: String, _ fetch: APIFetcher) async throws(PullFailure) -> ResourceKey? {
        if case .complete(.one(let key))? = item.included[relationship] { return key }
        if case .one(let key)? = await fetch.held(item.key, relationship) { return key }
        switch try await fetch.one(path, notFound: .none) {
        case .resource(let related):
            await fetch.link(item.key, relationship, .one(related.key), origin: path)
            return related.key
        case .none:
            await fetch.link(item.key, relationship, .one(nil), origin: path)
            return nil
        case .notFound, .unknown:
            return nil
        }
    }
}

extension APIFetcher.Item {
    func isComplete(_ relationship: String) -> Bool {
        if case .complete? = included[relationship] { return true }
        return false
    }
}
