import Foundation
@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
@testable import RuleEngine
@testable import Reporters
import Rules
import Testing
import TestSupport

@Suite("Descriptor loading and validation", .timeLimit(.minutes(1)))
struct DescriptorLoaderTests {
    func load(_ yaml: String) -> DescriptorLoader.Result {
        DescriptorLoader.load(bytes: Array(yaml.utf8), file: "project.yaml")
    }

    @Test
    func theSpecExampleUsesOnlyKnownKeysAndValidValues() throws {
        let path = SharedFolder.file("spec/project.example.yaml")
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing")
        let result = DescriptorLoader.load(path: path)
        #expect(result.problems.isEmpty, "\(result.problems.map { "\($0.location!): \($0.message)" })")
        let project = result.project
        #expect(project.app.bundleID?.value == "com.runmonster.runmonsterfree")
        #expect(project.app.productIDLists.count == 2)
        #expect(project.products.first?.status?.value == .readyToSubmit)
        #expect(project.products.first?.availability?.value.map(\.value) == ["USA", "GBR"])
        #expect(project.testing.sandboxAccount.storefront?.value == "USA")
        #expect(project.signing.profile.file?.value == "profiles/RunMonster_Development.mobileprovision")
    }

    @Test func everyProblemIsCollectedBeforeStopping() {
        let result = load("""
            environment: staging
            checked_at: yesterday
            app:
              bundle_identifier: com.x.y
              platform: iOS
            products:
              - product_id: com.x.y.a
                type: Non-Consumable
                status: READY_TO_SUBMIT
                cleared_for_sale: maybe
                price_tier: cheap
            """)
        let rules = result.problems.map(\.rule)
        #expect(rules.filter { $0 == "descriptor-invalid-value" }.count == 4)
        #expect(rules.contains("descriptor-missing-version"))
        #expect(rules.contains("descriptor-unknown-key"))
        #expect(result.hasErrors)
        let unknown = result.problems.first { $0.rule == "descriptor-unknown-key" }!
        #expect(unknown.message == "unknown key `bundle_identifier` in `app`; did you mean `bundle_id`?")
        #expect(unknown.location == SourceLocation(file: "project.yaml", line: 4, column: 3, endLine: 4, endColumn: 20))
        #expect(unknown.severity == .warning)
        let environment = result.problems.first { $0.message.hasPrefix("`environment`") }!
        #expect(environment.help!.contains("`xcode`, `sandbox`, `testflight`, `review` or `production`"))
        #expect(environment.location?.line == 1 && environment.location?.column == 14)
        // App Store Connect spellings are normalised.
        #expect(result.project.products[0].type?.value == .nonConsumable)
        #expect(result.project.products[0].status?.value == .readyToSubmit)
        #expect(result.project.app.platform?.value == .ios)
    }

    @Test func enumerationSpellingsNormalise() {
        #expect(ProductStatus(spelling: "Ready to Submit") == .readyToSubmit)
        #expect(ProductStatus(spelling: "READY_TO_SUBMIT") == .readyToSubmit)
        #expect(ProductStatus(spelling: "Developer Removed from Sale") == .developerRemovedFromSale)
        #expect(ProductType(spelling: "Auto-Renewable Subscription") == .autoRenewable)
        #expect(ProductType(spelling: "Non-Consumable") == .nonConsumable)
        #expect(AgreementStatus(spelling: "New Version Pending") == .newVersionPending)
        #expect(ProductStatus(spelling: "ready-to-ship") == nil)
    }

    @Test func malformedYAMLIsOnePositionedProblem() {
        let result = load("version: 1\napp:\n  bundle_id: com.x: y\n")
        #expect(result.isUnusable)
        #expect(result.problems.count == 1)
        #expect(result.problems[0].rule == "input-malformed")
        #expect(result.problems[0].location?.line == 3)
        #expect(result.problems[0].message.hasPrefix("invalid YAML: mapping values are not allowed"))
    }

    @Test func tabsInIndentationAreNamed() {
        let result = load("version: 1\napp:\n\tbundle_id: com.x\n")
        #expect(result.problems.first?.rule == "input-malformed")
        #expect(result.problems.first?.location?.line == 3)
        #expect(result.problems.first?.help?.contains("tabs") == true)
    }

    @Test func aDescriptorThatIsNotAMappingIsRefused() {
        for text in ["- a\n- b\n", "just text\n", ""] {
            let result = load(text)
            #expect(result.isUnusable)
            #expect(result.problems.first?.rule == "input-malformed")
            #expect(result.problems.first?.message.contains("expected a mapping") == true)
        }
    }

    @Test func aliasBombIsRefusedQuicklyAndWithoutExpanding() {
        var lines = ["version: 1", #"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
            previous = name
        }
        let result = load(lines.joined(separator: "\n") + "\n")
        #expect(result.isUnusable)
        #expect(result.problems.first?.rule == "input-malformed")
        #expect(result.problems.first?.message.contains("expands to more than") == true)
    }

    @Test func deepNestingIsRefused() {
        let deep = "version: 1\nx: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"
        let result = load(deep)
        #expect(result.isUnusable)
        #expect(result.problems.first?.location?.line == 2)
    }

    @Test func invalidUTF8IsPositioned() {
        var bytes = Array("version: 1\napp:\n  name: caf".utf8)
        bytes += [0xE9, 0x0A]
        let result = DescriptorLoader.load(bytes: bytes, file: "project.yaml")
        #expect(result.problems.first?.rule == "input-malformed")
        #expect(result.problems.first?.location == SourceLocation(file: "project.yaml", line: 3, column: 12))
        #expect(result.problems.first?.message.contains("not valid UTF-8") == true)
    }

    @Test func duplicateKeysAreErrors() {
        let result = load("version: 1\nenvironment: sandbox\nenvironment: production\n")
        #expect(result.problems.contains { $0.message.contains("duplicate key") && $0.message.contains("environment") })
    }

    @Test func binaryFileIsRefused() {
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0xFF]
        let result = DescriptorLoader.load(bytes: bytes, file: "project.yaml")
        #expect(result.isUnusable)
        #expect(result.problems.first?.rule == "input-malformed")
    }

    @Test func unreadableDescriptorIsInputUnreadable() {
        let result = DescriptorLoader.load(path: "/nonexistent/project.yaml")
        #expect(result.problems.first?.rule == "input-unreadable")
        #expect(result.problems.first?.message == "cannot read `/nonexistent/project.yaml`: no such file")
    }

    @Test func mergeKeysApply() {
        let result = load("""
            version: 1
            defaults: &defaults
              cleared_for_sale: true
            """)
        #expect(result.problems.contains { $0.rule == "descriptor-unknown-key" && $0.message.contains("`defaults`") })
        let merged = load("""
            version: 1
            products:
              - &base { product_id: com.x.a, cleared_for_sale: true, price_tier: 1 }
              - <<: *base
                product_id: com.x.b
            """)
        #expect(merged.problems.isEmpty)
        #expect(merged.project.products.map { $0.productID?.value } == ["com.x.a", "com.x.b"])
        #expect(merged.project.products[1].priceTier?.value == 1)
    }

    @Test func timestampsParse() {
        #expect(Timestamp(iso8601: "2026-11-22")?.description == "2026-11-22T00:00:00Z")
        #expect(Timestamp(iso8601: "2026-11-22T10:00:00Z")?.description == "2026-11-22T10:00:00Z")
        #expect(Timestamp(iso8601: "2026-11-22T12:00:00+02:00")?.description == "2026-11-22T10:00:00Z")
        #expect(Timestamp(iso8601: "2026-11-22T10:00:00.250Z")?.description == "2026-11-22T10:00:00Z")
        #expect(Timestamp(iso8601: "2026-02-30") == nil)
        #expect(Timestamp(iso8601: "22/11/2026") == nil)
        #expect(Timestamp(iso8601: "2024-02-29")?.description == "2024-02-29T00:00:00Z")
    }

    /// The byte path for ASCII spellings gives what the Character path gives (kept here as the
    /// reference), for the spellings people type and the odd ones.
    @Test func enumerationSpellingsNormalizeTheSameOnBothPaths() {
        func reference(_ text: String) -> String {
            var result = ""
            var lastWasSeparator = false
            for character in text.trimmingXMLSpace() {
                if character == " " || character == "-" || character == "_" {
                    if !lastWasSeparator && !result.isEmpty { result.append("_") }
                    lastWasSeparator = true
                } else {
                    result.append(contentsOf: character.lowercased())
                    lastWasSeparator = false
                }
            }
            while result.hasSuffix("_") { result.removeLast() }
            return result
        }
        let spellings = [
            "Ready to Submit", "ready_to_submit", "READY-TO-SUBMIT", "  Non-Consumable  ", "non consumable", "-x-", "___", "",
            " ", "a  b", "a_-_b", "Auto-Renewable Subscription", "in\treview", "\tapproved\n", "a\tb", "a\r\nb", "Ünited",
            "caf\u{E9}", "X1_Y2", "_lead", "trail_", "MiXeD cAsE",
        ]
        for spelling in spellings {
            #expect(normalizedEnumerationSpelling(spelling) == reference(spelling), "`\(spelling)`")
        }
        #expect(normalizedEnumerationSpelling("Ready to Submit") == "ready_to_submit")
    }
}
