import AppStoreConnect
import Foundation
import Testing
import TestSupport

/// `iapdoctor asc pull` as a user runs it: the built executable, its options and environment
/// variables, against the synthetic App Store Connect on a loopback port.
@Suite("asc pull command")
struct ASCCommandTests {
    /// Serves the synthetic API while `body` runs the executable.
    func withServer<T>(_ scenario: SyntheticAppStoreConnect.Scenario, key: TestAPIKey,
                       _ body: (SyntheticAppStoreConnect, String) throws -> T) throws -> T {
        let api = SyntheticAppStoreConnect(keyID: TestAPIKey.keyID, issuerID: TestAPIKey.issuerID,
                                           publicKey: key.privateKey.publicKey, subset: try requireSubset(), scenario: scenario)
        let server = try LoopbackHTTPServer { api.handle($0) }
        defer { server.stop() }
        api.baseURL = server.baseURL
        return try body(api, server.baseURL)
    }

    @Test func writesTheSnapshotFileWithTheKeyFromOptions() throws {
        let key = try TestAPIKey()
        let folder = try makeScratchFolder("asc-pull")
        defer { removeScratch(folder) }
        let output = folder + "/asc-snapshot.json"
        try withServer(.init(forbiddenPathPrefixes: ["/v1/bundleIds"]), key: key) { api, baseURL in
            let run = try runIAPDoctor(
                ["asc", "pull", "--bundle-id", SyntheticASCWorld.bundleID, "-o", output,
                 "--key-id", TestAPIKey.keyID, "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path],
                environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL, "ASC_KEY_ID": "", "ASC_ISSUER_ID": "", "ASC_PRIVATE_KEY_PATH": ""])
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output == "", "the snapshot goes to the file")
            #expect(api.problems == [])
            let snapshot = try SnapshotIndex(readText(output))
            #expect(snapshot["apps", SyntheticASCWorld.appID] != nil)
            #expect(snapshot.unavailable.count == 1)
            #expect(run.errors.contains("wrote \(output): "))
            #expect(run.errors.contains("unavailable: GET /v1/bundleIds?filter[identifier]=\(SyntheticASCWorld.bundleID)"))
            #expect(run.errors.contains("403 FORBIDDEN_ERROR (needs a key with the role Admin"))
            #expect(run.errors.contains("rate limit: "))
            for text in [run.output, run.errors, readText(output)] { #expect(key.leaks(in: text) == []) }
            // Only the snapshot is left in the folder: the temporary file was renamed over it.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["asc-snapshot.json"])
        }
    }

    @Test func takesTheKeyFromTheEnvironmentAndWritesToStandardOutput() throws {
        let key = try TestAPIKey()
        try withServer(.init(), key: key) { api, baseURL in
            // The `asc` CLI's variable names, and the PEM itself with `\n` for line breaks, as a
            // CI secret often holds it.
            let pemInOneLine = key.pem.replacingOccurrences(of: "\n", with: "\\n")
            let run = try runIAPDoctor(
                ["asc", "pull", "--bundle-id", SyntheticASCWorld.bundleID],
                environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL, "ASC_KEY_ID": TestAPIKey.keyID, "ASC_ISSUER_ID": TestAPIKey.issuerID,
                              "ASC_PRIVATE_KEY_PATH": "", "ASC_PRIVATE_KEY": pemInOneLine])
            #expect(run.status == 0, "\(run.errors)")
            let snapshot = try SnapshotIndex(run.output)
            #expect(snapshot["bundleIds", "SYNTHBID01"] != nil)
            #expect(snapshot.unavailable == [])
            #expect(api.problems == [])
            for text in [run.output, run.errors] { #expect(key.leaks(in: text) == [] && !text.contains(pemInOneLine)) }

            // fastlane's names work too.
            let fastlane = try runIAPDoctor(
                ["asc", "pull", "--bundle-id", SyntheticASCWorld.bundleID],
                environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL, "ASC_KEY_ID": "", "ASC_ISSUER_ID": "", "ASC_PRIVATE_KEY_PATH": "", "ASC_PRIVATE_KEY": "",
                              "APP_STORE_CONNECT_API_KEY_KEY_ID": TestAPIKey.keyID, "APP_STORE_CONNECT_API_KEY_ISSUER_ID": TestAPIKey.issuerID,
                              "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH": key.path])
            #expect(fastlane.status == 0, "\(fastlane.errors)")
            #expect(try SnapshotIndex(fastlane.output).resources.count == snapshot.resources.count)
        }
    }

    @Test func aRefusedKeyIsExitTwoWithOneClearError() throws {
        let key = try TestAPIKey()
        try withServer(.init(refusesKey: true), key: key) { _, baseURL in
            let output = scratchPath("refused", suffix: ".json")
            let run = try runIAPDoctor(
                ["asc", "pull", "--bundle-id", SyntheticASCWorld.bundleID, "-o", output, "--key-id", TestAPIKey.keyID,
                 "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path],
                environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL])
            #expect(run.status == 2)
            let lines = run.errors.split(separator: "\n")
            #expect(lines.count == 2 && lines[0].hasPrefix("error: App Store Connect refused the API key (401") && lines[1].hasPrefix("help: "))
            #expect(run.errors.contains("In-App Purchase key"))
            #expect(!FileManager.default.fileExists(atPath: output), "nothing is written")
            #expect(key.leaks(in: run.errors) == [])
        }
    }

    @Test func aLapsedAgreementIsWrittenAndExplained() throws {
        let key = try TestAPIKey()
        try withServer(.init(agreementsLapsed: true), key: key) { _, baseURL in
            let run = try runIAPDoctor(
                ["asc", "pull", "--bundle-id", SyntheticASCWorld.bundleID, "--key-id", TestAPIKey.keyID,
                 "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path],
                environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL])
            #expect(run.status == 0, "the snapshot holds the answer")
            #expect(try SnapshotIndex(run.output).unavailable.first?["code"] == "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED")
            #expect(run.errors.contains("a required agreement is missing or has expired"))
        }
    }

    @Test func checkPullsThenChecksWithTheDescriptorsBundleID() throws {
        let key = try TestAPIKey()
        let folder = try makeScratchFolder("asc-check")
        defer { removeScratch(folder) }
        let descriptor = folder + "/project.yaml"
        try """
            version: 1
            environment: sandbox
            app:
              name: Synthetic Coins
              platform: ios
              bundle_id: \(SyntheticASCWorld.bundleID)
            products:
              - product_id: com.example.synthetic.coins.500
                type: consumable
            """.write(toFile: descriptor, atomically: true, encoding: .utf8)
        try withServer(.init(forbiddenPathPrefixes: ["/v1/bundleIds"]), key: key) { api, baseURL in
            let run = try runIAPDoctor(
                ["check", descriptor, "--asc-pull", "--format", "json", "--key-id", TestAPIKey.keyID,
                 "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path],
                environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL])
            #expect(run.status == 0 || run.status == 1, "\(run.errors)")
            #expect(api.problems == [])
            #expect(api.requests.first?.query.first { $0.name == "filter[bundleId]" }?.value == SyntheticASCWorld.bundleID, "the descriptor's bundle ID")
            let report = try JSONValue.parse(Data(run.output.utf8))
            let inputs = report["inputs"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let snapshotPath = try #require(inputs.first { $0.hasSuffix("/asc-snapshot.json") }, "the pulled snapshot is an input: \(inputs)")
            let findings = report["findings"]?.arrayValue ?? []
            // What only the snapshot knows reached the check: the product's state, the failed request.
            #expect(findings.contains { $0["rule"] == "asc-missing-metadata" && $0["product_id"] == "com.example.synthetic.coins.500" })
            #expect(findings.contains { $0["rule"] == "asc-request-failed" && $0["file"] == .string(snapshotPath) })
            #expect(!FileManager.default.fileExists(atPath: snapshotPath), "the temporary snapshot is removed after the check")
            #expect(run.errors.contains("pulled App Store Connect for \(SyntheticASCWorld.bundleID): "))
            for text in [run.output, run.errors] { #expect(key.leaks(in: text) == []) }
        }
        let both = try runIAPDoctor(["check", descriptor, "--asc-pull", "--asc", "x.json"])
        #expect(both.status == 2 && both.errors.contains("not both"))
        let stray = try runIAPDoctor(["check", descriptor, "--bundle-id", "com.example.x"])
        #expect(stray.status == 2 && stray.errors.contains("--bundle-id is for --asc-pull"))
    }

    @Test func usageProblemsAreExitTwoBeforeAnyRequest() throws {
        let key = try TestAPIKey()
        let clean = ["ASC_KEY_ID": "", "ASC_ISSUER_ID": "", "ASC_PRIVATE_KEY_PATH": "", "ASC_PRIVATE_KEY": "",
                     "IAPDOCTOR_ASC_BASE_URL": "http://127.0.0.1:9"]
        let cases: [([String], [String: String], String)] = [
            (["--key-id", TestAPIKey.keyID, "--private-key", key.path], [:], "no App Store Connect Issuer ID"),
            (["--key-id", TestAPIKey.keyID, "--issuer-id", TestAPIKey.issuerID], [:], "no App Store Connect API private key"),
            (["--key-id", TestAPIKey.keyID, "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path + ".missing"], [:], "does not exist"),
            (["--key-id", TestAPIKey.keyID, "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path, "-o", "/nonexistent-folder/x.json"], [:], "does not exist"),
            (["--key-id", TestAPIKey.keyID, "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path], ["IAPDOCTOR_ASC_BASE_URL": "http://example.com"], "refusing to send"),
        ]
        for (arguments, environment, message) in cases {
            let run = try runIAPDoctor(["asc", "pull", "--bundle-id", "com.example.synthetic.coins"] + arguments,
                                       environment: clean.merging(environment) { $1 })
            #expect(run.status == 2, "\(arguments)")
            #expect(run.errors.hasPrefix("error: ") && run.errors.contains(message), "\(run.errors)")
            #expect(!run.errors.contains("Fatal error") && key.leaks(in: run.errors) == [])
        }
        let missingBundle = try runIAPDoctor(["asc", "pull"], environment: clean)
        #expect(missingBundle.status == 2)
        #expect(missingBundle.errors.contains("--bundle-id"))
    }
}

extension ASCCommandTests {
    /// The hourly limit stops the pull; the summary says how to continue, and `--resume` does,
    /// writing what one uninterrupted pull writes. The stopped snapshot is never written over.
    @Test func aStoppedPullIsResumedFromItsFile() throws {
        let key = try TestAPIKey()
        let folder = try makeScratchFolder("asc-resume-command")
        defer { removeScratch(folder) }
        let stopped = folder + "/asc-snapshot.json", resumed = folder + "/asc-snapshot-resumed.json", whole = folder + "/whole.json"
        let keyOptions = ["--key-id", TestAPIKey.keyID, "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path]
        func pull(_ scenario: SyntheticAppStoreConnect.Scenario, _ arguments: [String]) throws -> (status: Int32, errors: String) {
            try withServer(scenario, key: key) { _, baseURL in
                let run = try runIAPDoctor(["asc", "pull"] + arguments + keyOptions, environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL])
                return (run.status, run.errors)
            }
        }
        let first = try pull(.init(rateLimitRemaining: RateLimitPolicy().stopBelow + 10), ["--bundle-id", SyntheticASCWorld.bundleID, "-o", stopped])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.errors.contains("note: the pull stopped early (IAPDOCTOR.RATE_LIMIT_RESERVE)"))
        #expect(first.errors.contains("help: to continue (an hour later, or with another key): iapdoctor asc pull --resume \(stopped) -o \(resumed)"))
        let stoppedBytes = readText(stopped)

        let overwrite = try pull(.init(), ["--resume", stopped, "-o", stopped])
        #expect(overwrite.status == 2)
        #expect(overwrite.errors.contains("it is one of this run's inputs, and iapdoctor never writes to its inputs"))
        let other = try pull(.init(), ["--resume", stopped, "--bundle-id", "com.example.other", "-o", resumed])
        #expect(other.status == 2)
        #expect(other.errors.contains("the snapshot to resume was pulled for `\(SyntheticASCWorld.bundleID)`"))
        try "{\"data\": []}".write(toFile: whole, atomically: true, encoding: .utf8)
        let notOne = try pull(.init(), ["--resume", whole, "-o", resumed])
        #expect(notOne.status == 2)
        #expect(notOne.errors.contains("is not a snapshot `iapdoctor asc pull` wrote"))

        let second = try pull(.init(), ["--resume", stopped, "-o", resumed])
        #expect(second.status == 0, "\(second.errors)")
        #expect(!second.errors.contains("stopped early"))
        let third = try pull(.init(), ["--bundle-id", SyntheticASCWorld.bundleID, "-o", whole])
        #expect(third.status == 0)
        // The same bytes but for the time: the resumed snapshot keeps the stopped pull's.
        func withoutTime(_ text: String) -> String {
            text.split(separator: "\n").filter { !$0.contains("\"fetched_at\"") }.joined(separator: "\n")
        }
        #expect(withoutTime(readText(resumed)) == withoutTime(readText(whole)))
        #expect(try SnapshotIndex(readText(resumed)).document["meta"]?["iapdoctor"]?["fetched_at"] == SnapshotIndex(stoppedBytes).document["meta"]?["iapdoctor"]?["fetched_at"])
        #expect(readText(stopped) == stoppedBytes, "the resumed file is an input: never written")
    }
}

extension ASCCommandTests {
    /// An individual key has no Issuer ID: its tokens say `sub: user`. Forgetting the Issuer ID of
    /// a team key stays a usage error that names both kinds.
    @Test func anIndividualKeyPullsWithoutAnIssuer() throws {
        let key = try TestAPIKey()
        try withServer(.init(individualKey: true), key: key) { api, baseURL in
            let run = try runIAPDoctor(
                ["asc", "pull", "--bundle-id", SyntheticASCWorld.bundleID, "--key-id", TestAPIKey.keyID, "--individual-key", "--private-key", key.path],
                environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL, "ASC_ISSUER_ID": ""])
            #expect(run.status == 0, "\(run.errors)")
            #expect(api.problems == [], "every token says sub: user and has no iss")
            #expect(try SnapshotIndex(run.output)["apps", SyntheticASCWorld.appID] != nil)
        }
        let both = try runIAPDoctor(["asc", "pull", "--bundle-id", "com.acme.coins", "--key-id", TestAPIKey.keyID, "--individual-key",
                                     "--issuer-id", TestAPIKey.issuerID, "--private-key", key.path], environment: [:])
        #expect(both.status == 2)
        #expect(both.errors.contains("an individual key has no Issuer ID"))
        let neither = try runIAPDoctor(["asc", "pull", "--bundle-id", "com.acme.coins", "--key-id", TestAPIKey.keyID, "--private-key", key.path],
                                       environment: ["ASC_ISSUER_ID": "", "APP_STORE_CONNECT_API_KEY_ISSUER_ID": ""])
        #expect(neither.status == 2)
        #expect(neither.errors.contains("help: pass --issuer-id or set ASC_ISSUER_ID (a team key); an individual key has none: pass --individual-key"))
        // Refused: the message is about individual keys, and points a team key at its Issuer ID.
        try withServer(.init(refusesKey: true, individualKey: true), key: key) { _, baseURL in
            let run = try runIAPDoctor(
                ["asc", "pull", "--bundle-id", SyntheticASCWorld.bundleID, "--key-id", TestAPIKey.keyID, "--individual-key", "--private-key", key.path],
                environment: ["IAPDOCTOR_ASC_BASE_URL": baseURL])
            #expect(run.status == 2)
            #expect(run.errors.contains("refused the individual API key"))
            #expect(run.errors.contains("a team key needs its Issuer ID"))
        }
    }
}
