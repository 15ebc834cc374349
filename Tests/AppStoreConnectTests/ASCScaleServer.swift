import TestSupport
import AppStoreConnect
import Foundation
import Testing

/// Not a test: `scripts/bench-asc-scale.sh` runs it to serve a synthetic catalog of
/// `$IAPDOCTOR_ASC_SCALE` products (ten In-App Purchases to a subscription, 175 territories)
/// while it measures the release binary's `asc pull` and `check` in their own processes. The
/// server writes `base-url` and `AuthKey.p8` into `$IAPDOCTOR_ASC_SCALE_DIR` and stops when the
/// script writes `done` there.
@Suite("App Store Connect scale server (benchmark only)")
struct ASCScaleServer {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["IAPDOCTOR_ASC_SCALE"] != nil, "run by scripts/bench-asc-scale.sh"))
    func serve() async throws {
        let products = Int(Self.environment["IAPDOCTOR_ASC_SCALE"] ?? "") ?? 1100
        let folder = try #require(Self.environment["IAPDOCTOR_ASC_SCALE_DIR"])
        let subscriptions = products / 11
        let world = SyntheticScaleWorld.nodes(inAppPurchases: products - subscriptions, subscriptions: subscriptions)
        let key = try TestAPIKey()
        var scenario = ASCScaleTests.atScale(remaining: 1_000_000)
        scenario.validatesAnswers = false
        let api = SyntheticAppStoreConnect(keyID: TestAPIKey.keyID, issuerID: TestAPIKey.issuerID, publicKey: key.privateKey.publicKey,
                                           subset: try requireSubset(), scenario: scenario, world: world)
        // The request targets, for replaying them through another HTTP client.
        let log = TargetLog()
        let server = try LoopbackHTTPServer(keepAlive: true) { request in
            log.append(request.target)
            return api.handle(request)
        }
        defer { server.stop() }
        api.baseURL = server.baseURL
        try key.pem.write(toFile: folder + "/AuthKey.p8", atomically: true, encoding: .utf8)
        try "\(server.baseURL)\n\(TestAPIKey.keyID)\n\(TestAPIKey.issuerID)\n".write(toFile: folder + "/base-url", atomically: true, encoding: .utf8)
        while !FileManager.default.fileExists(atPath: folder + "/done") {
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        try log.targets.joined(separator: "\n").write(toFile: folder + "/requests.txt", atomically: true, encoding: .utf8)
        print("served \(api.requests.count) requests, problems: \(api.problems.prefix(3))")
    }
}

final class TargetLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    func append(_ target: String) { lock.withLock { recorded.append(target) } }
    var targets: [String] { lock.withLock { recorded } }
}
