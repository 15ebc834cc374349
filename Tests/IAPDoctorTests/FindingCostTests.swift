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

/// What a faulty catalog's findings cost. Past the listing limit a rule's findings are
/// counted, never written (no message, no template); the ones listed are the first in item order
/// and read as before; a missing screenshot is answered without the confinement check; the JSON
/// writer's fast escape test agrees with the byte loop; a finding's copy-on-write box keeps value
/// semantics. Counts and texts are asserted, never times.
@Suite("Cost of findings") struct FindingCostTests {
    static let extra = 150

    /// Item `index`: a description too long (a declarative check) and a review screenshot that is
    /// not in the package folder (a Swift per-item rule), like `gen_catalog.py --density 2`.
    static func item(_ index: Int) -> String {
        """
                <in_app_purchase>
                  <product_id>com.greenthumb.pocketgarden.item\(index)</product_id>
                  <reference_name>Item \(index)</reference_name>
                  <type>consumable</type>
                  <products><product><cleared_for_sale>true</cleared_for_sale><wholesale_price_tier>1</wholesale_price_tier></product></products>
                  <locales><locale name="en-US"><title>Item \(index)</title><description>A description that is far longer than the forty-five characters allowed</description></locale></locales>
                  <review_screenshot><file_name>missing_\(index).png</file_name><size>3636</size><checksum type="md5">0123456789abcdef0123456789abcdef</checksum></review_screenshot>
                </in_app_purchase>

        """
    }

    static func faultyPackage(items count: Int) throws -> String {
        let folder = try makeScratchFolder("iapdoctor-finding-cost")
        try FileManager.default.createDirectory(atPath: folder + "/Store.itmsp", withIntermediateDirectories: true)
        let metadata = catalogEnvelopeHead + (0..<count).map(Self.item).joined() + catalogEnvelopeTail
        try metadata.write(toFile: folder + "/Store.itmsp/metadata.xml", atomically: true, encoding: .utf8)
        return folder + "/Store.itmsp"
    }

    @Test func bothKindsOfRuleListTheFirstFindingsInItemOrderAndCountTheRest() throws {
        let limit = Engine.maxListedFindingsPerRule, count = limit + Self.extra
        let package = try Self.faultyPackage(items: count)
        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: [package]))
        for rule in ["catalog-description-length", "catalog-screenshot-file-missing"] {
            let listed = diagnosis.findings.filter { $0.rule == rule && $0.severity == .error }
            #expect(listed.count == limit, "\(rule)")
            // The first `limit` items, each once, with their whole texts.
            let products = Set(listed.compactMap(\.productID))
            #expect(products == Set((0..<limit).map { "com.greenthumb.pocketgarden.item\($0)" }), "\(rule)")
            #expect(listed.allSatisfy { !$0.message.isEmpty && $0.location != nil && $0.help != nil }, "\(rule)")
            let note = try #require(diagnosis.findings.first { $0.rule == rule && $0.severity == .note })
            #expect(note.message.contains("found \(Self.extra) more problems like the \(limit) listed"), "\(rule)")
        }
        let screenshot = try #require(diagnosis.findings.first { $0.productID == "com.greenthumb.pocketgarden.item7" && $0.rule == "catalog-screenshot-file-missing" })
        #expect(screenshot.message == "review screenshot `missing_7.png` of `com.greenthumb.pocketgarden.item7` is not in the package folder `\(package)`")
        #expect(screenshot.notes.isEmpty)
        // Every finding counts: two per item, the too-many-items error, nothing dropped.
        #expect(diagnosis.count(.error) == 2 * count + 1)
        #expect(!diagnosis.findings.contains { $0.isElided })
    }

    @Test func pastTheLimitARuleWritesNoText() {
        let metadata = RuleSet.builtin.rule("catalog-screenshot-file-missing")!
        let context = CatalogItemContext(metadata: metadata, scanState: CatalogScanState())
        var written = 0
        func text(_ value: String) -> String {
            written += 1
            return value
        }
        let location = SourceLocation(file: "metadata.xml", line: 3, column: 5)
        let listed = context.finding(text("message"), at: location, help: text("help"), notes: [text("note")], product: "a")
        #expect(written == 3)
        #expect(listed.message == "message" && listed.help == "help" && listed.notes == ["note"] && !listed.isElided)
        context.isListing = false
        let counted = context.finding(text("message"), at: location, help: text("help"), notes: [text("note")], product: "b")
        #expect(written == 3, "no text is made past the limit")
        #expect(counted.isElided && counted.message.isEmpty && counted.location == nil)
        #expect(counted.severity == metadata.severity && counted.productID == "b" && counted.rule == metadata.id)
    }

    /// The shortcut for a missing bare name (the folder's listing, then `lstat`) answers as the
    /// full check does: a name in another case is missing on a case-sensitive file system, a file
    /// that is there is read, and a link that leaves the package is still refused. With no items
    /// before them the names go to `lstat` (the folder is listed only after 64 questions); after
    /// 70 other missing names, through the listing.
    @Test(arguments: [0, 70])
    func missingScreenshotsAreFoundAsBefore(leading: Int) throws {
        let package = try Self.faultyPackage(items: 1)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: package + "/present.png"))
        try FileManager.default.createSymbolicLink(atPath: package + "/outside.png", withDestinationPath: "/etc/hostname")
        var metadata = try String(contentsOfFile: package + "/metadata.xml", encoding: .utf8)
        let one = Self.item(0)
        let names = (0..<leading).map { "filler_\($0).png" } + ["missing_0.png", "PRESENT.png", "present.png", "outside.png", "../up.png"]
        metadata = metadata.replacingOccurrences(of: one, with: names.enumerated().map { index, name in
            Self.item(index).replacingOccurrences(of: "missing_\(index).png", with: name)
        }.joined())
        try metadata.write(toFile: package + "/metadata.xml", atomically: true, encoding: .utf8)
        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: [package]))
        let missing = Dictionary(grouping: diagnosis.findings.filter { $0.rule == "catalog-screenshot-file-missing" }, by: { $0.productID ?? "" })
        func message(_ index: Int) -> String? { missing["com.greenthumb.pocketgarden.item\(leading + index)"]?.first?.message }
        #expect(missing.count >= leading + 1)
        #expect(message(0)?.hasSuffix("is not in the package folder `\(package)`") == true)
        #expect(message(2) == nil, "present.png is there")
        #expect(message(3)?.contains("is not a regular file inside the package folder") == true, "the link leaves the package")
        #expect(message(4)?.contains("is not a regular file inside the package folder") == true, "../ leaves the package")
        if FileManager.default.fileExists(atPath: package + "/PRESENT.png") {
            #expect(message(1) == nil, "a file system that ignores case finds it")
        } else {
            #expect(message(1)?.hasSuffix("is not in the package folder `\(package)`") == true)
        }
    }

    @Test func theWordAtATimeEscapeTestAgreesWithTheByteLoop() {
        func slow(_ bytes: [UInt8]) -> Bool { bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 } }
        let specials: [UInt8] = [0x00, 0x09, 0x0A, 0x1F, 0x22, 0x5C, 0xE2]
        let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xC3, 0xE1, 0xE3, 0xFF, 0x41]
        var checked = 0
        for length in 0...24 {
            for position in 0..<max(length, 1) {
                for special in specials + [0x61] {
                    var bytes = (0..<length).map { plain[($0 * 7 + length) % plain.count] }
                    if length > 0 { bytes[position] = special }
                    let fast = bytes.withUnsafeBufferPointer { JSONWriter.mayNeedEscaping($0) }
                    #expect(fast == slow(bytes), "\(bytes)")
                    checked += 1
                }
            }
        }
        #expect(checked > 2_000)
    }

    @Test func aCopiedFindingChangesAlone() {
        let original = Finding(rule: "r", severity: .error, checklist: "c", message: "m", notes: ["n"], location: nil, productID: "p")
        var copy = original
        copy.notes.append("more")
        copy.severity = .note
        copy.elidedProducts.append("q")
        #expect(original.notes == ["n"] && original.severity == .error && original.elidedProducts.isEmpty)
        #expect(copy.notes == ["n", "more"] && copy.severity == .note && copy.elidedProducts == ["q"])
        #expect(original != copy)
        var back = copy
        back.notes = ["n"]
        back.severity = .error
        back.elidedProducts = []
        #expect(back == original && back.hashValue == original.hashValue)
    }
}
