import Foundation
@testable import JSONReader
import Testing
import TestSupport

/// The compact document against its readable twin: every value, key, span and error the same.
@Suite struct TwinTests {
    /// Walks both trees together, recording the first difference.
    static func compare(_ node: JSONNode, _ reference: ReferenceValue, path: String = "$") -> String? {
        let span = node.span
        let location = reference.location
        guard span.line == location.line, span.column == location.column,
              span.endLine == location.endLine, span.endColumn == location.endColumn
        else { return "\(path): span \(span) vs \(location)" }
        switch reference {
        case .object(let members, _):
            let nodeMembers = node.members
            guard node.kind == .object, nodeMembers.count == members.count else { return "\(path): object of \(members.count) vs \(node.kind) \(nodeMembers.count)" }
            for (member, expected) in zip(nodeMembers, members) {
                guard member.key == expected.key else { return "\(path): key \(member.key) vs \(expected.key)" }
                let keySpan = member.keyNode.span
                guard keySpan.line == expected.keyLocation.line, keySpan.column == expected.keyLocation.column,
                      keySpan.endColumn == expected.keyLocation.endColumn
                else { return "\(path).\(member.key): key span" }
                if let difference = compare(member.value, expected.value, path: path + "." + member.key) { return difference }
            }
            // Lookup by key finds the first member, as the twin's did.
            for expected in members {
                guard let found = node[expected.key], let first = members.first(where: { $0.key == expected.key }),
                      found.span.line == first.value.location.line, found.span.column == first.value.location.column
                else { return "\(path)[\(expected.key)]: lookup" }
            }
        case .array(let elements, _):
            let nodeElements = node.elements
            guard node.kind == .array, nodeElements.count == elements.count else { return "\(path): array" }
            for (index, (element, expected)) in zip(nodeElements, elements).enumerated() {
                if let difference = compare(element, expected, path: "\(path)[\(index)]") { return difference }
            }
        case .string(let text, _):
            guard node.string == text else { return "\(path): string \(String(reflecting: node.string)) vs \(String(reflecting: text))" }
        case .number(let number, _):
            guard node.number == number else { return "\(path): number" }
        case .bool(let flag, _):
            guard node.bool == flag else { return "\(path): bool" }
        case .null:
            guard node.isNull else { return "\(path): null" }
        }
        return nil
    }

    /// Parses with both; the same value or the same error.
    static func difference(_ bytes: [UInt8]) -> String? {
        let reference: Result<ReferenceValue, ReferenceParser.Failure>
        do { reference = .success(try ReferenceParser.parse(bytes: bytes, file: "t.json")) } catch { reference = .failure(error) }
        let document: Result<JSONDocument, JSONSyntaxError>
        do { document = .success(try JSONDocument.parse(bytes: bytes, file: "t.json")) } catch { document = .failure(error) }
        switch (document, reference) {
        case (.success(let document), .success(let value)):
            return compare(document.root, value)
        case (.failure(let error), .failure(let expected)):
            guard error.message == expected.message, error.line == expected.location.line, error.column == expected.location.column else {
                return "error \(error) vs \(expected.location.line):\(expected.location.column): \(expected.message)"
            }
            return nil
        case (.success, .failure(let expected)): return "accepted; the twin said \(expected.message)"
        case (.failure(let error), .success): return "refused (\(error)); the twin accepted"
        }
    }

    @Test("documents written to catch one thing each", arguments: [
        #"{"productID": "com.example.pro", "n": [1, -2.5e3, true, false, null], "o": {}}"#,
        "{\n  \"a\" : [\n    1,\n    \"é\\u00e9\\ud83d\\ude00\"\n  ]\n}\n",
        "\u{FEFF}{\"bom\": 1}",
        "\u{FEFF}\n[\"é\", \"x\"]",
        #"["\ud800\u0041", "\udc00x", "\/\b\f\n\r\t\"\\"]"#,
        #"{"a":1,"a":2,"\u0061":3}"#,
        "[01, 1., 1e5, -0, 1E+2]",
        "  \"just a string\"  ",
        "[\"émoji 😀 at column\", {\"k\": [\"ü\"]}]",
        // Errors.
        "", "[", "{\"a\" 1}", "{\"a\": 1,}", "[1,]", "[1 2]", "{1: 2}", "\"abc", "\"a\nb\"", "\"a\u{01}\"",
        #""\q""#, #""\u12""#, #""\u12G4""#, "\"\\", "tru", "nul", "-", "1-2", "[1] x", "{\"é\": 1 \"b\": 2}",
        "\u{FEFF}", "[\"é\" x]",
    ])
    func handWritten(_ text: String) {
        #expect(Self.difference(Array(text.utf8)) == nil)
    }

    @Test func depthIsLimitedAlike() {
        for depth in [255, 256, 257, 10_000] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            #expect(Self.difference(Array(text.utf8)) == nil, "depth \(depth)")
        }
    }

    /// Random documents, then each with one byte changed: valid and invalid JSON of every shape.
    @Test func generatedDocumentsAndTheirMutations() {
        var random = SplitMix(seed: 20261126)
        for round in 0..<300 {
            var text = ""
            Self.write(depth: 0, into: &text, random: &random)
            let bytes = Array(text.utf8)
            #expect(Self.difference(bytes) == nil, "round \(round): \(text)")
            for _ in 0..<6 where !bytes.isEmpty {
                let mutated = Self.mutated(bytes, random: &random)
                #expect(Self.difference(mutated) == nil, "round \(round) mutated: \(String(decoding: mutated, as: UTF8.self))")
            }
        }
    }

    /// `bytes` with one byte replaced by a byte JSON gives meaning to (and, one time in four,
    /// removed instead).
    static func mutated(_ bytes: [UInt8], random: inout SplitMix) -> [UInt8] {
        var mutated = bytes
        let position = Int(random.next() % UInt64(bytes.count))
        let replacements: [UInt8] = Array("{}[],:\"\\ \n0-eu.tfnaé".utf8)
        mutated[position] = replacements[Int(random.next() % UInt64(replacements.count))]
        if random.next() % 4 == 0 { mutated.remove(at: position) }
        return mutated
    }

    static func write(depth: Int, into text: inout String, random: inout SplitMix) {
        let space = [" ", "", "\n  ", "\t"][Int(random.next() % 4)]
        switch random.next() % (depth > 4 ? 5 : 7) {
        case 0: text += ["\"com.example.pro\"", "\"é\\u00e9\"", "\"\\ud83d\\ude00 😀\"", "\"a\\\"b\\\\c\\n\"", "\"\""][Int(random.next() % 5)]
        case 1: text += ["0", "-12", "3.25", "1e-3", "12345678901234567890"][Int(random.next() % 5)]
        case 2: text += ["true", "false"][Int(random.next() % 2)]
        case 3: text += "null"
        case 4: text += "\"k\(random.next() % 100)\""
        case 5:
            text += "[" + space
            for index in 0..<Int(random.next() % 4) {
                if index > 0 { text += "," + space }
                write(depth: depth + 1, into: &text, random: &random)
            }
            text += space + "]"
        default:
            text += "{" + space
            for index in 0..<Int(random.next() % 4) {
                if index > 0 { text += "," + space }
                text += ["\"productID\"", "\"é\"", "\"a\\u0062\"", "\"k\"", "\"type\""][Int(random.next() % 5)] + space + ":" + space
                write(depth: depth + 1, into: &text, random: &random)
            }
            text += space + "}"
        }
    }
}


