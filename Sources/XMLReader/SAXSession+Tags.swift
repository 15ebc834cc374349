#if canImport(CLibXML2)
internal import CLibXML2
#elseif canImport(libxml2)
internal import libxml2
#endif

/// Where the tag libxml2 has just read is: libxml2 reports its line and column at the cursor only,
/// so the `<` is found in its input buffer, by the name's length when that can be trusted.
extension SAXSession {
    /// ``tagSpan()`` for a start tag libxml2 has just read (`name` and `prefix`: ids, -1 for
    /// none), found by its name's length when it has no attributes and its names are ASCII (`<name` or `<prefix:name` right before the cursor,
    /// which is on its `>` or `/>`); otherwise by scanning.
    @inline(__always)
    func startTagSpan(
        name: Int, prefix: Int, attributeCount: Int
    ) -> (position: XMLPosition, lessThan: UnsafePointer<UInt8>?, isSimple: Bool) {
        if attributeCount == 0, name >= 0, let input = context?.pointee.input, let cur = input.pointee.cur,
            let base = input.pointee.base, let end = input.pointee.end
        {
            let length = tagNameLength(name, prefix)
            if length >= 0, cur - base > length, (cur - length - 1).pointee == UInt8(ascii: "<") {
                let line = Int(input.pointee.line)
                let column = Int(input.pointee.col)
                var endColumn = column
                if cur < end, cur.pointee == UInt8(ascii: ">") {
                    endColumn += 1
                } else if cur + 1 < end, cur.pointee == UInt8(ascii: "/"), cur[1] == UInt8(ascii: ">") {
                    endColumn += 2
                }
                let position = XMLPosition(line: line, column: max(1, column - length - 1), endLine: line, endColumn: endColumn)
                return (position, cur - length - 1, true)
            }
        }
        return tagSpan()
    }

    /// Where the end tag libxml2 has just read starts, found by its name's length when it is
    /// `</name>` in ASCII, without white space (the cursor is past its `>`); otherwise by scanning.
    @inline(__always)
    func endTagStart(name: Int, prefix: Int) -> XMLPosition {
        if let input = context?.pointee.input, let cur = input.pointee.cur, let base = input.pointee.base {
            let length = tagNameLength(name, prefix)
            // `</` + name + `>`
            if length >= 0, cur - base > length + 2, (cur - length - 3).pointee == UInt8(ascii: "<"),
                (cur - length - 2).pointee == UInt8(ascii: "/"), (cur - 1).pointee == UInt8(ascii: ">")
            {
                return XMLPosition(line: Int(input.pointee.line), column: max(1, Int(input.pointee.col) - length - 3))
            }
        }
        return tagSpan().position
    }

    /// Bytes of `name` (an id), or of `prefix:name` when `prefix` is an id (not -1), when ASCII; -1 otherwise.
    @inline(__always)
    private func tagNameLength(_ name: Int, _ prefix: Int) -> Int {
        let length = asciiNameLengths[name]
        guard prefix >= 0, length >= 0 else { return length }
        let prefixLength = asciiNameLengths[prefix]
        return prefixLength < 0 ? -1 : prefixLength + 1 + length
    }

    /// The tag libxml2 has just read: where its `<` is, with the end (the column after its `>`)
    /// when the `<` was found, the pointer to the `<` in libxml2's buffer, and whether the tag is
    /// on one line and ASCII (then a byte's column is its distance from the `<`). libxml2 reports
    /// a start tag with its cursor on the closing `>` (or the `/` of `/>`), an end tag past it.
    func tagSpan() -> (position: XMLPosition, lessThan: UnsafePointer<UInt8>?, isSimple: Bool) {
        guard let input = context?.pointee.input, let cur = input.pointee.cur, let base = input.pointee.base
        else { return (currentPosition(), nil, false) }
        var line = Int(input.pointee.line)
        var column = Int(input.pointee.col)
        let endLine = line
        var endColumn = column
        if cur < input.pointee.end, cur.pointee == UInt8(ascii: ">") {
            endColumn += 1
        } else if cur + 1 < input.pointee.end, cur.pointee == UInt8(ascii: "/"), cur[1] == UInt8(ascii: ">") {
            endColumn += 2
        }
        func found(_ startColumn: Int, _ lessThan: UnsafePointer<UInt8>, simple: Bool) -> (XMLPosition, UnsafePointer<UInt8>?, Bool) {
            let position = startColumn > 0
                ? XMLPosition(line: line, column: startColumn, endLine: endLine, endColumn: endColumn)
                : XMLPosition(line: line, column: 0)
            return (position, lessThan, simple)
        }
        // Fast path: a start tag on one line, in ASCII (the `<` is found, then the tag checked once).
        var lt = cur
        while lt > base {
            lt -= 1
            if lt.pointee == UInt8(ascii: "<") { break }
        }
        if lt < cur, lt.pointee == UInt8(ascii: "<") {
            var any: UInt8 = 0
            var newline = false
            var q = lt + 1
            while q < cur {
                any |= q.pointee
                newline = newline || q.pointee == UInt8(ascii: "\n")
                q += 1
            }
            if any & 0x80 == 0, !newline { return found(max(1, column - (cur - lt - 1) - 1), lt, simple: true) }
        }
        var p = cur
        var characters = 0
        var crossedNewline = false
        while p > base {
            p -= 1
            let byte = p.pointee
            if byte == UInt8(ascii: "<") { break }
            if byte == UInt8(ascii: "\n") {
                line -= 1
                crossedNewline = true
            } else if byte & 0xC0 != 0x80 {
                characters += 1
            }
        }
        guard p.pointee == UInt8(ascii: "<") else { return (currentPosition(), nil, false) }
        if !crossedNewline { return found(max(1, column - characters - 1), p, simple: false) }
        // A start tag over several lines: count the columns before `<` on its own line.
        column = 1
        var q = p
        while q > base {
            q -= 1
            if q.pointee == UInt8(ascii: "\n") { return found(column, p, simple: false) }
            if q.pointee & 0xC0 != 0x80 { column += 1 }
        }
        // No line break before the tag in the buffer: its column is known if the buffer still
        // starts at the document's first byte.
        return found(input.pointee.consumed == 0 ? column : 0, p, simple: false)
    }
}
