import Foundation
import IAPDoctor
import Testing

@testable import AppStoreConnect

/// What the pull keeps is bounded by what the snapshot may hold, whatever the server sends.
@Suite struct SnapshotStoreBoundsTests {
    static let stop = StopReason(code: "RATE_LIMIT_EXCEEDED", title: "Not sent: the limit", detail: nil)

    @Test func requestsNotSentAreListedUpToALimitAndCounted() async {
        var random = SystemRandomNumberGenerator()
        var orders: [[Int]] = [Array(0..<5000)]
        orders.append(orders[0].shuffled(using: &random))
        var listings: [[UnavailableRequest]] = []
        for order in orders {
            let store = SnapshotStore()
            for index in order {
                await store.recordUnavailable(UnavailableRequest(request: "GET /v2/inAppPurchases/\(index)/x", notSentBecause: Self.stop))
            }
            #expect(await store.notSentCount == 5000)
            listings.append(await store.unavailableRequests)
        }
        #expect(listings[0] == listings[1], "the same requests list the same way in any order")
        #expect(listings[0].count == SnapshotStore.maximumNotSentListed + 1)
        let summary = listings[0].first { $0.request.hasPrefix("GET (") }
        #expect(summary?.request == "GET (4000 more requests)")
        #expect(summary?.code == "RATE_LIMIT_EXCEEDED")
    }

    /// The pull stops short of what the check reads: the two modules state it once each.
    @Test func thePullStopsWhereTheCheckStopsReading() {
        #expect(SnapshotPull.checkedBytes == ASCSnapshot.maxFileBytes)
        #expect(SnapshotPull.checkedValues == ASCSnapshot.maxValues)
        #expect(SnapshotPull.defaultMaximumBytes < ASCSnapshot.maxFileBytes && SnapshotPull.defaultMaximumValues < ASCSnapshot.maxValues)
    }

    @Test func aResourceSeenManyTimesIsKeptOnceAndTheLaterAnswerWins() async throws {
        let store = SnapshotStore()
        let resource: (String) -> JSONValue = { name in
            .object(["type": "inAppPurchases", "id": "1", "attributes": .object(["name": .string(name)])])
        }
        await store.add(resource("aaaa"), origin: "GET /a", position: 0)
        let once = await store.estimatedBytes
        for index in 0..<10_000 { await store.add(resource("bbbb"), origin: "GET /b", position: index) }
        await store.add(resource("cccc"), origin: "GET /a", position: 1)
        #expect(await store.estimatedBytes == once, "the same size: one resource, one name")
        let document = try JSONValue.parse(Data(await store.takeContents(fetchedAt: Date(timeIntervalSince1970: 0), bundleID: "com.x").text.utf8))
        #expect(document["data"]?.arrayValue?.count == 1)
        #expect(document["data"]?.arrayValue?.first?["attributes"]?["name"] == "bbbb", "GET /b sorts after GET /a")
    }

    @Test func theEstimateIsAnUpperBoundAndNothingPastTheLimitIsKept() async throws {
        let store = SnapshotStore(maximumBytes: 20_000)
        var keys: [ResourceKey] = []
        for index in 0..<1000 {
            let key = ResourceKey(type: "territories", id: String(format: "T%03d", index))
            await store.add(.object(["type": "territories", "id": .string(key.id), "attributes": .object(["currency": "EUR"])]), origin: "GET /t", position: index)
            keys.append(key)
        }
        #expect(await store.isFull)
        // A linkage that does not fit is not kept, however large.
        await store.link(ResourceKey(type: "apps", id: "1"), "territories", .many(keys), rank: SnapshotStore.fetchedRank, origin: "GET /l")
        let document = try JSONValue.parse(Data(await store.takeContents(fetchedAt: Date(timeIntervalSince1970: 0), bundleID: "com.x").text.utf8))
        let data = JSONValue.object(["data": document["data"] ?? .null]).serialized(pretty: true)
        #expect(data.utf8.count <= 20_000)
        #expect(await store.estimatedBytes >= data.utf8.count)
        #expect(document["data"]?.arrayValue?.contains { $0["type"] == "apps" } == false)
    }
}
