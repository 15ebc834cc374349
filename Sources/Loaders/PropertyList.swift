import Foundation
import XMLReader
import Formats
import Model

/// An XML property list (Info.plist, .entitlements, a provisioning profile's payload, product ID
/// lists) read through the XML reader, every value with its span: a value's text (`<string>`,
/// `<integer>`, a `<key>`…) without its tags, or the element's start tag (`<true/>`, `<dict>`).
public indirect enum PlistValue: Sendable {
    case string(String, SourceLocation)
    case integer(Int, SourceLocation)
    case real(Double, SourceLocation)
    case bool(Bool, SourceLocation)
    case date(Timestamp, SourceLocation)
    case data(SourceLocation)
    case array([PlistValue], SourceLocation)
    case dictionary([(key: String, keyLocation: SourceLocation, value: PlistValue)], SourceLocation)

    public var location: SourceLocation {
        switch self {
        case .string(_, let l), .integer(_, let l), .real(_, let l), .bool(_, let l), .date(_, let l), .data(let l),
            .array(_, let l), .dictionary(_, let l):
            return l
        }
    }

    public subscript(key: String) -> PlistValue? {
        guard case .dictionary(let entries, _) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let value, _) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value, _) = self { return value }
        return nil
    }

    public var date: Timestamp? {
        if case .date(let value, _) = self { return value }
        return nil
    }

    public var elements: [PlistValue] {
        if case .array(let values, _) = self { return values }
        return []
    }

    public var keys: [(key: String, keyLocation: SourceLocation)] {
        guard case .dictionary(let entries, _) = self else { return [] }
        return entries.map { ($0.key, $0.keyLocation) }
    }

    public func stringFact(_ source: FactSource) -> Fact<String>? {
        string.map { Fact($0, at: location, source: source) }
    }
}

public enum PropertyList {
    /// Reads a property list file: XML, with every value's span, or binary (`bplist00`, as a built
    /// app's Info.plist is), whose values point at the file. Anything that is not a property list
    /// gets a clear error.
    public static func load(path: String, what: String) throws(InputProblem) -> PlistValue {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: 16 << 20)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: path), hint: "the path comes from the descriptor and is relative to its folder")
        }
        return try parse(bytes: bytes, file: path, what: what)
    }

    /// `lineOffset` is added to every line: a plist embedded in a larger file (a provisioning
    /// profile's CMS container) starts after that many lines of it.
    public static func parse(bytes: [UInt8], file: String, what: String, lineOffset: Int = 0) throws(InputProblem) -> PlistValue {
        if bytes.starts(with: Array("bplist".utf8)) { return try binary(bytes, file: file, what: what) }
        // White space before `<?xml` is not XML, but Apple's parser skips it and Xcode builds
        // such a file: so is it read here, its lines still counted.
        let leading = bytes.prefix { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let skipped = leading.isEmpty || bytes.count == leading.count ? 0 : leading.count
        let skippedLines = leading.prefix(skipped).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let root: XMLNode
        do {
            root = try XMLReader.parse(bytes: skipped == 0 ? bytes : Array(bytes[skipped...]), file: file)
        } catch {
            throw malformed(
                "the \(what) is not valid XML: \(error.message)", help: "fix the XML at this position, or open and save the file in Xcode",
                at: SourceLocation(file: file, line: error.position.line + lineOffset + skippedLines, column: error.position.column))
        }
        let lineOffset = lineOffset + skippedLines
        guard root.name == "plist", let top = root.children.first else {
            throw malformed(
                "the \(what) is not a property list: its root element is `<\(root.name)>`, expected `<plist>`",
                help: "check that the descriptor names the right file", at: location(root, file))
        }
        return try value(top, file: file, what: what, lineOffset: lineOffset)
    }

    static func location(_ node: XMLNode, _ file: String, lineOffset: Int = 0) -> SourceLocation {
        SourceLocation(file: file, node.valuePosition, lineOffset: lineOffset)
    }

    static func malformed(_ message: String, help: String, at location: SourceLocation) -> InputProblem {
        InputProblem(Finding(rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil, message: message, help: help, location: location))
    }

    /// Depth is bounded by the XML reader's limit (64), so recursion stays shallow.
    static func value(_ node: XMLNode, file: String, what: String, lineOffset: Int) throws(InputProblem) -> PlistValue {
        let here = location(node, file, lineOffset: lineOffset)
        switch node.name {
        case "string": return .string(node.rawText, here)
        case "integer":
            guard let number = Int(node.text) else {
                throw malformed("`<integer>` holds `\(node.text)`, not a whole number", help: "fix the value", at: here)
            }
            return .integer(number, here)
        case "real": return .real(Double(node.text) ?? 0, here)
        case "true": return .bool(true, here)
        case "false": return .bool(false, here)
        case "date":
            guard let date = Timestamp(iso8601: node.text) else {
                throw malformed("`<date>` holds `\(node.text)`, not an ISO 8601 date", help: "write it as `2026-11-22T10:00:00Z`", at: here)
            }
            return .date(date, here)
        case "data": return .data(here)
        case "array":
            var values: [PlistValue] = []
            for child in node.children { values.append(try value(child, file: file, what: what, lineOffset: lineOffset)) }
            return .array(values, here)
        case "dict":
            var entries: [(key: String, keyLocation: SourceLocation, value: PlistValue)] = []
            var pendingKey: XMLNode?
            for child in node.children {
                if child.name == "key" {
                    if let pendingKey {
                        throw malformed("the key `\(pendingKey.text)` has no value", help: "add a value after it, or remove the key", at: location(pendingKey, file, lineOffset: lineOffset))
                    }
                    pendingKey = child
                } else {
                    guard let key = pendingKey else {
                        throw malformed("a `<\(child.name)>` in a `<dict>` has no `<key>` before it", help: "put a `<key>` before each value", at: location(child, file, lineOffset: lineOffset))
                    }
                    entries.append((key.rawText, location(key, file, lineOffset: lineOffset), try value(child, file: file, what: what, lineOffset: lineOffset)))
                    pendingKey = nil
                }
            }
            if let pendingKey {
                throw malformed("the key `\(pendingKey.text)` has no value", help: "add a value after it, or remove the key", at: location(pendingKey, file, lineOffset: lineOffset))
            }
            return .dictionary(entries, here)
        default:
            throw malformed("`<\(node.name)>` is not a property list element", help: "use `<string>`, `<dict>`, `<array>`, `<true/>` …", at: here)
        }
    }

    /// A binary property list, through ``BinaryPropertyList``, which counts shared objects as
    /// they are expanded. Its values carry the file's location: a binary file has no lines.
    static func binary(_ bytes: [UInt8], file: String, what: String) throws(InputProblem) -> PlistValue {
        let here = SourceLocation(file: file)
        do throws(BinaryPropertyList.Problem) {
            return try BinaryPropertyList.parse(bytes, at: here)
        } catch {
            throw malformed(
                "the \(what) `\(Paths.shown(file))` is a binary property list that cannot be read: \(error.reason)",
                help: "check it with `plutil -lint \(file)`; rebuild the app, or save the file again in Xcode", at: here)
        }
    }
}
