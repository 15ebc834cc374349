/// A place in an XML document: a 1-based line and column and, where the reader knows it, where
/// the thing there ends (the line of its last character and the column just after it, exclusive;
/// 0 when unknown). Columns count characters.
///
/// An element's ``XMLNode/position`` is its start tag, `<` to `>`; ``XMLNode/textPosition`` its
/// text without surrounding white space; ``XMLAttribute/valuePosition`` an attribute's value
/// between its quotes.
public struct XMLPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    /// 1-based column in characters; 0 when libxml2 could not give one.
    public var column: Int
    public var endLine: Int
    /// Exclusive: the column after the last character.
    public var endColumn: Int

    public init(line: Int, column: Int, endLine: Int = 0, endColumn: Int = 0) {
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
    }

    /// The end is known.
    public var hasEnd: Bool { endLine > 0 && endColumn > 0 }

    public static func < (a: XMLPosition, b: XMLPosition) -> Bool {
        (a.line, a.column, a.endLine, a.endColumn) < (b.line, b.column, b.endLine, b.endColumn)
    }

    /// `line:column`: where it starts.
    public var description: String { column > 0 ? "\(line):\(column)" : "\(line)" }
}

/// One attribute of an element, in document order.
public struct XMLAttribute: Hashable, Sendable {
    public var name: String
    public var namespaceURI: String?
    public var value: String
    /// The value's span between its quotes; line 0 when the reader cannot tell (a value libxml2
    /// rewrote, such as one with an entity reference, is no longer in the document's bytes).
    public var valuePosition: XMLPosition

    public init(name: String, namespaceURI: String? = nil, value: String, valuePosition: XMLPosition = XMLPosition(line: 0, column: 0)) {
        self.name = name
        self.namespaceURI = namespaceURI
        self.value = value
        self.valuePosition = valuePosition
    }
}

/// One element of the light, ordered node tree the reader builds.
///
/// The tree is the primary result (cheap to build, keeps order and positions); the classic
/// XMLReader dictionary shape is derived from it by ``dictionaryValue(options:)``.
public struct XMLNode: Hashable, Sendable {
    /// Local name (without prefix).
    public var name: String
    public var prefix: String?
    public var namespaceURI: String?
    public var attributes: [XMLAttribute]
    public var children: [XMLNode]
    /// The element's own text (character data and CDATA, not its children's), every run
    /// concatenated in document order, untrimmed.
    public var rawText: String
    /// The start tag: where its `<` is, and the column after its `>`.
    public var position: XMLPosition
    /// The span of ``text`` (the text without the white space around it); line 0 when the
    /// element has no text, or child elements among it. Text with a CDATA section, a comment or
    /// a processing instruction in its content gets the span of the whole content (that markup
    /// and the white space included); text that ends on a line before its end tag's and came in
    /// more than one piece (an entity reference in it), only its start.
    public var textPosition: XMLPosition

    public init(
        name: String, prefix: String? = nil, namespaceURI: String? = nil,
        attributes: [XMLAttribute] = [], children: [XMLNode] = [], rawText: String = "",
        position: XMLPosition = XMLPosition(line: 0, column: 0), textPosition: XMLPosition = XMLPosition(line: 0, column: 0)
    ) {
        self.name = name
        self.prefix = prefix
        self.namespaceURI = namespaceURI
        self.attributes = attributes
        self.children = children
        self.rawText = rawText
        self.position = position
        self.textPosition = textPosition
    }

    /// `prefix:name`, or `name` when the element has no prefix.
    public var qualifiedName: String {
        if let prefix, !prefix.isEmpty { return "\(prefix):\(name)" }
        return name
    }

    /// The element's text with leading and trailing white space removed.
    public var text: String { rawText.trimmedXMLWhitespace() }

    /// The value of the attribute with this local name.
    public func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// Where the value of the attribute with this local name is (see ``XMLAttribute/valuePosition``).
    public func attributeValuePosition(_ name: String) -> XMLPosition? {
        attributes.first { $0.name == name }?.valuePosition
    }

    /// The first child element with this local name.
    public func child(_ name: String) -> XMLNode? {
        children.first { $0.name == name }
    }

    /// Every child element with this local name, in document order (always an array).
    public func children(named name: String) -> [XMLNode] {
        children.filter { $0.name == name }
    }

    /// Follows a path of child names (`node["a", "b"]`), taking the first match at each step.
    public subscript(path: String...) -> XMLNode? {
        var current: XMLNode? = self
        for name in path { current = current?.child(name) }
        return current
    }

    /// Calls `body` for this node and every descendant, depth first, in document order.
    /// Iterative, so document depth never turns into stack depth.
    public func forEachDescendant(_ body: (XMLNode) throws -> Void) rethrows {
        var stack: [XMLNode] = [self]
        while let node = stack.popLast() {
            try body(node)
            stack.append(contentsOf: node.children.reversed())
        }
    }
}

extension String {
    /// Trims the four XML white-space characters (space, tab, CR, LF) at both ends.
    func trimmedXMLWhitespace() -> String {
        let isSpace: (Unicode.Scalar) -> Bool = {
            $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r"
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }
}
