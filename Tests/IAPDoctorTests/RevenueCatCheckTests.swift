import Foundation
import TestSupport
import Testing

/// `check` with RevenueCat: the secret key never printed, the snapshot's offerings as requests,
/// a broken snapshot as a positioned error.
@Suite("RevenueCat checks")
struct RevenueCatCheckTests {
    static func project(sources: String, snapshot: String?) throws -> FixtureFolder {
        let fixture = FixtureFolder("revenuecat")
        fixture.write("Sources/Store.swift", readText(repositoryFile("examples/revenuecat/\(sources)/Store.swift")))
        var descriptor = readText(repositoryFile("examples/healthy/project.yaml"))
            .replacingOccurrences(of: "  storekit_api: storekit2\n", with: "  storekit_api: storekit2\n  sources: [Sources]\n")
        if let snapshot {
            fixture.write("revenuecat.json", snapshot)
            descriptor += "\nrevenuecat:\n  snapshot: revenuecat.json\n"
        }
        fixture.write("project.yaml", descriptor)
        return fixture
    }

    @Test func theSecretKeyIsNeverPrinted() throws {
        let root = try Self.project(sources: "SecretKey", snapshot: nil)
        for format in ["text", "json", "sarif", "github", "markdown"] {
            let (output, _, errors) = try runIAPDoctor(["check", root.folder + "/project.yaml", "--format", format])
            #expect(output.contains("revenuecat-secret-key"), "\(format)")
            #expect(!(output + errors).contains("SecretValue"), "\(format) shows the secret key")
        }
    }

    @Test func theOfferingsProductsAreTheRequests() throws {
        let snapshot = readText(repositoryFile("examples/revenuecat/snapshots/store-identifier-typo.json"))
        let root = try Self.project(sources: "Sources", snapshot: snapshot)
        let (output, status, _) = try runIAPDoctor(["check", root.folder + "/project.yaml"])
        #expect(status == 1)
        #expect(output.contains("error[product-id-typo]: no product has the ID `com.greenthumb.pocketgarden.plusmonthly`"), "\(output)")
        #expect(output.contains("revenuecat.json:79:35"), "\(output)")
        #expect(output.contains("help: in RevenueCat, set the App Store product's store identifier to `com.greenthumb.pocketgarden.plus.monthly`"))
        #expect(!output.contains("request-not-resolved"))
    }

    @Test func aHealthyProjectIsClean() throws {
        let root = try Self.project(sources: "Sources", snapshot: readText(repositoryFile("examples/revenuecat/snapshots/healthy.json")))
        let (output, status, _) = try runIAPDoctor(["check", root.folder + "/project.yaml"])
        #expect(status == 0)
        #expect(output.contains("0 errors, 0 warnings, 0 notes"), "\(output)")
    }

    @Test func appsThePullCouldNotReadAreAQuestionNotAFinding() throws {
        let healthy = readText(repositoryFile("examples/revenuecat/snapshots/healthy.json"))
        let start = try #require(healthy.range(of: "\"apps\": ["))
        let end = try #require(healthy.range(of: "\"products\": ["))
        let snapshot = healthy.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "\"apps\": [],\n  ")
            .replacingOccurrences(of: "\"unavailable\": []", with: "\"unavailable\": [{\"path\": \"/projects/proj5e6f7a8b/apps\", \"status\": 403, \"message\": \"Forbidden.\"}]")
        let root = try Self.project(sources: "Sources", snapshot: snapshot)
        let (output, _, _) = try runIAPDoctor(["check", root.folder + "/project.yaml", "--verbose"])
        #expect(!output.contains("revenuecat-no-app-store-app]"), "\(output)")
        #expect(output.contains("The snapshot lists the project's apps as unavailable (/projects/proj5e6f7a8b/apps)"), "\(output)")
    }

    @Test func aBrokenSnapshotIsAPositionedError() throws {
        let root = try Self.project(sources: "Sources", snapshot: "{\"format\": \"iapdoctor-revenuecat-snapshot/1\",\n \"apps\": {}}")
        let (output, status, _) = try runIAPDoctor(["check", root.folder + "/project.yaml"])
        #expect(status == 2)
        #expect(output.contains("`apps` is a list, not an object"), "\(output)")
        #expect(output.contains("revenuecat.json:2:10"), "\(output)")
    }
}
