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

    /// Minified documents and documents with a few long lines keep checkpoints: every value's
    /// position is still the one counted from the start of the document (the readable twin), on
    /// lines short and long, ASCII and not, with and without a byte order mark.
    @Test func checkpointsOnLongLinesGiveTheCountedPositions() throws {
        var random = SplitMix(seed: 20_261_202)
        let words = ["\"com.example.pro\"", "\"é\"", "\"😀 ü\"", "\"\\u00e9\"", "12", "true", "null", "\"\""]
        let gaps = [",", ",", ",", ", ", ",\n", ",\n  ", ",\r\n"]
        for round in 0..<24 {
            var text = round % 3 == 0 ? "\u{FEFF}[" : "["
            let count = 1_000 + Int(random.next() % 3_000)
            // Some rounds are one line; others break lines rarely or often.
            let breaks = [0, 0, 2, 50][round % 4]
            for index in 0..<count {
                if index > 0 {
                    let gap = breaks == 0 ? "," : gaps[Int(random.next() % UInt64(gaps.count))]
                    text += gap.contains("\n") && Int(random.next() % 100) >= breaks ? "," : gap
                }
                text += words[Int(random.next() % UInt64(words.count))]
            }
            text += "]"
            let bytes = Array(text.utf8)
            let document = try JSONDocument.parse(bytes: bytes, file: "long.json")
            if breaks == 0 { #expect(!document.lines.checkpointLines.isEmpty, "round \(round): one long line has checkpoints") }
            // Counting from the start costs the document's length: a sample of the values, and the last.
            let elements = document.root.elements
            let sample = (0..<100).map { _ in elements[Int(random.next() % UInt64(elements.count))] } + [elements[elements.count - 1]]
            for element in sample {
                for offset in [element.offsets.lowerBound, element.offsets.upperBound] {
                    let counted = LineTable.position(of: offset, in: bytes)
                    let found = document.lines.position(of: offset, in: bytes)
                    #expect(found.line == counted.line && found.column == counted.column, "round \(round) offset \(offset)")
                }
            }
        }
    }

    /// Short lines keep no checkpoints: a pretty-printed document costs what it did.
    @Test func shortLinesKeepNoCheckpoints() throws {
        let text = "[\n" + (0..<5_000).map { "  \"com.example.item\($0)\"" }.joined(separator: ",\n") + "\n]\n"
        let document = try JSONDocument.parse(bytes: Array(text.utf8), file: "pretty.json")
        #expect(document.lines.checkpointLines.isEmpty)
    }
}
