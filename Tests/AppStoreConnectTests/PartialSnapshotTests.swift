import AppStoreConnect
import Testing

/// A snapshot read back for `asc pull --resume`: its ids go into request paths, so only App
/// Store Connect's shapes of id are accepted.
@Suite("Resumed snapshots")
struct PartialSnapshotTests {
    static func snapshot(id: String, related: String = "6447") -> [UInt8] {
        Array("""
            {"meta": {"iapdoctor": {"format": "iapdoctor-asc-snapshot/1", "bundle_id": "com.acme.coins", "fetched_at": "2026-11-30T10:00:00Z"}},
             "data": [{"type": "inAppPurchases", "id": \(id.debugDescription),
                       "relationships": {"iapPriceSchedule": {"data": {"type": "inAppPurchasePriceSchedules", "id": \(related.debugDescription)}}}}]}
            """.utf8)
    }

    @Test func idsThatAreNotPathSegmentsAreRefused() throws {
        for id in ["../../../../v1/users", "..", "6447/users", "6447?limit=1", "a b", "6447%2F.."] {
            for bytes in [Self.snapshot(id: id), Self.snapshot(id: "6447", related: id)] {
                let failure = try #require(throws: PullFailure.self) { try PartialSnapshot(bytes: bytes, file: "stopped.json") }
                #expect(failure.message.contains("is not an App Store Connect id"), "\(failure.message)")
                #expect(failure.message.hasPrefix("`stopped.json`:2:") || failure.message.hasPrefix("`stopped.json`:3:"), "\(failure.message)")
            }
        }
        for id in ["6447015612", "a1b2c3d4-e5f6-4789-abcd-ef0123456789", "eyJzIjoiNjQ0NyIsInQiOiJVU0EifQ", "abc=="] {
            _ = try PartialSnapshot(bytes: Self.snapshot(id: id, related: id), file: "stopped.json")
        }
        #expect(ResourceKey.isPathSegment("6447") && !ResourceKey.isPathSegment(".") && !ResourceKey.isPathSegment(""))
    }
}
