import CodeScanner
import Rules
import Foundation
@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
@testable import RuleEngine
@testable import Reporters
import Testing
import TestSupport

/// Crafted inputs that crashed iapdoctor or made it run
/// for minutes. Inputs are generated here, sized so that the old code ran for minutes or asked for
/// gigabytes; the tests assert counts of work units (table cells, automaton steps, IDs handled),
/// never times. The suite's time limit only stops a regressed run.
@Suite("Cost of hostile inputs", .timeLimit(.minutes(2))) struct CostTests {

    // MARK: 1. Typo search

    /// The edit distance naively, for comparison.
    static func naiveDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var row = Array(0...y.count)
        for i in 1...max(1, x.count) where !x.isEmpty {
            var next = [i] + Array(repeating: 0, count: y.count)
            for j in 1...max(1, y.count) where !y.isEmpty {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            row = next
        }
        return x.isEmpty ? y.count : row[y.count]
    }

    /// The banded table answers as the full one does, whenever the distance is within the limit.
    @Test func bandedDistanceAgreesWithTheFullTable() {
        var generator = SplitMix(seed: 13)
        let alphabet: [Character] = ["a", "b", "c", "é", "e\u{301}", "."]
        for _ in 0..<3_000 {
            let a = String((0..<Int(generator.next() % 9)).map { _ in alphabet[Int(generator.next() % 6)] })
            let b = String((0..<Int(generator.next() % 9)).map { _ in alphabet[Int(generator.next() % 6)] })
            let limit = Int(generator.next() % 4)
            let exact = Self.naiveDistance(a, b)
            #expect(boundedEditDistance(a, b, limit: limit) == (exact <= limit ? exact : nil), "\(a) \(b) \(limit)")
        }
    }

    /// Two 160 KB IDs of non-ASCII letters, one edit apart: the old table had n² cells (11 s);
    /// the band has at most 7 per character.
    @Test func nonASCIIDistanceIsBanded() {
        let n = 80_000
        let a = Array(String(repeating: "é", count: n).unicodeScalars)
        var b = a
        b[n / 2] = "ü"
        var cells = 0
        let distance = withUnsafeMutablePointer(to: &cells) { boundedEditDistance(a, b, limit: 3, work: $0) }
        #expect(distance == 1)
        #expect(cells <= 7 * n)
        #expect(cells >= n)
    }

    /// A 1 MB ID (and a 1 MB near-miss request): the request gets no typo search at all (over App
    /// Store Connect's 100 characters), and an ordinary request costs cells bounded by its own
    /// length, not the longest ID's (the old table: 1 MB × request length integers per request).
    @Test func typoSearchIsBoundedByTheRequest() {
        let long = String(repeating: "c", count: 1_000_000)
        let ids = [long, "com.example.pro", "com.example.gold"] + (0..<1_000).map { "com.example.item\($0)" }
        let index = ProductIndex(ids: ids)
        let nearMiss = String(long.dropLast()) + "d"
        #expect(index.match(nearMiss, bundleIDs: []) == .missing)
        #expect(index.typoSearchWork(nearMiss) == 0)
        #expect(index.match("com.example.prp", bundleIDs: []) == .typo("com.example.pro", distance: 1))
        // Every cell is in a band of 7 around the diagonal of a row at most 100 + 3 deep, once per
        // trie node: bounded by the IDs' first 103 bytes, not by the 1 MB one.
        let work = index.typoSearchWork("com.example.prp")
        #expect(work > 0)
        #expect(work <= 7 * ids.reduce(0) { $0 + min($1.utf8.count, 104) })
    }

    /// The same with non-ASCII IDs (the path that was quadratic and unbanded).
    @Test func nonASCIITypoSearchIsBounded() {
        let long = String(repeating: "é", count: 160_000)
        let ids = [long, String(long.dropLast()) + "ü", "com.exämple.pro", "com.exämple.gold"]
        let index = ProductIndex(ids: ids)
        #expect(index.match(String(long.dropLast(2)) + "öö", bundleIDs: []) == .missing)
        #expect(index.match("com.exämple.prö", bundleIDs: []) == .typo("com.exämple.pro", distance: 1))
        #expect(index.typoSearchWork("com.exämple.prö") <= 2 * 7 * 20)
    }

    /// The known IDs are gathered only when a request is matched (a catalog check has none), and
    /// then answer as the same IDs given at once.
    @Test func knownIDsAreGatheredOnlyWhenAsked() {
        let ids = ["com.example.pro", "com.example.gold", "com.example.pro"]
        let gathered = Counter()
        let index = ProductIndex(gathering: { gathered.add(); return ids })
        #expect(gathered.value == 0)
        let given = ProductIndex(ids: ids)
        #expect(index.ids == given.ids)
        #expect(index.match("com.example.prp", bundleIDs: []) == given.match("com.example.prp", bundleIDs: []))
        #expect(index.contains("com.example.gold"))
        #expect(gathered.value == 1)
    }

    private final class Counter: @unchecked Sendable {
        private(set) var value = 0
        func add() { value += 1 }
    }

    /// `closestMatch` (did-you-mean for keys, rule ids, StoreKit product IDs) on huge words.
    @Test func didYouMeanOnHugeWordsIsLinear() {
        let word = String(repeating: "x", count: 200_000)
        let candidates = (0..<100).map { _ in String(repeating: "x", count: 199_999) + "y" }
        #expect(closestMatch(to: word, in: candidates) == candidates[0])
        #expect(closestMatch(to: "produkts", in: ["products", "requests"]) == "products")
    }

    // MARK: 2. Patterns

    /// Wherever Swift's `Regex` answers quickly (small values, no nested quantifiers), the linear
    /// matcher answers the same, ASCII and not.
    @Test func linearPatternAgreesWithRegex() throws {
        let patterns = [
            "[A-Za-z0-9._-]+", "consumable|non-consumable|auto-renewable", "[1-9]|[1-7][0-9]|8[0-7]", "[^-]*",
            "^com\\.acme\\.[a-z0-9._]+$", "a{2,4}b?", "(ab|a)*c", "\\d+(\\.\\d{1,2})?", "\\w+ \\w+", "x.y",
            "[\\s\\S]{0,3}", "(?:é|e)+[^a-c]", "\\W*", "^$", "a*?b+?", "(?<name>[a-c]{2})+", "[é-ü]+", "\\{x}",
        ]
        let alphabet: [Character] = ["a", "b", "c", "x", "y", "1", "2", ".", " ", "-", "_", "é", "ü", "\n", "{", "}", "e\u{301}", "Z"]
        var generator = SplitMix(seed: 2)
        for source in patterns {
            let linear = try LinearPattern(source)
            let regex = try Regex(source)
            for _ in 0..<400 {
                let text = String((0..<Int(generator.next() % 7)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
                let expected = (try? regex.wholeMatch(in: text)) != nil
                #expect(linear.wholeMatch(text) == expected, "\(source) on \(text.debugDescription)")
                if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
                    var bytes = Array(text.utf8)
                    let fast = bytes.withUnsafeMutableBufferPointer { linear.wholeMatch(ascii: UnsafeBufferPointer($0)) }
                    #expect(fast == expected, "\(source) on \(text.debugDescription) (bytes)")
                }
            }
        }
    }

    /// ASCII values go through a table of the automaton's state sets when it has few of them,
    /// else through the sets themselves: both answer as `Regex` does, and the rules' own patterns
    /// take the table.
    @Test func byteTableAndStateSetsAgreeWithRegex() throws {
        var generator = SplitMix(seed: 9)
        // 16 states, but 2^8 sets after the `a` eight from the end: over the table's limit.
        let wide = try LinearPattern("[ab]*a[ab]{7}")
        #expect(wide.asciiTableStates == nil)
        let narrow = try LinearPattern("[ab]*a[ab]{3}")
        #expect(narrow.asciiTableStates == 16)
        // Over 64 states (two words a set) and over the table's limit: the multi-word state sets,
        // which the patterns of `largeAutomataAgreeWithRegexOnBytes` no longer reach (their
        // tables are small enough).
        let wider = try LinearPattern("[ab]*a[ab]{70}")
        #expect(wider.asciiTableStates == nil)
        for linear in [wide, narrow, wider] {
            let regex = try Regex(linear.source)
            for _ in 0..<500 {
                let length = Int(generator.next() % (linear === wider ? 90 : 12))
                // `c` is in no set; for the long pattern it comes rarely, so long values are read.
                let alphabet = Array(linear === wider ? "aaaaaaaaabbbbbbbbbc" : "abc")
                let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
                let expected = (try? regex.wholeMatch(in: text)) != nil
                var bytes = Array(text.utf8)
                let fast = bytes.withUnsafeMutableBufferPointer { linear.wholeMatch(ascii: UnsafeBufferPointer($0)) }
                #expect(fast == expected, "\(linear.source) on \(text)")
            }
        }
        // Bytes over 0x7F are for the general matcher: the byte path says no, whatever the pattern.
        let anything = try LinearPattern("[^-]*")
        #expect(anything.asciiTableStates == 1)
        for text in ["é", "ab\u{80}", "\u{FF}"] {
            var bytes = Array(text.utf8)
            #expect(!bytes.withUnsafeMutableBufferPointer { anything.wholeMatch(ascii: UnsafeBufferPointer($0)) }, "\(text)")
            #expect(anything.wholeMatch(text))
        }
        var builtin = 0
        for metadata in RuleSet.builtin.rules {
            guard case .text(let source)? = metadata.option("pattern") else { continue }
            builtin += 1
            #expect(try LinearPattern(source).asciiTableStates != nil, "\(metadata.id): \(source)")
        }
        #expect(builtin >= 6)
    }

    /// Automata of more than 64 states (several words a state set) take the same byte path.
    @Test func largeAutomataAgreeWithRegexOnBytes() throws {
        var generator = SplitMix(seed: 5)
        for source in ["[abc]{60,70}", "(a|b.){30,40}c", "(ab|cd){20,30}x?", "[a-c]{0,90}-"] {
            let linear = try LinearPattern(source)
            let regex = try Regex(source)
            for _ in 0..<300 {
                let length = Int(generator.next() % 100)
                let text = String((0..<length).map { _ in Array("abcdx.-")[Int(generator.next() % 7)] })
                let expected = (try? regex.wholeMatch(in: text)) != nil
                var bytes = Array(text.utf8)
                let fast = bytes.withUnsafeMutableBufferPointer { linear.wholeMatch(ascii: UnsafeBufferPointer($0)) }
                #expect(fast == expected, "\(source) on \(text)")
            }
            for text in [String(repeating: "a", count: 65), String(repeating: "ab", count: 35) + "c", String(repeating: "cd", count: 25) + "x", "abc-"] {
                let expected = (try? regex.wholeMatch(in: text)) != nil
                var bytes = Array(text.utf8)
                #expect(bytes.withUnsafeMutableBufferPointer { linear.wholeMatch(ascii: UnsafeBufferPointer($0)) } == expected, "\(source) on \(text)")
                #expect(linear.wholeMatch(text) == expected, "\(source) on \(text) (characters)")
            }
        }
    }

    /// Patterns that make a backtracking `Regex` run for ever: steps are at most the
    /// pattern's states per character.
    @Test func catastrophicPatternsRunInLinearSteps() throws {
        let words = try LinearPattern("([A-Za-z]+ ?)+")
        let title = String(repeating: "Seed Pack Fifty ", count: 6_000) + "Édition"
        var steps = 0
        #expect(!words.wholeMatch(title, steps: &steps))
        #expect(steps <= 16 * title.count)
        let anchored = try LinearPattern("^([a-z]+)+$")
        steps = 0
        #expect(!anchored.wholeMatch(String(repeating: "a", count: 100_000) + "é", steps: &steps))
        #expect(steps <= 8 * 100_001)
        var ascii = Array((String(repeating: "a", count: 100_000) + "!").utf8)
        #expect(!ascii.withUnsafeMutableBufferPointer { anchored.wholeMatch(ascii: UnsafeBufferPointer($0)) })
        #expect(anchored.wholeMatch("abc"))
    }

    /// Syntax the linear matcher cannot run is refused with where it is.
    @Test func unsupportedPatternSyntaxIsRefusedWithItsPosition() {
        let cases: [(String, Int, String)] = [
            ("(a)\\1", 3, "back references"), ("a(?=b)", 1, "look-ahead"), ("\\bword", 0, "word boundaries"),
            ("a++", 2, "possessive"), ("[a-z&&b]", 4, "set operations"), ("(ab", 0, "never closed"),
            ("ab)", 2, "closes no group"), ("a{5,2}", 1, "larger number first"), ("x{1001}", 1, "over 1000"),
            ("(?i)abc", 0, "inline options"), ("\\p{L}", 0, "Unicode properties"), ("*a", 0, "follows nothing"),
            ("(((((((((((a{1000}){1000})))))))))))", 19, "too large"),
        ]
        for (source, offset, words) in cases {
            do {
                _ = try LinearPattern(source)
                Issue.record("`\(source)` was accepted")
            } catch {
                #expect(error.offset == offset, "\(source): \(error.message)")
                #expect(error.message.contains(words), "\(source): \(error.message)")
            }
        }
    }

    /// `LinearPattern.shared` compiles a pattern once per process, from any thread: the same
    /// matcher for the same text, the same problem for a refused one.
    @Test func sharedPatternsAreCompiledOnceAndAnswerAsAFreshCompile() async throws {
        let source = "[A-Z][a-z]+ \\d{1,3}-shared-\(UUID().uuidString.prefix(8))"
        let first = try LinearPattern.shared(source)
        let concurrent = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for _ in 0..<8 { group.addTask { (try? LinearPattern.shared(source)).map(ObjectIdentifier.init) } }
            return await group.reduce(into: Set<ObjectIdentifier?>()) { $0.insert($1) }
        }
        #expect(concurrent == [ObjectIdentifier(first)])
        let fresh = try LinearPattern(source)
        for text in ["Seed 12-shared-x", "Seed 12", "seed 1", ""] {
            #expect(first.wholeMatch(text) == fresh.wholeMatch(text), "\(text)")
        }
        for _ in 0..<2 {
            do {
                _ = try LinearPattern.shared("(a)\\1")
                Issue.record("a back reference was accepted")
            } catch {
                #expect(error.offset == 3 && error.message.contains("back references"), "\(error.message)")
            }
        }
    }

    /// A custom rule's pattern the matcher refuses is a positioned configuration error.
    @Test func customRuleWithUnsupportedPatternIsAConfigurationError() throws {
        let text = """
            custom_rules:
              - id: no-lookahead
                checklist: product-metadata
                title: t
                check: { each: products, field: product_id }
                options: { pattern: 'com(?!\\.bad)' }
                message: "`{value}`"
            """
        #expect(throws: ConfigurationError.self) {
            _ = try Configuration.parse(bytes: Array(text.utf8), file: ".iapdoctor.yml", ruleSet: .builtin)
        }
        do {
            _ = try Configuration.parse(bytes: Array(text.utf8), file: ".iapdoctor.yml", ruleSet: .builtin)
        } catch {
            #expect(error.problems.count == 1)
            let problem = try #require(error.problems.first)
            #expect(problem.message.contains("look-ahead"))
            #expect(problem.message.contains("at character 4 of the pattern"))
            #expect(problem.location == SourceLocation(file: ".iapdoctor.yml", line: 6, column: 25, endLine: 6, endColumn: 39))
        }
    }

    // MARK: 4. Numbers in options

    @Test(arguments: ["1e300", "inf", "-inf", "nan", ".nan", "-1e30", "-1", "2.5", "1e999", "9223372036854775807", "'35'"])
    func outOfRangeLengthsAreRefusedWithTheirPosition(_ value: String) {
        let text = "rules:\n  display-name-length: { options: { max_length: \(value) } }\n"
        do {
            _ = try Configuration.parse(bytes: Array(text.utf8), file: ".iapdoctor.yml", ruleSet: .builtin)
            Issue.record("max_length: \(value) was accepted")
        } catch {
            #expect(error.problems.count == 1)
            #expect(error.problems.first?.message.contains("`max_length`") == true)
            #expect(error.problems.first?.message.contains("from 0 to 1,000,000") == true)
            #expect(error.problems.first?.location == SourceLocation(
                file: ".iapdoctor.yml", line: 2, column: 49, endLine: 2, endColumn: 49 + value.unicodeScalars.count))
            #expect(error.problems.first?.help?.contains("`max_length: 30`") == true)
        }
    }

    @Test func hoursAndCountsAreRangeChecked() throws {
        for (rule, option, value) in [
            ("propagation-window", "sandbox_hours", "1e300"), ("propagation-window", "production_hours", "-5"),
            ("catalog-too-many-items", "max_items", "0"), ("catalog-too-many-items", "max_items", "inf"),
            ("display-name-length", "max_length", "true"),
        ] {
            let text = "rules:\n  \(rule): { options: { \(option): \(value) } }\n"
            #expect(throws: ConfigurationError.self, "\(option): \(value)") {
                _ = try Configuration.parse(bytes: Array(text.utf8), file: ".iapdoctor.yml", ruleSet: .builtin)
            }
        }
        // The largest accepted values run without a trap.
        let text = "rules:\n  propagation-window: { options: { sandbox_hours: 8760, production_hours: 0.5 } }\n  display-name-length: { options: { max_length: 1000000 } }\n"
        let configuration = try Configuration.parse(bytes: Array(text.utf8), file: ".iapdoctor.yml", ruleSet: .builtin)
        let ruleSet = configuration.apply(to: .builtin).ruleSet
        let diagnosis = diagnose(snippet: "checked_at: 2026-11-22T10:00:00Z\n", ruleSet: ruleSet)
        #expect(diagnosis.exitCode == 0)
    }

    @Test func integerConversionNeverTraps() {
        for value in [Double.infinity, -.infinity, .nan, 1e300, -1e300, 9.3e18, 0.5, -0.0] {
            #expect(OptionValue.integer(value) == nil || value == -0.0)
            _ = OptionValue.number(value).text
            _ = Timestamp(secondsSince1970: 0).adding(hours: value)
        }
        #expect(OptionValue.integer(35) == 35)
        #expect(OptionValue.number(1e300).text == "1e+300")
        #expect(Timestamp(secondsSince1970: 0).adding(hours: 2).secondsSince1970 == 7_200)
    }

    // MARK: 5. Swift constants

    /// `let dN = [dN-1, "idN"]` with a call per constant: the lists' lengths add up to n²/2 IDs
    /// (20,000 constants: 200 million; 650 KB took 15 s and 2.3 GB). The resolver stops at its
    /// budget, says so at the call sites it did not follow, and still resolves the early ones.
    @Test func constantChainsStopAtTheBudget() {
        for n in [20_000, 40_000] {
            var lines = ["import StoreKit", "let d0 = [\"id0\"]"]
            for k in 1..<n { lines.append("let d\(k) = [d\(k - 1), \"id\(k)\"]") }
            lines.append("func load() async throws {")
            for k in 0..<n { lines.append("    _ = try await Product.products(for: d\(k))") }
            lines.append("}")
            let scan = SourceScanner.scan(source: lines.joined(separator: "\n"), file: "Store.swift")
            #expect(scan.resolutionWork <= SourceScan.maxResolutionWork + n)
            #expect(scan.requests.contains { $0.id == "id0" })
            #expect(scan.unresolved.contains { $0.reason.contains("stopped following constants") })
        }
    }

    /// The same with strings: `let sN = sN-1 + "abcdefgh"` makes strings whose lengths add up quadratically.
    @Test func stringChainsStopAtTheBudget() {
        let n = 20_000
        var lines = ["let s0 = \"com.example.\""]
        for k in 1..<n { lines.append("let s\(k) = s\(k - 1) + \"abcdefgh\"") }
        lines.append("func load() async throws {")
        for k in 0..<n { lines.append("    _ = try await Product.products(for: [s\(k)])") }
        lines.append("}")
        let scan = SourceScanner.scan(source: lines.joined(separator: "\n"), file: "Store.swift")
        #expect(scan.resolutionWork <= SourceScan.maxResolutionWork + n)
        #expect(scan.requests.contains { $0.id == "com.example.abcdefgh" })
        // Whichever bound comes first: the work budget, or the length no product ID reaches
        // (past which the constant is one iapdoctor does not follow).
        #expect(scan.unresolved.contains { $0.reason.contains("stopped following constants") || $0.reason.contains("longer than 4096 bytes") })
    }

    /// A real-sized project is far inside the budget: everything resolves.
    @Test func ordinaryConstantsStayInsideTheBudget() {
        var lines = ["let d0 = [\"id0\"]"]
        for k in 1..<60 { lines.append("let d\(k) = [d\(k - 1), \"id\(k)\"]") }
        lines.append("func load() async throws {")
        for k in 0..<60 { lines.append("    _ = try await Product.products(for: d\(k))") }
        lines.append("}")
        let scan = SourceScanner.scan(source: lines.joined(separator: "\n"), file: "Store.swift")
        #expect(scan.unresolved.isEmpty)
        #expect(Set(scan.requests.map(\.id)).count == 60)
        #expect(scan.resolutionWork < 10_000)
    }

    // MARK: 6. Minified JSON

    /// A product ID list of 20,000 IDs on one line (minified JSON): each ID's position is found
    /// from the checkpoint before it, not by counting from the line's start, which cost the square
    /// of the line; and it is the position counted in characters, as on a pretty-printed list.
    @Test func positionsOnOneLongLineAreCountedFromCheckpoints() throws {
        let ids = (0..<20_000).map { "com.exämple.item\($0)" }
        let written = ids.map { "\"\($0)\"" }
        let text = "[" + written.joined(separator: ",") + "]"
        let contents = try ProductIDList.parse(bytes: Array(text.utf8), file: "ids.json")
        #expect(contents.ids.map(\.value) == ids)
        let last = try #require(contents.ids.last)
        let before = "[" + written.dropLast().joined(separator: ",") + ","
        #expect(last.location.line == 1)
        #expect(last.location.column == before.unicodeScalars.count + 1)
        // The same list pretty-printed: the same IDs, one a line.
        let pretty = "[\n" + written.map { "  " + $0 }.joined(separator: ",\n") + "\n]\n"
        let lines = try ProductIDList.parse(bytes: Array(pretty.utf8), file: "ids.json")
        #expect(lines.ids.map(\.value) == ids)
        #expect(lines.ids.last?.location.line == 20_001)
        #expect(lines.ids.last?.location.column == 3)
    }

    // MARK: 7. Internal failures

    @Test(arguments: ["trap", "throw"])
    func internalFailureExitsWithThreeAndOneLine(_ kind: String) throws {
        let result = try runIAPDoctor(["rules"], environment: ["IAPDOCTOR_TEST_INTERNAL_FAILURE": kind, "SWIFT_BACKTRACE": "enable=no"])
        #expect(result.status == 3)
        #expect(result.output.isEmpty)
        // Ours is the last line; a debug build's runtime prints its own message and stack first
        // (a release build prints nothing before it: see FUZZING.md).
        let lines = result.errors.split(separator: "\n")
        #expect(lines.last?.hasPrefix("iapdoctor: internal error") == true, "\(result.errors)")
        #expect(lines.filter { $0.hasPrefix("iapdoctor:") }.count == 1)
        if kind == "throw" { #expect(lines.count == 1) }
    }

    // MARK: 17. Byte order mark

    @Test func byteOrderMarkBeforeTheFirstKeyIsAccepted() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let read = try YAMLTreeReader.read(bytes: bom + Array("version: 1\nenvironment: sandbox\n".utf8), file: "p.yaml")
        #expect(read.tree?["version"]?.scalar?.text == "1")
        // Columns on line 1 are counted after the mark, as editors show them.
        #expect(read.tree?["version"]?.location == SourceLocation(file: "p.yaml", line: 1, column: 10, endLine: 1, endColumn: 11))
        let configuration = try Configuration.parse(
            bytes: bom + Array("rules:\n  product-id-typo: warning\n".utf8), file: ".iapdoctor.yml", ruleSet: .builtin)
        #expect(configuration.overrides["product-id-typo"] != nil)
        #expect(configuration.overrides["product-id-typo"]?.location == SourceLocation(file: ".iapdoctor.yml", line: 2, column: 3, endLine: 2, endColumn: 18))
    }
}

/// A descriptor with a problem on every one of thousands of products: every finding counts, the
/// first ones of each rule are listed, and the rest are one note (memory and output stay bounded).
@Suite("Findings past the listing limit") struct FindingListingTests {
    @Test func findingsPastTheLimitAreCountedNotListed() throws {
        let count = Engine.maxListedFindingsPerRule + 500
        let products = (0..<count).map { "  - { product_id: com.acme.app.item\($0), reference_name: Item \($0), type: consumable }" }
        let text = "version: 1\nenvironment: sandbox\nproducts:\n" + products.joined(separator: "\n") + "\n"
        let loaded = DescriptorLoader.load(bytes: Array(text.utf8), file: "many.yaml")
        let diagnosis = BuiltinRules.engine().diagnose(loaded.project, inputProblems: loaded.problems, options: Engine.Options())
        let listed = diagnosis.findings.filter { $0.rule == "missing-price" }
        #expect(listed.count == Engine.maxListedFindingsPerRule + 1, "the listed ones and the note")
        let note = try #require(listed.first { $0.severity == .note })
        #expect(note.message.contains("found 500 more problems like the \(Engine.maxListedFindingsPerRule) listed"))
        // Totals, the exit code and every product's verdict still count all of them.
        #expect(diagnosis.count(.error) >= count)
        #expect(diagnosis.exitCode == 1)
        #expect(diagnosis.products.count == count)
        #expect(diagnosis.products.allSatisfy { $0.failing.contains("product-metadata") })
        #expect(!diagnosis.findings.contains { $0.isElided })
    }

    /// App Store Connect holds at most 10,000 In-App Purchases per app: a descriptor with more
    /// products (or requests) is refused with a positioned error before any per-product work.
    @Test func moreProductsThanAnAppCanHaveAreRefused() {
        let products = (0...DescriptorLoader.maxProducts).map { "  - { product_id: com.acme.app.p\($0) }" }
        let text = "version: 1\nproducts:\n" + products.joined(separator: "\n") + "\nrequests: [com.acme.app.p1]\n"
        let loaded = DescriptorLoader.load(bytes: Array(text.utf8), file: "many.yaml")
        let problem = loaded.problems.first { $0.message.contains("App Store Connect holds at most 10000 per app") }
        #expect(problem?.severity == .error)
        #expect(problem?.location?.line == 3)
        #expect(loaded.project.products.isEmpty)
        let atTheLimit = DescriptorLoader.load(bytes: Array(text.replacingOccurrences(of: "  - { product_id: com.acme.app.p10000 }\n", with: "").utf8), file: "ok.yaml")
        #expect(atTheLimit.project.products.count == DescriptorLoader.maxProducts)
        #expect(!atTheLimit.hasErrors)
    }
}
