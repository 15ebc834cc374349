import AppStoreConnect
import Foundation
import Testing
import TestSupport

/// `iapdoctor revenuecat pull` as a user runs it: the built executable, the key in the
/// environment, a loopback RevenueCat, and `check` reading what it wrote.
@Suite("revenuecat pull command")
struct RevenueCatCommandTests {
    func withServer<T>(_ api: FakeRevenueCat, _ body: (String) throws -> T) throws -> T {
        let server = try LoopbackHTTPServer { api.handle($0) }
        defer { server.stop() }
        return try body(server.baseURL + "/v2")
    }

    static func example(_ name: String) throws -> JSONValue {
        try JSONValue.parse(Data(readText(repositoryFile("examples/revenuecat/snapshots/\(name).json")).utf8))
    }

    /// The app of examples/revenuecat with the descriptor of examples/healthy, no snapshot named.
    static func app() -> FixtureFolder {
        let fixture = FixtureFolder("revenuecat-pull")
        fixture.write("Sources/Store.swift", readText(repositoryFile("examples/revenuecat/Sources/Store.swift")))
        fixture.write("project.yaml", readText(repositoryFile("examples/healthy/project.yaml"))
            .replacingOccurrences(of: "  storekit_api: storekit2\n", with: "  storekit_api: storekit2\n  sources: [Sources]\n"))
        return fixture
    }

    @Test func thePulledSnapshotIsWhatCheckReads() throws {
        let fixture = Self.app()
        let output = fixture.folder + "/revenuecat-snapshot.json"
        let api = FakeRevenueCat(snapshot: try Self.example("healthy"))
        try withServer(api) { baseURL in
            let run = try runIAPDoctor(["revenuecat", "pull", "-o", output],
                                       environment: ["REVENUECAT_SECRET_API_KEY": FakeRevenueCat.secretKey, "IAPDOCTOR_REVENUECAT_BASE_URL": baseURL])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output == "", "the snapshot goes to the file")
            #expect(run.errors.contains("wrote \(output): project `Pocket Garden` (proj5e6f7a8b), 2 apps, 4 products, 2 offerings, 1 entitlement from 7 requests (7 pages, 0 retries)"), "\(run.errors)")
            #expect(run.errors.contains("next: iapdoctor check project.yaml --revenuecat \(output)"))
            for text in [run.output, run.errors, readText(output)] { #expect(!text.contains(FakeRevenueCat.secretKey)) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder).sorted() == ["Sources", "project.yaml", "revenuecat-snapshot.json"])
            let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--revenuecat", output])
            #expect(check.status == 0, "\(check.output)")
            #expect(check.output.contains("0 errors, 0 warnings, 0 notes"), "\(check.output)")
        }
    }

    @Test func aTypoInTheStoreIdentifierIsFoundFromThePull() throws {
        let fixture = Self.app()
        let api = FakeRevenueCat(snapshot: try Self.example("store-identifier-typo"))
        try withServer(api) { baseURL in
            let run = try runIAPDoctor(["revenuecat", "pull"],
                                       environment: ["REVENUECAT_SECRET_API_KEY": FakeRevenueCat.secretKey, "IAPDOCTOR_REVENUECAT_BASE_URL": baseURL])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.errors.contains("wrote the snapshot to standard output: "))
            fixture.write("revenuecat.json", run.output)
            let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--revenuecat", fixture.folder + "/revenuecat.json"])
            #expect(check.status == 1)
            #expect(check.output.contains("error[product-id-typo]: no product has the ID `com.greenthumb.pocketgarden.plusmonthly`"), "\(check.output)")
        }
    }

    @Test(arguments: [
        ("", "error: $REVENUECAT_SECRET_API_KEY is empty"),
        ("appl_PublicKeyOfTheApp", "error: $REVENUECAT_SECRET_API_KEY holds a public SDK key (`appl_…`, App Store): the REST API reads the project only with a secret key"),
        ("goog_PublicKeyOfTheApp", "error: $REVENUECAT_SECRET_API_KEY holds a public SDK key (`goog_…`, Play Store)"),
        ("sk_with space", "error: $REVENUECAT_SECRET_API_KEY is not a RevenueCat API key: it holds spaces"),
        ("just-a-word", "error: $REVENUECAT_SECRET_API_KEY is not a RevenueCat secret API key: those begin with `sk_`"),
    ])
    func aKeyThatIsNoSecretKeyIsAUsageError(_ key: String, _ message: String) throws {
        let run = try runIAPDoctor(["revenuecat", "pull"], environment: ["REVENUECAT_SECRET_API_KEY": key, "IAPDOCTOR_REVENUECAT_BASE_URL": "http://127.0.0.1:9/v2"])
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix(message), "\(run.errors)")
        #expect(run.errors.contains("create one in RevenueCat's Project settings → API keys"))
        if !key.isEmpty { #expect(!run.errors.contains(key)) }
    }

    @Test func noKeyIsAUsageError() throws {
        let run = try runIAPDoctor(["revenuecat", "pull"], environment: ["REVENUECAT_SECRET_API_KEY": "", "IAPDOCTOR_REVENUECAT_BASE_URL": "http://127.0.0.1:9/v2"])
        #expect(run.status == 2)
        let unset = try runIAPDoctor(["revenuecat", "pull"], launcher: ["-u", "REVENUECAT_SECRET_API_KEY", "-u", "REVENUECAT_API_KEY"])
        #expect(unset.status == 2)
        #expect(unset.errors.hasPrefix("error: no RevenueCat secret API key: $REVENUECAT_SECRET_API_KEY is not set\n"), "\(unset.errors)")
        // The name apps bundle is not read, and the message says why.
        let other = try runIAPDoctor(["revenuecat", "pull"], environment: ["REVENUECAT_API_KEY": FakeRevenueCat.secretKey], launcher: ["-u", "REVENUECAT_SECRET_API_KEY"])
        #expect(other.status == 2)
        #expect(other.errors.hasPrefix("error: no RevenueCat secret API key: $REVENUECAT_SECRET_API_KEY is not set ($REVENUECAT_API_KEY is not read: app builds often bundle what that name holds"), "\(other.errors)")
        #expect(!other.errors.contains(FakeRevenueCat.secretKey))
    }

    @Test func theKeyGoesOnlyToHTTPSOrThisMachine() throws {
        let run = try runIAPDoctor(["revenuecat", "pull"], environment: ["REVENUECAT_SECRET_API_KEY": FakeRevenueCat.secretKey, "IAPDOCTOR_REVENUECAT_BASE_URL": "http://api.example.net/v2"])
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("error: refusing to send the API key to `http://api.example.net/v2`"), "\(run.errors)")
    }

    @Test func aRefusedKeyIsOneErrorAndNoFile() throws {
        let fixture = Self.app()
        let output = fixture.folder + "/revenuecat-snapshot.json"
        try withServer(FakeRevenueCat(snapshot: try Self.example("healthy"))) { baseURL in
            let run = try runIAPDoctor(["revenuecat", "pull", "-o", output],
                                       environment: ["REVENUECAT_SECRET_API_KEY": "sk_RevokedKey000000000000000000", "IAPDOCTOR_REVENUECAT_BASE_URL": baseURL])
            #expect(run.status == 2)
            #expect(run.errors.hasPrefix("error: RevenueCat refused the API key (401)"), "\(run.errors)")
            #expect(!run.errors.contains("RevokedKey"))
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test func severalProjectsAreListedAndOneIsChosen() throws {
        let api = FakeRevenueCat(snapshot: try Self.example("healthy"), otherProjects: [("projother1", "Other App")])
        try withServer(api) { baseURL in
            let environment = ["REVENUECAT_SECRET_API_KEY": FakeRevenueCat.secretKey, "IAPDOCTOR_REVENUECAT_BASE_URL": baseURL]
            let run = try runIAPDoctor(["revenuecat", "pull"], environment: environment)
            #expect(run.status == 2)
            #expect(run.errors == "error: the key sees 2 projects: proj5e6f7a8b (Pocket Garden), projother1 (Other App)\nhelp: choose one with --project ID\n")
            let chosen = try runIAPDoctor(["revenuecat", "pull", "--project", "proj5e6f7a8b"], environment: environment)
            #expect(chosen.status == 0, "\(chosen.errors)")
            #expect(chosen.output.contains("\"id\": \"proj5e6f7a8b\""))
            let bad = try runIAPDoctor(["revenuecat", "pull", "--project", "../apps"], environment: environment)
            #expect(bad.status == 2)
            #expect(bad.errors.hasPrefix("error: `../apps` is not a RevenueCat project ID"))
        }
    }

    @Test func anUnreadableListIsShownInTheSummary() throws {
        var faults = FakeRevenueCat.Faults()
        faults.forbidden = ["/offerings"]
        try withServer(FakeRevenueCat(snapshot: try Self.example("healthy"), faults: faults)) { baseURL in
            let run = try runIAPDoctor(["revenuecat", "pull"],
                                       environment: ["REVENUECAT_SECRET_API_KEY": FakeRevenueCat.secretKey, "IAPDOCTOR_REVENUECAT_BASE_URL": baseURL])
            #expect(run.status == 0)
            #expect(run.errors.contains("unavailable: GET /projects/proj5e6f7a8b/offerings: 403 This API key does not have permission to perform this action. (needs a key with project_configuration:offerings:read, packages:read and products:read)"), "\(run.errors)")
        }
    }
}
