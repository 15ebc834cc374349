import Foundation
import Testing
import XMLReader

/// libxml2 pulls the document through the reader (a file through a buffer of `chunkSize`, or
/// bytes): the same tree either way, and a start tag over the limit is refused while libxml2 is
/// still inside it, wherever the tag is and whatever its values hold.
@Suite("The document read as libxml2 asks for it", .timeLimit(.minutes(1)))
struct PullInputTests {
    func parseFile(_ text: String, limits: XMLReaderLimits = XMLReaderLimits()) throws -> XMLNode {
        let file = try TemporaryFile(contents: Array(text.utf8))
        defer { file.remove() }
        return try XMLReader.parse(contentsOfFile: file.path, limits: limits)
    }

    func fileRefusal(_ text: String, limits: XMLReaderLimits = XMLReaderLimits()) throws -> XMLReaderError {
        try #require(throws: XMLReaderError.self) { try parseFile(text, limits: limits) }
    }

    /// Refills of the file buffer fall anywhere: inside names, values, texts and multi-byte characters.
    @Test func aFileReadInSmallPiecesGivesTheTreeOfItsBytes() throws {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalog xmlns=\"urn:c\">\n"
        for index in 0..<400 {
            xml += "  <item id=\"p\(index)\" note=\"a > b\"><title>Grüße \(index)</title><![CDATA[<raw>]]>&amp;x</item>\n"
        }
        xml += "</catalog>\n"
        let fromBytes = try XMLReader.parse(string: xml)
        for chunk in [4096, 4099, 65536] {
            let fromFile = try parseFile(xml, limits: XMLReaderLimits(chunkSize: chunk))
            #expect(fromFile == fromBytes, "chunk \(chunk)")
        }
        #expect(fromBytes.children.count == 400)
        #expect(fromBytes.children[399].children.first?.textPosition == XMLPosition(line: 402, column: 39, endLine: 402, endColumn: 48))
    }

    /// Values may hold `>` and quotes of the other kind; the tag is still one tag, and too long.
    @Test func aLongTagWhoseValuesHoldMarkupIsRefusedAtItsStart() throws {
        let attributes = (0..<20_000).map { "a\($0)=\"x > '\($0)'\"" }.joined(separator: "\n    ")
        let xml = "<r>\n  <t>text</t>  <item\n    " + attributes + "/>\n</r>\n"
        for error in [try fileRefusal(xml), try #require(throws: XMLReaderError.self) { try XMLReader.parse(string: xml) }] {
            #expect(error.kind == .startTagTooLong)
            #expect(error.message.contains("`<item`"))
            #expect(error.position == XMLPosition(line: 2, column: 16))
        }
    }

    /// The same in a UTF-16 document, which libxml2 converts as it reads: the tag is looked for
    /// in what libxml2 holds, not in the file's bytes.
    @Test func aLongTagInUTF16IsRefusedToo() throws {
        let attributes = (0..<20_000).map { "a\($0)=\"\"" }.joined(separator: " ")
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<r>\n  <item " + attributes + "/>\n</r>\n"
        let bytes: [UInt8] = [0xFF, 0xFE] + xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let file = try TemporaryFile(contents: bytes)
        defer { file.remove() }
        let error = try #require(throws: XMLReaderError.self) { try XMLReader.parse(contentsOfFile: file.path) }
        #expect(error.kind == .startTagTooLong)
        #expect(error.position == XMLPosition(line: 3, column: 3))
    }

    /// A tag just under the limit is read; one just over is not.
    @Test func theLimitIsTheTagsLength() throws {
        let limits = XMLReaderLimits(maxStartTagBytes: 8_000)
        func tag(_ count: Int) -> String { "<r><e " + (0..<count).map { "a\($0)=\"v\"" }.joined(separator: " ") + "/></r>" }
        #expect(try XMLReader.parse(string: tag(600), limits: limits).children.first?.attributes.count == 600)
        let error = try #require(throws: XMLReaderError.self) { try XMLReader.parse(string: tag(3_000), limits: limits) }
        #expect(error.kind == .startTagTooLong)
        #expect(error.position == XMLPosition(line: 1, column: 4))
    }

    /// Comments and CDATA sections may hold `<` and names without `>` for longer than a tag may be.
    @Test func longCommentsAndCDATAWithMarkupInsideAreNotTags() throws {
        let filler = String(repeating: "lorem ipsum ", count: 12_000)
        let xml = "<r>\n<!-- <draft " + filler + " -->\n<d><![CDATA[<b " + filler + "]]></d>\n</r>\n"
        let root = try parseFile(xml)
        #expect(root.children.first?.text.hasPrefix("<b lorem") == true)
    }

    /// Markup that goes on for megabytes without an element boundary (a comment here) is refused
    /// once libxml2 has been handed twice the text limit of it, not read to its end.
    @Test func aCommentOfMegabytesIsRefused() throws {
        let limits = XMLReaderLimits(maxTextBytes: 64 * 1024)
        let xml = "<r>\n  <e/>\n  <!-- " + String(repeating: "x", count: 3 << 20) + " -->\n</r>\n"
        let error = try fileRefusal(xml, limits: limits)
        #expect(error.kind == .textTooLong)
        #expect(error.message.contains("without an element boundary in `r`"))
        #expect(error.position == XMLPosition(line: 1, column: 1))
    }
}
