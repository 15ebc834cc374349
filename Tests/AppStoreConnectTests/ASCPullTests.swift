import AppStoreConnect
import Foundation
import Testing
import TestSupport

/// `iapdoctor asc pull` against a synthetic App Store Connect on a loopback port (real HTTP,
/// real URLSession, real ES256 tokens checked with the key's public half), whose every request
/// and answer is checked against the shared API subset (knowledge/asc). No internet.
@Suite("App Store Connect pull")
struct ASCPullTests {
    /// The key's role may not read App IDs (403 on /v1/bundleIds), the subscription groups list
    /// is rate-limited once (429, Retry-After 7) and one price list fails once (503).
    static let everydayScenario = SyntheticAppStoreConnect.Scenario(
        forbiddenPathPrefixes: ["/v1/bundleIds"],
        rateLimitedOnce: (path: "/v1/apps/\(SyntheticASCWorld.appID)/subscriptionGroups", retryAfter: "7"),
        unavailableOnce: "/v1/inAppPurchasePriceSchedules/6447028000/manualPrices")

    @Test func pullsEveryPageRetriesAndRecordsWhatTheRoleMayNotRead() async throws {
        let key = try TestAPIKey()
        let pull = try await SyntheticPull.run(ASCPullTests.everydayScenario, key: key, subset: try requireSubset())
        let result = try pull.result
        #expect(pull.api.problems == [], "requests and answers must follow the API subset")

        let requests = pull.api.requests
        let listPages = requests.filter { $0.path == "/v1/apps/\(SyntheticASCWorld.appID)/inAppPurchasesV2" }
        #expect(listPages.count == 2, "three In-App Purchases at two a page: two pages")
        #expect(listPages.contains { request in request.query.contains { $0.name == "cursor" } }, "the second page came from links.next")
        #expect(requests.filter { $0.path == "/v1/inAppPurchaseAvailabilities/6447028000/availableTerritories" }.count == 3, "five territories: three pages")
        // The 429 was waited out for its Retry-After, the 503 with backoff (1 s base, half of it
        // jittered with the injected 0.5), and both requests were sent again.
        #expect(pull.sleeps.sorted() == [0.75, 7])
        #expect(result.statistics.retries == 2)
        #expect(requests.filter { $0.status == 429 }.count == 1 && requests.filter { $0.status == 503 }.count == 1)
        #expect(result.statistics.requests == requests.count)
        #expect(result.statistics.pages == requests.filter { $0.status == 200 }.count)
        #expect(pull.api.tokenCount == 1, "one token, reused for the whole pull")
        print("ASC pull against the loopback server: \(result.statistics.requests) requests, \(result.statistics.pages) pages, "
              + "\(result.statistics.retries) retries, \(String(format: "%.2f", pull.seconds)) s (waits recorded, not slept: \(pull.sleeps))")

        let snapshot = try SnapshotIndex(result.text)
        let meta = try #require(snapshot.document["meta"]?["iapdoctor"])
        #expect(meta["format"] == "iapdoctor-asc-snapshot/1")
        #expect(meta["fetched_at"] == "2026-11-18T17:46:40Z")
        #expect(meta["bundle_id"] == .string(SyntheticASCWorld.bundleID))
        let unavailable = snapshot.unavailable
        #expect(unavailable.count == 1)
        let forbidden = try #require(unavailable.first)
        #expect(forbidden["request"]?.stringValue?.hasPrefix("GET /v1/bundleIds?filter[identifier]=\(SyntheticASCWorld.bundleID)&") == true)
        #expect(forbidden["status"] == 403)
        #expect(forbidden["code"] == "FORBIDDEN_ERROR")
        #expect(forbidden["title"] == "This request is forbidden for security reasons")
        #expect(forbidden["detail"] == "The API key in use does not allow this request")
        #expect(forbidden["needs_role"]?.stringValue?.contains("Certificates, Identifiers & Profiles") == true)
        #expect(!snapshot.resources.keys.contains { $0.type == "bundleIds" || $0.type == "profiles" }, "nothing is made up for the forbidden request")
        #expect(key.leaks(in: result.text) == [])
    }

    @Test func theSnapshotHoldsWhatWasFetchedAndOnlyThat() async throws {
        let pull = try await SyntheticPull.run(ASCPullTests.everydayScenario, key: try TestAPIKey(), subset: try requireSubset())
        let snapshot = try SnapshotIndex(try pull.result.text)
        let app = SyntheticASCWorld.appID

        // The fuzzy filter's other app is dropped; the app links its products and groups.
        #expect(snapshot["apps", app]?["attributes"]?["bundleId"] == .string(SyntheticASCWorld.bundleID))
        #expect(snapshot["apps", SyntheticASCWorld.decoyAppID] == nil)
        #expect(snapshot.ids("apps", app, "inAppPurchasesV2") == ["6447028000", "6447028001", "6447028002"])
        #expect(snapshot.ids("apps", app, "subscriptionGroups") == ["21000001"])

        // A complete product: included linkage, territories over three pages, prices with points.
        // Its localizations are on the latest of its versions; the older list is empty.
        #expect(snapshot.ids("inAppPurchases", "6447028000", "inAppPurchaseLocalizations") == [])
        #expect(snapshot.ids("inAppPurchases", "6447028000", "versions") == ["6447028301", "6447028302"])
        #expect(snapshot.ids("inAppPurchaseVersions", "6447028302", "localizations") == ["6447028101"])
        #expect(snapshot.ids("inAppPurchaseVersions", "6447028301", "localizations") == nil, "an older version's are not asked for")
        #expect(snapshot["inAppPurchaseVersions", "6447028302"]?["attributes"]?["state"] == "APPROVED")
        #expect(snapshot.linkage("inAppPurchases", "6447028000", "appStoreReviewScreenshot")?["id"] == "6447028202")
        #expect(snapshot["inAppPurchaseAppStoreReviewScreenshots", "6447028202"]?["attributes"]?["assetDeliveryState"]?["state"] == "COMPLETE")
        #expect(snapshot.ids("inAppPurchaseAvailabilities", "6447028000", "availableTerritories") == ["USA", "CAN", "GBR", "DEU", "FRA"])
        #expect(snapshot.ids("inAppPurchasePriceSchedules", "6447028000", "manualPrices") == ["SYNTH-PRICE-0000-USA"])
        #expect(snapshot.linkage("inAppPurchasePrices", "SYNTH-PRICE-0000-USA", "inAppPurchasePricePoint")?["id"] == "SYNTH-PP-0000-USA")
        #expect(snapshot["inAppPurchasePricePoints", "SYNTH-PP-0000-USA"]?["attributes"] == ["customerPrice": "0.99"], "only the amount is asked for")
        #expect(snapshot["territories", "CAN"]?["attributes"]?["currency"] == "CAD")
        // Automatic prices follow the base price and are not fetched; one manual price's
        // territory is the base, so the base territory is not asked for either.
        #expect(snapshot.linkage("inAppPurchasePriceSchedules", "6447028000", "automaticPrices") == nil)
        #expect(snapshot["inAppPurchasePrices", "SYNTH-PRICE-0000-CAN"] == nil)
        #expect(snapshot.linkage("inAppPurchasePriceSchedules", "6447028000", "baseTerritory") == nil)
        #expect(!pull.api.requests.contains { $0.path.hasSuffix("/automaticPrices") || $0.path == "/v1/inAppPurchasePriceSchedules/6447028000/baseTerritory" })
        // Manual prices in two territories: which is the base is asked.
        #expect(snapshot.ids("inAppPurchasePriceSchedules", "6447028002", "manualPrices") == ["SYNTH-PRICE-0002-GBR", "SYNTH-PRICE-0002-USA"])
        #expect(snapshot.linkage("inAppPurchasePriceSchedules", "6447028002", "baseTerritory")?["id"] == "USA")

        // The MISSING_METADATA product: fetched and empty is `[]` or null, never left out.
        #expect(snapshot.ids("inAppPurchases", "6447028001", "inAppPurchaseLocalizations") == [])
        #expect(snapshot.linkage("inAppPurchases", "6447028001", "appStoreReviewScreenshot") == .null, "404 on the screenshot: there is none")
        #expect(snapshot.linkage("inAppPurchases", "6447028001", "inAppPurchaseAvailability") == .null)
        #expect(snapshot.linkage("inAppPurchases", "6447028001", "iapPriceSchedule")?["id"] == "6447028001")
        #expect(snapshot.ids("inAppPurchasePriceSchedules", "6447028001", "manualPrices") == [])
        #expect(snapshot.linkage("inAppPurchasePriceSchedules", "6447028001", "baseTerritory") == nil, "no price: no base to ask for")
        #expect(snapshot["inAppPurchases", "6447028001"]?["attributes"]?["reviewNote"] == .null)
        // Localizations past the included linkage's cap came from their own list.
        #expect(snapshot.ids("inAppPurchases", "6447028002", "inAppPurchaseLocalizations") == ["6447028102", "6447028103", "6447028104"])
        #expect(snapshot["inAppPurchaseLocalizations", "6447028104"]?["attributes"]?["name"] == "Débloquer")

        // Subscriptions: plan availability territories past the cap, prices, the older
        // availability endpoint where the server has no planAvailabilities.
        #expect(snapshot.ids("subscriptionGroups", "21000001", "subscriptions") == ["6450000001", "6450000002"])
        #expect(snapshot.ids("subscriptionGroups", "21000001", "subscriptionGroupLocalizations") == ["21000101"])
        #expect(snapshot.linkage("subscriptions", "6450000001", "group")?["id"] == "21000001")
        #expect(snapshot.ids("subscriptions", "6450000001", "planAvailabilities") == ["6450000301"])
        #expect(snapshot.ids("subscriptionPlanAvailabilities", "6450000301", "availableTerritories") == ["USA", "CAN", "GBR"])
        #expect(snapshot.ids("subscriptions", "6450000001", "prices") == ["SYNTH-SUBPRICE-USA", "SYNTH-SUBPRICE-CAN"])
        #expect(snapshot.linkage("subscriptionPrices", "SYNTH-SUBPRICE-CAN", "subscriptionPricePoint")?["id"] == "SYNTH-SUBPP-CAN")
        #expect(snapshot.linkage("subscriptions", "6450000002", "planAvailabilities") == nil, "not found: unknown, not empty")
        #expect(snapshot.linkage("subscriptions", "6450000002", "subscriptionAvailability")?["id"] == "6450000002")
        #expect(snapshot.ids("subscriptionAvailabilities", "6450000002", "availableTerritories") == ["USA"])
        #expect(snapshot.linkage("subscriptions", "6450000002", "appStoreReviewScreenshot") == .null)
        #expect(snapshot.ids("subscriptions", "6450000002", "prices") == [])
        #expect(snapshot["sandboxTesters", "SYNTHTESTER1"]?["attributes"]?["territory"] == "USA")

        // Relationships carry `data` and nothing else, and only those the pull fetched: no
        // `pricePoints`, `content`, `images` … that the API lists as links.
        for (key, resource) in snapshot.resources {
            for (name, relationship) in resource["relationships"]?.objectValue ?? [:] {
                #expect(relationship.objectValue?.keys.sorted() == ["data"], "\(key.type)/\(key.id).\(name)")
            }
        }
        #expect(snapshot["inAppPurchases", "6447028000"]?["relationships"]?.objectValue?.keys.sorted()
            == ["appStoreReviewScreenshot", "iapPriceSchedule", "inAppPurchaseAvailability", "inAppPurchaseLocalizations", "versions"])
        // Sorted by type, then id; every key sorted.
        let order = (snapshot.document["data"]?.arrayValue ?? []).map { "\($0["type"]!.stringValue!)\u{0}\($0["id"]!.stringValue!)" }
        #expect(order == order.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    @Test func theSnapshotsResourcesAreTheAPIsShape() async throws {
        let subset = try requireSubset()
        let pull = try await SyntheticPull.run(ASCPullTests.everydayScenario, key: try TestAPIKey(), subset: subset)
        let snapshot = try SnapshotIndex(try pull.result.text)
        #expect(snapshot.resources.count > 30)
        for (key, resource) in snapshot.resources {
            let name = try #require(subset.resourceSchema(forType: key.type), "a schema for \(key.type)")
            let problems = subset.validate(resource, against: ["$ref": .string("#/components/schemas/\(name)")], at: "/\(key.type)/\(key.id)")
            #expect(problems == [])
        }
    }

    @Test func theSameAnswersMakeTheSameBytes() async throws {
        let key = try TestAPIKey()
        let subset = try requireSubset()
        let first = try await SyntheticPull.run(ASCPullTests.everydayScenario, key: key, subset: subset)
        // No retries the second time, and one request at a time: a different arrival order.
        let second = try await SyntheticPull.run(.init(forbiddenPathPrefixes: ["/v1/bundleIds"]), key: key, subset: subset, concurrency: 1)
        #expect(try first.result.text == second.result.text)
        #expect(second.sleeps == [])
    }

    @Test func withFullAccessTheExactAppIDItsCapabilitiesAndProfilesAreRead() async throws {
        let pull = try await SyntheticPull.run(key: try TestAPIKey(), subset: try requireSubset())
        let result = try pull.result
        #expect(pull.api.problems == [])
        let snapshot = try SnapshotIndex(result.text)
        #expect(snapshot.unavailable == [])
        #expect(snapshot["bundleIds", "SYNTHBID01"]?["attributes"]?["seedId"] == "SYNTH12345")
        #expect(snapshot["bundleIds", "SYNTHBID02"] == nil, "the filter's other App ID is dropped")
        #expect(snapshot["bundleIdCapabilities", "SYNTHBID02_APP_GROUPS"] == nil, "and what it included")
        #expect(snapshot.ids("bundleIds", "SYNTHBID01", "bundleIdCapabilities") == ["SYNTHBID01_IN_APP_PURCHASE", "SYNTHBID01_PUSH_NOTIFICATIONS"])
        #expect(snapshot.ids("bundleIds", "SYNTHBID01", "profiles") == ["SYNTHPROF01"])
        #expect(snapshot.linkage("profiles", "SYNTHPROF01", "bundleId")?["id"] == "SYNTHBID01")
        let profile = try #require(snapshot["profiles", "SYNTHPROF01"]?["attributes"])
        #expect(profile["profileState"] == "ACTIVE")
        #expect(profile["profileContent"] == nil, "the .mobileprovision itself is not asked for")
        #expect(result.appFound)
    }

    @Test func aLapsedAgreementIsRecordedAndEndsThePull() async throws {
        let key = try TestAPIKey()
        let pull = try await SyntheticPull.run(.init(agreementsLapsed: true), key: key, subset: try requireSubset())
        let result = try pull.result
        #expect(pull.api.problems == [])
        #expect(pull.api.requests.count == 1, "every request would get the same answer: one is enough")
        #expect(result.stoppedBy?.code == APIError.agreementsCode)
        let snapshot = try SnapshotIndex(result.text)
        #expect(snapshot.document["data"] == [])
        let answered = try #require(snapshot.unavailable.first { $0["status"] != nil })
        #expect(answered["request"] == .string("GET /v1/apps?filter[bundleId]=\(SyntheticASCWorld.bundleID)&limit=200"))
        #expect(answered["status"] == 403)
        #expect(answered["code"] == "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED")
        #expect(answered["title"] == "A required agreement is missing or has expired.")
        #expect(answered["needs_role"] == nil, "no role helps: the agreement does")
        // The requests the pull did not send are listed too, so no reader takes the App ID or the
        // sandbox testers for missing: unknown, for the same reason.
        let notSent = snapshot.unavailable.filter { $0["status"] == nil }
        #expect(notSent.compactMap { $0["request"]?.stringValue?.split(separator: "?").first.map(String.init) }.sorted() == ["GET /v1/bundleIds", "GET /v2/sandboxTesters"])
        #expect(notSent.allSatisfy { $0["code"] == "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED" && $0["title"]?.stringValue?.hasPrefix("Not sent: ") == true })
    }

    @Test func aRefusedKeyEndsThePullWithOneClearError() async throws {
        let pull = try await SyntheticPull.run(.init(refusesKey: true), key: try TestAPIKey(), subset: try requireSubset())
        guard case .failure(let failure) = pull.outcome else {
            Issue.record("a 401 must fail the pull")
            return
        }
        #expect(failure.message.contains("401"))
        #expect(failure.help.contains("In-App Purchase key"))
        #expect(!failure.message.contains("\n"))
        #expect(pull.api.requests.count == 2, "the refused request is sent once more, with a new token")
    }

    /// Requests reuse their connections (keep-alive): a TLS handshake per request costs the real
    /// API a round trip or two each.
    @Test func connectionsAreKeptAlive() async throws {
        let pull = try await SyntheticPull.run(key: try TestAPIKey(), subset: try requireSubset(), concurrency: 3, keepAlive: true)
        _ = try pull.result
        #expect(pull.api.requests.count > 20)
        #expect(pull.connections <= 8, "\(pull.connections) connections for \(pull.api.requests.count) requests")
    }

    @Test func aSingle401IsRetriedWithANewToken() async throws {
        let pull = try await SyntheticPull.run(.init(refusesOnce: true), key: try TestAPIKey(), subset: try requireSubset())
        let result = try pull.result
        #expect(pull.api.problems == [])
        #expect(result.statistics.retries == 1)
        #expect(result.appFound)
        #expect(pull.api.requests.first?.status == 401)
    }

    @Test(arguments: [(-600.0, "ahead of"), (420.0, "behind")])
    func aClockFarFromTheServersIsNamed(_ serverOffset: TimeInterval, _ words: String) async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = formatter.string(from: SyntheticPull.now.addingTimeInterval(serverOffset))
        let pull = try await SyntheticPull.run(.init(refusesKey: true, dateHeader: date), key: try TestAPIKey(), subset: try requireSubset())
        guard case .failure(let failure) = pull.outcome else {
            Issue.record("a refused token must fail the pull")
            return
        }
        #expect(failure.message.contains("this machine's clock is \(Int(abs(serverOffset) / 60)) minutes \(words) App Store Connect's"), "\(failure.message)")
        #expect(failure.help.contains("network time"))
        #expect(pull.api.requests.count == 1, "a new token signed with the same clock would be refused too")
    }

    @Test func whenTheHourlyLimitRunsLowThePullSlowsDownThenStops() async throws {
        // 10 left: after the answer that says 8, each request waits a second; at 5, none is sent.
        let pull = try await SyntheticPull.run(
            .init(rateLimitRemaining: 10), key: try TestAPIKey(), subset: try requireSubset(),
            rateLimit: RateLimitPolicy(slowDownBelow: 8, slowDownDelay: 1, stopBelow: 5), concurrency: 1)
        let result = try pull.result
        #expect(pull.api.requests.count == 5)
        #expect(pull.sleeps == [1, 1, 1])
        #expect(result.stoppedBy?.code == "IAPDOCTOR.RATE_LIMIT_RESERVE")
        #expect(result.statistics.rateLimit == RateLimit(limit: 3600, remaining: 5))
        let unavailable = try SnapshotIndex(result.text).unavailable
        #expect(!unavailable.isEmpty)
        #expect(unavailable.allSatisfy { $0["code"] == "IAPDOCTOR.RATE_LIMIT_RESERVE" && $0["status"] == nil })
        #expect(unavailable.allSatisfy { $0["title"]?.stringValue?.hasPrefix("Not sent") == true })
        #expect(unavailable.first?["detail"]?.stringValue?.contains("5 of 3600") == true)
    }
}
