// Spans of values, worked out while libxml2 reads: where a text and an attribute value are.

/// Where an element's text is, worked out from the two places libxml2 reports exactly (the end
/// of the start tag, the `<` of the end tag) and the text's own white space: leading white space
/// moves the start forward, trailing white space the end back. An entity reference in the text
/// changes its length but not those two places, so the span stays exact unless the trailing white
/// space holds a line break: then the end column is counted along the text's last line, which
/// only text read in one piece (no reference) allows. Markup inside the content that the text
/// does not show (CDATA markers, a comment) would shift both ends: then the span is the content's.
enum TextSpan {
    static func of(
        _ raw: UnsafeBufferPointer<UInt8>, contentStart: XMLPosition, contentEnd: XMLPosition, pieces: Int, hasMarkup: Bool
    ) -> XMLPosition {
        let none = XMLPosition(line: 0, column: 0)
        guard contentStart.line > 0, contentStart.column > 0, contentEnd.line > 0, contentEnd.column > 0 else { return none }
        var first = 0
        while first < raw.count, isSpace(raw[first]) { first += 1 }
        guard first < raw.count else { return none }
        if hasMarkup {
            return XMLPosition(line: contentStart.line, column: contentStart.column, endLine: contentEnd.line, endColumn: contentEnd.column)
        }
        var line = contentStart.line, column = contentStart.column
        for index in 0..<first {
            if raw[index] == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        var last = raw.count
        var trailingBreaks = 0, trailingOthers = 0
        while last > first, isSpace(raw[last - 1]) {
            last -= 1
            if raw[last] == 0x0A { trailingBreaks += 1 } else if trailingBreaks == 0 { trailingOthers += 1 }
        }
        if trailingBreaks == 0 {
            return XMLPosition(line: line, column: column, endLine: contentEnd.line, endColumn: contentEnd.column - trailingOthers)
        }
        guard pieces == 1 else { return XMLPosition(line: line, column: column) }
        // Count the characters of the text's last line (UTF-8 lead bytes).
        var endColumn = column
        for index in first..<last {
            if raw[index] == 0x0A { endColumn = 1 } else if raw[index] & 0xC0 != 0x80 { endColumn += 1 }
        }
        return XMLPosition(line: line, column: column, endLine: contentEnd.line - trailingBreaks, endColumn: endColumn)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}

/// Where attribute values are, for a start tag read from `<` (at `start`) to libxml2's
/// cursor: a value whose bytes are in the buffer there is the one written in the tag (a value
/// libxml2 rewrote, for an entity reference or a line break in it, is elsewhere and gets no
/// position). Values come in document order, so one walk forward serves them all.
struct AttributeLocator {
    let lessThan: UnsafePointer<UInt8>?
    let end: UnsafePointer<UInt8>?
    let isSimple: Bool
    var cursor: UnsafePointer<UInt8>?
    var line: Int
    var column: Int

    init(_ tag: (position: XMLPosition, lessThan: UnsafePointer<UInt8>?, isSimple: Bool), end: UnsafePointer<UInt8>?) {
        lessThan = tag.position.column > 0 ? tag.lessThan : nil
        self.end = end
        isSimple = tag.isSimple
        cursor = lessThan
        line = tag.position.line
        column = tag.position.column
    }

    mutating func span(_ value: UnsafeBufferPointer<UInt8>) -> XMLPosition {
        guard let lessThan, let end, let start = value.baseAddress, start > lessThan, start + value.count < end
        else { return XMLPosition(line: 0, column: 0) }
        if isSimple {
            let startColumn = column + (start - lessThan)
            return XMLPosition(line: line, column: startColumn, endLine: line, endColumn: startColumn + value.count)
        }
        guard let from = cursor, start >= from else { return XMLPosition(line: 0, column: 0) }
        move(to: start)
        let (startLine, startColumn) = (line, column)
        move(to: start + value.count)
        return XMLPosition(line: startLine, column: startColumn, endLine: line, endColumn: column)
    }

    private mutating func move(to target: UnsafePointer<UInt8>) {
        guard var p = cursor else { return }
        while p < target {
            if p.pointee == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if p.pointee & 0xC0 != 0x80 {
                column += 1
            }
            p += 1
        }
        cursor = p
    }
}
