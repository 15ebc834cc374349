import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// A finding about a secret never shows it: not in any `check` format, not in the report's HTML or
/// Markdown, not in part. The source line quoted under the finding shows the secret masked.
@Suite("Secrets are never printed")
struct SecretsTests {
    static let example = "examples/storekit-broken/Products.storekit"

    /// The example's private key, read from the file (so the test follows the file).
    static func key(in path: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let pair = object?["subscriptionOffersKeyPair"] as? [String: Any]
        return try #require(pair?["privateKey"] as? String)
    }

    /// The secret and its pieces: a 16-character window from the start, middle and end, so a
    /// truncated or wrapped copy is caught too (the shared DER prefix of every P-256 key is not a
    /// secret, so the windows start past it).
    static func pieces(of secret: String) -> [String] {
        let characters = Array(secret)
        guard characters.count > 64 else { return [secret] }
        return [secret] + [48, characters.count / 2, characters.count - 16].map { String(characters[$0..<($0 + 16)]) }
    }

    static func expectNoSecret(_ output: String, _ secret: String, in what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        // A Bool, not the output, goes into the expectation: a failure must not print the secret.
        let leaked = pieces(of: secret).contains { output.contains($0) }
        #expect(!leaked, "\(what) contains the secret (or 16 characters of it)", sourceLocation: sourceLocation)
    }

    /// Every output: the nine `check` formats, and `report` as HTML and as Markdown.
    static func everyOutput(of input: String, folder: String) throws -> [(what: String, text: String)] {
        var outputs: [(String, String)] = []
        for format in OutputFormat.allCases {
            let run = try runIAPDoctor(["check", input, "--format", format.rawValue])
            #expect(run.status == 1 || run.status == 0, "check --format \(format) exited \(run.status): \(run.errors)")
            #expect(!run.output.isEmpty, "check --format \(format) printed nothing")
            outputs.append(("check --format \(format)", run.output + run.errors))
        }
        for format in ["html", "markdown"] {
            let page = folder + "/report." + format
            let run = try runIAPDoctor(["report", input, "--format", format, "-o", page])
            #expect(run.status == 0, "report --format \(format) exited \(run.status): \(run.errors)")
            let text = readText(page)
            #expect(text.contains("storekit-private-key"), "report --format \(format) does not mention the finding")
            outputs.append(("report --format \(format)", text + run.output + run.errors))
        }
        #expect(outputs.count == OutputFormat.allCases.count + 2)
        return outputs
    }

    @Test func noFormatOfTheExampleContainsItsKey() throws {
        let secret = try Self.key(in: repositoryFile(Self.example))
        #expect(secret.count > 64)
        let folder = try makeScratchFolder("iapdoctor-secrets")
        defer { removeScratch(folder) }
        for (what, text) in try Self.everyOutput(of: Self.example, folder: folder) {
            Self.expectNoSecret(text, secret, in: what)
        }
        // The finding is there, and its source line with the key masked, not dropped.
        let text = try runIAPDoctor(["check", Self.example]).output
        #expect(text.contains("note[storekit-private-key]"))
        #expect(text.contains(#""privateKey": "[masked: \#(secret.count) characters]""#))
    }

    /// A key that is not Xcode's generated one is a warning, and masked the same way, also when the
    /// file puts the whole key pair on one line.
    @Test func aKeyXcodeDidNotGenerateIsAWarningAndMasked() throws {
        let folder = try makeScratchFolder("iapdoctor-secrets")
        defer { removeScratch(folder) }
        let secret = "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg" + String(UUID().uuidString.filter(\.isLetter).prefix(20)) + "Zq9x"
        let path = folder + "/Products.storekit"
        try """
            { "products": [], "settings": {}, "version": { "major": 3, "minor": 0 }, "subscriptionOffersKeyPair": { "id": "2X9R4HXF34", "privateKey": "\(secret)" } }

            """.write(toFile: path, atomically: true, encoding: .utf8)
        for (what, text) in try Self.everyOutput(of: path, folder: folder) {
            Self.expectNoSecret(text, secret, in: what)
        }
        let text = try runIAPDoctor(["check", path]).output
        #expect(text.contains("warning[storekit-private-key]"))
        #expect(text.contains("[masked: \(secret.count) characters]"))
    }

    @Test func aSecretIsMaskedInEveryTextOfAFindingAndOnlyWholeOnALine() {
        let secret = Secret("s3cr3t-value-0123456789")
        let finding = Finding(rule: "storekit-private-key", severity: .warning, checklist: nil,
                              message: "found s3cr3t-value-0123456789 here", help: "rotate s3cr3t-value-0123456789",
                              notes: ["was s3cr3t-value-0123456789"], location: nil, secret: secret)
        for text in [finding.message, finding.help ?? "", finding.notes.joined()] {
            #expect(!text.contains("s3cr3t-value-0123456789"))
            #expect(text.contains("[masked: 23 characters]"))
        }
        #expect("\(secret)" == "<secret>")
        #expect(String(reflecting: secret) == "<secret>")
        #expect(secret.maskedSourceLine(#"  "key": "s3cr3t-value-0123456789","#) == #"  "key": "[masked: 23 characters]","#)
        // Half a secret on a line (one split over lines) is not quoted at all.
        #expect(secret.maskedSourceLine(#"  "key": "s3cr3t-value-"#) == nil)
    }

    /// A committed shared secret is reported at its value, its line quoted with the value masked,
    /// and no format prints it.
    @Test func aCommittedSharedSecretIsAtItsLineAndMaskedEverywhere() throws {
        let fixture = FixtureFolder("shared-secret")
        let value = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
        fixture.write("src/subscriptions.ts", "export const CONFIG = {\n  APPLE_SHARED_SECRET: \"\(value)\",\n};\n")
        fixture.write("project.yaml", "version: 1\napp:\n  bundle_id: com.acme.coins\n  sources: [src]\n")
        let text = try runIAPDoctor(["check", fixture.folder + "/project.yaml"]).output
        #expect(text.contains("src/subscriptions.ts:2:24"), "\(text)")
        #expect(text.contains("2 |   APPLE_SHARED_SECRET: \"[masked: 32 characters]\","), "\(text)")
        for format in ["text", "json", "sarif", "junit", "github", "xcode", "gitlab", "checkstyle", "markdown", "html"] {
            let output = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--format", format]).output
            #expect(!output.contains(value), "\(format) prints the secret")
            #expect(!output.contains(String(value.prefix(12))), "\(format) prints part of the secret")
        }
    }
}
