import AppStoreConnect
import Foundation
import IAPDoctor
@testable import RevenueCat
import Testing
import TestSupport

/// The pull against a loopback RevenueCat: what it reads, what it costs, how it meets the
/// answers RevenueCat's documentation shows (pages, expanded lists, 401, 403, 429, 5xx).
@Suite("RevenueCat pull")
struct RevenueCatPullTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_795_339_800)  // 2026-11-22T09:30:00Z

    /// Waits the client asked for, without waiting.
    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [TimeInterval] = []
        var all: [TimeInterval] { lock.withLock { list } }
        func record(_ seconds: TimeInterval) { lock.withLock { list.append(seconds) } }
    }

    struct Run {
        let result: Result<RevenueCatPullResult, PullFailure>
        let api: FakeRevenueCat
        let waits: [TimeInterval]

        func pulled() throws -> RevenueCatPullResult {
            switch result {
            case .success(let pulled): return pulled
            case .failure(let failure): throw failure
            }
        }

        func failure() -> PullFailure? {
            if case .failure(let failure) = result { return failure }
            return nil
        }
    }

    static func pull(_ api: FakeRevenueCat, project: String? = nil, key: String = FakeRevenueCat.secretKey) async throws -> Run {
        let server = try LoopbackHTTPServer { api.handle($0) }
        defer { server.stop() }
        let waits = Waits()
        let transport = PlatformHTTPTransport()
        defer { transport.close() }
        let client = RevenueCatClient(
            configuration: .init(baseURL: URL(string: server.baseURL + "/v2")!), key: try SecretAPIKey(key, source: "the test's key"),
            transport: transport, sleep: { waits.record($0) }, clock: { RevenueCatPullTests.fetchedAt }, jitter: { 0 })
        let pull = RevenueCatPull(client: client, clock: { RevenueCatPullTests.fetchedAt })
        let result: Result<RevenueCatPullResult, PullFailure>
        do {
            result = .success(try await pull.run(projectID: project))
        } catch {
            result = .failure(error)
        }
        return Run(result: result, api: api, waits: waits.all)
    }

    static func example(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Data(readText(repositoryFile("examples/revenuecat/snapshots/\(name).json")).utf8))
    }

    @Test func aProjectOf3Apps50ProductsAnd10OfferingsTakes8Requests() async throws {
        let project = syntheticProject(apps: 3, products: 50, offerings: 10)
        let run = try await Self.pull(FakeRevenueCat(snapshot: project))
        let pulled = try run.pulled()
        #expect(pulled.statistics.requests == 8)
        #expect(run.api.requests.map(\.path) == [
            "/v2/projects", "/v2/projects/projsynthetic/apps", "/v2/projects/projsynthetic/apps/app0000000/public_api_keys",
            "/v2/projects/projsynthetic/apps/app0000001/public_api_keys", "/v2/projects/projsynthetic/apps/app0000002/public_api_keys",
            "/v2/projects/projsynthetic/products", "/v2/projects/projsynthetic/offerings", "/v2/projects/projsynthetic/entitlements",
        ])
        #expect(run.api.problems == [])
        #expect(pulled.snapshot == project, "the pull reads back what the server was made from")
        #expect((pulled.apps, pulled.products, pulled.offerings, pulled.entitlements) == (3, 50, 10, 1))
        #expect(pulled.unavailable == [])
    }

    @Test(arguments: ["healthy", "key-other-app", "no-app-store-app", "offering-empty", "package-without-product"])
    func theExampleSnapshotsReadBackWhole(_ name: String) async throws {
        let example = try Self.example(name)
        let pulled = try await Self.pull(FakeRevenueCat(snapshot: example)).pulled()
        #expect(pulled.snapshot == example)
        // What the pull writes is what `check` reads.
        let snapshot = try RevenueCatSnapshot.load(text: pulled.text, file: "revenuecat-snapshot.json")
        #expect(snapshot.apps.count == example["apps"]?.arrayValue?.count)
        #expect(snapshot.fetchedAt?.value == "2026-11-22T09:30:00Z")
    }

    @Test func everyPageOfEveryListIsRead() async throws {
        // Pages of 7 (whatever `limit` asks), and expanded lists inside answers cut at 2.
        let project = syntheticProject(apps: 5, products: 40, offerings: 9)
        let api = FakeRevenueCat(snapshot: project, pageSize: 7, nestedPageSize: 2)
        let run = try await Self.pull(api)
        let pulled = try run.pulled()
        #expect(pulled.snapshot == project)
        let paths = run.api.requests.map(\.path)
        // 40 products in pages of 7: 6 requests; 9 offerings: 2; each offering's third package: 1 more.
        #expect(paths.filter { $0 == "/v2/projects/projsynthetic/products" }.count == 6)
        #expect(paths.filter { $0 == "/v2/projects/projsynthetic/offerings" }.count == 2)
        #expect(paths.filter { $0.hasSuffix("/packages") }.count == 9)
        // Entitlement with 12 products, 2 expanded: the rest from its endpoint in pages of 7.
        #expect(paths.filter { $0.hasSuffix("/entitlements/entl0000001/products") }.count == 2)
        // The packages' further pages are asked for with their products expanded.
        #expect(run.api.requests.filter { $0.path.hasSuffix("/packages") }.allSatisfy { $0.parameter("expand") == "items.product" })
        #expect(pulled.statistics.pages == pulled.statistics.requests)
    }

    @Test func aPackageWithManyProductsIsReadToTheEnd() async throws {
        var project = syntheticProject(apps: 3, products: 12, offerings: 1)
        // One package offering a product on every app and more: 5 associations, 2 expanded.
        let associations: [JSONValue] = (0..<5).map { index in
            let product = project["products"]!.arrayValue![index]
            return ["product_id": product["id"]!, "store_identifier": product["store_identifier"]!, "app_id": product["app_id"]!, "eligibility_criteria": "all"]
        }
        project = Self.replacingPackages(of: project, with: [["id": "pkgemany", "lookup_key": "$rc_annual", "display_name": "Annual", "position": 1,
                                                               "products": .array(associations)]])
        let run = try await Self.pull(FakeRevenueCat(snapshot: project, pageSize: 100, nestedPageSize: 2))
        #expect(try run.pulled().snapshot == project)
        #expect(run.api.requests.filter { $0.path.hasSuffix("/packages/pkgemany/products") }.count == 1)
    }

    static func replacingPackages(of project: JSONValue, with packages: [JSONValue]) -> JSONValue {
        guard case .object(var members) = project, var offerings = members["offerings"]?.arrayValue,
              case .object(var first) = offerings[0] else { return project }
        first["packages"] = .array(packages)
        offerings[0] = .object(first)
        members["offerings"] = .array(offerings)
        return .object(members)
    }

    @Test func aRefusedKeyEndsThePull() async throws {
        let run = try await Self.pull(FakeRevenueCat(snapshot: syntheticProject()), key: "sk_SomeOtherKeyThatIsNotTheServers")
        let failure = try #require(run.failure())
        #expect(failure.message.contains("RevenueCat refused the API key (401)"))
        #expect(failure.help.contains("New secret API key"))
        #expect(run.api.requests.count == 1)
    }

    @Test func aListTheKeyMayNotReadIsUnavailableAndThePullGoesOn() async throws {
        var faults = FakeRevenueCat.Faults()
        faults.forbidden = ["/entitlements", "/public_api_keys"]
        let run = try await Self.pull(FakeRevenueCat(snapshot: syntheticProject(), faults: faults))
        let pulled = try run.pulled()
        #expect(pulled.unavailable.map(\.path) == [
            "/projects/projsynthetic/apps/app0000000/public_api_keys", "/projects/projsynthetic/apps/app0000001/public_api_keys",
            "/projects/projsynthetic/apps/app0000002/public_api_keys", "/projects/projsynthetic/entitlements",
        ])
        #expect(pulled.unavailable.allSatisfy { $0.status == 403 })
        #expect(pulled.unavailable.last?.message == "This API key does not have permission to perform this action. (needs a key with project_configuration:entitlements:read)")
        #expect(pulled.offerings == 10)
        // Unread lists are left out, not written empty, and `check` knows them as unknown.
        let snapshot = try RevenueCatSnapshot.load(text: pulled.text, file: "s.json")
        #expect(snapshot.apps.allSatisfy { $0.keys.isEmpty })
        #expect(snapshot.unavailable.count == 4)
        #expect(pulled.snapshot["apps"]?.arrayValue?.first?["public_api_keys"] == nil)
    }

    @Test func rateLimitsAndServerErrorsAreWaitedOutAndRetried() async throws {
        var faults = FakeRevenueCat.Faults()
        let api429 = FakeRevenueCat(snapshot: syntheticProject()).error(429, "rate_limit_error", "Rate limit exceeded.")
        var withHeader = api429
        withHeader.headers.append(("Retry-After", "7"))
        let withBody = LoopbackHTTPServer.Response(
            status: 429, body: Data(#"{"type":"rate_limit_error","message":"Rate limit exceeded.","retryable":true,"backoff_ms":2500}"#.utf8))
        faults.answers = [
            "/products": [withHeader, withBody],
            "/offerings": [LoopbackHTTPServer.Response(status: 503, body: Data("upstream unavailable".utf8))],
        ]
        let run = try await Self.pull(FakeRevenueCat(snapshot: syntheticProject(), faults: faults))
        let pulled = try run.pulled()
        #expect(pulled.snapshot == syntheticProject())
        #expect(run.waits == [7, 3, 0.5], "Retry-After, then backoff_ms rounded up, then the policy's first backoff")
        #expect(pulled.statistics.retries == 3)
        #expect(pulled.statistics.requests == 11)
    }

    @Test func aServerErrorThatStaysIsUnavailable() async throws {
        var faults = FakeRevenueCat.Faults()
        let failing = FakeRevenueCat(snapshot: syntheticProject()).error(500, "server_error", "Internal error.")
        faults.answers = ["/offerings": Array(repeating: failing, count: 5)]
        let pulled = try await Self.pull(FakeRevenueCat(snapshot: syntheticProject(), faults: faults)).pulled()
        #expect(pulled.unavailable == [.init(path: "/projects/projsynthetic/offerings", status: 500, message: "Internal error.")])
        let snapshot = try RevenueCatSnapshot.load(text: pulled.text, file: "s.json")
        #expect(!snapshot.offeringsComplete)
    }

    @Test func aUsedUpWindowIsWaitedOut() async throws {
        var faults = FakeRevenueCat.Faults()
        faults.windowUsedUp = true
        let run = try await Self.pull(FakeRevenueCat(snapshot: syntheticProject(apps: 1, products: 3, offerings: 1), faults: faults))
        let pulled = try run.pulled()
        #expect(run.waits == Array(repeating: 60, count: pulled.statistics.requests - 1))
        #expect(pulled.statistics.retries == 0)
    }

    @Test func aPageLinkToAnotherOriginIsRefused() async throws {
        var faults = FakeRevenueCat.Faults()
        faults.offOriginNextPage = "/products"
        let run = try await Self.pull(FakeRevenueCat(snapshot: syntheticProject(), faults: faults))
        let failure = try #require(run.failure())
        #expect(failure.message.hasPrefix("refusing to follow the page link `https://api.example.net/v2/projects/projsynthetic/products?starting_after=x`"))
        #expect(!run.api.requests.contains { $0.path.contains("offerings") })
    }

    @Test func aRepeatingPageLinkStopsThatList() async throws {
        var faults = FakeRevenueCat.Faults()
        faults.repeatingNextPage = "/products"
        let run = try await Self.pull(FakeRevenueCat(snapshot: syntheticProject(), faults: faults))
        let pulled = try run.pulled()
        #expect(pulled.unavailable.map(\.message) == ["the API gave the same page link twice; the list was not read to its end"])
        #expect(pulled.products == 0, "part of a list would pass for the whole")
        #expect(run.api.requests.filter { $0.path.hasSuffix("/products") }.count == 1)
    }

    @Test func severalProjectsNeedOneChosen() async throws {
        let api = FakeRevenueCat(snapshot: syntheticProject(), otherProjects: [("projother", "Other")])
        let failure = try #require(try await Self.pull(api).failure())
        #expect(failure.message == "the key sees 2 projects: projsynthetic (Synthetic), projother (Other)")
        #expect(failure.help == "choose one with --project ID")
        let chosen = try await Self.pull(api, project: "projsynthetic").pulled()
        #expect(chosen.projectName == "Synthetic")
        #expect(chosen.products == 50)
    }

    @Test func aProjectListTheKeyMayNotReadIsNoObstacleWithAProjectID() async throws {
        var faults = FakeRevenueCat.Faults()
        faults.answers = ["/v2/projects": [FakeRevenueCat(snapshot: syntheticProject()).error(403, "authorization_error", "Forbidden.")]]
        let api = FakeRevenueCat(snapshot: syntheticProject(), faults: faults)
        let pulled = try await Self.pull(api, project: "projsynthetic").pulled()
        #expect(pulled.products == 50)
        #expect(pulled.snapshot["project"] == ["id": "projsynthetic"], "the name is unknown")
        #expect(pulled.unavailable == [])
    }

    @Test func idsFromAnswersStayOnePathSegment() {
        #expect(RevenueCatPull.pathSegment("app1a2b") == "app1a2b")
        #expect(RevenueCatPull.pathSegment("../../other") == "%2E%2E%2F%2E%2E%2Fother")
        #expect(RevenueCatPull.pathSegment("a?b#c") == "a%3Fb%23c")
    }
}
