import Foundation
@testable import JSONReader
import Testing
import TestSupport

/// A document parsed with folded containers, each read on its own afterwards, is the document
/// parsed whole: the same values at the same positions, and the same errors.
@Suite struct FoldingTests {
    /// Walks both views together; a folded container is read on its own first.
    static func difference(_ whole: JSONNode, _ folded: JSONNode, path: String = "$") throws -> String? {
        let part = folded.isFolded ? try folded.standalone() : folded
        guard whole.kind == part.kind else { return "\(path): \(whole.kind) against \(part.kind)" }
        guard whole.span == part.span else { return "\(path): span \(whole.span) against \(part.span)" }
        guard whole.string == part.string, whole.number == part.number, whole.bool == part.bool else { return "\(path): value" }
        let (members, others) = (whole.members, part.members)
        guard members.map(\.key) == others.map(\.key) else { return "\(path): keys" }
        for (member, other) in zip(members, others) {
            guard member.keyNode.span == other.keyNode.span else { return "\(path).\(member.key): key span" }
            if let found = try difference(member.value, other.value, path: path + "." + member.key) { return found }
        }
        let (elements, items) = (whole.elements, part.elements)
        guard elements.count == items.count else { return "\(path): \(elements.count) against \(items.count) elements" }
        for (index, (element, item)) in zip(elements, items).enumerated() {
            if let found = try difference(element, item, path: path + "[\(index)]") { return found }
        }
        return nil
    }

    static func error(_ parse: () throws(JSONSyntaxError) -> JSONDocument) -> JSONSyntaxError? {
        do {
            _ = try parse()
            return nil
        } catch {
            return error
        }
    }

    @Test func foldedPartsReadOnTheirOwnAreTheWhole() throws {
        var random = SplitMix(seed: 20261128)
        for round in 0..<300 {
            var text = random.next() % 3 == 0 ? "\u{FEFF}" : ""
            TwinTests.write(depth: 0, into: &text, random: &random)
            if random.next() % 2 == 0 { text = "é  " + text.replacingOccurrences(of: "\u{FEFF}", with: "") }
            let bytes = Array(text.utf8)
            guard let whole = try? JSONDocument.parse(bytes: bytes, file: "g.json") else { continue }
            for depth in 1...4 {
                let folded = try JSONDocument.parse(bytes: bytes, file: "g.json", maxValues: JSONDocument.maxValues, foldingDepth: depth)
                #expect(folded.nodes.count <= whole.nodes.count)
                #expect(try Self.difference(whole.root, folded.root) == nil, "round \(round), depth \(depth): \(text)")
            }
        }
    }

    @Test func foldedContainersKeepOnlyTheirOwnRecord() throws {
        let text = "{\n  \"data\": [\n    { \"id\": \"1\", \"r\": [1, 2, 3] },\n    { \"id\": \"2\" }\n  ],\n  \"meta\": { \"k\": [true] }\n}"
        let document = try JSONDocument.parse(bytes: Array(text.utf8), file: "f.json", maxValues: 100, foldingDepth: 3)
        // The root; `data` and its array with two folded elements; `meta` and its object with the
        // key `k` and its folded array.
        #expect(document.nodes.count == 9)
        let second = try #require(document.root["data"]?.elements.last)
        #expect(second.isFolded && second.members.isEmpty)
        let read = try second.standalone()
        #expect(read["id"]?.string == "2")
        #expect(read["id"]?.span.line == 4 && read["id"]?.span.column == 13)
    }

    @Test func theLimitCountsFoldedValues() throws {
        let text = "[" + Array(repeating: "[0, 0]", count: 100).joined(separator: ",") + "]"
        let whole = Self.error { () throws(JSONSyntaxError) in try JSONDocument.parse(bytes: Array(text.utf8), file: "l.json", maxValues: 250) }
        let folded = Self.error { () throws(JSONSyntaxError) in try JSONDocument.parse(bytes: Array(text.utf8), file: "l.json", maxValues: 250, foldingDepth: 2) }
        #expect(whole != nil)
        #expect(whole?.message == folded?.message && whole?.column == folded?.column)
    }

    @Test func errorsInsideAFoldedPartAreWhereTheWholeParseFindsThem() {
        var random = SplitMix(seed: 20261129)
        for round in 0..<200 {
            var text = ""
            TwinTests.write(depth: 0, into: &text, random: &random)
            guard !text.isEmpty else { continue }
            let bytes = TwinTests.mutated(Array(text.utf8), random: &random)
            let whole = Self.error { () throws(JSONSyntaxError) in try JSONDocument.parse(bytes: bytes, file: "m.json") }
            let folded = Self.error { () throws(JSONSyntaxError) in try JSONDocument.parse(bytes: bytes, file: "m.json", maxValues: JSONDocument.maxValues, foldingDepth: 2) }
            #expect(whole?.message == folded?.message && whole?.line == folded?.line && whole?.column == folded?.column, "round \(round)")
        }
    }
}
