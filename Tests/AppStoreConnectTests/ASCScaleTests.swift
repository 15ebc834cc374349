import AppStoreConnect
import Foundation
import IAPDoctor
import Testing
import TestSupport

/// The pull at the size of a large catalog, and a pull resumed where the hourly request limit
/// stopped it. The catalog: 1,000 In-App Purchases and 100 subscriptions, each available in 175
/// territories, served with the API's own page sizes (200) and included-linkage caps (50).
@Suite("App Store Connect pull at scale, and resumed", .serialized)
struct ASCScaleTests {
    static func atScale(remaining: Int = 3600) -> SyntheticAppStoreConnect.Scenario {
        var scenario = SyntheticAppStoreConnect.Scenario()
        scenario.pageSize = 200
        scenario.includedLinkageCap = 50
        scenario.validatesAnswers = false
        scenario.rateLimitRemaining = remaining
        return scenario
    }

    @Test func aLargeCatalogTakesTwoRequestsPerProduct() async throws {
        let world = SyntheticScaleWorld.nodes(inAppPurchases: 1000, subscriptions: 100)
        var scenario = Self.atScale()
        scenario.refusesRequest = 700
        let pull = try await SyntheticPull.run(scenario, key: try TestAPIKey(), subset: try requireSubset(), concurrency: 8, keepAlive: true, world: world)
        let result = try pull.result
        #expect(pull.api.problems == [])
        #expect(result.stoppedBy == nil)
        #expect(result.unavailable.isEmpty, "the 401 mid-pull was retried with a new token: \(result.unavailable.prefix(2))")
        #expect(pull.api.tokenCount == 2)
        // Per product two requests: an In-App Purchase's territories and manual prices, a
        // subscription's plan territories and prices. Besides: the app, its App ID, the sandbox
        // testers, five pages of In-App Purchases, the groups and each group's subscriptions.
        let requests = pull.api.requests.filter { $0.status == 200 }.count
        #expect(requests == 1000 * 2 + 100 * 2 + 1 + 1 + 1 + 5 + 1 + 10)
        #expect(Double(requests) / 1100 <= 2.1)
        #expect(!pull.api.requests.contains { $0.path.hasSuffix("/automaticPrices") || $0.path.hasSuffix("/baseTerritory") })

        // The check reads what the pull wrote and finds every product complete: available,
        // priced, localized, with a screenshot.
        let folder = try makeScratchFolder("asc-scale")
        defer { removeScratch(folder) }
        try ASCPulledEqualsWrittenTests.writeProject(in: folder)
        let diagnosis = try ASCPulledEqualsWrittenTests.diagnose(snapshot: result.text, in: folder, name: "asc-snapshot.json")
        #expect(diagnosis.products.count == 1100)
        let unknown = diagnosis.findings.filter { $0.rule == "asc-missing-metadata" || $0.rule == "missing-price" || $0.rule == "asc-request-failed" }
        #expect(unknown.isEmpty, "\(unknown.prefix(3).map(\.message))")
        print("scale pull: \(requests) requests for 1,100 products, \(result.text.utf8.count) bytes, \(String(format: "%.1f", pull.seconds)) s")
    }
}

extension ASCScaleTests {
    /// A pull the hourly limit stops after `sevenths` of the requests a whole pull sends, resumed
    /// in the next hour with a fresh quota, writes the same bytes as one pull that was never
    /// stopped; the stopped one checks to answers that are the full pull's or unknown, never wrong.
    @Test("a pull stopped by the hourly limit, resumed an hour later", arguments: Array(1...6), [1, 3])
    func aStoppedPullResumes(sevenths: Int, concurrency: Int) async throws {
        let key = try TestAPIKey()
        let subset = try requireSubset()
        let full = try await SyntheticPull.run(key: key, subset: subset).result
        let allowed = full.statistics.requests * sevenths / 7
        let reserve = RateLimitPolicy().stopBelow
        let firstHour = try await SyntheticPull.run(.init(rateLimitRemaining: reserve + allowed), key: key, subset: subset, concurrency: concurrency)
        let stopped = try firstHour.result
        #expect(stopped.stoppedBy?.code == "IAPDOCTOR.RATE_LIMIT_RESERVE")
        #expect(firstHour.api.requests.count <= allowed, "requests in flight are counted as spent")

        try ASCPulledEqualsWrittenTests.expectUnknownNeverWrong(full: full.text, partial: stopped.text)

        let earlier = try PartialSnapshot(bytes: Array(stopped.text.utf8), file: "stopped.json")
        let nextHour = try await SyntheticPull.run(key: key, subset: subset, concurrency: concurrency, resuming: earlier)
        let resumed = try nextHour.result
        #expect(nextHour.api.problems == [])
        #expect(resumed.stoppedBy == nil)
        #expect(resumed.text == full.text)
        // Written in pieces, the text is what the whole document prints as.
        #expect(resumed.text == (try JSONValue.parse(Data(resumed.text.utf8))).serialized(pretty: true) + "\n")
    }

    /// At scale, the resume asks again only for the short lists and for what was in flight.
    @Test func aResumedLargePullAsksForLittleTwice() async throws {
        let world = SyntheticScaleWorld.nodes(inAppPurchases: 300, subscriptions: 30)
        let key = try TestAPIKey()
        let subset = try requireSubset()
        let firstHour = try await SyntheticPull.run(Self.atScale(remaining: 400), key: key, subset: subset, concurrency: 8, keepAlive: true, world: world)
        let stopped = try firstHour.result
        #expect(stopped.stoppedBy?.code == "IAPDOCTOR.RATE_LIMIT_RESERVE")
        #expect(stopped.notSentCount > 0)
        let earlier = try PartialSnapshot(bytes: Array(stopped.text.utf8), file: "stopped.json")
        let nextHour = try await SyntheticPull.run(Self.atScale(), key: key, subset: subset, concurrency: 8, keepAlive: true, world: world, resuming: earlier)
        let resumed = try nextHour.result
        #expect(resumed.stoppedBy == nil && resumed.unavailable.isEmpty)
        let oneShot = 300 * 2 + 30 * 2 + 1 + 1 + 1 + 2 + 1 + 3
        let sent = firstHour.api.requests.count + nextHour.api.requests.count
        // Asked twice: the app, App ID and sandbox tester lists, the product lists, the groups'
        // subscription lists, and at most the eight requests in flight when the first hour stopped.
        #expect(sent <= oneShot + 3 + 2 + 1 + 3 + 8, "\(firstHour.api.requests.count) + \(nextHour.api.requests.count) for \(oneShot)")
        let full = try await SyntheticPull.run(Self.atScale(), key: key, subset: subset, concurrency: 8, keepAlive: true, world: world)
        #expect(try full.result.text == resumed.text)
        #expect(full.api.requests.count == oneShot)
    }
}
