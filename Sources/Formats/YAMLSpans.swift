import Yams

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where YAML nodes end. libyaml's events carry an end mark, but Yams keeps only the start
/// (`Node.mark`), so the end is found in the text from the start and what the node is: a quoted
/// scalar runs to its closing quote, a plain one as far as its value (line folds included), a
/// block scalar over its indented lines, a flow collection to its closing bracket, and a block
/// collection as far as its last entry. Whatever does not match the text as expected (a line
/// break YAML counts and this does not, say) gets no end rather than a wrong one.
///
/// Marks count lines and Unicode scalars; positions here are byte offsets into the same text,
/// found in constant time: by arithmetic when the text is ASCII, else from a table of every 64th
/// scalar's offset (a long line of aliases must not cost a walk from its start per node).
struct YAMLSpans {
    /// A place in the text: the byte offset and the line and column it is at.
    struct Point {
        var offset: Int
        var line: Int
        var column: Int
    }

    /// The document's bytes: the file's, less a byte order mark (libyaml's marks do not count it).
    private let text: Text
    /// The byte offset where each line starts (line 1 at index 0).
    private var lineStarts: [Int32] = [0]
    /// For a text that is not all ASCII: the scalar index where each line starts, and the byte
    /// offset of every 64th scalar.
    private var lineScalarStarts: [Int32] = []
    private var checkpoints: [Int32] = []

    /// The file's bytes from `start` on, indexed from 0 (no copy of a file of megabytes).
    struct Text {
        let bytes: [UInt8]
        let start: Int

        var count: Int { bytes.count - start }
        subscript(index: Int) -> UInt8 { bytes[start + index] }
    }

    /// `isASCII`: the text has no byte over 0x7F (then a column is an offset from its line's start).
    init(bytes: [UInt8], from start: Int, isASCII: Bool) {
        text = Text(bytes: bytes, start: start)
        // memchr: a Swift byte loop over megabytes is slow in the debug builds the tests run.
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = start
            while offset < buffer.count, let found = memchr(base + offset, 0x0A, buffer.count - offset) {
                let index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                lineStarts.append(Int32(truncatingIfNeeded: index + 1 - start))
                offset = index + 1
            }
        }
        guard !isASCII else { return }
        lineScalarStarts.reserveCapacity(lineStarts.count)
        lineScalarStarts.append(0)
        var scalars = 0
        for index in 0..<text.count where text[index] & 0xC0 != 0x80 {
            if scalars & 63 == 0 { checkpoints.append(Int32(truncatingIfNeeded: index)) }
            scalars += 1
            if text[index] == 0x0A { lineScalarStarts.append(Int32(truncatingIfNeeded: scalars)) }
        }
    }

    /// The byte offset of a 1-based line and column, or `nil` when it is not in the text.
    func offset(line: Int, column: Int) -> Int? {
        guard line >= 1, line <= lineStarts.count, column >= 1 else { return nil }
        let lineStart = Int(lineStarts[line - 1])
        let lineEnd = line < lineStarts.count ? Int(lineStarts[line]) : text.count
        guard !lineScalarStarts.isEmpty else {
            let offset = lineStart + column - 1
            return offset <= lineEnd ? offset : nil
        }
        let scalar = Int(lineScalarStarts[line - 1]) + column - 1
        guard scalar / 64 < checkpoints.count else { return column == 1 ? lineStart : nil }
        var offset = Int(checkpoints[scalar / 64])
        var remaining = scalar % 64
        while remaining > 0, offset < text.count {
            offset += 1
            while offset < text.count, text[offset] & 0xC0 == 0x80 { offset += 1 }
            remaining -= 1
        }
        return offset >= lineStart && offset <= lineEnd ? offset : nil
    }

    func point(_ mark: Mark?) -> Point? {
        guard let mark, let offset = offset(line: mark.line, column: mark.column) else { return nil }
        return Point(offset: offset, line: mark.line, column: mark.column)
    }

    /// `start` moved forward to byte `offset`, counting lines and scalars on the way.
    func advance(_ start: Point, to offset: Int) -> Point {
        var point = start
        var index = start.offset
        while index < offset {
            let byte = text[index]
            if byte == 0x0A {
                point.line += 1
                point.column = 1
            } else if byte & 0xC0 != 0x80 {
                point.column += 1
            }
            index += 1
        }
        point.offset = offset
        return point
    }

    // MARK: Scalars

    /// Where a scalar that starts at `start` (its anchor or tag, if it has one) ends.
    func scalarEnd(from start: Point, style: Node.Scalar.Style, value: String) -> Point? {
        guard let valueStart = skipProperties(from: start.offset) else { return nil }
        let end: Int?
        switch style {
        case .singleQuoted: end = quotedEnd(from: valueStart, quote: UInt8(ascii: "'"))
        case .doubleQuoted: end = quotedEnd(from: valueStart, quote: UInt8(ascii: "\""))
        case .literal, .folded: end = blockEnd(from: valueStart, isEmpty: value.isEmpty)
        case .plain, .any:
            // An empty plain scalar (a key with no value) is where libyaml put it: an empty span.
            end = value.isEmpty ? start.offset : plainEnd(from: valueStart, value: value)
        }
        return end.map { advance(start, to: $0) }
    }

    /// Past an anchor (`&name`) and a tag (`!tag`), and the white space after each.
    private func skipProperties(from offset: Int) -> Int? {
        var index = offset
        while index < text.count, text[index] == UInt8(ascii: "&") || text[index] == UInt8(ascii: "!") {
            while index < text.count, !isWhiteSpace(text[index]) { index += 1 }
            while index < text.count, isWhiteSpace(text[index]) { index += 1 }
        }
        return index < text.count ? index : nil
    }

    /// Past the closing quote. In single quotes `''` is a quote; in double quotes `\` escapes.
    private func quotedEnd(from offset: Int, quote: UInt8) -> Int? {
        guard text[offset] == quote else { return nil }
        var index = offset + 1
        while index < text.count {
            let byte = text[index]
            if quote == UInt8(ascii: "\"") && byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if byte == quote {
                if quote == UInt8(ascii: "'"), index + 1 < text.count, text[index + 1] == quote {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// A plain scalar is its value as written, except that a line fold (breaks and indentation)
    /// reads as one space, or as line breaks where there were empty lines: the value is matched
    /// against the text, each run of white space in one against a run in the other.
    private func plainEnd(from offset: Int, value: String) -> Int? {
        var index = offset
        var matched = offset
        var valueBytes = value.utf8.makeIterator()
        var pending = valueBytes.next()
        while let byte = pending {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 {
                var sawSpace = false
                while index < text.count, isWhiteSpace(text[index]) {
                    index += 1
                    sawSpace = true
                }
                guard sawSpace else { return nil }
                pending = valueBytes.next()
                while let next = pending, next == 0x20 || next == 0x0A || next == 0x09 { pending = valueBytes.next() }
                continue
            }
            guard index < text.count, text[index] == byte else { return nil }
            index += 1
            matched = index
            pending = valueBytes.next()
        }
        return matched
    }

    /// A `|` or `>` scalar: its header, then every line indented at least as far as its first
    /// non-empty line (or its explicit indentation indicator), up to the last such line's end.
    private func blockEnd(from offset: Int, isEmpty: Bool) -> Int? {
        var index = offset + 1
        var explicitIndent: Int?
        while index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-")
            || (text[index] >= UInt8(ascii: "1") && text[index] <= UInt8(ascii: "9"))
        {
            if text[index] != UInt8(ascii: "+") && text[index] != UInt8(ascii: "-") { explicitIndent = Int(text[index] - 48) }
            index += 1
        }
        let headerEnd = index
        guard !isEmpty else { return headerEnd }
        // The content starts on the line after the header.
        while index < text.count, text[index] != 0x0A { index += 1 }
        var lastContentEnd = headerEnd
        var contentIndent = explicitIndent
        while index < text.count {
            let lineStart = index + 1
            var indent = 0
            while lineStart + indent < text.count, text[lineStart + indent] == 0x20 { indent += 1 }
            var lineEnd = lineStart + indent
            while lineEnd < text.count, text[lineEnd] != 0x0A { lineEnd += 1 }
            index = lineEnd
            var contentEnd = lineEnd
            while contentEnd > lineStart + indent, text[contentEnd - 1] == 0x0D || text[contentEnd - 1] == 0x20 { contentEnd -= 1 }
            if contentEnd == lineStart + indent { continue }  // an empty line belongs to the scalar only if more follow
            if contentIndent == nil { contentIndent = indent }
            guard let contentIndent, indent >= contentIndent else { break }
            lastContentEnd = contentEnd
        }
        return lastContentEnd
    }

    // MARK: Collections

    /// Whether the collection at `start` is written in flow style (`[…]`, `{…}`): read from the
    /// text, since Yams reports the style of the collection's end event, which has none.
    func isFlowCollection(at start: Point) -> Bool {
        guard let open = skipProperties(from: start.offset) else { return false }
        return text[open] == UInt8(ascii: "[") || text[open] == UInt8(ascii: "{")
    }

    /// Where a flow collection (`[…]`, `{…}`) ends: past the bracket that closes it, found after
    /// its last entry (or its opening bracket when it has none).
    func flowCollectionEnd(start: Point, lastEntryEnd: Point?, isEmpty: Bool) -> Point? {
        var index: Int
        var from: Point
        if isEmpty {
            guard let open = skipProperties(from: start.offset),
                text[open] == UInt8(ascii: "[") || text[open] == UInt8(ascii: "{")
            else { return nil }
            index = open + 1
            from = start
        } else {
            guard let lastEntryEnd else { return nil }
            index = lastEntryEnd.offset
            from = lastEntryEnd
        }
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") { return advance(from, to: index + 1) }
            if byte == UInt8(ascii: "#") {
                while index < text.count, text[index] != 0x0A { index += 1 }
                continue
            }
            // Between the last entry and the bracket: white space, a trailing comma, or the
            // indicators of an entry whose value is empty.
            guard isWhiteSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "?")
            else { return nil }
            index += 1
        }
        return nil
    }

    private func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
