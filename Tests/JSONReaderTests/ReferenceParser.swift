/// The readable twin of `JSONDocument`: the straightforward recursive parser that builds a tree
/// of enums, each value carrying its span. Slow and large, easy to check by eye; the tests hold
/// the compact document equal to it.
struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
    var file: String
    var line: Int
    var column: Int
    var endLine: Int? = nil
    var endColumn: Int? = nil

    var description: String { "\(line):\(column)-\(endLine ?? 0):\(endColumn ?? 0)" }
}

indirect enum ReferenceValue: Sendable {
    case object([(key: String, keyLocation: SourceLocation, value: ReferenceValue)], SourceLocation)
    case array([ReferenceValue], SourceLocation)
    case string(String, SourceLocation)
    case number(Double, SourceLocation)
    case bool(Bool, SourceLocation)
    case null(SourceLocation)

    var location: SourceLocation {
        switch self {
        case .object(_, let l), .array(_, let l), .string(_, let l), .number(_, let l), .bool(_, let l), .null(let l):
            return l
        }
    }
}

/// A strict RFC 8259 parser with positions, depth and size limits.
struct ReferenceParser {
    struct Failure: Error, Sendable {
        var message: String
        var location: SourceLocation
    }

    static let maxDepth = 256

    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    static func parse(bytes: [UInt8], file: String) throws(Failure) -> ReferenceValue {
        var parser = ReferenceParser(bytes: bytes, file: file)
        // A UTF-8 byte order mark is tolerated.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3; parser.lineStart = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// The last column computed, so a long line is counted once, not once per value (a one-line
    /// document was quadratic; found by fuzzing).
    private var columnCache: (lineStart: Int, index: Int, column: Int) = (0, 0, 1)

    private var location: SourceLocation {
        mutating get {
            // Columns count characters: skip UTF-8 continuation bytes.
            var (i, column) = columnCache.lineStart == lineStart && columnCache.index <= index
                ? (columnCache.index, columnCache.column) : (lineStart, 1)
            while i < index {
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            columnCache = (lineStart, index, column)
            return SourceLocation(file: file, line: line, column: column)
        }
    }

    /// From `start` to here (the token just read ends before `index`).
    private mutating func span(from start: SourceLocation) -> SourceLocation {
        let end = location
        return SourceLocation(file: file, line: start.line, column: start.column, endLine: end.line, endColumn: end.column)
    }

    private mutating func failure(_ message: String) -> Failure { Failure(message: message, location: location) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue() throws(Failure) -> ReferenceValue {
        guard index < bytes.count else { throw failure("the document ends where a value was expected") }
        let start = location
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let text = try parseString()
            return .string(text, span(from: start))
        case UInt8(ascii: "t"): try literal("true"); return .bool(true, span(from: start))
        case UInt8(ascii: "f"): try literal("false"); return .bool(false, span(from: start))
        case UInt8(ascii: "n"): try literal("null"); return .null(span(from: start))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try parseNumber()
            return .number(number, span(from: start))
        default:
            throw failure("unexpected character `\(String(decoding: [bytes[index]], as: UTF8.self))`; expected a JSON value")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("expected `\(word)`")
        }
        index += expected.count
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > ReferenceParser.maxDepth { throw failure("the document nests more than \(ReferenceParser.maxDepth) levels deep") }
    }

    private mutating func parseObject() throws(Failure) -> ReferenceValue {
        let start = location
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, keyLocation: SourceLocation, value: ReferenceValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members, span(from: start))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
            let keyStart = location
            let key = try parseString()
            let keyLocation = span(from: keyStart)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected `:` after the key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append((key, keyLocation, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside an object; expected `,` or `}`") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members, span(from: start)) }
            throw failure("expected `,` or `}` in an object")
        }
    }

    private mutating func parseArray() throws(Failure) -> ReferenceValue {
        let start = location
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [ReferenceValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements, span(from: start))
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw failure("the document ends inside an array; expected `,` or `]`") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements, span(from: start)) }
            throw failure("expected `,` or `]` in an array")
        }
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ parser: ReferenceParser, upTo end: Int) {
            if end > run { scalars.append(contentsOf: String(decoding: parser.bytes[run..<end], as: UTF8.self).unicodeScalars) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush(self, upTo: index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw failure(byte == 0x0A ? "a string runs past the end of its line; expected a closing `\"`" : "a control character inside a string must be escaped") }
            if byte == UInt8(ascii: "\\") {
                flush(self, upTo: index)
                guard index + 1 < bytes.count else { throw failure("the document ends inside a string escape") }
                let escaped = bytes[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let code = try hex4()
                    if (0xD800...0xDBFF).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let next = try hex4()
                        if (0xDC00...0xDFFF).contains(next) {
                            scalars.append(Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (next - 0xDC00)) ?? "\u{FFFD}")
                        } else {
                            // An unpaired high surrogate (found by fuzzing: `\uD800\u0000` underflowed).
                            scalars.append("\u{FFFD}")
                            scalars.append(Unicode.Scalar(next) ?? "\u{FFFD}")
                        }
                    } else {
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    }
                default: throw failure("unknown escape `\\\(String(decoding: [escaped], as: UTF8.self))` in a string")
                }
                run = index
                continue
            }
            index += 1
        }
        throw failure("the document ends inside a string; expected a closing `\"`")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("expected four hex digits after `\\u`") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
            default: throw failure("expected four hex digits after `\\u`")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(Failure) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) || bytes[index] == UInt8(ascii: ".")
            || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") || bytes[index] == UInt8(ascii: "+")
            || bytes[index] == UInt8(ascii: "-")
        {
            index += 1
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            index = start
            throw failure("malformed number")
        }
        return value
    }
}
