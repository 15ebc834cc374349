/// The elements of one streamed item (see ``XMLReader/scan(contentsOfFile:limits:select:handler:)``),
/// stored flat: one record per element in document order, every text and attribute value in one
/// byte buffer, names as indexes into a table the parse shares. The reader reuses one arena for
/// every item, so streaming allocates nothing per element once the buffers have grown.
public final class XMLItemArena {
    @usableFromInline
    struct Element {
        @usableFromInline var name: Int
        @usableFromInline var prefix: Int  // -1: none
        @usableFromInline var namespaceURI: Int  // -1: none
        @usableFromInline var parent: Int  // -1: the item itself
        @usableFromInline var firstChild = -1
        @usableFromInline var lastChild = -1
        @usableFromInline var nextSibling = -1
        /// One past the index of the last descendant.
        @usableFromInline var end = 0
        @usableFromInline var textStart = 0
        @usableFromInline var textCount = 0
        @usableFromInline var attributeStart: Int
        @usableFromInline var attributeCount: Int
        /// The start tag.
        @usableFromInline var position: XMLPosition
        /// Where the end tag's `<` is, set when an element without children ends (line 0: not
        /// set). The text's span is worked out from it when asked for (see ``TextSpan``): most
        /// texts are never located, and this way the parsing thread does not count their columns.
        @usableFromInline var contentEndLine = 0
        @usableFromInline var contentEndColumn = 0
        @usableFromInline var textPieces = 0
        @usableFromInline var hasMarkup = false

        @usableFromInline
        init(
            name: Int, prefix: Int, namespaceURI: Int, parent: Int, attributeStart: Int, attributeCount: Int,
            position: XMLPosition
        ) {
            self.name = name
            self.prefix = prefix
            self.namespaceURI = namespaceURI
            self.parent = parent
            self.attributeStart = attributeStart
            self.attributeCount = attributeCount
            self.position = position
        }
    }

    @usableFromInline
    struct Attribute {
        @usableFromInline var name: Int
        @usableFromInline var namespaceURI: Int
        @usableFromInline var valueStart: Int
        @usableFromInline var valueCount: Int
        /// The value's span between its quotes (line 0: unknown).
        @usableFromInline var position: XMLPosition
    }

    // Plain growable buffers (no copy-on-write or uniqueness checks on the hot path); they only
    // grow, and are reused for every item of a parse.
    @exclusivity(unchecked) @usableFromInline var elements: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) @usableFromInline var elementCount = 0
    @exclusivity(unchecked) private var elementCapacity = 64
    @exclusivity(unchecked) @usableFromInline var attributes: UnsafeMutablePointer<Attribute>
    @exclusivity(unchecked) @usableFromInline var attributeCount = 0
    @exclusivity(unchecked) private var attributeCapacity = 16
    /// Texts and attribute values.
    @exclusivity(unchecked) @usableFromInline var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline var byteCount = 0
    @exclusivity(unchecked) private var byteCapacity = 4096
    /// The parse's interned names as of this item (the session interns them and hands each
    /// arena its copy before the item is handled; the copies share storage until a name is added).
    @exclusivity(unchecked) @usableFromInline var names: [String] = []
    /// Name → index in `names`.
    @exclusivity(unchecked) @usableFromInline var idsByName: [String: Int] = [:]
    /// The parse this arena belongs to: every arena of one parse has the same, and equal name ids.
    public let parse: XMLParseIdentity
    /// What the selector returned for the current item (see ``XMLElementView/itemTag``).
    @exclusivity(unchecked) @usableFromInline var itemTag = 0
    /// Ids of literal names by the address of their text: the parse's cache (see
    /// ``XMLParseIdentity``), shared by its arenas.
    @usableFromInline let literalKeys: UnsafeMutablePointer<UnsafeRawPointer?>
    @usableFromInline let literalIDs: UnsafeMutablePointer<Int>
    @usableFromInline let literalNameCounts: UnsafeMutablePointer<Int>

    init(parse: XMLParseIdentity) {
        self.parse = parse
        elements = .allocate(capacity: elementCapacity)
        attributes = .allocate(capacity: attributeCapacity)
        bytes = .allocate(capacity: byteCapacity)
        literalKeys = parse.literalKeys
        literalIDs = parse.literalIDs
        literalNameCounts = parse.literalNameCounts
    }

    deinit {
        elements.deallocate()
        attributes.deallocate()
        bytes.deallocate()
    }

    /// Takes the parse's names (when some were added since this arena last took them).
    @inline(__always)
    func adoptNames(_ all: [String], _ ids: [String: Int]) {
        guard names.count != all.count else { return }
        names = all
        idsByName = ids
    }

    /// How many distinct names the parse has met so far (ids are `0..<nameCount`).
    public var nameCount: Int { names.count }

    /// The id of `name` in this parse, or -1 when no element or attribute has had it (yet).
    @inlinable
    public func id(of name: XMLName) -> Int {
        switch name.storage {
        case .literal(let text):
            if text.hasPointerRepresentation {
                let key = UnsafeRawPointer(text.utf8Start)
                let slot = Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> 55)
                if literalKeys[slot] == key, literalIDs[slot] >= 0 || literalNameCounts[slot] == names.count {
                    return literalIDs[slot]
                }
            }
        case .string(let box):
            if box.parse === parse, box.id >= 0 || box.nameCount == names.count { return box.id }
        }
        return lookUp(name)
    }

    @usableFromInline
    func lookUp(_ name: XMLName) -> Int {
        switch name.storage {
        case .literal(let text):
            guard text.hasPointerRepresentation else { return idsByName[text.description] ?? -1 }
            let key = UnsafeRawPointer(text.utf8Start)
            let home = Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> 55)
            // Two names used for every item can share a home slot (it depends on where the linker
            // put them, and they would evict each other for every item), so a
            // name may also sit in one of the next three slots.
            var slot = home
            for probe in 0..<4 {
                let candidate = (home + probe) & (XMLParseIdentity.literalSlots - 1)
                if literalKeys[candidate] == key {
                    if literalIDs[candidate] >= 0 || literalNameCounts[candidate] == names.count { return literalIDs[candidate] }
                    slot = candidate
                    break
                }
                if literalKeys[candidate] == nil {
                    slot = candidate
                    break
                }
            }
            let id = idsByName[text.description] ?? -1
            literalKeys[slot] = key
            literalIDs[slot] = id
            literalNameCounts[slot] = names.count
            return id
        case .string(let box):
            if box.parse === parse, box.id >= 0 || box.nameCount == names.count { return box.id }
            let id = idsByName[box.name] ?? -1
            box.parse = parse
            box.id = id
            box.nameCount = names.count
            return id
        }
    }

    /// The item itself (the first element), or `nil` while the arena is empty.
    public var root: XMLElementView? { elementCount == 0 ? nil : XMLElementView(arena: self, index: 0) }

    /// How many elements the current item has (itself included).
    public var count: Int { elementCount }

    func reset() {
        elementCount = 0
        attributeCount = 0
        byteCount = 0
    }

    /// Gives back buffers an unusually large item grew (a pooled arena keeps its capacity).
    func shrinkIfLarge() {
        let largeBytes = 1 << 20
        if byteCapacity > largeBytes {
            bytes.deallocate()
            byteCapacity = 4096
            bytes = .allocate(capacity: byteCapacity)
        }
        if elementCapacity * MemoryLayout<Element>.stride > largeBytes {
            elements.deallocate()
            elementCapacity = 64
            elements = .allocate(capacity: elementCapacity)
        }
        if attributeCapacity * MemoryLayout<Attribute>.stride > largeBytes {
            attributes.deallocate()
            attributeCapacity = 16
            attributes = .allocate(capacity: attributeCapacity)
        }
        reset()
    }

    @inline(__always)
    func appendElement(_ element: Element) {
        if elementCount == elementCapacity { Self.grow(&elements, count: elementCount, capacity: &elementCapacity) }
        (elements + elementCount).initialize(to: element)
        elementCount += 1
    }

    @inline(__always)
    func appendAttribute(_ attribute: Attribute) {
        if attributeCount == attributeCapacity { Self.grow(&attributes, count: attributeCount, capacity: &attributeCapacity) }
        (attributes + attributeCount).initialize(to: attribute)
        attributeCount += 1
    }

    /// Doubles a full buffer, moving its `count` records (the session's open-element buffer too).
    static func grow<T>(_ buffer: inout UnsafeMutablePointer<T>, count: Int, capacity: inout Int) {
        let grown = UnsafeMutablePointer<T>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        buffer = grown
        capacity *= 2
    }

    /// Appends bytes; returns where they start.
    @inline(__always) @discardableResult
    func appendBytes(_ source: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let start = byteCount
        if byteCount + count > byteCapacity {
            var capacity = byteCapacity * 2
            while capacity < byteCount + count { capacity *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.moveInitialize(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = grown
            byteCapacity = capacity
        }
        (bytes + byteCount).update(from: source, count: count)
        byteCount += count
        return start
    }

    /// Moves `count` bytes at `start` to the end (mixed content: a text resumed after a child).
    func moveBytesToEnd(_ start: Int, _ count: Int) -> Int {
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(count, 1))
        defer { copy.deallocate() }
        copy.update(from: bytes + start, count: count)
        return appendBytes(copy, count)
    }

    @inlinable
    func string(_ start: Int, _ count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + start, count: count), as: UTF8.self)
    }

    @inlinable
    func isSpaceOnly(_ start: Int, _ count: Int) -> Bool {
        isAllXMLSpace(UnsafeBufferPointer(start: bytes + start, count: count))
    }
}

/// Who a parse is, for caches of name ids (``XMLName``, a rule's own): the same for every arena of
/// one parse. A cache holds it, so its address is never reused while the cache remembers it.
public final class XMLParseIdentity {
    /// Ids of literal names by the address of their text (a direct-mapped cache): a lookup is a
    /// pointer comparison. A miss remembers how many names there were, since the name may come
    /// later. One per parse, not per arena: ids are the parse's, and with items on a second
    /// thread up to 128 arenas are in use, each of which would warm a cache of its own. Only the
    /// thread handling items uses it.
    let literalKeys: UnsafeMutablePointer<UnsafeRawPointer?>
    let literalIDs: UnsafeMutablePointer<Int>
    let literalNameCounts: UnsafeMutablePointer<Int>
    /// 512 slots, indexed by the top 9 bits of a multiplicative hash of the address.
    static let literalSlots = 512

    init() {
        literalKeys = .allocate(capacity: Self.literalSlots)
        literalKeys.initialize(repeating: nil, count: Self.literalSlots)
        literalIDs = .allocate(capacity: Self.literalSlots)
        literalIDs.initialize(repeating: -1, count: Self.literalSlots)
        literalNameCounts = .allocate(capacity: Self.literalSlots)
        literalNameCounts.initialize(repeating: -1, count: Self.literalSlots)
    }

    deinit {
        literalKeys.deallocate()
        literalIDs.deallocate()
        literalNameCounts.deallocate()
    }
}

/// One element of a streamed item: a position in an ``XMLItemArena``.
///
/// A view is valid only inside the handler it was passed to (the arena is reused for the next
/// item); keep ``node`` (a self-contained ``XMLNode``) or the strings you need instead.
/// The API mirrors ``XMLNode``'s, and every value is the one the tree reader would give.
public struct XMLElementView {
    /// Not retained: a view lives inside the handler call, while the parse keeps the arena alive.
    @usableFromInline unowned(unsafe) let arena: XMLItemArena
    @usableFromInline let index: Int

    @inlinable
    init(arena: XMLItemArena, index: Int) {
        self.arena = arena
        self.index = index
    }

    @inlinable var record: XMLItemArena.Element { arena.elements[index] }

    /// The element's index in its item (the item is 0; document order).
    @inlinable public var indexInItem: Int { index }

    /// The element of the same item at `index` (see ``indexInItem``).
    @inlinable public func element(at index: Int) -> XMLElementView { XMLElementView(arena: arena, index: index) }

    /// The parent's ``indexInItem`` (-1 for the item itself).
    @inlinable public var parentIndexInItem: Int { record.parent }

    /// How many elements the subtree has, this one included.
    @inlinable public var subtreeCount: Int { record.end - index }

    /// Local name (without prefix).
    @inlinable public var name: String { arena.names[record.name] }

    /// The local name's id in this parse (equal names have equal ids; see ``XMLItemArena/id(of:)``).
    @inlinable public var nameID: Int { record.name }

    /// What the selector returned for this view's item (``XMLReader/scanInParallel(contentsOfFile:limits:select:around:handler:)``; 0 otherwise).
    @inlinable public var itemTag: Int { arena.itemTag }

    /// The parse's name table and lookups.
    @inlinable public var names: XMLItemArena { arena }

    /// `true` when the local name is `name`.
    @inlinable public func isNamed(_ name: XMLName) -> Bool { record.name == arena.id(of: name) }

    public var prefix: String? {
        let prefix = record.prefix
        return prefix < 0 ? nil : arena.names[prefix]
    }

    public var namespaceURI: String? {
        let uri = record.namespaceURI
        return uri < 0 ? nil : arena.names[uri]
    }

    /// `prefix:name`, or `name` when the element has no prefix.
    public var qualifiedName: String {
        if let prefix, !prefix.isEmpty { return "\(prefix):\(name)" }
        return name
    }

    /// The start tag: where its `<` is, and the column after its `>` (see ``XMLNode/position``).
    @inlinable public var position: XMLPosition { record.position }

    /// The span of ``text`` (see ``XMLNode/textPosition``).
    public var textPosition: XMLPosition {
        let element = record
        guard element.contentEndLine > 0, element.textCount > 0, element.firstChild < 0 else { return XMLPosition(line: 0, column: 0) }
        return TextSpan.of(
            UnsafeBufferPointer(start: arena.bytes + element.textStart, count: element.textCount),
            contentStart: XMLPosition(line: element.position.endLine, column: element.position.endColumn),
            contentEnd: XMLPosition(line: element.contentEndLine, column: element.contentEndColumn),
            pieces: element.textPieces, hasMarkup: element.hasMarkup)
    }

    /// The element's own text, untrimmed (see ``XMLNode/rawText``).
    @inlinable
    public var rawText: String {
        let element = record
        return element.textCount == 0 ? "" : arena.string(element.textStart, element.textCount)
    }

    /// The element's text with leading and trailing XML white space removed.
    @inlinable
    public var text: String {
        let element = record
        guard element.textCount > 0 else { return "" }
        let buffer = arena.bytes
        var start = element.textStart
        var end = element.textStart + element.textCount
        while start < end, isXMLSpaceByte(buffer[start]) { start += 1 }
        while end > start, isXMLSpaceByte(buffer[end - 1]) { end -= 1 }
        return String(decoding: UnsafeBufferPointer(start: buffer + start, count: end - start), as: UTF8.self)
    }

    /// `true` when the element has no text at all (white space counts as text).
    @inlinable public var hasNoText: Bool { record.textCount == 0 }

    /// Calls `body` with the raw text's UTF-8 bytes (no string is made).
    @inlinable
    public func withRawTextBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let element = record
        return try body(UnsafeBufferPointer(start: arena.bytes + element.textStart, count: element.textCount))
    }

    // MARK: Attributes

    @inlinable public var attributeCount: Int { record.attributeCount }

    /// Every attribute, in document order.
    public var attributes: [XMLAttribute] {
        let element = record
        return (element.attributeStart..<element.attributeStart + element.attributeCount).map { attributeAt($0) }
    }

    func attributeAt(_ slot: Int) -> XMLAttribute {
        let attribute = arena.attributes[slot]
        return XMLAttribute(
            name: arena.names[attribute.name],
            namespaceURI: attribute.namespaceURI < 0 ? nil : arena.names[attribute.namespaceURI],
            value: arena.string(attribute.valueStart, attribute.valueCount), valuePosition: attribute.position)
    }

    /// Where the value of the attribute with this local name is (see ``XMLAttribute/valuePosition``).
    @inlinable
    public func attributeValuePosition(_ name: XMLName) -> XMLPosition? {
        let element = record
        guard element.attributeCount > 0 else { return nil }
        let id = arena.id(of: name)
        for slot in element.attributeStart..<element.attributeStart + element.attributeCount where arena.attributes[slot].name == id {
            return arena.attributes[slot].position
        }
        return nil
    }

    /// The value of the attribute with this local name.
    @inlinable
    public func attribute(_ name: XMLName) -> String? {
        let element = record
        guard element.attributeCount > 0 else { return nil }
        let id = arena.id(of: name)
        for slot in element.attributeStart..<element.attributeStart + element.attributeCount {
            let attribute = arena.attributes[slot]
            if attribute.name == id { return arena.string(attribute.valueStart, attribute.valueCount) }
        }
        return nil
    }

    /// Calls `body` with the UTF-8 bytes of the attribute with this local name; `nil` when the
    /// element has no such attribute.
    @inlinable
    public func withAttributeBytes<R>(_ name: XMLName, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        let element = record
        guard element.attributeCount > 0 else { return nil }
        let id = arena.id(of: name)
        for slot in element.attributeStart..<element.attributeStart + element.attributeCount {
            let attribute = arena.attributes[slot]
            if attribute.name == id { return try body(UnsafeBufferPointer(start: arena.bytes + attribute.valueStart, count: attribute.valueCount)) }
        }
        return nil
    }

    /// Calls `body` with each attribute's local name and value bytes, in document order.
    @inlinable
    public func forEachAttribute(_ body: (_ name: String, _ value: UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        let element = record
        for slot in element.attributeStart..<element.attributeStart + element.attributeCount {
            let attribute = arena.attributes[slot]
            try body(arena.names[attribute.name], UnsafeBufferPointer(start: arena.bytes + attribute.valueStart, count: attribute.valueCount))
        }
    }

    // MARK: Children

    @inlinable public var hasChildren: Bool { record.firstChild >= 0 }

    /// The child elements, in document order.
    @inlinable public var children: Children { Children(arena: arena, first: record.firstChild) }

    /// The first child element with this local name.
    @inlinable public func child(_ name: XMLName) -> XMLElementView? {
        child(id: arena.id(of: name))
    }

    /// The first child element whose name has this id.
    @inlinable public func child(id: Int) -> XMLElementView? {
        guard id >= 0 else { return nil }
        var next = record.firstChild
        while next >= 0 {
            let element = arena.elements[next]
            if element.name == id { return XMLElementView(arena: arena, index: next) }
            next = element.nextSibling
        }
        return nil
    }

    /// Every child element with this local name, in document order (always an array).
    @inlinable
    public func children(named name: XMLName) -> [XMLElementView] {
        let id = arena.id(of: name)
        var result: [XMLElementView] = []
        guard id >= 0 else { return result }
        var next = record.firstChild
        while next >= 0 {
            let element = arena.elements[next]
            if element.name == id { result.append(XMLElementView(arena: arena, index: next)) }
            next = element.nextSibling
        }
        return result
    }

    /// Follows a path of child names, taking the first match at each step: one to three names
    /// (not a variadic subscript, which would build an array of the names and retain it on
    /// every call).
    @inlinable
    public subscript(_ first: XMLName) -> XMLElementView? { child(first) }

    @inlinable
    public subscript(_ first: XMLName, _ second: XMLName) -> XMLElementView? { child(first)?.child(second) }

    @inlinable
    public subscript(_ first: XMLName, _ second: XMLName, _ third: XMLName) -> XMLElementView? {
        child(first)?.child(second)?.child(third)
    }

    /// Calls `body` with the text's UTF-8 bytes, leading and trailing XML white space removed
    /// (the bytes of ``text``, without making a string).
    @inlinable
    public func withTextBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let element = record
        let buffer = arena.bytes
        var start = element.textStart
        var end = element.textStart + element.textCount
        while start < end, isXMLSpaceByte(buffer[start]) { start += 1 }
        while end > start, isXMLSpaceByte(buffer[end - 1]) { end -= 1 }
        return try body(UnsafeBufferPointer(start: buffer + start, count: end - start))
    }

    /// Calls `body` for this element and every descendant, depth first, in document order.
    @inlinable
    public func forEachDescendant(_ body: (XMLElementView) throws -> Void) rethrows {
        let end = record.end
        var next = index
        while next < end {
            try body(XMLElementView(arena: arena, index: next))
            next += 1
        }
    }

    /// The element as a self-contained ``XMLNode`` (equal to the one the tree reader builds).
    public var node: XMLNode {
        // Build children before parents: walk the subtree backwards, collecting finished nodes.
        var built: [Int: XMLNode] = [:]
        var current = record.end - 1
        while current >= index {
            let element = arena.elements[current]
            var children: [XMLNode] = []
            var child = element.firstChild
            while child >= 0 {
                children.append(built.removeValue(forKey: child)!)
                child = arena.elements[child].nextSibling
            }
            let view = XMLElementView(arena: arena, index: current)
            built[current] = XMLNode(
                name: view.name, prefix: view.prefix, namespaceURI: view.namespaceURI, attributes: view.attributes,
                children: children, rawText: view.rawText, position: view.position, textPosition: view.textPosition)
            current -= 1
        }
        return built[index]!
    }

    /// The child elements of one element, walked without making an array.
    public struct Children: Sequence {
        @usableFromInline unowned(unsafe) let arena: XMLItemArena
        @usableFromInline let first: Int

        @inlinable init(arena: XMLItemArena, first: Int) {
            self.arena = arena
            self.first = first
        }

        @inlinable public func makeIterator() -> Iterator { Iterator(arena: arena, upcoming: first) }

        public var isEmpty: Bool { first < 0 }

        public struct Iterator: IteratorProtocol {
            @usableFromInline unowned(unsafe) let arena: XMLItemArena
            @usableFromInline var upcoming: Int

            @inlinable init(arena: XMLItemArena, upcoming: Int) {
                self.arena = arena
                self.upcoming = upcoming
            }

            @inlinable public mutating func next() -> XMLElementView? {
                guard upcoming >= 0 else { return nil }
                let view = XMLElementView(arena: arena, index: upcoming)
                upcoming = arena.elements[upcoming].nextSibling
                return view
            }
        }
    }
}

@inlinable @inline(__always) func isXMLSpaceByte(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

/// What ``XMLReader/scan(contentsOfFile:limits:select:handler:)`` tells its selector about an
/// element that starts outside any item.
public struct XMLStartInfo {
    /// Local name.
    public var name: String
    public var namespaceURI: String?
    /// The root is depth 1.
    public var depth: Int
    public var position: XMLPosition
}

/// An element or attribute name to look for in a streamed item. Usually a string literal (looked
/// up by the address of its text, so matching costs a pointer comparison); `XMLName(someString)`
/// for a name known only at run time (looked up once per parse and remembered).
public struct XMLName: ExpressibleByStringLiteral, CustomStringConvertible {
    @usableFromInline
    final class Box {
        @usableFromInline let name: String
        /// The parse `id` belongs to (held, so no later parse can have its address).
        @usableFromInline var parse: XMLParseIdentity?
        @usableFromInline var id = -1
        @usableFromInline var nameCount = -1

        init(_ name: String) { self.name = name }
    }

    @usableFromInline
    enum Storage {
        case literal(StaticString)
        case string(Box)
    }

    @usableFromInline let storage: Storage

    @inlinable init(storage: Storage) { self.storage = storage }

    @inlinable public init(stringLiteral value: StaticString) { storage = .literal(value) }

    public init(_ name: String) { storage = .string(Box(name)) }

    public var description: String {
        switch storage {
        case .literal(let text): return text.description
        case .string(let box): return box.name
        }
    }
}

/// Whether every byte is XML white space (space, tab, line feed, carriage return): eight bytes at
/// a time, since most runs the reader asks about are a line break and an indentation.
@inlinable @inline(__always)
func isAllXMLSpace(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
    guard var p = run.baseAddress else { return true }
    var left = run.count
    // A byte's high bit is set where the byte of `x` is zero (exact: no borrow between bytes).
    @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 {
        ~(((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x | 0x7F7F_7F7F_7F7F_7F7F)
    }
    while left >= 8 {
        let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        let spaces = zeroBytes(word ^ 0x2020_2020_2020_2020) | zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A)
            | zeroBytes(word ^ 0x0909_0909_0909_0909) | zeroBytes(word ^ 0x0D0D_0D0D_0D0D_0D0D)
        guard spaces == 0x8080_8080_8080_8080 else { return false }
        p += 8
        left -= 8
    }
    while left > 0 {
        let byte = p.pointee
        guard byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D else { return false }
        p += 1
        left -= 1
    }
    return true
}

