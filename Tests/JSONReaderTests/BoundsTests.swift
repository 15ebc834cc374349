import Foundation
@testable import JSONReader
import Testing
import TestSupport

/// What a document costs: its bytes and one small record per value, whatever its shape.
@Suite struct BoundsTests {
    @Test func aValueCostsTwelveBytes() {
        #expect(MemoryLayout<Node>.stride == 12)
    }

    @Test func smallValuesMakeOneRecordEach() throws {
        let text = "[" + Array(repeating: #"{"a":1}"#, count: 100_000).joined(separator: ",") + "]"
        let document = try JSONDocument.parse(bytes: Array(text.utf8), file: "s.json")
        // The array, then a key and a value per object: at most 12 bytes of records per 2 input bytes.
        #expect(document.nodes.count == 1 + 100_000 * 3)
        #expect(document.nodes.count * MemoryLayout<Node>.stride <= 6 * text.utf8.count)
        #expect(document.lines.lineStarts.count == 1)
        #expect(document.lines.continuationsBefore.isEmpty, "an ASCII document needs no column table")
        #expect(document.root.elements.last?["a"]?.integer == 1)
    }

    @Test func theValueCountIsLimited() throws {
        // Past the limit the parse stops with a position, before it allocates more.
        let text = "[" + Array(repeating: "0", count: 1000).joined(separator: ",") + "]"
        _ = try JSONDocument.parse(bytes: Array(text.utf8), file: "many.json", maxValues: 1001)
        do {
            _ = try JSONDocument.parse(bytes: Array(text.utf8), file: "many.json", maxValues: 1000)
            Issue.record("a document of 1,001 values was read with a limit of 1,000")
        } catch {
            #expect(error.message == "the document holds more than 1000 values")
            #expect(error.column == 2 + 999 * 2, "at the value that does not fit")
        }
        #expect(JSONDocument.maxValues * MemoryLayout<Node>.stride <= 256 << 20)
    }

    /// The pre-count that sizes a large document's records is the parser's own count, for every
    /// shape of well-formed document (escaped quotes and backslashes, numbers, literals, nesting).
    @Test func theValueCountMatchesTheParse() throws {
        var random = SplitMix(seed: 20261127)
        for round in 0..<300 {
            var text = ""
            TwinTests.write(depth: 0, into: &text, random: &random)
            let document = try JSONDocument.parse(bytes: Array(text.utf8), file: "g.json")
            #expect(JSONParser.countValues(Array(text.utf8)) == document.nodes.count, "round \(round): \(text)")
        }
        // Past the threshold the records are made room for once: no slack from doubling.
        let text = "[" + Array(repeating: #"{"id": "USA", "type": "territories"}"#, count: 40_000).joined(separator: ",\n") + "]"
        #expect(text.utf8.count >= JSONParser.countingThreshold)
        let document = try JSONDocument.parse(bytes: Array(text.utf8), file: "t.json")
        #expect(document.nodes.count == 1 + 40_000 * 5)
        #expect(document.nodes.capacity < document.nodes.count + document.nodes.count / 8)
    }

    /// Line starts are kept for every sixteenth line; every position still is the one counted
    /// from the start of the document.
    @Test func positionsBetweenRecordedLinesAreCounted() throws {
        let lines = (0..<100).map { index in "  \"é\(index)\": [\(index), \"ü\"]" + (index % 7 == 0 ? "\n" : "") }
        let text = "{\n" + lines.joined(separator: ",\n") + "\n}"
        let bytes = Array(text.utf8)
        let document = try JSONDocument.parse(bytes: bytes, file: "lines.json")
        #expect(document.lines.lineStarts.count == (text.filter { $0 == "\n" }.count) / LineTable.stride + 1)
        for member in document.root.members {
            for node in [member.keyNode, member.value] + member.value.elements {
                let start = LineTable.position(of: node.offsets.lowerBound, in: bytes)
                #expect(node.span.line == start.line && node.span.column == start.column, "\(member.key)")
            }
        }
    }

    @Test func columnsOnALongNonASCIILineTakeOneBlockScan() throws {
        let text = "[" + Array(repeating: "\"é\"", count: 50_000).joined(separator: ",") + "]"
        let document = try JSONDocument.parse(bytes: Array(text.utf8), file: "é.json")
        let last = try #require(document.root.elements.last)
        // Each element is 4 characters wide (`"é"` and a comma) in 5 bytes.
        #expect(last.span.column == 2 + 49_999 * 4)
        #expect(last.span.endColumn == 2 + 49_999 * 4 + 3)
    }
}
