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

/// JSON and SARIF list every finding, also past the per-rule listing limit that the text
/// keeps; the findings past it are kept compactly (``CompactFindings``) and the reports stream.
@Suite("Every finding in JSON and SARIF") struct FullListingTests {
    static let extra = 250

    /// A catalog with one description too short on every item, `count` items in all.
    static func package(count: Int, in name: String) throws -> String {
        let folder = try makeScratchFolder(name)
        try FileManager.default.createDirectory(atPath: folder + "/Store.itmsp", withIntermediateDirectories: true)
        let metadata = catalogEnvelopeHead + (0..<count).map(CatalogListingLimitTests.item).joined() + catalogEnvelopeTail
        try metadata.write(toFile: folder + "/Store.itmsp/metadata.xml", atomically: true, encoding: .utf8)
        return folder + "/Store.itmsp"
    }

    static func check(_ path: String, everyFinding: Bool) -> Diagnosis {
        Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: [path], listsEveryFinding: everyFinding))
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func jsonListsEveryFindingInOrderAndTheChecklistNumbersThem() throws {
        let count = Engine.maxListedFindingsPerRule + Self.extra
        let package = try Self.package(count: count, in: "iapdoctor-full-listing")
        let capped = Self.check(package, everyFinding: false), full = Self.check(package, everyFinding: true)
        #expect(capped.exitCode == full.exitCode)
        // Kept compactly past a lower limit, the rest whole: the report lists them all the same.
        #expect(full.findings.filter { $0.rule == "catalog-description-length" && !$0.summarizesUnlisted }.count
                == Engine.wholeFindingsPerRuleWhenKept)

        let report = try Self.json(JSONReporter().report(full))
        let findings = try #require(report["findings"] as? [[String: Any]])
        let described = findings.filter { $0["rule"] as? String == "catalog-description-length" }
        #expect(described.count == count, "every item's finding, none counted only")
        #expect(!findings.contains { ($0["message"] as? String)?.contains("counted, not listed") == true })
        // The last item's finding is past the limit, and written in full.
        let last = try #require(described.last)
        #expect(last["product_id"] as? String == "com.greenthumb.pocketgarden.item\(count - 1)")
        #expect((last["message"] as? String)?.contains("com.greenthumb.pocketgarden.item\(count - 1)") == true)
        #expect(last["help"] as? String == described.first?["help"] as? String)
        #expect((last["line"] as? Int ?? 0) > (described.first?["line"] as? Int ?? 0))
        // Report order: by line, and the checklist refers to every finding by its number.
        let lines = described.compactMap { $0["line"] as? Int }
        #expect(lines == lines.sorted())
        let checklist = try #require(report["checklist"] as? [[String: Any]])
        let catalogValid = try #require(checklist.first { $0["id"] as? String == "catalog-valid" })
        let numbers = try #require(catalogValid["findings"] as? [Int])
        let expected = findings.indices.filter { findings[$0]["checklist"] as? String == "catalog-valid" }
        #expect(numbers == expected)
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["errors"] == findings.filter { $0["severity"] as? String == "error" }.count)
        #expect(summary["notes"] == findings.filter { $0["severity"] as? String == "note" }.count)
        #expect(summary["errors"] == capped.count(.error))

        // The text keeps the limit and says so.
        let text = TextReporter(color: false).report(capped)
        #expect(text.contains("found \(Self.extra) more problems like the \(Engine.maxListedFindingsPerRule) listed"))
        // Without being asked to keep them, JSON shows what the text shows.
        let cappedReport = try Self.json(JSONReporter().report(capped))
        let cappedFindings = try #require(cappedReport["findings"] as? [[String: Any]])
        #expect(cappedFindings.count == capped.findings.count)
    }

    @Test func sarifHasAResultAndAUniqueFingerprintForEveryFinding() throws {
        let count = Engine.maxListedFindingsPerRule + Self.extra
        let package = try Self.package(count: count, in: "iapdoctor-full-listing-sarif")
        let full = Self.check(package, everyFinding: true)
        let log = try Self.json(SARIFReporter().report(full))
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let jsonFindings = try #require(try Self.json(JSONReporter().report(full))["findings"] as? [[String: Any]])
        #expect(results.count == jsonFindings.count)
        #expect(results.filter { $0["ruleId"] as? String == "catalog-description-length" }.count == count)
        let fingerprints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?["iapdoctorFinding/v1"] }
        #expect(fingerprints.count == results.count)
        #expect(Set(fingerprints).count == fingerprints.count)
    }

    @Test func theCommandLineListsEveryFindingUnlessToldToLimit() throws {
        let package = try Self.package(count: Engine.maxListedFindingsPerRule + 30, in: "iapdoctor-full-listing-cli")
        let every = try runIAPDoctor(["check", package, "--format", "sarif"])
        let limited = try runIAPDoctor(["check", package, "--format", "sarif", "--listing", "limited"])
        #expect(every.status == 1 && limited.status == 1)
        func results(_ text: String) throws -> [[String: Any]] {
            try #require((try Self.json(text)["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        }
        let all = try results(every.output), some = try results(limited.output)
        #expect(all.filter { $0["ruleId"] as? String == "catalog-description-length" }.count == Engine.maxListedFindingsPerRule + 30)
        #expect(some.filter { $0["ruleId"] as? String == "catalog-description-length" }.count == Engine.maxListedFindingsPerRule + 1,
                "the limit and its note")
        let refused = try runIAPDoctor(["check", package, "--format", "text", "--listing", "all"])
        #expect(refused.status == 2, "a usage error")
        #expect(refused.errors.contains("--listing all is for --format json and sarif"))
    }

    @Test func aStreamedReportIsTheReportByteForByte() throws {
        let package = try Self.package(count: Engine.maxListedFindingsPerRule + 40, in: "iapdoctor-full-listing-stream")
        let full = Self.check(package, everyFinding: true)
        let folder = try makeScratchFolder("iapdoctor-full-listing-out")
        for reporter in [JSONReporter() as any Reporter, SARIFReporter(), TextReporter(color: false)] {
            let path = folder + "/report.\(type(of: reporter).identifier)"
            try OutputFile.writeAtomically(to: path, in: nil) { reporter.write(full, to: $0) }
            let written = try String(contentsOfFile: path, encoding: .utf8)
            #expect(written == reporter.report(full), "\(type(of: reporter).identifier)")
        }
    }

    @Test func aCompactFindingComesBackAsItWent() {
        let store = CompactFindings()
        let location = SourceLocation(file: "Store.itmsp/metadata.xml", line: 12, column: 5, endLine: 12, endColumn: 30)
        let findings = [
            Finding(rule: "catalog-type", severity: .error, checklist: "catalog-valid", message: "type `Consumable` of `a.b` is wrong",
                    help: "use `consumable`", notes: ["one note", "", "a note with ü and \"quotes\""], location: location, productID: "a.b"),
            Finding(rule: "catalog-type", severity: .error, checklist: "catalog-valid", message: "same product, same help",
                    help: "use `consumable`", location: location, productID: "a.b"),
            Finding(rule: "catalog-type", severity: .warning, checklist: nil, message: "no help, no product, no place", location: nil),
            Finding(rule: "catalog-type", severity: .warning, checklist: nil, message: "escapes \" \\ \u{1}", help: "a\nb",
                    notes: ["\t"], location: SourceLocation(file: "", line: 0), productID: "e\"f"),
            Finding(rule: "catalog-locale-code", severity: .error, checklist: "catalog-valid", message: "another rule and file",
                    location: SourceLocation(file: "Other.itmsp/metadata.xml", line: 9, column: 2), productID: "a.b"),
            Finding(rule: "duplicate", severity: .note, checklist: "catalog-valid", message: "with a related span", location: location,
                    related: [RelatedSpan(location, label: "first here")], productID: "c.d"),
        ]
        for finding in findings { #expect(store.append(finding)) }
        #expect(store.count == findings.count)
        for (index, finding) in findings.enumerated() { #expect(store[index] == finding, "finding \(index)") }
        // Written from its bytes, a record is the finding written.
        // Runs shared by every record (records of other rules, items and files must not mix).
        var runs = FindingJSONTemplate.RecordRuns()
        for index in findings.indices where !store.isWhole(index) {
            var fromRecord = JSONWriter(), fromFinding = JSONWriter()
            // Twice with the same runs: made, then reused.
            for _ in 0..<2 {
                var again = JSONWriter()
                again.array([index]) { json, index in
                    FindingJSONTemplate(level: json.indentLevel).write(record: index, of: store, runs: &runs, into: &json)
                }
                fromRecord = again
            }
            fromFinding.array([findings[index]]) { json, finding in JSONReporter.writeFinding(finding, into: &json) }
            #expect(fromRecord.output == fromFinding.output, "record \(index)")
        }
    }
}

/// The fast paths of a faulty catalog write what the general ones write.
@Suite("Templates that write findings") struct FindingTemplateTests {
    static let findings: [Finding] = {
        let location = SourceLocation(file: "Store.itmsp/metadata.xml", line: 7, column: 3, endLine: 7, endColumn: 19)
        return [
            Finding(rule: "catalog-type", severity: .error, checklist: "catalog-valid", message: "plain", help: "fix it", location: location,
                    productID: "a.b"),
            Finding(rule: "catalog-type", severity: .warning, checklist: nil, message: "quotes \" and \\ and\ttab and \u{2028}", help: nil,
                    notes: ["first", "second with ü", ""], location: SourceLocation(file: "x.xml", line: 3), productID: nil),
            Finding(rule: "custom \"rule\"", severity: .note, checklist: nil, message: "a rule id to escape", location: nil),
            Finding(rule: "custom-rule", severity: .note, checklist: "catalog-valid", message: "", location: nil),
        ]
    }()

    /// `body` inside `depth` arrays, as the reporter nests the findings.
    static func nested(_ depth: Int, into json: inout JSONWriter, _ body: (inout JSONWriter) -> Void) {
        guard depth > 0 else { return body(&json) }
        json.array([depth]) { json, _ in nested(depth - 1, into: &json, body) }
    }

    @Test func theFindingTemplateWritesWhatTheGeneralWriterWrites() {
        for depth in [0, 1, 4] {
            for finding in Self.findings {
                var general = JSONWriter(), templated = JSONWriter()
                Self.nested(depth, into: &general) { json in
                    json.array([finding]) { json, finding in JSONReporter.writeFinding(finding, into: &json) }
                }
                Self.nested(depth, into: &templated) { json in
                    json.array([finding]) { json, finding in
                        FindingJSONTemplate(level: json.indentLevel).write(finding, into: &json)
                    }
                }
                #expect(general.output == templated.output, "depth \(depth): \(finding.message)")
                #expect(general.output.contains("\"rule\": \(JSONWriter.quote(finding.rule))"))
            }
        }
    }

    /// Every shape of place a result can have (none, a file only, a line, a column, an end), with
    /// and without help, notes, checklist item, product and rule index; files repeated and
    /// alternating, so the remembered URI must follow them.
    @Test func theSARIFTemplateWritesWhatTheGeneralWriterWrites() {
        let places: [IAPDoctor.SourceLocation?] = [
            nil, SourceLocation(file: "", line: 4), SourceLocation(file: "a b/metadata.xml", line: 0),
            SourceLocation(file: "a b/metadata.xml", line: 9), SourceLocation(file: "x.xml", line: 3, column: 2),
            SourceLocation(file: "x.xml", line: 3, column: 2, endLine: 5, endColumn: 1), SourceLocation(file: "a b/metadata.xml", line: 9),
            SourceLocation(file: "ü#?.xml", line: 1, column: 0, endLine: 1, endColumn: 4),
        ]
        var findings = Self.findings
        for (index, place) in places.enumerated() {
            findings.append(Finding(
                rule: "catalog-type", severity: [.error, .warning, .note][index % 3], checklist: index % 2 == 0 ? "catalog-valid" : nil,
                message: "place \(index)", help: index % 3 == 1 ? nil : "help \(index)", notes: index % 4 == 0 ? [] : ["n\"\(index)", "second"],
                location: place, productID: index % 2 == 1 ? nil : "p.\(index)"))
        }
        for depth in [0, 3] {
            var general = JSONWriter(), templated = JSONWriter()
            var uris = SARIFResultTemplate.FileURI()
            for (index, finding) in findings.enumerated() {
                let ruleIndex = index % 5 == 4 ? nil : index
                Self.nested(depth, into: &general) { json in
                    json.array([finding]) { json, finding in
                        SARIFReporter.write(finding, ruleIndex: ruleIndex, fingerprint: "f\(index)", into: &json)
                    }
                }
                Self.nested(depth, into: &templated) { json in
                    json.array([finding]) { json, finding in
                        SARIFResultTemplate(level: json.indentLevel).write(
                            finding, ruleIndex: ruleIndex, fingerprint: "f\(index)", uris: &uris, into: &json)
                    }
                }
            }
            #expect(general.output == templated.output, "depth \(depth)")
            #expect(general.output.contains("\"uri\": \"a%20b/metadata.xml\""))
        }
    }

    @Test func theWordScanForSimpleTextAgreesWithTheByteLoop() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x41, 0x61, 0x20, 0x0A, 0x0D, 0x0C, 0x7F, 0x80, 0xC3, 0xFF, 0x2E]
        for length in 0..<40 {
            for _ in 0..<50 {
                var bytes = (0..<length).map { _ in UInt8(ascii: "a") }
                // Mostly plain text, with a few bytes from the edges planted anywhere.
                for _ in 0..<Int.random(in: 0...2, using: &generator) where length > 0 {
                    bytes[Int.random(in: 0..<length, using: &generator)] = alphabet.randomElement(using: &generator)!
                }
                let expected = !bytes.contains { $0 >= 0x80 || $0 == 0x0D }
                #expect(bytes.withUnsafeBufferPointer { DeclarativeRule.Constraints.isSimple($0) } == expected, "\(bytes)")
            }
        }
    }

    @Test func aCompiledTemplateFillsAsTheTemplateIsFilled() throws {
        let metadata = try #require(RuleSet.builtin.rule("catalog-description-length"))
        #expect(metadata.check != nil && metadata.option("max_length") != nil)
        let templates = [
            metadata.messageTemplate ?? "", metadata.helpTemplate ?? "", "no braces", "{}", "}{value}{", "",
            "{field} `{value}` of {product}: {length} of {max_length} ({unknown}) {value", "{max_length}{value}{{field}}",
        ]
        for template in templates {
            let compiled = DeclarativeRule.CompiledTemplate(template, metadata: metadata)
            for value in ["", "Gems ü", "a{length}b"] {
                let fields = ["value": value, "length": String(value.count), "field": "title", "product": "com.x.y"]
                #expect(compiled.fill(value: value, field: "title", product: "com.x.y")
                        == DeclarativeRule.fill(template, fields: fields, metadata: metadata), "\(template) with \(value)")
            }
        }
    }
}

@Suite("Escaping control characters by bytes") struct ControlCharacterScanTests {
    /// The byte scan agrees with `isControl` for every scalar of the basic plane and some beyond,
    /// alone and between other text; and escaping a report is unchanged by the fast path.
    @Test func theByteScanFindsExactlyTheControlScalars() {
        let scalars = (0...0xFFFF).compactMap(Unicode.Scalar.init) + [0x1F600, 0xE0001, 0x10FFFF].compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            // Long enough for the eight-byte steps, the scalar at every offset within a word.
            let pads = ["", "abcdefg", "0123456789abcdef", "tab\tand newline\n, then more text"]
            for text in [String(scalar), "a\(scalar)b", "—\(scalar)é"] + pads.map({ "\($0)\(scalar)\($0)\($0)" }) {
                var probe = text
                let found = probe.withUTF8 { Escaping.mayHoldControl($0) }
                #expect(found == text.unicodeScalars.contains(where: Escaping.isControl), "U+\(String(scalar.value, radix: 16))")
            }
        }
        #expect(Escaping.controlCharacters("plain — text é\n\tend") == "plain — text é\n\tend")
        #expect(Escaping.controlCharacters("bell \u{7}, line \u{2028}, c1 \u{85}") == "bell \\u{7}, line \\u{2028}, c1 \\u{85}")
    }
}
