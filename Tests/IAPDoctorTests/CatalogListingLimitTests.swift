import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// A catalog scan keeps the first ``Engine/maxListedFindingsPerRule`` findings of each
/// item rule and only counts the rest (with the products they are about), so memory does not grow
/// with findings nobody lists; totals, the note and verdicts are those of every finding.
@Suite("Catalog findings past the listing limit") struct CatalogListingLimitTests {
    static let extra = 300

    static func item(_ index: Int) -> String {
        """
                <in_app_purchase>
                  <product_id>com.greenthumb.pocketgarden.item\(index)</product_id>
                  <reference_name>Item \(index)</reference_name>
                  <type>consumable</type>
                  <products><product><cleared_for_sale>true</cleared_for_sale><wholesale_price_tier>1</wholesale_price_tier></product></products>
                  <locales><locale name="en-US"><title>Item \(index)</title><description>Seeds</description></locale></locales>
                </in_app_purchase>

        """
    }

    @Test func findingsPastTheLimitCountAndDecideVerdicts() throws {
        let count = Engine.maxListedFindingsPerRule + Self.extra
        let folder = try makeScratchFolder("iapdoctor-listing-limit")
        try FileManager.default.createDirectory(atPath: folder + "/Store.itmsp", withIntermediateDirectories: true)
        let metadata = catalogEnvelopeHead + (0..<count).map(Self.item).joined() + catalogEnvelopeTail
        try metadata.write(toFile: folder + "/Store.itmsp/metadata.xml", atomically: true, encoding: .utf8)
        let first = "com.greenthumb.pocketgarden.item5", last = "com.greenthumb.pocketgarden.item\(count - 1)"
        let descriptor = folder + "/project.yaml"
        try """
            version: 1
            environment: sandbox
            app: { name: Pocket Garden, platform: ios, bundle_id: com.greenthumb.pocketgarden }
            catalogs: [Store.itmsp]
            requests: [\(first), \(last)]

            """.write(toFile: descriptor, atomically: true, encoding: .utf8)
        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: [descriptor]))
        let listed = diagnosis.findings.filter { $0.rule == "catalog-description-length" }
        #expect(listed.count == Engine.maxListedFindingsPerRule + 1, "the listed ones and the note")
        let note = try #require(listed.first { $0.severity == .note })
        #expect(note.message.contains("found \(Self.extra) more problems like the \(Engine.maxListedFindingsPerRule) listed"))
        #expect(diagnosis.count(.error) >= count)
        #expect(!diagnosis.findings.contains { $0.isElided })
        // The last item's finding is past the limit: its product's verdict is the first one's.
        let verdicts = Dictionary(uniqueKeysWithValues: diagnosis.products.map { ($0.productID, $0) })
        let early = try #require(verdicts[first]), late = try #require(verdicts[last])
        #expect(early.verdict == late.verdict)
        #expect(early.failing == late.failing)
        #expect(!late.failing.isEmpty)
    }
}
