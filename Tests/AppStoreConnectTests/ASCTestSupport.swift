import AppStoreConnect
import Crypto
import Foundation
import Testing
import TestSupport

/// A throwaway API key made for each test (never a real one): its `.p8` in the scratch folder,
/// and the strings that must never appear in anything iapdoctor writes.
struct TestAPIKey {
    static let keyID = "SYNTH2KEY9"
    static let issuerID = "5a1e0000-1111-4222-8333-444455556666"

    let privateKey: P256.Signing.PrivateKey
    let pem: String
    let path: String

    init() throws {
        privateKey = P256.Signing.PrivateKey()
        pem = privateKey.pemRepresentation
        path = scratchPath("AuthKey_\(TestAPIKey.keyID)", suffix: ".p8")
        try pem.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func apiKey() throws -> APIKey {
        try APIKey(keyID: TestAPIKey.keyID, issuerID: TestAPIKey.issuerID, privateKeyFile: path)
    }

    /// The PEM's base64 lines, the raw scalar (base64 and hex), and the DER: none may leak.
    var secrets: [String] {
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        let raw = privateKey.rawRepresentation
        return body + [raw.base64EncodedString(), raw.map { String(format: "%02x", $0) }.joined(),
                       privateKey.derRepresentation.base64EncodedString(), body.joined()]
    }

    func leaks(in text: String) -> [String] {
        secrets.filter { !$0.isEmpty && text.contains($0) }
    }
}

/// Records the pull's waits instead of waiting, so a Retry-After of 7 s takes no time.
final class SleepRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TimeInterval] = []

    var sleeps: [TimeInterval] { lock.withLock { recorded } }

    var sleep: @Sendable (TimeInterval) async throws -> Void {
        { [self] seconds in lock.withLock { recorded.append(seconds) } }
    }
}

/// A synthetic App Store Connect on a loopback port, and the pull made against it.
struct SyntheticPull {
    /// 2026-11-18T17:46:40Z: the tokens' `iat` and the snapshot's `fetched_at`.
    static let now = Date(timeIntervalSince1970: 1_795_024_000)

    let api: SyntheticAppStoreConnect
    let outcome: Result<PullResult, PullFailure>
    let sleeps: [TimeInterval]
    let seconds: Double
    /// Connections the server accepted.
    let connections: Int

    var result: PullResult {
        get throws { try outcome.get() }
    }

    static func run(_ scenario: SyntheticAppStoreConnect.Scenario = .init(), key: TestAPIKey, subset: OpenAPISubset,
                    rateLimit: RateLimitPolicy = RateLimitPolicy(), concurrency: Int = 3,
                    maximumBytes: Int = SnapshotPull.defaultMaximumBytes, keepAlive: Bool = false,
                    world: [ResourceKey: SyntheticASCWorld.Node] = SyntheticASCWorld.nodes, resuming earlier: PartialSnapshot? = nil,
                    stall: StallPolicy = StallPolicy()) async throws -> SyntheticPull {
        let api = SyntheticAppStoreConnect(keyID: TestAPIKey.keyID, issuerID: TestAPIKey.issuerID,
                                           publicKey: key.privateKey.publicKey, subset: subset, scenario: scenario, world: world)
        let server = try LoopbackHTTPServer(keepAlive: keepAlive) { api.handle($0) }
        defer { server.stop() }
        api.baseURL = server.baseURL
        let recorder = SleepRecorder()
        let transport = PlatformHTTPTransport(stall: stall)
        defer { transport.close() }
        let clock: @Sendable () -> Date = { SyntheticPull.now }
        let client = APIClient(
            configuration: APIClient.Configuration(baseURL: try APIClient.validatedBaseURL(server.baseURL), concurrency: concurrency, rateLimit: rateLimit),
            transport: transport, signer: TokenSigner(key: try key.apiKey(), clock: clock),
            sleep: recorder.sleep, clock: clock, jitter: { 0.5 })
        let started = ContinuousClock.now
        let outcome: Result<PullResult, PullFailure>
        do {
            outcome = .success(try await SnapshotPull(client: client, clock: clock, maximumBytes: maximumBytes).run(bundleID: SyntheticASCWorld.bundleID, resuming: earlier))
        } catch {
            outcome = .failure(error)
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return SyntheticPull(api: api, outcome: outcome, sleeps: recorder.sleeps, seconds: seconds, connections: server.connections)
    }
}

/// The snapshot's resources by type and id.
struct SnapshotIndex {
    let document: JSONValue
    let resources: [ResourceKey: JSONValue]

    init(_ text: String) throws {
        document = try JSONValue.parse(Data(text.utf8))
        var resources: [ResourceKey: JSONValue] = [:]
        for resource in document["data"]?.arrayValue ?? [] {
            if let type = resource["type"]?.stringValue, let id = resource["id"]?.stringValue {
                resources[ResourceKey(type: type, id: id)] = resource
            }
        }
        self.resources = resources
    }

    subscript(_ type: String, _ id: String) -> JSONValue? { resources[ResourceKey(type: type, id: id)] }

    /// `relationships.<name>.data` of a resource; nil when the relationship has no `data`.
    func linkage(_ type: String, _ id: String, _ relationship: String) -> JSONValue? {
        self[type, id]?["relationships"]?[relationship]?["data"]
    }

    /// The ids a to-many linkage names.
    func ids(_ type: String, _ id: String, _ relationship: String) -> [String]? {
        linkage(type, id, relationship)?.arrayValue?.compactMap { $0["id"]?.stringValue }
    }

    var unavailable: [JSONValue] { document["meta"]?["iapdoctor"]?["unavailable"]?.arrayValue ?? [] }
}

/// Loaded once: the subset is half a megabyte.
let sharedSubset: OpenAPISubset? = try? OpenAPISubset.load()

func requireSubset() throws -> OpenAPISubset {
    try #require(sharedSubset, "cannot read \(OpenAPISubset.path)")
}
