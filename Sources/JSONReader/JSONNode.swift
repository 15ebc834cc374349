/// One value of a ``JSONDocument``: a view (the document and a record index), cheap to copy.
/// Strings and numbers are decoded from the document's bytes when asked for.
public struct JSONNode: Sendable {
    public enum Kind: Sendable {
        case object, array, string, number, bool, null
    }

    /// An object's member: its key, the key's own node (for its position), and its value.
    public struct Member: Sendable {
        public let key: String
        public let keyNode: JSONNode
        public let value: JSONNode
    }

    public let document: JSONDocument
    let index: Int

    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    private var node: Node { document.nodes[index] }

    public var kind: Kind {
        switch node.kind {
        case .object: return .object
        case .array: return .array
        case .string: return .string
        case .number: return .number
        case .true, .false: return .bool
        case .null: return .null
        }
    }

    public var string: String? {
        let node = node
        guard node.kind == .string else { return nil }
        return JSONNode.decodeString(document.bytes, from: node.start + 1, to: Int(node.end) - 1, escaped: node.escaped)
    }

    public var number: Double? {
        guard node.kind == .number else { return nil }
        return Double(String(decoding: tokenBytes, as: UTF8.self))
    }

    /// The number when its token is an integer (`-`, digits, nothing else) that fits 64 bits.
    public var integer: Int64? {
        guard node.kind == .number else { return nil }
        let token = tokenBytes
        guard token.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int64(String(decoding: token, as: UTF8.self))
    }

    public var bool: Bool? {
        switch node.kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    public var isNull: Bool { node.kind == .null }

    /// The bytes of the value's token or container, as written.
    public var tokenBytes: ArraySlice<UInt8> {
        let node = node
        return document.bytes[node.start..<Int(node.end)]
    }

    /// The first member named `key` of an object; nil for other values.
    public subscript(key: String) -> JSONNode? {
        guard node.kind == .object else { return nil }
        var wanted = key
        return wanted.withUTF8 { wanted -> JSONNode? in
            var child = index + 1
            let end = Int(node.next)
            let nodes = document.nodes
            while child < end {
                if keyEquals(nodes[child], wanted) { return JSONNode(document: document, index: child + 1) }
                child = Int(nodes[child + 1].next)
            }
            return nil
        }
    }

    /// Keys compare as Swift strings do; ASCII keys without escapes, the common case, byte by byte.
    private func keyEquals(_ key: Node, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = key.start + 1, end = Int(key.end) - 1
        let bytes = document.bytes
        if !key.escaped, end - start == wanted.count, bytes[start..<end].elementsEqual(wanted) { return true }
        if !key.escaped, bytes[start..<end].allSatisfy({ $0 < 0x80 }), wanted.allSatisfy({ $0 < 0x80 }) { return false }
        return JSONNode.decodeString(bytes, from: start, to: end, escaped: key.escaped) == String(decoding: wanted, as: UTF8.self)
    }

    /// An object's members in document order; none for other values.
    public var members: [Member] {
        guard node.kind == .object else { return [] }
        var members: [Member] = []
        var child = index + 1
        let end = Int(node.next)
        while child < end {
            let key = JSONNode(document: document, index: child)
            let value = JSONNode(document: document, index: child + 1)
            members.append(Member(key: key.string ?? "", keyNode: key, value: value))
            child = Int(document.nodes[child + 1].next)
        }
        return members
    }

    /// An array's elements in order; none for other values.
    public var elements: [JSONNode] {
        guard node.kind == .array else { return [] }
        var elements: [JSONNode] = []
        var child = index + 1
        let end = Int(node.next)
        while child < end {
            elements.append(JSONNode(document: document, index: child))
            child = Int(document.nodes[child].next)
        }
        return elements
    }

    /// Where the value starts and ends: lines and columns from 1, columns in characters; the end
    /// is the position just past the value's last character.
    public var span: (line: Int, column: Int, endLine: Int, endColumn: Int) {
        let node = node
        let start = document.inFile(document.lines.position(of: node.start, in: document.bytes))
        let end = document.inFile(document.lines.position(of: Int(node.end), in: document.bytes))
        return (start.line, start.column, end.line, end.column)
    }

    /// A container kept as one record by a parse with a `foldingDepth`: its members and elements
    /// are read through ``standalone(maxValues:)``.
    public var isFolded: Bool { node.isFolded }

    /// The value as a document of its own: a copy of its bytes, parsed, its positions those in
    /// the file. A folded container is read this way; any value may be, to keep a small part of a
    /// large document without the rest.
    public func standalone(maxValues: Int = JSONDocument.maxValues) throws(JSONSyntaxError) -> JSONNode {
        let node = node
        let start = span
        let bytes = Array(document.bytes[node.start..<Int(node.end)])
        return try JSONDocument.parse(bytes: bytes, file: document.file, maxValues: maxValues, foldingDepth: 0, origin: (start.line, start.column)).root
    }

    /// The byte offsets of the value in the document.
    public var offsets: Range<Int> { node.start..<Int(node.end) }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - 48)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - 87)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - 55)
        default: return nil
        }
    }

    /// A checked string's contents between its quotes. Invalid UTF-8 and unpaired surrogates
    /// become U+FFFD.
    static func decodeString(_ bytes: [UInt8], from start: Int, to end: Int, escaped: Bool) -> String {
        guard escaped else { return String(decoding: bytes[start..<end], as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var index = start, run = start
        func hex4(at offset: Int) -> UInt32 {
            (offset..<offset + 4).reduce(0) { $0 * 16 + (hexDigit(bytes[$1]) ?? 0) }
        }
        while index < end {
            guard bytes[index] == UInt8(ascii: "\\") else { index += 1; continue }
            if index > run { scalars.append(contentsOf: String(decoding: bytes[run..<index], as: UTF8.self).unicodeScalars) }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let code = hex4(at: index)
                index += 4
                if (0xD800...0xDBFF).contains(code), index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let next = hex4(at: index + 2)
                    index += 6
                    if (0xDC00...0xDFFF).contains(next) {
                        scalars.append(Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (next - 0xDC00)) ?? "\u{FFFD}")
                    } else {
                        scalars.append("\u{FFFD}")
                        scalars.append(Unicode.Scalar(next) ?? "\u{FFFD}")
                    }
                } else {
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                }
            default: scalars.append(Unicode.Scalar(escape))  // `"`, `\`, `/`
            }
            run = index
        }
        if end > run { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
        return String(scalars)
    }
}
