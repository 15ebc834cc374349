import AppStoreConnect
import Foundation
import Testing

@Suite("App Store Connect pull at scale", .serialized)
struct ASCScaleTests {
    @Test func probe() async throws {
        let subset = try requireSubset()
        let key = try TestAPIKey()
        let world = SyntheticScaleWorld.nodes(inAppPurchases: 200, subscriptions: 20)
        var scenario = SyntheticAppStoreConnect.Scenario()
        scenario.pageSize = 200
        scenario.includedLinkageCap = 50
        scenario.validatesAnswers = false
        scenario.rateLimitRemaining = 100_000
        let pull = try await SyntheticPull.run(scenario, key: key, subset: subset, concurrency: 8, keepAlive: true, world: world)
        let result = try pull.result
        print("requests", pull.api.requests.count, "bytes", result.text.utf8.count, "seconds", pull.seconds, "problems", pull.api.problems.prefix(3))
        var byPath: [String: Int] = [:]
        for r in pull.api.requests { byPath[r.path.split(separator: "/").enumerated().map { $0.offset == 2 ? "{id}" : String($0.element) }.joined(separator: "/"), default: 0] += 1 }
        for (k, v) in byPath.sorted(by: { $0.key < $1.key }) { print(v, k) }
    }
}
extension ASCScaleTests {
    @Test func dump() async throws {
        let subset = try requireSubset()
        let key = try TestAPIKey()
        let world = SyntheticScaleWorld.nodes(inAppPurchases: 20, subscriptions: 10)
        var scenario = SyntheticAppStoreConnect.Scenario()
        scenario.pageSize = 200
        scenario.includedLinkageCap = 50
        scenario.validatesAnswers = false
        let pull = try await SyntheticPull.run(scenario, key: key, subset: subset, concurrency: 8, keepAlive: true, world: world)
        try pull.result.text.write(toFile: "/tmp/scale-dump.json", atomically: true, encoding: .utf8)
    }
}
