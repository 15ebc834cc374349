import Foundation

/// An old-style (NeXTSTEP/OpenStep) property list, the text format Xcode writes `project.pbxproj`
/// in, as a tree whose every value and dictionary key remembers its line and column.
///
/// The grammar follows CoreFoundation's reader: `{ key = value; … }`, `( a, b, )`, quoted strings
/// with C-style escapes, unquoted strings of letters, digits and `_ $ / : . - +`, `<hex data>`, and
/// `/* … */` or `// …` comments between tokens. The parser is iterative with an explicit stack, so
/// hostile input cannot exhaust the call stack; nesting, file size and value count are bounded.
public struct ASCIIPropertyList: Sendable {
    /// A 1-based line and column, and where the value there ends (the line of its last
    /// character and the column after it, exclusive; 0 when unknown). Columns count Unicode
    /// scalars (a tab is one column).
    public struct Position: Hashable, Sendable, Comparable, CustomStringConvertible {
        // 14 bytes keep a value (a string and its position) at 32: 32-bit line and columns (64 MiB
        // of input cannot overflow them), and the end's line as a distance from the start. A value
        // over more than 65,535 lines (only the root of a huge project) has no end.
        private var storedLine: Int32
        private var storedColumn: Int32
        private var storedEndColumn: Int32 = 0
        private var storedEndLineDistance: UInt16 = 0

        public var line: Int {
            get { Int(storedLine) }
            set { storedLine = Int32(clamping: newValue) }
        }

        public var column: Int {
            get { Int(storedColumn) }
            set { storedColumn = Int32(clamping: newValue) }
        }

        public var endLine: Int { storedEndColumn > 0 ? Int(storedLine) + Int(storedEndLineDistance) : 0 }
        public var endColumn: Int { Int(storedEndColumn) }

        public init(line: Int, column: Int) {
            storedLine = Int32(clamping: line)
            storedColumn = Int32(clamping: column)
        }

        /// From `start` to `end` (where the next token would begin).
        public init(from start: Position, to end: Position) {
            self.init(line: start.line, column: start.column)
            guard let distance = UInt16(exactly: end.line - start.line) else { return }
            storedEndLineDistance = distance
            storedEndColumn = Int32(clamping: end.column)
        }

        public static func < (a: Position, b: Position) -> Bool { (a.line, a.column) < (b.line, b.column) }
        /// `line:column`: where it starts.
        public var description: String { "\(line):\(column)" }
    }

    public struct Key: Hashable, Sendable {
        public var text: String
        public var position: Position

        public init(text: String, position: Position) {
            self.text = text
            self.position = position
        }
    }

    public struct Entry: Sendable {
        public var key: Key
        public var value: Value

        public init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    public enum Value: Sendable {
        case string(String, Position)
        /// `<0fbd 77…>`, kept as the hex digits it was written with (whitespace removed).
        case data(String, Position)
        case array([Value], Position)
        /// Entries in file order; when a key repeats, lookups find the last one (as CoreFoundation does).
        case dictionary([Entry], Position)

        public var position: Position {
            switch self {
            case .string(_, let position), .data(_, let position), .array(_, let position),
                .dictionary(_, let position):
                return position
            }
        }

        public var string: String? {
            if case .string(let text, _) = self { return text }
            return nil
        }

        public var array: [Value]? {
            if case .array(let items, _) = self { return items }
            return nil
        }

        public var entries: [Entry]? {
            if case .dictionary(let entries, _) = self { return entries }
            return nil
        }

        /// The value under `key` when this is a dictionary (the last one when the key repeats).
        public subscript(key: String) -> Value? {
            guard case .dictionary(let entries, _) = self else { return nil }
            return entries.last { $0.key.text == key }?.value
        }

        /// The entry under `key` (with the key's own position), when this is a dictionary.
        public func entry(_ key: String) -> Entry? {
            guard case .dictionary(let entries, _) = self else { return nil }
            return entries.last { $0.key.text == key }
        }

        /// What kind of value this is, for messages.
        public var kindDescription: String {
            switch self {
            case .string(let text, _): return "the string `\(text)`"
            case .data: return "data"
            case .array: return "a list"
            case .dictionary: return "a dictionary"
            }
        }
    }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            case unterminatedString, unterminatedComment, unterminatedData
            case missingSemicolon, missingEquals, missingComma
            case unexpectedCharacter, unexpectedEnd, trailingContent
            case invalidEscape, invalidData, invalidUTF8
            case mergeConflict, xmlPropertyList, binaryPropertyList
            case tooDeep, tooLarge, tooManyValues
        }

        public var kind: Kind
        /// Says what was found and what was expected.
        public var message: String
        /// Where the problem is; line 0 means the whole file (`tooLarge`).
        public var position: Position

        public var description: String { "\(position): \(message)" }
    }

    /// Largest input accepted, in bytes (real projects stay far below: a 10,000-file project is ~5 MB).
    public static let maxBytes = 64 << 20
    /// Deepest nesting of dictionaries and lists (Xcode writes 5 to 7 levels).
    public static let maxDepth = 256
    /// Most values (strings, data, lists, dictionaries) in one file; bounds memory (to ~250 MB) on
    /// input made of nothing but `(a,a,a,…)`. Xcode's files hold about one value per 40 bytes, so a
    /// 64 MiB project would have ~1.7 million.
    public static let maxValues = 4_000_000

    public var root: Value

    public init(root: Value) {
        self.root = root
    }

    /// Parses UTF-8 `bytes` (a leading byte-order mark is skipped).
    public init(bytes: [UInt8]) throws(ParseError) {
        guard bytes.count <= Self.maxBytes else {
            throw ParseError(
                kind: .tooLarge,
                message: "the file is \(bytes.count) bytes; property lists larger than \(Self.maxBytes) bytes (64 MiB) are refused",
                position: Position(line: 0, column: 0))
        }
        root = try bytes.withUnsafeBufferPointer { buffer throws(ParseError) in
            var parser = ASCIIPropertyListParser(bytes: buffer)
            return try parser.parseDocument()
        }
    }

    public init(text: String) throws(ParseError) {
        try self.init(bytes: Array(text.utf8))
    }
}

/// The scanner and the explicit-stack parser behind ``ASCIIPropertyList/init(bytes:)``.
private struct ASCIIPropertyListParser {
    typealias Position = ASCIIPropertyList.Position
    typealias Value = ASCIIPropertyList.Value
    typealias ParseError = ASCIIPropertyList.ParseError

    /// One open dictionary or list.
    struct Frame {
        var isDictionary: Bool
        var position: Position
        var entries: [ASCIIPropertyList.Entry] = []
        var items: [Value] = []
        /// The key whose value is being read (dictionaries only).
        var pendingKey: ASCIIPropertyList.Key?
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    var index = 0
    /// Where the last value ended, for "expected `;` after …" errors.
    var lastValueEnd = 0
    var valueCount = 0

    // Positions are computed on demand by walking forward from the last position asked for; values
    // are asked for in file order, so the whole file is walked once.
    var trackedOffset = 0
    var trackedLine = 1
    var trackedColumn = 1
    var firstOffset = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        end = bytes.count
        if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            trackedOffset = 3
            firstOffset = 3
        }
    }

    mutating func position(at offset: Int) -> Position {
        if offset < trackedOffset {
            trackedOffset = firstOffset
            trackedLine = 1
            trackedColumn = 1
        }
        var cursor = trackedOffset, line = trackedLine, column = trackedColumn
        let target = min(offset, end)
        while cursor < target {
            let byte = bytes[cursor]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            cursor += 1
        }
        trackedOffset = cursor
        trackedLine = line
        trackedColumn = column
        return Position(line: line, column: column)
    }

    // MARK: Document

    mutating func parseDocument() throws(ParseError) -> Value {
        try rejectOtherFormats()
        if let bad = firstInvalidUTF8Offset() {
            throw ParseError(
                kind: .invalidUTF8,
                message: "the file is not valid UTF-8 (byte 0x\(hex(bytes[bad]))); Xcode writes project files as UTF-8",
                position: position(at: bad))
        }
        let root = try parseValueTree()
        try skipTrivia()
        if index < end {
            if let conflict = mergeConflictError() { throw conflict }
            throw ParseError(
                kind: .trailingContent,
                message: "found \(describeToken(at: index)) after the end of the property list; expected nothing more",
                position: position(at: index))
        }
        return root
    }

    /// Offset of the first byte that does not belong to a well-formed UTF-8 sequence.
    func firstInvalidUTF8Offset() -> Int? {
        var cursor = firstOffset
        while cursor < end {
            let lead = bytes[cursor]
            if lead < 0x80 {
                cursor += 1
                continue
            }
            let length: Int
            var lowest: UInt8 = 0x80, highest: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lowest = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: length = 3
            case 0xED: length = 3; highest = 0x9F
            case 0xF0: length = 4; lowest = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; highest = 0x8F
            default: return cursor
            }
            guard cursor + length <= end, (lowest...highest).contains(bytes[cursor + 1]) else { return cursor }
            for continuation in 2..<length where bytes[cursor + continuation] & 0xC0 != 0x80 { return cursor }
            cursor += length
        }
        return nil
    }

    /// XML and binary property lists are valid plists, but not the format Xcode writes.
    mutating func rejectOtherFormats() throws(ParseError) {
        if end - index >= 6, Array(bytes[index..<index + 6]) == Array("bplist".utf8) {
            throw ParseError(
                kind: .binaryPropertyList,
                message: "the file is a binary property list, not the text format Xcode writes project files in",
                position: position(at: index))
        }
        var start = index
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        for prefix in ["<?xml", "<!DOCTYPE plist", "<plist"] where hasPrefix(prefix, at: start) {
            throw ParseError(
                kind: .xmlPropertyList,
                message: "the file is an XML property list, not the text format Xcode writes project files in",
                position: position(at: start))
        }
    }

    /// The explicit-stack parser: each turn of the loop reads one value (or closes one container)
    /// and attaches it to the innermost open container.
    mutating func parseValueTree() throws(ParseError) -> Value {
        var stack: [Frame] = []
        stack.reserveCapacity(16)
        while true {
            try skipTrivia()
            var completed: Value?
            if let top = stack.indices.last {
                if stack[top].isDictionary {
                    guard index < end else {
                        throw unexpectedEnd("a key or `}` to close the dictionary opened at \(stack[top].position)")
                    }
                    if bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        let frame = stack.removeLast()
                        completed = .dictionary(frame.entries, Position(from: frame.position, to: position(at: index)))
                    } else {
                        let key = try readKey()
                        stack[top].pendingKey = key
                        let keyEnd = index
                        try skipTrivia()
                        guard index < end else { throw unexpectedEnd("`=` after the key `\(key.text)`") }
                        guard bytes[index] == UInt8(ascii: "=") else {
                            if let conflict = mergeConflictError() { throw conflict }
                            throw ParseError(
                                kind: .missingEquals,
                                message: "expected `=` after the key `\(key.text)`, found \(describeToken(at: index))",
                                position: position(at: keyEnd))
                        }
                        index += 1
                        try skipTrivia()
                    }
                } else {
                    guard index < end else {
                        throw unexpectedEnd("a value or `)` to close the list opened at \(stack[top].position)")
                    }
                    if bytes[index] == UInt8(ascii: ")") {
                        index += 1
                        let frame = stack.removeLast()
                        completed = .array(frame.items, Position(from: frame.position, to: position(at: index)))
                    }
                }
            }

            if completed == nil {
                guard index < end else {
                    if let key = stack.last?.pendingKey, stack.last?.isDictionary == true {
                        throw unexpectedEnd("a value for the key `\(key.text)`")
                    }
                    throw unexpectedEnd("a value")
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") {
                    guard stack.count < ASCIIPropertyList.maxDepth else {
                        throw ParseError(
                            kind: .tooDeep,
                            message: "dictionaries and lists are nested deeper than \(ASCIIPropertyList.maxDepth) levels; Xcode writes fewer than 10",
                            position: position(at: index))
                    }
                    try countValue()
                    stack.append(Frame(isDictionary: byte == UInt8(ascii: "{"), position: position(at: index)))
                    index += 1
                    continue
                }
                guard let scalar = try readScalar() else {
                    if let conflict = mergeConflictError() { throw conflict }
                    let expected: String
                    if let frame = stack.last {
                        expected = frame.isDictionary ? "a value for the key `\(frame.pendingKey?.text ?? "")`" : "a value or `)`"
                    } else {
                        expected = "a value"
                    }
                    throw unexpectedCharacter(expected: expected)
                }
                completed = scalar
            }
            lastValueEnd = index

            guard let value = completed else { continue }
            guard let top = stack.indices.last else { return value }
            try skipTrivia()
            if stack[top].isDictionary {
                // `pendingKey` is always set here: a dictionary's value is read only after its key.
                let key = stack[top].pendingKey ?? ASCIIPropertyList.Key(text: "", position: value.position)
                stack[top].entries.append(ASCIIPropertyList.Entry(key: key, value: value))
                guard index < end else { throw unexpectedEnd("`;` after the value of `\(key.text)`") }
                guard bytes[index] == UInt8(ascii: ";") else {
                    if let conflict = mergeConflictError() { throw conflict }
                    throw ParseError(
                        kind: .missingSemicolon,
                        message: "expected `;` after the value of `\(key.text)`, found \(describeToken(at: index))",
                        position: position(at: lastValueEnd))
                }
                index += 1
            } else {
                stack[top].items.append(value)
                guard index < end else {
                    throw unexpectedEnd("`,` or `)` to close the list opened at \(stack[top].position)")
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") {
                    index += 1
                } else if byte != UInt8(ascii: ")") {
                    if let conflict = mergeConflictError() { throw conflict }
                    throw ParseError(
                        kind: .missingComma,
                        message: "expected `,` or `)` after a list item, found \(describeToken(at: index))",
                        position: position(at: lastValueEnd))
                }
            }
        }
    }

    mutating func countValue() throws(ParseError) {
        valueCount += 1
        guard valueCount <= ASCIIPropertyList.maxValues else {
            throw ParseError(
                kind: .tooManyValues,
                message: "the file holds more than \(ASCIIPropertyList.maxValues) values; iapdoctor stops reading there",
                position: position(at: index))
        }
    }

    // MARK: Tokens

    mutating func readKey() throws(ParseError) -> ASCIIPropertyList.Key {
        let byte = bytes[index]
        let start = index
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            let text = try readQuotedString()
            return ASCIIPropertyList.Key(text: text, position: span(from: start))
        }
        if isUnquotedStringByte(byte) {
            let text = readUnquotedString()
            return ASCIIPropertyList.Key(text: text, position: span(from: start))
        }
        if let conflict = mergeConflictError() { throw conflict }
        throw unexpectedCharacter(expected: "a key or `}`")
    }

    /// A string or data value; `nil` when no value starts here.
    mutating func readScalar() throws(ParseError) -> Value? {
        let byte = bytes[index]
        let start = index
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            try countValue()
            let text = try readQuotedString()
            return .string(text, span(from: start))
        }
        if isUnquotedStringByte(byte) {
            try countValue()
            let text = readUnquotedString()
            return .string(text, span(from: start))
        }
        if byte == UInt8(ascii: "<") {
            if let conflict = mergeConflictError() { throw conflict }
            try countValue()
            let text = try readData()
            return .data(text, span(from: start))
        }
        return nil
    }

    /// The token from byte `start` to here (its quotes or brackets included).
    mutating func span(from start: Int) -> Position {
        let first = position(at: start)
        return Position(from: first, to: position(at: index))
    }

    mutating func readUnquotedString() -> String {
        let start = index
        while index < end, isUnquotedStringByte(bytes[index]) { index += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// A `"…"` (or `'…'`) string. Strings without escapes are decoded straight from the input.
    mutating func readQuotedString() throws(ParseError) -> String {
        let quote = bytes[index]
        let openingOffset = index
        index += 1
        let contentStart = index
        while index < end, bytes[index] != quote, bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < end else { throw unterminatedString(openedAt: openingOffset, quote: quote) }
        if bytes[index] == quote {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<index]), as: UTF8.self)
            index += 1
            return text
        }
        var utf8 = Array(bytes[contentStart..<index])
        while true {
            guard index < end else { throw unterminatedString(openedAt: openingOffset, quote: quote) }
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte != UInt8(ascii: "\\") {
                utf8.append(byte)
                index += 1
                continue
            }
            let escapeOffset = index
            index += 1
            guard index < end else { throw unterminatedString(openedAt: openingOffset, quote: quote) }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "a"): utf8.append(0x07)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "v"): utf8.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(escaped - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < end, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                    value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                appendScalar(Self.scalarForOctalEscape(value & 0xFF), to: &utf8)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                guard let unit = readHexUnit() else {
                    throw ParseError(
                        kind: .invalidEscape,
                        message: "expected 1 to 4 hex digits after `\\U` in a quoted string, found \(describeToken(at: index))",
                        position: position(at: escapeOffset))
                }
                appendScalar(decodeUTF16Escape(unit), to: &utf8)
            default:
                // `\"`, `\\`, `\'` and any other escaped character stand for themselves.
                utf8.append(escaped)
            }
        }
    }

    /// Up to four hex digits after `\U`.
    mutating func readHexUnit() -> UInt16? {
        var value: UInt16 = 0
        var digits = 0
        while digits < 4, index < end, let digit = hexValue(bytes[index]) {
            value = value << 4 | UInt16(digit)
            index += 1
            digits += 1
        }
        return digits == 0 ? nil : value
    }

    /// Joins a high surrogate with a following `\Uxxxx` low surrogate; a lone surrogate becomes U+FFFD.
    mutating func decodeUTF16Escape(_ unit: UInt16) -> Unicode.Scalar {
        if UTF16.isLeadSurrogate(unit) {
            let resume = index
            if index + 1 < end, bytes[index] == UInt8(ascii: "\\"),
               bytes[index + 1] == UInt8(ascii: "U") || bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                if let low = readHexUnit(), UTF16.isTrailSurrogate(low) {
                    let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    return Unicode.Scalar(value) ?? "\u{FFFD}"
                }
            }
            index = resume
            return "\u{FFFD}"
        }
        return Unicode.Scalar(unit) ?? "\u{FFFD}"
    }

    /// Octal escapes name a byte in the NeXTSTEP encoding (ASCII below 128), as in CoreFoundation.
    static func scalarForOctalEscape(_ value: Int) -> Unicode.Scalar {
        if value < 0x80 { return Unicode.Scalar(UInt8(value)) }
        return String(bytes: [UInt8(value)], encoding: .nextstep)?.unicodeScalars.first ?? "\u{FFFD}"
    }

    func appendScalar(_ scalar: Unicode.Scalar, to utf8: inout [UInt8]) {
        UTF8.encode(scalar) { utf8.append($0) }
    }

    /// `<0fbd 77aa>`: hex digits and whitespace up to `>`.
    mutating func readData() throws(ParseError) -> String {
        let openingOffset = index
        index += 1
        var digits: [UInt8] = []
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                return String(decoding: digits, as: UTF8.self)
            }
            if hexValue(byte) != nil {
                digits.append(byte)
            } else if !isWhitespace(byte) {
                throw ParseError(
                    kind: .invalidData,
                    message: "expected hex digits or `>` in the data opened at \(position(at: openingOffset)), found \(describeToken(at: index))",
                    position: position(at: index))
            }
            index += 1
        }
        throw ParseError(
            kind: .unterminatedData,
            message: "unterminated data: expected `>` to close the `<` at \(position(at: openingOffset)) before the end of the file",
            position: position(at: openingOffset))
    }

    /// Skips whitespace and comments.
    mutating func skipTrivia() throws(ParseError) {
        while index < end {
            let byte = bytes[index]
            if isWhitespace(byte) {
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "/"), index + 1 < end else { return }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "/") {
                index += 2
                while index < end, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            } else if next == UInt8(ascii: "*") {
                let openingOffset = index
                index += 2
                while true {
                    guard index + 1 < end else {
                        index = end
                        throw ParseError(
                            kind: .unterminatedComment,
                            message: "unterminated comment: expected `*/` to close the `/*` before the end of the file",
                            position: position(at: openingOffset))
                    }
                    if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") {
                        index += 2
                        break
                    }
                    index += 1
                }
            } else {
                return
            }
        }
    }

    // MARK: Errors

    mutating func unterminatedString(openedAt offset: Int, quote: UInt8) -> ParseError {
        let quoteText = quote == UInt8(ascii: "'") ? "'" : "\""
        return ParseError(
            kind: .unterminatedString,
            message: "unterminated quoted string: expected a closing `\(quoteText)` before the end of the file",
            position: position(at: offset))
    }

    mutating func unexpectedEnd(_ expected: String) -> ParseError {
        ParseError(kind: .unexpectedEnd, message: "unexpected end of file: expected \(expected)", position: position(at: end))
    }

    mutating func unexpectedCharacter(expected: String) -> ParseError {
        ParseError(
            kind: .unexpectedCharacter, message: "expected \(expected), found \(describeToken(at: index))",
            position: position(at: index))
    }

    /// Git's conflict markers are the most common way a project file breaks; say so.
    mutating func mergeConflictError() -> ParseError? {
        var lineStart = index
        while lineStart > firstOffset, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        for marker in ["<<<<<<<", "=======", ">>>>>>>", "|||||||"] where hasPrefix(marker, at: lineStart) {
            return ParseError(
                kind: .mergeConflict,
                message: "found the merge-conflict marker `\(marker)`: a merge left this file unresolved",
                position: position(at: lineStart))
        }
        return nil
    }

    /// Names what starts at `offset`, for "found …" in messages.
    func describeToken(at offset: Int) -> String {
        guard offset < end else { return "the end of the file" }
        let byte = bytes[offset]
        if isUnquotedStringByte(byte) {
            var stop = offset
            while stop < end, stop - offset < 40, isUnquotedStringByte(bytes[stop]) { stop += 1 }
            return "`\(String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<stop]), as: UTF8.self))`"
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { return "a quoted string" }
        if byte >= 0x21 && byte < 0x7F { return "`\(Character(Unicode.Scalar(byte)))`" }
        if byte == 0x0A || byte == 0x0D { return "a line break" }
        // One scalar, decoded leniently: the input may not be UTF-8 at all.
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: bytes[offset..<min(end, offset + 4)]).makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            let code = "U+" + String(repeating: "0", count: max(0, 4 - String(scalar.value, radix: 16).count))
                + String(scalar.value, radix: 16, uppercase: true)
            switch scalar.properties.generalCategory {
            case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned:
                return "the character \(code)"
            default:
                break
            }
            return "`\(Character(scalar))` (\(code))"
        }
        return "the byte 0x\(hex(byte))"
    }

    func hasPrefix(_ prefix: String, at offset: Int) -> Bool {
        var cursor = offset
        for byte in prefix.utf8 {
            guard cursor < end, bytes[cursor] == byte else { return false }
            cursor += 1
        }
        return true
    }

    func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return byte < 16 ? "0" + text : text
    }

    func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    func isUnquotedStringByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
            UInt8(ascii: "-"), UInt8(ascii: "+"):
            return true
        default:
            return false
        }
    }
}
