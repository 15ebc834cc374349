import TestSupport
import AppStoreConnect
import Foundation
import Testing

/// The server `scripts/bench-asc-scale.sh` measures the release binary against: a synthetic
/// catalog of `$IAPDOCTOR_ASC_SCALE` products (ten In-App Purchases to a subscription, 175
/// territories) served while the script runs `asc pull` and `check` in their own processes. The
/// server writes `base-url` and `AuthKey.p8` into `$IAPDOCTOR_ASC_SCALE_DIR` and stops when the
/// script writes `done` there. Without those variables the test drives the same exchange itself
/// at a small size, so the benchmark's harness is checked on every run.
@Suite("App Store Connect scale server")
struct ASCScaleServer {
    static let environment = ProcessInfo.processInfo.environment

    @Test func serve() async throws {
        if let scale = Self.environment["IAPDOCTOR_ASC_SCALE"] {
            let folder = try #require(Self.environment["IAPDOCTOR_ASC_SCALE_DIR"])
            let served = try await Self.serve(products: Int(scale) ?? 1100, folder: folder)
            print("served \(served.requests) requests, problems: \(served.problems.prefix(3))")
            return
        }
        let folder = try makeScratchFolder("asc-scale-harness")
        defer { removeScratch(folder) }
        async let served = Self.serve(products: 22, folder: folder)
        // As the script does: wait for the server's address, pull with the release binary's
        // options (here the debug binary), then say `done`.
        var address: [String] = []
        for _ in 0..<600 where address.count < 3 {
            try await Task.sleep(nanoseconds: 50_000_000)
            address = ((try? String(contentsOfFile: folder + "/base-url", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        try #require(address.count == 3, "the server wrote no address")
        let given = address
        let run = try await Self.offThePool {
            try runIAPDoctor(
                ["asc", "pull", "--bundle-id", "com.example.synthetic.coins", "-o", folder + "/asc-snapshot.json",
                 "--key-id", given[1], "--issuer-id", given[2], "--private-key", folder + "/AuthKey.p8"],
                environment: ["IAPDOCTOR_ASC_BASE_URL": given[0]])
        }
        _ = FileManager.default.createFile(atPath: folder + "/done", contents: nil)
        let result = try await served
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains(" from \(result.requests) requests"), "the summary line the script reads: \(run.errors)")
        #expect(result.problems == [])
        let logged = try String(contentsOfFile: folder + "/requests.txt", encoding: .utf8).split(separator: "\n")
        #expect(logged.count == result.requests)
    }

    /// Serves the catalog until `folder/done` exists; how many requests it answered.
    static func serve(products: Int, folder: String) async throws -> (requests: Int, problems: [String]) {
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
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        try log.targets.joined(separator: "\n").write(toFile: folder + "/requests.txt", atomically: true, encoding: .utf8)
        return (api.requests.count, api.problems)
    }

    /// Runs blocking work (a child process) on a thread of its own, not the concurrency pool's,
    /// which the server's waiting loop needs.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

final class TargetLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    func append(_ target: String) { lock.withLock { recorded.append(target) } }
    var targets: [String] { lock.withLock { recorded } }
}
