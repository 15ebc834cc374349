import XMLReader

extension SourceLocation {
    /// A place in an XML file: its span when the reader knew it, else its start. `lineOffset`
    /// moves it down, for XML embedded after that many lines of a larger file.
    package init(file: String, _ position: XMLPosition, lineOffset: Int = 0) {
        self.init(
            file: file, line: position.line > 0 ? position.line + lineOffset : 0, column: position.column,
            endLine: position.hasEnd ? position.endLine + lineOffset : 0, endColumn: position.endColumn)
    }
}

extension XMLNode {
    /// Where the element's value is: its text without the white space around it, or its start
    /// tag when it has no text (`<true/>`, an empty element) or the text's place is unknown.
    public var valuePosition: XMLPosition { textPosition.line > 0 ? textPosition : position }

    /// Where the value of the attribute `name` is, or the start tag when that is unknown.
    public func attributePosition(_ name: String) -> XMLPosition {
        guard let value = attributeValuePosition(name), value.line > 0 else { return position }
        return value
    }
}

extension XMLElementView {
    /// See ``XMLNode/valuePosition``.
    public var valuePosition: XMLPosition {
        let text = textPosition
        return text.line > 0 ? text : position
    }

    /// See ``XMLNode/attributePosition(_:)``.
    public func attributePosition(_ name: XMLName) -> XMLPosition {
        guard let value = attributeValuePosition(name), value.line > 0 else { return position }
        return value
    }
}
