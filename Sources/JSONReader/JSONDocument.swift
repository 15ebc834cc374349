/// A parsed JSON document (RFC 8259), kept compact: the input bytes plus one 12-byte record per
/// value, in document order. Values are read through ``JSONNode`` views; strings and numbers are
/// decoded when asked for, and every value knows its span, so a reader can point at the exact
/// line and column. Foundation's `JSONSerialization` gives no positions, and a tree of enums
/// costs tens of bytes per input byte; this costs at most about seven.
public final class JSONDocument: Sendable {
    /// The file the bytes came from, as given (it names the document in locations).
    public let file: String
    let bytes: [UInt8]
    let nodes: [Node]
    let lines: LineTable
    /// Where `bytes` start in the file: line and column of a value read on its own
    /// (``JSONNode/standalone(maxValues:)``), else (1, 1).
    let origin: (line: Int, column: Int)

    /// Documents nest at most this deep.
    public static let maxDepth = 256
    /// A document holds at most this many values (about 200 MB of records).
    public static let maxValues = 1 << 24
    /// Offsets are kept in 28 bits.
    public static let maxBytes = (1 << 28) - 1

    init(file: String, bytes: [UInt8], nodes: [Node], lines: LineTable, origin: (line: Int, column: Int) = (1, 1)) {
        self.file = file
        self.bytes = bytes
        self.nodes = nodes
        self.lines = lines
        self.origin = origin
    }

    /// A position in `bytes` as a position in the file.
    func inFile(_ position: (line: Int, column: Int)) -> (line: Int, column: Int) {
        position.line == 1 ? (origin.line, origin.column + position.column - 1) : (origin.line + position.line - 1, position.column)
    }

    /// Parses `bytes` (UTF-8; a leading byte order mark is skipped), or says where and why not.
    public static func parse(bytes: [UInt8], file: String) throws(JSONSyntaxError) -> JSONDocument {
        try parse(bytes: bytes, file: file, maxValues: maxValues)
    }

    /// Parses with a value limit of the caller's (an input whose legitimate size is known to run
    /// past ``maxValues``), at most `1 << 28`. With a `foldingDepth`, every container that deep
    /// (the top-level value is 1) is checked whole but kept as one record, ``JSONNode/isFolded``:
    /// a large document's parts are then read one at a time (``JSONNode/standalone(maxValues:)``),
    /// never all at once.
    public static func parse(bytes: [UInt8], file: String, maxValues: Int, foldingDepth: Int = 0) throws(JSONSyntaxError) -> JSONDocument {
        try parse(bytes: bytes, file: file, maxValues: maxValues, foldingDepth: foldingDepth, origin: (1, 1))
    }

    static func parse(bytes: [UInt8], file: String, maxValues: Int, foldingDepth: Int, origin: (line: Int, column: Int)) throws(JSONSyntaxError) -> JSONDocument {
        var parser = JSONParser(bytes: bytes, maxValues: maxValues, foldingDepth: foldingDepth)
        do {
            try parser.parseDocument()
        } catch {
            throw JSONSyntaxError(message: error.message, file: file, offset: error.offset, bytes: bytes, origin: origin)
        }
        return JSONDocument(file: file, bytes: bytes, nodes: parser.nodes, lines: LineTable(bytes: bytes, lineStarts: parser.lineStarts), origin: origin)
    }

    /// The top-level value.
    public var root: JSONNode { JSONNode(document: self, index: 0) }
}

/// Why a document is not JSON, and where: line and column count from 1, the column in
/// characters.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let file: String
    public let offset: Int
    public let line: Int
    public let column: Int

    init(message: String, file: String, offset: Int, bytes: [UInt8], origin: (line: Int, column: Int) = (1, 1)) {
        self.message = message
        self.file = file
        self.offset = offset
        let position = LineTable.position(of: offset, in: bytes)
        line = position.line == 1 ? origin.line : origin.line + position.line - 1
        column = position.line == 1 ? origin.column + position.column - 1 : position.column
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// One value's record: where its token starts and ends (a string's quotes and a container's
/// brackets included), what kind it is, and the index of the first record after its subtree
/// (its next sibling), which is how children are walked.
struct Node: Sendable {
    enum Kind: UInt32 {
        case object = 0, array, string, number, `true`, `false`, null
    }

    /// Kind in the top three bits, the escape flag below it, the start offset in the low 28.
    private var packed: UInt32
    var end: UInt32
    var next: UInt32

    private static let offsetMask: UInt32 = (1 << 28) - 1
    private static let escapeBit: UInt32 = 1 << 28

    init(kind: Kind, start: Int, end: Int = 0, next: Int = 0, escaped: Bool = false) {
        packed = kind.rawValue << 29 | (escaped ? Node.escapeBit : 0) | UInt32(start)
        self.end = UInt32(end)
        self.next = UInt32(next)
    }

    var kind: Kind { Kind(rawValue: packed >> 29)! }
    /// A container checked but kept without its contents (the escape bit, which only strings use
    /// otherwise).
    var isFolded: Bool { (kind == .object || kind == .array) && escaped }

    mutating func fold() { packed |= Node.escapeBit }
    var start: Int { Int(packed & Node.offsetMask) }
    /// A string holding at least one backslash escape.
    var escaped: Bool { packed & Node.escapeBit != 0 }
}

/// Lines and columns from byte offsets: the offset where each line starts, and, for documents
/// that are not all ASCII, the count of UTF-8 continuation bytes before each 256-byte block, so a
/// column (counted in characters) takes at most one block's scan. A document with long lines
/// (minified JSON is one line) also keeps a checkpoint every 512 bytes, the line and the line's
/// start there, so finding the line costs at most one checkpoint's scan too.
struct LineTable: Sendable {
    /// The start of every `stride`-th line: a position is found from the nearest one before it by
    /// counting at most `stride - 1` line breaks, and a large document keeps 4 bytes per 16 lines.
    let lineStarts: [UInt32]
    static let stride = 16
    let continuationsBefore: [UInt32]
    private static let blockShift = 8
    /// For each checkpoint (every `1 << checkpointShift` bytes): the line breaks before it, and
    /// the start of the line it is on. Empty when every `stride` lines are short.
    let checkpointLines: [UInt32]
    let checkpointLineStarts: [UInt32]
    static let checkpointShift = 9
    /// Recorded line starts further apart than this make the checkpoints worth keeping.
    static let longestScan = 4_096

    init(bytes: [UInt8], lineStarts: [UInt32]) {
        self.lineStarts = lineStarts
        (checkpointLines, checkpointLineStarts) = Self.checkpoints(bytes: bytes, lineStarts: lineStarts)
        guard bytes.contains(where: { $0 >= 0x80 }) else {
            continuationsBefore = []
            return
        }
        var counts: [UInt32] = []
        counts.reserveCapacity(bytes.count >> LineTable.blockShift + 1)
        var total: UInt32 = 0
        for (offset, byte) in bytes.enumerated() {
            if offset & ((1 << LineTable.blockShift) - 1) == 0 { counts.append(total) }
            if byte & 0xC0 == 0x80 { total += 1 }
        }
        counts.append(total)
        continuationsBefore = counts
    }

    /// The checkpoints of a document whose recorded line starts leave a long stretch to scan
    /// (none otherwise).
    static func checkpoints(bytes: [UInt8], lineStarts: [UInt32]) -> (lines: [UInt32], lineStarts: [UInt32]) {
        var long = bytes.count - Int(lineStarts[lineStarts.count - 1]) > longestScan
        var index = 1
        while !long, index < lineStarts.count {
            long = Int(lineStarts[index]) - Int(lineStarts[index - 1]) > longestScan
            index += 1
        }
        guard long else { return ([], []) }
        let count = bytes.count >> checkpointShift + 1
        var lines: [UInt32] = []
        var starts: [UInt32] = []
        lines.reserveCapacity(count)
        starts.reserveCapacity(count)
        var line: UInt32 = 0
        var lineStart = UInt32(lineStarts[0])
        bytes.withUnsafeBufferPointer { buffer in
            for checkpoint in 0..<count {
                lines.append(line)
                starts.append(lineStart)
                let from = checkpoint << checkpointShift
                let to = min(from + (1 << checkpointShift), buffer.count)
                var index = from
                while index < to {
                    if buffer[index] == 0x0A {
                        line += 1
                        lineStart = UInt32(index + 1)
                    }
                    index += 1
                }
            }
        }
        return (lines, starts)
    }

    /// Line and column of the character at `offset`.
    func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line: Int
        var lineStart: Int
        var index: Int
        if checkpointLines.isEmpty {
            // The last recorded line start at or before `offset`, then the line breaks after it.
            var low = 0, high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if Int(lineStarts[middle]) <= offset { low = middle } else { high = middle - 1 }
            }
            line = low * LineTable.stride
            lineStart = Int(lineStarts[low])
            index = lineStart
        } else {
            // The checkpoint at or before `offset`, then the line breaks after it.
            let checkpoint = offset >> LineTable.checkpointShift
            line = Int(checkpointLines[checkpoint])
            lineStart = Int(checkpointLineStarts[checkpoint])
            index = checkpoint << LineTable.checkpointShift
        }
        while index < offset {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        let characters = offset - lineStart - (continuations(before: offset, in: bytes) - continuations(before: lineStart, in: bytes))
        return (line + 1, characters + 1)
    }

    private func continuations(before offset: Int, in bytes: [UInt8]) -> Int {
        guard !continuationsBefore.isEmpty else { return 0 }
        let block = offset >> LineTable.blockShift
        var count = Int(continuationsBefore[block])
        var index = block << LineTable.blockShift
        while index < offset {
            if bytes[index] & 0xC0 == 0x80 { count += 1 }
            index += 1
        }
        return count
    }

    /// The readable way, for an error (computed once): count lines and characters from the start.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var index = lineStart
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
            index += 1
        }
        var column = 1
        for index in lineStart..<max(lineStart, end) where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }
}
