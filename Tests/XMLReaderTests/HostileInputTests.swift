import Foundation
import Testing
import XMLReader

/// Malicious and broken documents: each is refused with a positioned error, quickly and in bounded
/// memory (the one-minute limit only guards against a hang; each finishes in milliseconds).
@Suite("Hostile and malformed XML", .timeLimit(.minutes(1)))
struct HostileInputTests {
    func refusal(_ xml: String) throws -> XMLReaderError {
        try refusal(Array(xml.utf8))
    }

    func refusal(_ bytes: [UInt8]) throws -> XMLReaderError {
        try #require(throws: XMLReaderError.self) { try XMLReader.parse(bytes: bytes) }
    }

    @Test func billionLaughsIsRefusedAtTheFirstEntityDeclaration() throws {
        let entities = ["<!ENTITY lol0 \"lol\">"]
            + (1..<10).map { "<!ENTITY lol\($0) \"\(String(repeating: "&lol\($0 - 1);", count: 10))\">" }
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n " + entities.joined(separator: "\n ")
            + "\n]>\n<lolz>&lol9;</lolz>\n"
        let error = try refusal(xml)
        #expect(error.kind == .entityDeclaration)
        #expect(error.message.contains("`lol0`"))
        #expect(error.position.line == 3)
    }

    /// libxml2 2.9 compares attributes pairwise: 90,000 of them (1 MB) took 10 s. The tag is
    /// refused while libxml2 still waits for its end.
    @Test func aStartTagWithTensOfThousandsOfAttributesIsRefused() throws {
        let attributes = (0..<90_000).map { "a\($0)=\"\"" }.joined(separator: " ")
        let xml = "<?xml version=\"1.0\"?>\n<package>\n  <item " + attributes + "/>\n</package>\n"
        let error = try refusal(xml)
        #expect(error.kind == .startTagTooLong)
        #expect(error.message.contains("`<item`"))
        #expect(error.position.line == 3)
        // Ordinary tags, and long attribute values inside the limit, still parse.
        let fine = "<r " + (0..<100).map { "a\($0)=\"\(String(repeating: "v", count: 100))\"" }.joined(separator: " ") + "/>"
        #expect(try XMLReader.parse(string: fine).attributes.count == 100)
    }

    @Test func quadraticBlowupIsRefusedBeforeAnyExpansion() throws {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY a \"" + String(repeating: "x", count: 50_000)
            + "\">]>\n<r>" + String(repeating: "&a;", count: 20_000) + "</r>\n"
        let error = try refusal(xml)
        #expect(error.kind == .entityDeclaration)
        #expect(error.position.line == 2)
    }

    @Test func externalEntityToALocalFileIsNeverRead() throws {
        let secret = try TemporaryFile(contents: Array("TOP-SECRET-CONTENT".utf8), suffix: ".txt")
        defer { secret.remove() }
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"file://\(secret.path)\">]>\n<r>&x;</r>\n"
        let error = try refusal(xml)
        #expect(error.kind == .entityDeclaration)
        #expect(!error.description.contains("TOP-SECRET"))
    }

    @Test func parameterEntitiesAreRefused() throws {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n<r/>"
        let error = try refusal(xml)
        #expect(error.kind == .entityDeclaration)
    }

    @Test func externalDTDIsNamedButNotLoaded() throws {
        // A DOCTYPE that only names an external DTD is accepted (every Apple plist has one); the
        // DTD is not fetched, and a reference to an entity it might declare is an error.
        let root = try XMLReader.parse(string: "<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"file:///etc/passwd\">\n<r>x</r>")
        #expect(root.text == "x")
        let error = try refusal("<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"file:///etc/passwd\">\n<r>&x;</r>")
        #expect(error.kind == .malformed)
        #expect(error.message.contains("x"))
    }

    @Test func undeclaredEntityWithoutDTDIsMalformed() throws {
        let error = try refusal("<r>\n&nope;</r>")
        #expect(error.kind == .malformed)
        #expect(error.position.line == 2)
    }

    @Test func hundredThousandDeepNestingStopsAtTheDepthLimit() throws {
        let depth = 100_000
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let error = try refusal(xml)
        #expect(error.kind == .tooDeep)
        #expect(error.position == XMLPosition(line: 1, column: 64 * 3 + 1))
        let shallow = XMLReaderLimits(maxDepth: 3)
        #expect(throws: XMLReaderError.self) { try XMLReader.parse(string: "<a><b><c><d/></c></b></a>", limits: shallow) }
        #expect(throws: Never.self) { try XMLReader.parse(string: "<a><b><c/></b></a>", limits: shallow) }
    }

    @Test func hugeTextNodeIsRefusedAtTheTextLimit() throws {
        let xml = "<r>\n  <description>" + String(repeating: "x", count: 50 * 1024 * 1024) + "</description></r>"
        let error = try refusal(xml)
        #expect(error.kind == .textTooLong)
        #expect(error.message.contains("`description`"))
        #expect(error.position == XMLPosition(line: 2, column: 3))
    }

    @Test func hugeAttributeValueIsRefused() throws {
        let limits = XMLReaderLimits(maxTextBytes: 1000)
        let error = try #require(throws: XMLReaderError.self) {
            try XMLReader.parse(string: "<r a=\"" + String(repeating: "y", count: 2000) + "\"/>", limits: limits)
        }
        #expect(error.kind == .textTooLong)
    }

    @Test func elementCountIsBounded() throws {
        let limits = XMLReaderLimits(maxElements: 10)
        let error = try #require(throws: XMLReaderError.self) {
            try XMLReader.parse(string: "<r>" + String(repeating: "<i/>", count: 20) + "</r>", limits: limits)
        }
        #expect(error.kind == .tooManyElements)
    }

    @Test func invalidUTF8GivesAPositionedError() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<r><t>ok</t><t>bad ".utf8)
        bytes += [0xFF, 0xFE, 0xC3, 0x28]
        bytes += Array(" bytes</t></r>\n".utf8)
        let error = try refusal(bytes)
        #expect(error.kind == .malformed)
        #expect(error.position.line == 2)
        #expect(error.position.column > 0)
        #expect(error.message.contains("UTF-8"))
    }

    @Test func truncatedDocumentIsNeverAPartialSuccess() throws {
        let error = try refusal("<package>\n  <software>\n    <vendor_id>com.x</vendor_id>\n")
        #expect(error.kind == .malformed)
        #expect(error.position.line >= 3)
    }

    @Test func mismatchedTagNamesTheLine() throws {
        let error = try refusal("<a>\n<b></c>\n</a>")
        #expect(error.kind == .malformed)
        #expect(error.position.line == 2)
        #expect(error.libxml2Code != nil)
    }

    @Test func emptyInputIsRefused() throws {
        let error = try refusal([UInt8]())
        #expect(error.kind == .empty)
        let whitespace = try refusal("   \n")
        #expect(whitespace.kind == .malformed)
        let emptyFile = try TemporaryFile(contents: [])
        defer { emptyFile.remove() }
        let fileError = try #require(throws: XMLReaderError.self) { try XMLReader.parse(contentsOfFile: emptyFile.path) }
        #expect(fileError.kind == .empty)
        #expect(fileError.file == emptyFile.path)
    }

    @Test func binaryFileIsRefused() throws {
        // A PNG signature and some zero bytes.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        let error = try refusal(png)
        #expect(error.kind == .malformed)
        #expect(error.position.line >= 1)
        var random = SystemRandomNumberGenerator()
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(throws: XMLReaderError.self) { try XMLReader.parse(bytes: noise) }
    }

    @Test func inputSizeLimitIsEnforced() throws {
        let limits = XMLReaderLimits(maxInputBytes: 100)
        let big = "<r>" + String(repeating: "<i/>", count: 100) + "</r>"
        let error = try #require(throws: XMLReaderError.self) { try XMLReader.parse(string: big, limits: limits) }
        #expect(error.kind == .inputTooLarge)
        let file = try TemporaryFile(contents: Array(big.utf8))
        defer { file.remove() }
        let fileError = try #require(throws: XMLReaderError.self) {
            try XMLReader.parse(contentsOfFile: file.path, limits: XMLReaderLimits(maxInputBytes: 100, chunkSize: 64))
        }
        #expect(fileError.kind == .inputTooLarge)
    }

    @Test func utf16WithoutByteOrderMarkOrDeclarationIsRefused() throws {
        var bytes: [UInt8] = []
        for unit in "<a>x</a>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(throws: XMLReaderError.self) { try XMLReader.parse(bytes: bytes) }
    }

    /// A tree holds at most `maxTreeElements` nodes at once (memory), while a stream may hand out
    /// any number of items: their nodes are let go once handled.
    @Test func treesAreBoundedButStreamedItemsAreNot() throws {
        let limits = XMLReaderLimits(maxTreeElements: 1_000)
        let wide = "<r>" + String(repeating: "<a>x</a>", count: 1_000) + "</r>"
        let error = try #require(throws: XMLReaderError.self) { try XMLReader.parse(bytes: Array(wide.utf8), limits: limits) }
        #expect(error.kind == .tooManyElements)
        #expect(error.message.contains("more than 1000 elements in memory"))
        // 5,000 items of three elements each: 15,000 nodes streamed, never more than a few held.
        let items = "<r>" + String(repeating: "<item><a>1</a><b>2</b></item>", count: 5_000) + "</r>"
        var count = 0
        let rest = try XMLReader.stream(bytes: Array(items.utf8), itemDepth: 2, limits: limits) { item, _ in
            count += item.children.count + 1
        }
        #expect(count == 15_000)
        #expect(rest.name == "r")
        // Scanning keeps only what is outside the items, and that is bounded the same way.
        let outside = "<r>" + String(repeating: "<meta/>", count: 1_001) + "<item/></r>"
        let scanError = try #require(throws: XMLReaderError.self) {
            _ = try XMLReader.scan(bytes: Array(outside.utf8), limits: limits, select: { $0.name == "item" }) { _ in }
        }
        #expect(scanError.kind == .tooManyElements)
    }
}
