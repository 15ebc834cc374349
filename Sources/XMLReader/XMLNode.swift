/// A position in an XML document: 1-based line and column of an element's `<`.
public struct XMLPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    /// 1-based column in characters; 0 when libxml2 could not give one.
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: XMLPosition, b: XMLPosition) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    public var description: String { column > 0 ? "\(line):\(column)" : "\(line)" }
}

/// One attribute of an element, in document order.
public struct XMLAttribute: Hashable, Sendable {
    public var name: String
    public var namespaceURI: String?
    public var value: String

    public init(name: String, namespaceURI: String? = nil, value: String) {
        self.name = name
        self.namespaceURI = namespaceURI
        self.value = value
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
    /// Where the start tag begins.
    public var position: XMLPosition

    public init(
        name: String, prefix: String? = nil, namespaceURI: String? = nil,
        attributes: [XMLAttribute] = [], children: [XMLNode] = [], rawText: String = "",
        position: XMLPosition = XMLPosition(line: 0, column: 0)
    ) {
        self.name = name
        self.prefix = prefix
        self.namespaceURI = namespaceURI
        self.attributes = attributes
        self.children = children
        self.rawText = rawText
        self.position = position
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
