/// The one pass that checks a document and records its values: strict RFC 8259 (no comments, no
/// trailing commas, no single quotes), with depth and size limits. Strings are checked here (escapes,
/// control characters) and decoded later, on access.
struct JSONParser {
    struct Failure: Error {
        let message: String
        let offset: Int
    }

    private let bytes: [UInt8]
    private let maxValues: Int
    /// Containers this deep (the top-level value is 1) are checked but keep only their own record.
    private let foldingDepth: Int
    /// Values read, folded ones included: what the limit counts.
    private var values = 0
    private var index = 0
    private var depth = 0
    private(set) var nodes: [Node] = []
    /// The start of every ``LineTable/stride``-th line (the first included).
    private(set) var lineStarts: [UInt32] = [0]
    private var lines = 0

    init(bytes: [UInt8], maxValues: Int, foldingDepth: Int = 0) {
        self.bytes = bytes
        self.maxValues = maxValues
        self.foldingDepth = foldingDepth
    }

    mutating func parseDocument() throws(Failure) {
        guard bytes.count <= JSONDocument.maxBytes else {
            throw Failure(message: "the document is larger than \(JSONDocument.maxBytes) bytes", offset: 0)
        }
        // A UTF-8 byte order mark is tolerated.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3; lineStarts = [3] }
        // A large document's records are made room for once: grown by doubling, the last growth
        // would hold the old records and twice as many new ones at the same moment.
        if foldingDepth == 0, bytes.count >= JSONParser.countingThreshold { nodes.reserveCapacity(min(JSONParser.countValues(bytes), maxValues)) }
        skipWhitespace()
        try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
    }

    static let countingThreshold = 1 << 20

    /// How many values (keys included) a well-formed document holds, by one pass that tells
    /// strings from the rest: a string, a container, and a run of number or literal bytes count
    /// one each. For a malformed document it is only a guess, which is all a capacity needs.
    static func countValues(_ bytes: [UInt8]) -> Int {
        var count = 0
        var inString = false
        var inScalar = false
        var index = 0
        bytes.withUnsafeBufferPointer { buffer in
            while index < buffer.count {
                let byte = buffer[index]
                if inString {
                    if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""):
                        count += 1
                        inString = true
                        inScalar = false
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        count += 1
                        inScalar = false
                    case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
                        inScalar = false
                    default:
                        if !inScalar { count += 1 }
                        inScalar = true
                    }
                }
                index += 1
            }
        }
        return count
    }

    private func failure(_ message: String) -> Failure { Failure(message: message, offset: index) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                lines += 1
                if lines & (LineTable.stride - 1) == 0 { lineStarts.append(UInt32(index)) }
            default: return
            }
        }
    }

    /// Called where a value starts, before it is read.
    private mutating func checkRoom() throws(Failure) {
        guard values < maxValues else { throw failure("the document holds more than \(maxValues) values") }
        values += 1
    }

    private mutating func parseValue() throws(Failure) {
        guard index < bytes.count else { throw failure("the document ends where a value was expected") }
        try checkRoom()
        let start = index
        let kind: Node.Kind
        var escaped = false
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseContainer(.object)
        case UInt8(ascii: "["): return try parseContainer(.array)
        case UInt8(ascii: "\""): kind = .string; escaped = try scanString()
        case UInt8(ascii: "t"): kind = .true; try literal("true")
        case UInt8(ascii: "f"): kind = .false; try literal("false")
        case UInt8(ascii: "n"): kind = .null; try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = .number; try scanNumber()
        default:
            throw failure("unexpected character `\(String(decoding: [bytes[index]], as: UTF8.self))`; expected a JSON value")
        }
        nodes.append(Node(kind: kind, start: start, end: index, next: nodes.count + 1, escaped: escaped))
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        let matches = bytes.count - index >= count && word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("expected `\(word)`") }
        index += count
    }

    /// An object's records are its keys and values, alternating; an array's are its elements.
    private mutating func parseContainer(_ kind: Node.Kind) throws(Failure) {
        let record = nodes.count
        nodes.append(Node(kind: kind, start: index))
        depth += 1
        if depth > JSONDocument.maxDepth { throw failure("the document nests more than \(JSONDocument.maxDepth) levels deep") }
        defer { depth -= 1 }
        let (close, name): (UInt8, String) = kind == .object ? (UInt8(ascii: "}"), "an object") : (UInt8(ascii: "]"), "an array")
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == close {
            index += 1
        } else {
            while true {
                skipWhitespace()
                if kind == .object { try parseKey() }
                try parseValue()
                skipWhitespace()
                guard index < bytes.count else {
                    throw failure("the document ends inside \(name); expected `,` or `\(Character(Unicode.Scalar(close)))`")
                }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == close { index += 1; break }
                throw failure("expected `,` or `\(Character(Unicode.Scalar(close)))` in \(name)")
            }
        }
        nodes[record].end = UInt32(index)
        if depth == foldingDepth {
            nodes.removeSubrange((record + 1)...)
            nodes[record].fold()
        }
        nodes[record].next = UInt32(nodes.count)
    }

    private mutating func parseKey() throws(Failure) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
        try checkRoom()
        let start = index
        let escaped = try scanString()
        let end = index
        nodes.append(Node(kind: .string, start: start, end: end, next: nodes.count + 1, escaped: escaped))
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            let key = JSONNode.decodeString(bytes, from: start + 1, to: end - 1, escaped: escaped)
            throw failure("expected `:` after the key \"\(key)\"")
        }
        index += 1
        skipWhitespace()
    }

    /// Checks a string from its opening quote to past its closing one; whether it has escapes.
    private mutating func scanString() throws(Failure) -> Bool {
        index += 1
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return escaped
            }
            if byte < 0x20 {
                throw failure(byte == 0x0A ? "a string runs past the end of its line; expected a closing `\"`" : "a control character inside a string must be escaped")
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                guard index + 1 < bytes.count else { throw failure("the document ends inside a string escape") }
                let escape = bytes[index + 1]
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    index += 2
                    guard bytes.count - index >= 4 else { throw failure("expected four hex digits after `\\u`") }
                    for _ in 0..<4 {
                        // Pointing at the first character that is not a hex digit.
                        guard JSONNode.hexDigit(bytes[index]) != nil else { throw failure("expected four hex digits after `\\u`") }
                        index += 1
                    }
                default:
                    index += 2
                    throw failure("unknown escape `\\\(String(decoding: [escape], as: UTF8.self))` in a string")
                }
                continue
            }
            index += 1
        }
        throw failure("the document ends inside a string; expected a closing `\"`")
    }

    /// A number's characters, read as Swift reads a `Double` (so `01` is 1, as it always was here).
    private mutating func scanNumber() throws(Failure) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count, JSONParser.isNumberByte(bytes[index]) { index += 1 }
        guard Double(String(decoding: bytes[start..<index], as: UTF8.self)) != nil else {
            index = start
            throw failure("malformed number")
        }
    }

    static func isNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
}
