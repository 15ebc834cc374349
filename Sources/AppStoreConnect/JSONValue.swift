import Foundation
import JSONReader

/// A JSON document as data, with one serialization: keys sorted, numbers in their shortest
/// round-trip form, only the escapes JSON requires. The same value always gives the same bytes,
/// on every platform (Foundation's `JSONSerialization` escapes `/` on Apple platforms and not
/// elsewhere, and formats doubles differently), which is what makes a snapshot diffable.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var integerValue: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    public var isNull: Bool { self == .null }

    /// Parses a JSON text (RFC 8259; any top-level value). A number written as an integer that
    /// fits 64 bits is `.integer`, any other `.double`; of repeated keys the first counts.
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        JSONValue(try JSONDocument.parse(bytes: [UInt8](data), file: "the answer").root)
    }

    /// The value a node of a parsed document holds.
    public init(_ node: JSONNode) {
        switch node.kind {
        case .null: self = .null
        case .bool: self = .bool(node.bool ?? false)
        case .number: self = node.integer.map(JSONValue.integer) ?? .double(node.number ?? 0)
        case .string: self = .string(node.string ?? "")
        case .array: self = .array(node.elements.map(JSONValue.init))
        case .object:
            var members: [String: JSONValue] = [:]
            for member in node.members where members[member.key] == nil { members[member.key] = JSONValue(member.value) }
            self = .object(members)
        }
    }

    /// The serialization: two-space indentation when `pretty`, one line otherwise.
    /// Values in the serialization, object keys included.
    var valueCount: Int {
        switch self {
        case .array(let items): return 1 + items.reduce(0) { $0 + $1.valueCount }
        case .object(let members): return 1 + members.values.reduce(0) { $0 + 1 + $1.valueCount }
        default: return 1
        }
    }

    public func serialized(pretty: Bool = false) -> String {
        serialized(pretty: pretty, indent: 0)
    }

    /// The serialization as written `indent` levels deep in a pretty-printed document.
    func serialized(pretty: Bool, indent: Int) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: indent)
        return output
    }

    func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .double(let value):
            // JSON has no NaN or infinity; a parsed document never holds them.
            output += value.isFinite ? "\(value)" : "null"
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .array(let items):
            if items.isEmpty { output += "[]"; return }
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                item.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            if pretty, members.count == 2, case .string(let id)? = members["id"], case .string(let type)? = members["type"] {
                // A resource identifier, one line: a product's linkage lists ~175 territories.
                output += "{ \"id\": "
                JSONValue.writeString(id, to: &output)
                output += ", \"type\": "
                JSONValue.writeString(type, to: &output)
                output += " }"
                return
            }
            output += "{"
            // Sorted by UTF-8 bytes, not by Swift's locale-independent but Unicode-aware `<`, so
            // the order is the one any byte-wise tool (jq -S, Python) would also produce.
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { output += "," }
                if pretty { output += "\n" + String(repeating: "  ", count: indent + 1) }
                JSONValue.writeString(key, to: &output)
                output += pretty ? ": " : ":"
                members[key]!.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { output += "\n" + String(repeating: "  ", count: indent) }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        JSONText.appendQuoted(text, to: &output)
    }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// Literals, for writing documents in code (tokens, the snapshot's meta, test fixtures).
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(uniqueKeysWithValues: elements)) }
}
