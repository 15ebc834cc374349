import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// App Store Connect snapshots (synthetic, written for these tests): reading, failure modes, and
/// how their facts reach the checklist and the verdicts.
@Suite("App Store Connect snapshots")
struct ASCSnapshotTests {
    static let seeds = "com.greenthumb.pocketgarden.seeds50"
    static let greenhouse = "com.greenthumb.pocketgarden.greenhouse"
    static let monthly = "com.greenthumb.pocketgarden.plus.monthly"

    /// An app record listing both IAPs and one group with the subscription: a complete product list.
    static func completeSnapshot(seedsState: String = "READY_TO_SUBMIT", extraMeta: String = "", bundleID: String = "com.greenthumb.pocketgarden") -> String {
        """
        { "data": [
          { "type": "apps", "id": "1", "attributes": { "bundleId": "\(bundleID)" },
            "relationships": {
              "inAppPurchasesV2": { "data": [ { "type": "inAppPurchases", "id": "11" }, { "type": "inAppPurchases", "id": "12" } ] },
              "subscriptionGroups": { "data": [ { "type": "subscriptionGroups", "id": "20" } ] } } },
          { "type": "inAppPurchases", "id": "11", "attributes": { "productId": "\(seeds)", "name": "Seed Pack 50",
              "inAppPurchaseType": "CONSUMABLE", "state": "\(seedsState)", "somethingNew": { "x": 1 } } },
          { "type": "inAppPurchases", "id": "12", "attributes": { "productId": "\(greenhouse)", "name": "Greenhouse Unlock",
              "inAppPurchaseType": "NON_CONSUMABLE", "state": "READY_TO_SUBMIT" } },
          { "type": "subscriptionGroups", "id": "20", "attributes": { "referenceName": "Pocket Garden Plus" },
            "relationships": { "subscriptions": { "data": [ { "type": "subscriptions", "id": "21" } ] } } },
          { "type": "subscriptions", "id": "21", "attributes": { "productId": "\(monthly)", "name": "Plus Monthly",
              "state": "READY_TO_SUBMIT", "subscriptionPeriod": "ONE_MONTH" } },
          { "type": "appEvents", "id": "99", "attributes": { "referenceName": "a type iapdoctor does not read" } },
          { "type": "bundleIds", "id": "B1", "attributes": { "identifier": "\(bundleID)", "seedId": "4KQ2H9XW7B", "platform": "IOS" },
            "relationships": { "bundleIdCapabilities": { "data": [ { "type": "bundleIdCapabilities", "id": "B1_IAP" } ] } } },
          { "type": "bundleIdCapabilities", "id": "B1_IAP", "attributes": { "capabilityType": "IN_APP_PURCHASE" } },
          { "type": "sandboxTesters", "id": "T1", "attributes": { "acAccountName": "sandbox.us@greenthumb.app", "territory": "USA" } }
        ],
          "meta": { "iapdoctor": { "format": "iapdoctor-asc-snapshot/1", "bundle_id": "\(bundleID)"\(extraMeta) } } }
        """
    }

    func check(_ snapshot: String, environment: String? = nil) throws -> Diagnosis {
        let folder = try makeScratchFolder("asc-check")
        defer { removeScratch(folder) }
        let path = folder + "/asc-snapshot.json"
        try snapshot.write(toFile: path, atomically: true, encoding: .utf8)
        return Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(
            paths: [repositoryFile("examples/healthy/project.yaml")], environment: environment.flatMap(Environment.init(rawValue:)),
            profilesDirectories: [], ascSnapshot: path))
    }

    /// The 1-based line of the first line of `text` containing `needle`.
    func line(of needle: String, in text: String) -> Int {
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    func status(_ diagnosis: Diagnosis, _ item: String) -> Diagnosis.ItemStatus? {
        diagnosis.checklist.first { $0.item.id == item }?.status
    }

    func verdict(_ diagnosis: Diagnosis, _ id: String) -> Diagnosis.Verdict? {
        diagnosis.products.first { $0.productID == id }?.verdict
    }

    @Test func aSnapshotThatAgreesWithTheHealthyProjectKeepsItClean() throws {
        let diagnosis = try check(Self.completeSnapshot())
        #expect(diagnosis.findings.map(\.rule).isEmpty, "\(diagnosis.findings.map { "\($0.rule): \($0.message)" })")
        #expect(diagnosis.exitCode == 0)
        #expect(diagnosis.products.allSatisfy { $0.verdict == .valid })
    }

    /// API 4.4.1 keeps localizations on versions: where the per-product list is empty, the latest
    /// version's are the product's, and that version's state is theirs.
    @Test func localizationsOnTheLatestVersionAreTheProducts() throws {
        let versioned = Self.completeSnapshot(seedsState: "MISSING_METADATA").replacingOccurrences(
            of: #""state": "MISSING_METADATA", "somethingNew": { "x": 1 } } },"#,
            with: #"""
                "state": "MISSING_METADATA" },
                  "relationships": { "inAppPurchaseLocalizations": { "data": [] },
                    "versions": { "data": [ { "type": "inAppPurchaseVersions", "id": "V2" }, { "type": "inAppPurchaseVersions", "id": "V1" } ] } } },
                { "type": "inAppPurchaseVersions", "id": "V1", "attributes": { "version": 1, "state": "APPROVED" },
                  "relationships": { "localizations": { "data": [] } } },
                { "type": "inAppPurchaseVersions", "id": "V2", "attributes": { "version": 2, "state": "REJECTED" },
                  "relationships": { "localizations": { "data": [ { "type": "inAppPurchaseLocalizations", "id": "L1" } ] } } },
                { "type": "inAppPurchaseLocalizations", "id": "L1", "attributes": { "locale": "en-US", "name": "Seeds", "description": "Fifty seeds." } },
                """#)
        #expect(versioned.contains("inAppPurchaseVersions"))
        let diagnosis = try check(versioned)
        let missing = try #require(diagnosis.findings.first { $0.rule == "asc-missing-metadata" && $0.productID == Self.seeds })
        #expect(missing.message.contains("a new `en-US` localization (App Review rejected it)"), "\(missing.message)")
        #expect(!missing.message.contains("a localization (display name and description)"))
        #expect(!diagnosis.findings.contains { $0.rule == "missing-localization" && $0.productID == Self.seeds })
    }

    @Test func unknownStatesAreQuestionsNotFailures() throws {
        let diagnosis = try check(Self.completeSnapshot(seedsState: "WAITING_FOR_SOMETHING_NEW"))
        #expect(diagnosis.exitCode == 0)
        #expect(status(diagnosis, "product-status") == .unknown)
        let question = diagnosis.checklist.first { $0.item.id == "product-status" }?.questions.first?.question ?? ""
        #expect(question.contains("WAITING_FOR_SOMETHING_NEW"))
        #expect(verdict(diagnosis, Self.seeds) == .unknown)
        #expect(verdict(diagnosis, Self.greenhouse) == .valid)
    }

    @Test("every App Store Connect state is mapped per environment", arguments: [
        ("WAITING_FOR_UPLOAD", "sandbox", "pass"), ("WAITING_FOR_UPLOAD", "review", "fail"), ("PROCESSING_CONTENT", "review", "fail"),
        ("MISSING_METADATA", "review", "fail"), ("READY_TO_SUBMIT", "review", "pass"), ("WAITING_FOR_REVIEW", "production", "fail"),
        ("PENDING_BINARY_APPROVAL", "review", "pass"), ("APPROVED", "production", "pass"), ("DEVELOPER_ACTION_NEEDED", "sandbox", "fail"),
        ("REJECTED", "testflight", "fail"), ("IN_REVIEW", "sandbox", "pass"), ("REMOVED_FROM_SALE", "sandbox", "pass"),
    ])
    func statesPerEnvironment(state: String, environment: String, expected: String) throws {
        let diagnosis = try check(Self.completeSnapshot(seedsState: state), environment: environment)
        let served = diagnosis.findings.filter { $0.rule == "status-not-served" && $0.productID == Self.seeds }
        #expect(served.isEmpty == (expected == "pass"), "\(state) in \(environment): \(served.map(\.message))")
        if let finding = served.first { #expect(finding.location?.file.hasSuffix("asc-snapshot.json") == true) }
    }

    @Test func theSnapshotWinsAndTheDisagreementNamesBothPlaces() throws {
        // The healthy descriptor says `ready_to_submit`; App Store Connect says Developer Action Needed.
        let diagnosis = try check(Self.completeSnapshot(seedsState: "DEVELOPER_ACTION_NEEDED"))
        let served = try #require(diagnosis.findings.first { $0.rule == "status-not-served" })
        #expect(served.location?.file.hasSuffix("asc-snapshot.json") == true)
        #expect(served.help?.contains("Monetization → In-App Purchases → `Seed Pack 50`") == true)
        let mismatch = try #require(diagnosis.findings.first { $0.rule == "descriptor-asc-mismatch" })
        #expect(mismatch.location?.file.hasSuffix("project.yaml") == true)
        #expect(mismatch.message.contains("`developer_action_needed` in App Store Connect (") && mismatch.message.contains("asc-snapshot.json:"))
        #expect(mismatch.severity == .warning)
        #expect(verdict(diagnosis, Self.seeds) == .invalid)
        #expect(verdict(diagnosis, Self.greenhouse) == .valid)
    }

    @Test func aDescriptorProductMissingFromACompleteListIsNotThere() throws {
        // No greenhouse in App Store Connect, although the descriptor lists it and the app requests it.
        let snapshot = Self.completeSnapshot().replacingOccurrences(of: ", { \"type\": \"inAppPurchases\", \"id\": \"12\" }", with: "")
        let diagnosis = try check(snapshot)
        #expect(diagnosis.findings.contains { $0.rule == "descriptor-asc-mismatch" && $0.message.contains(Self.greenhouse) })
        #expect(diagnosis.findings.contains { $0.rule == "requested-product-missing" })
        #expect(verdict(diagnosis, Self.greenhouse) == .invalid)
    }

    @Test func aLinkedProductTheSnapshotDoesNotHoldIsNotMissing() throws {
        // The app links three IAPs; the greenhouse's resource was not saved: it exists, unread.
        let snapshot = Self.completeSnapshot().replacingOccurrences(
            of: "{ \"type\": \"inAppPurchases\", \"id\": \"12\", \"attributes\"", with: "{ \"type\": \"unsavedThings\", \"id\": \"12\", \"attributes\"")
        let diagnosis = try check(snapshot)
        #expect(!diagnosis.findings.contains { $0.rule == "requested-product-missing" || $0.rule == "descriptor-asc-mismatch" },
                "\(diagnosis.findings.map { "\($0.rule): \($0.message)" })")
        #expect(verdict(diagnosis, Self.greenhouse) == .valid)
    }

    /// A group that links its subscription 200 times: one subscription, one warning, no false
    /// duplicate (the API lists each linked resource once).
    @Test func aRepeatedLinkIsOneLinkAndAWarning() throws {
        let link = "{ \"type\": \"subscriptions\", \"id\": \"21\" }"
        let repeated = Self.completeSnapshot().replacingOccurrences(
            of: "\"subscriptions\": { \"data\": [ \(link) ] }",
            with: "\"subscriptions\": { \"data\": [ " + Array(repeating: link, count: 200).joined(separator: ", ") + " ] }")
        #expect(repeated != Self.completeSnapshot())
        let snapshot = try ASCSnapshot.load(text: repeated, file: "s.json")
        let group = try #require(snapshot.resources[ASCSnapshot.Reference(type: "subscriptionGroups", id: "20")])
        #expect(group.linkage("subscriptions")?.references.count == 1)
        #expect(snapshot.repeatedLinks.map(\.count) == [200])
        let diagnosis = try check(repeated)
        #expect(!diagnosis.findings.contains { $0.rule == "duplicate-product-id" || $0.rule.hasPrefix("input-") }, "\(diagnosis.findings.map(\.message))")
        let warning = try #require(diagnosis.findings.first { $0.rule == "asc-snapshot-repeated-link" })
        #expect(warning.severity == .warning)
        #expect(warning.message.contains("lists subscriptions 21 200 times"), "\(warning.message)")
    }

    /// A large app pulled with a key that cannot read prices: 6,000 products and 6,000 failed
    /// requests, each found by its product, each question asked once (this took minutes when
    /// each product searched every failure and every typed product).
    @Test(.timeLimit(.minutes(1))) func sixThousandFailedPriceRequests() throws {
        let count = 6_000
        var data = ["{ \"type\": \"apps\", \"id\": \"1\", \"attributes\": { \"bundleId\": \"com.greenthumb.pocketgarden\" }, \"relationships\": { \"inAppPurchasesV2\": { \"data\": ["
            + (0..<count).map { "{ \"type\": \"inAppPurchases\", \"id\": \"I\($0)\" }" }.joined(separator: ", ") + "] } } }"]
        var failures: [String] = []
        for index in 0..<count {
            data.append("{ \"type\": \"inAppPurchases\", \"id\": \"I\(index)\", \"attributes\": { \"productId\": \"com.greenthumb.pocketgarden.p\(index)\", \"name\": \"P\(index)\", \"inAppPurchaseType\": \"CONSUMABLE\", \"state\": \"READY_TO_SUBMIT\" } }")
            failures.append("{ \"request\": \"GET /v2/inAppPurchases/I\(index)/iapPriceSchedule\", \"status\": 403, \"code\": \"FORBIDDEN_ERROR\", \"title\": \"not allowed\" }")
        }
        let snapshot = "{ \"data\": [" + data.joined(separator: ",\n") + "], \"meta\": { \"iapdoctor\": { \"format\": \"iapdoctor-asc-snapshot/1\", \"bundle_id\": \"com.greenthumb.pocketgarden\", \"unavailable\": ["
            + failures.joined(separator: ",\n") + "] } } }"
        let diagnosis = try check(snapshot)
        #expect(diagnosis.findings.filter { $0.rule == "asc-request-failed" }.count == count)
        #expect(diagnosis.findings.contains { $0.rule == "asc-request-failed" && $0.message.contains("/v2/inAppPurchases/I4321/") })
        for step in diagnosis.nextSteps {
            #expect(Set(step.questions.map(\.sentence)).count == step.questions.count, "each question once")
        }
    }

    @Test func numericIDsAreReadAsTheirText() throws {
        let snapshot = try ASCSnapshot.load(text: "{ \"data\": [ { \"type\": \"apps\", \"id\": 1500000001, \"attributes\": { \"bundleId\": \"com.x\" } } ] }", file: "s.json")
        #expect(snapshot.resource(.init(type: "apps", id: "1500000001")) != nil)
    }

    @Test func aSnapshotOfAnotherAppIsNotUsedForThisOne() throws {
        let text = Self.completeSnapshot(seedsState: "REJECTED", bundleID: "com.greenthumb.pocketgarden.lite")
        let diagnosis = try check(text)
        let other = try #require(diagnosis.findings.first { $0.rule == "asc-snapshot-other-app" })
        #expect(other.severity == .error && other.location?.line == line(of: "\"bundle_id\"", in: text))
        #expect(status(diagnosis, "bundle-id-matches") == .fail)
        // Its products are not this app's: the rejected state is not read.
        #expect(!diagnosis.findings.contains { $0.rule == "status-not-served" })
    }

    @Test func theAPIsFuzzyFilterIsNotAnAppRecord() throws {
        // Pulled for this bundle ID; App Store Connect returned only a longer one.
        let snapshot = Self.completeSnapshot().replacingOccurrences(
            of: "\"bundleId\": \"com.greenthumb.pocketgarden\"", with: "\"bundleId\": \"com.greenthumb.pocketgarden.pro\"")
        let diagnosis = try check(snapshot)
        let missing = try #require(diagnosis.findings.first { $0.rule == "app-record-missing" })
        #expect(missing.location?.file.hasSuffix("asc-snapshot.json") == true && missing.location?.line == 2)
        #expect(diagnosis.products.allSatisfy { $0.verdict == .invalid })
    }

    @Test func aLapsedAgreementMakesEveryProductInvalid() throws {
        let meta = """
            , "unavailable": [ { "request": "GET /v1/apps?filter[bundleId]=com.greenthumb.pocketgarden", "status": "403",
              "code": "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED", "title": "A required agreement is missing or has expired." } ]
            """
        let text = Self.completeSnapshot(extraMeta: meta)
        let diagnosis = try check(text)
        let lapse = try #require(diagnosis.findings.first { $0.rule == "asc-agreement-lapsed" })
        #expect(lapse.severity == .error && lapse.location?.line == line(of: "REQUIRED_AGREEMENTS", in: text))
        #expect(status(diagnosis, "developer-program") == .fail)
        #expect(diagnosis.products.allSatisfy { $0.verdict == .invalid })
    }

    @Test func aForbiddenRequestLeavesItsFactsUnknown() throws {
        // Nothing about products but the failed listing: no typed product answers either.
        let snapshot = """
            { "data": [ { "type": "apps", "id": "1", "attributes": { "bundleId": "com.greenthumb.pocketgarden" } },
                { "type": "sandboxTesters", "id": "T1", "attributes": { "acAccountName": "sandbox.us@greenthumb.app", "territory": "USA" } } ],
              "meta": { "iapdoctor": { "format": "iapdoctor-asc-snapshot/1", "bundle_id": "com.greenthumb.pocketgarden",
                "unavailable": [ { "request": "GET /v1/bundleIds?filter[identifier]=com.greenthumb.pocketgarden", "status": 403,
                  "code": "FORBIDDEN_ERROR", "title": "The API key in use does not allow this request" } ] } } }
            """
        let folder = try makeScratchFolder("asc-forbidden")
        defer { removeScratch(folder) }
        // A descriptor with no typed App ID facts.
        let descriptor = readText(repositoryFile("examples/healthy/project.yaml"))
            .replacingOccurrences(of: "  in_app_purchase: true\n", with: "")
        try descriptor.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        try snapshot.write(toFile: folder + "/asc.json", atomically: true, encoding: .utf8)
        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(
            paths: [folder + "/project.yaml"], profilesDirectories: [], ascSnapshot: folder + "/asc.json"))
        #expect(status(diagnosis, "app-id-iap-enabled") == .unknown)
        let failed = try #require(diagnosis.findings.first { $0.rule == "asc-request-failed" })
        #expect(failed.severity == .warning && failed.location?.line == 5)
        #expect(failed.help?.contains("Certificates, Identifiers & Profiles") == true)
        #expect(diagnosis.exitCode == 0)
    }

    @Test func aFolderOfSavedResponsesMergesLikeOneDocument() throws {
        let folder = try makeScratchFolder("asc-folder")
        defer { removeScratch(folder) }
        // Page 1 and page 2 of the IAP list, and the same resource twice (later attributes win).
        try """
            { "data": [ { "type": "inAppPurchases", "id": "11", "attributes": { "productId": "\(Self.seeds)", "name": "Seed Pack 50",
                "inAppPurchaseType": "CONSUMABLE", "state": "READY_TO_SUBMIT" } } ],
              "links": { "next": "https://api.appstoreconnect.apple.com/v1/apps/1/inAppPurchasesV2?cursor=AQ" } }
            """.write(toFile: folder + "/01-iaps.json", atomically: true, encoding: .utf8)
        try """
            { "data": [ { "type": "inAppPurchases", "id": "11", "attributes": { "state": "REMOVED_FROM_SALE" } } ] }
            """.write(toFile: folder + "/02-iaps.json", atomically: true, encoding: .utf8)
        let snapshot = try ASCSnapshot.load(path: folder)
        #expect(snapshot.files.count == 2)
        let resource = try #require(snapshot.resource(.init(type: "inAppPurchases", id: "11")))
        #expect(resource.string("state")?.value == "REMOVED_FROM_SALE")
        #expect(resource.string("state")?.location.file.hasSuffix("02-iaps.json") == true)
        #expect(resource.string("productId")?.value == Self.seeds)

        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(
            paths: [repositoryFile("examples/healthy/project.yaml")], profilesDirectories: [], ascSnapshot: folder))
        let removed = try #require(diagnosis.findings.first { $0.rule == "not-cleared-for-sale" })
        #expect(removed.location?.file.hasSuffix("02-iaps.json") == true)
        #expect(verdict(diagnosis, Self.seeds) == .invalid)
    }

    @Test("malformed snapshots stop the run with a positioned error", arguments: [
        ("{ \"data\": [ { \"type\": \"apps\", \"id\": \"1\", \"attributes\": { \"bundleId\": \"com.x", 1),
        ("[1, 2]", 1),
        ("{ \"links\": {} }", 1),
        ("{ \"data\": [\n  { \"id\": \"1\" } ] }", 2),
        ("{ \"data\": [ { \"type\": \"apps\", \"id\": \"1\",\n  \"relationships\": { \"x\": { \"data\": 3 } } } ] }", 2),
        ("{ \"data\": [], \"meta\": { \"iapdoctor\": {\n \"format\": \"iapdoctor-asc-snapshot/2\" } } }", 2),
    ])
    func malformedSnapshots(text: String, line: Int) throws {
        let diagnosis = try check(text)
        #expect(diagnosis.exitCode == 2)
        let problem = try #require(diagnosis.findings.first { $0.rule == "input-malformed" })
        #expect(problem.location?.file.hasSuffix("asc-snapshot.json") == true)
        #expect(problem.location?.line == line, "\(problem.message) at \(problem.location?.description ?? "-")")
        #expect(problem.location?.column ?? 0 > 0)
    }

    @Test func theCommandLineReadsTheDescriptorsSnapshotAndExitsTwoOnAMissingOne() throws {
        let run = try runIAPDoctor(["check", "examples/asc/project.yaml", "--format", "json"])
        // Its findings are warnings and notes (App Store Connect's Ready to Submit outranks the rest).
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("\"asc-missing-metadata\""))
        let missing = try runIAPDoctor(["check", "examples/healthy/project.yaml", "--asc", "examples/healthy/no-such-snapshot.json"])
        #expect(missing.status == 2)
        #expect(missing.output.contains("no-such-snapshot.json"))
    }

    /// The carried examples (synthetic ones and stand-ins for Apple's and the forum's), and the
    /// research folder's when `../shared` is beside the checkout.
    @Test(arguments: SharedFolder.folders("knowledge/asc/examples"))
    func theResearchExamplesReadAsAFolder(folder: String) throws {
        let snapshot = try ASCSnapshot.load(path: folder)
        #expect(snapshot.files.count >= 6)
        #expect(snapshot.unavailable.contains { $0.isAgreementLapse })
        #expect(!snapshot.resources(ofType: "inAppPurchases").isEmpty)
        #expect(!snapshot.resources(ofType: "subscriptions").isEmpty)
    }
}
