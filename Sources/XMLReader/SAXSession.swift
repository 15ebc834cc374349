#if canImport(CLibXML2)
internal import CLibXML2  // Linux: the system library target (Package.swift)
#elseif canImport(libxml2)
internal import libxml2  // Apple platforms: the SDK's own module map
#else
#error("libxml2 not found: on Linux install libxml2-dev and pkg-config; on a Mac, Xcode or the Command Line Tools")
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One parse: owns the libxml2 parser context and builds the node tree from SAX2 events.
///
/// The session hangs itself on `ctxt->_private` and passes no `user_data`, so libxml2 hands every
/// callback the parser context (its default handlers assume that, and crash otherwise).
final class SAXSession {
    private struct Frame {
        var name: String
        var prefix: String?
        var namespaceURI: String?
        var attributes: [XMLAttribute]
        var children: [XMLNode] = []
        var text: [UInt8] = []
        /// The start tag (its end is where the content starts).
        var position: XMLPosition
        /// How many pieces the text came in, and whether markup the text does not show was among
        /// it: a CDATA section's markers, a comment, a processing instruction (see ``TextSpan``).
        var textPieces = 0
        var hasMarkup = false
        /// Scan mode: an item was streamed out of this element, so it has children even though
        /// `children` does not hold them (white space between them is not text).
        var hadItems = false
        /// Nodes below this element held in `children` and their children.
        var descendants = 0

        var hasChildren: Bool { hadItems || !children.isEmpty }
    }

    let file: String?
    let limits: XMLReaderLimits
    let itemDepth: Int?
    let handler: ((XMLNode, [String]) throws -> Void)?
    /// Scan mode: decides which elements (outside items) start an item, and tags it...
    let select: ((XMLStartInfo) -> Int?)?
    /// ...and receives each item when it ends, as a view into `arena`, here...
    let itemHandler: ((XMLElementView) throws -> Void)?
    /// ...or on a thread of its own.
    private let pipeline: ItemPipeline?
    private let parse = XMLParseIdentity()
    /// Scan mode: the current item's elements. The hot callbacks reach it through `arenaRef`
    /// without retaining it (a strong `var` would be retained and released around every use);
    /// `arenaOwner` keeps it alive.
    private var arena: XMLItemArena {
        get { arenaOwner }
        set {
            arenaOwner = newValue
            arenaRef = Unmanaged.passUnretained(newValue)
        }
    }
    @exclusivity(unchecked) private var arenaOwner: XMLItemArena
    @exclusivity(unchecked) private var arenaRef: Unmanaged<XMLItemArena>
    /// Every name of the parse (ids index it): each arena gets a copy before its item is handled.
    @exclusivity(unchecked) private var names: [String] = []
    @exclusivity(unchecked) private var idsByName: [String: Int] = [:]
    /// Scan mode: depth inside the current item (0: outside any item).
    @exclusivity(unchecked) private var itemLevel = 0
    /// Scan mode: the innermost open item element has a child (its record's `firstChild >= 0`),
    /// so white space now is indentation between children, which is not text. Kept here so that
    /// the commonest character event, that indentation, is dropped without touching the arena.
    @exclusivity(unchecked) private var innermostHasChild = false
    /// Scan mode: indexes of the open item elements, innermost last (`itemLevel` of them). A
    /// plain buffer, as are the name cache's: an array checked its uniqueness on every write,
    /// three times an element.
    @exclusivity(unchecked) private var openItemElements: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var openItemCapacity = 64

    @exclusivity(unchecked) private var stack: [Frame] = []
    @exclusivity(unchecked) private var root: XMLNode?
    @exclusivity(unchecked) private var elementCount = 0
    /// Nodes held in the tree now (items handed to a stream handler are let go).
    @exclusivity(unchecked) private var heldNodes = 0
    private var error: XMLReaderError? {
        didSet { failed = error != nil }
    }
    /// Mirrors `error != nil` cheaply: checked on every SAX event.
    @exclusivity(unchecked) private var failed = false
    private(set) var handlerError: (any Error)?
    /// libxml2 interns names for the whole parse: decode each one once (ids index `names`).
    @exclusivity(unchecked) private var nameIDs: [UnsafeRawPointer: Int] = [:]
    /// A direct-mapped cache in front of `nameIDs` (most lookups hit it without hashing): 256
    /// slots of a name's address and its id.
    private let recentNames: UnsafeMutablePointer<(key: UnsafeRawPointer?, id: Int)>
    /// By name id: the name's length in bytes when it is ASCII, -1 otherwise (a tag of ASCII names
    /// without attributes is then found by its length, without scanning for its `<`).
    @exclusivity(unchecked) private(set) var asciiNameLengths: [Int] = []
    @exclusivity(unchecked) var context: xmlParserCtxtPtr?
    /// Bytes handed to libxml2 since it last reported anything: what it has read of one
    /// construct (a start tag, a comment) with no event to check it at.
    @exclusivity(unchecked) private var bytesSinceEvent = 0
    /// What libxml2 reads the document from, and how much it has read.
    private var source = InputSource.none
    @exclusivity(unchecked) private var bytesRead = 0
    /// The part of the file's read buffer not yet handed to libxml2.
    @exclusivity(unchecked) private var bufferedStart = 0
    @exclusivity(unchecked) private var bufferedEnd = 0

    /// Tree or stream mode (`itemDepth` and `handler`: each element at that depth is handed over).
    convenience init(
        file: String?, limits: XMLReaderLimits, itemDepth: Int?,
        handler: ((XMLNode, [String]) throws -> Void)?
    ) {
        self.init(file: file, limits: limits, itemDepth: itemDepth, handler: handler, select: nil, itemHandler: nil, parallel: nil)
    }

    /// Scan mode: elements for which `select` says yes are items, built in `arena` and handed to
    /// `itemHandler` when they end; everything else is the returned tree.
    convenience init(
        file: String?, limits: XMLReaderLimits, select: @escaping (XMLStartInfo) -> Int?,
        itemHandler: @escaping (XMLElementView) throws -> Void
    ) {
        self.init(file: file, limits: limits, itemDepth: nil, handler: nil, select: select, itemHandler: itemHandler, parallel: nil)
    }

    /// Scan mode with the items handled on a thread of their own (``ItemPipeline``); `around`
    /// runs that thread's loop. ``run(path:)`` and ``run(bytes:)`` return once every item is handled.
    convenience init(
        file: String?, limits: XMLReaderLimits, select: @escaping (XMLStartInfo) -> Int?,
        parallelHandler: @escaping (XMLElementView) -> Void, around: @escaping (() -> Void) -> Void
    ) {
        self.init(
            file: file, limits: limits, itemDepth: nil, handler: nil, select: select, itemHandler: nil,
            parallel: (parallelHandler, around))
    }

    private init(
        file: String?, limits: XMLReaderLimits, itemDepth: Int?, handler: ((XMLNode, [String]) throws -> Void)?,
        select: ((XMLStartInfo) -> Int?)?, itemHandler: ((XMLElementView) throws -> Void)?,
        parallel: (handler: (XMLElementView) -> Void, around: (() -> Void) -> Void)?
    ) {
        self.file = file
        self.limits = limits
        self.itemDepth = itemDepth
        self.handler = handler
        self.select = select
        self.itemHandler = itemHandler
        let parse = parse
        pipeline = parallel.map { ItemPipeline(parse: parse, handler: $0.handler, around: $0.around) }
        let first = XMLItemArena(parse: parse)
        arenaOwner = first
        arenaRef = Unmanaged.passUnretained(first)
        openItemElements = .allocate(capacity: openItemCapacity)
        recentNames = .allocate(capacity: 256)
        recentNames.initialize(repeating: (nil, 0), count: 256)
    }

    // MARK: Driving the parser

    func run(bytes: UnsafeRawBufferPointer) throws(XMLReaderError) -> XMLNode {
        defer { pipeline?.finish() }
        return try withLibxml2Quiet { () throws(XMLReaderError) in try parse(bytes: bytes) }
    }

    func run(path: String) throws(XMLReaderError) -> XMLNode {
        defer { pipeline?.finish() }
        return try withLibxml2Quiet { () throws(XMLReaderError) in try parse(path: path) }
    }

    /// Runs `body` with libxml2's thread-wide error channels silenced, then puts the caller's
    /// back. Errors raised without a parser context (encoding conversion, I/O: "encoding error :
    /// input conversion failed", "I/O error : encoder error") skip the context's `serror` and go
    /// to the structured handler, and libxml2 prints some straight to the generic one;
    /// both would reach stderr. The context's own error, which the reader reports, still arrives
    /// through `serror`. The generic handler is variadic (Swift cannot define one), so the
    /// default handler is kept and given /dev/null as the stream it prints to.
    private func withLibxml2Quiet<T>(_ body: () throws(XMLReaderError) -> T) throws(XMLReaderError) -> T {
        _ = libxml2Initialized
        let savedStructured = __xmlStructuredError()?.pointee
        let savedStructuredContext = __xmlStructuredErrorContext()?.pointee
        let savedGeneric = __xmlGenericError()?.pointee
        let savedGenericContext = __xmlGenericErrorContext()?.pointee
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        if let devNull = libxml2ErrorSink { xmlSetGenericErrorFunc(devNull, nil) }
        defer {
            xmlSetStructuredErrorFunc(savedStructuredContext ?? nil, savedStructured ?? nil)
            if libxml2ErrorSink != nil { xmlSetGenericErrorFunc(savedGenericContext ?? nil, savedGeneric ?? nil) }
        }
        return try body()
    }

    private func parse(bytes: UnsafeRawBufferPointer) throws(XMLReaderError) -> XMLNode {
        guard bytes.count > 0 else { throw emptyError() }
        guard bytes.count <= limits.maxInputBytes else { throw tooLarge() }
        source = .bytes(bytes)
        defer { source = .none }
        return try parseFromSource()
    }

    private func parse(path: String) throws(XMLReaderError) -> XMLNode {
        let fd = try openRegularFile(path)
        defer { close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(limits.chunkSize, 4096), alignment: 1)
        defer { buffer.deallocate() }
        source = .file(fd, path, buffer)
        defer { source = .none }
        return try parseFromSource()
    }

    /// libxml2's pull parser reads the document through ``readInput(into:capacity:)``: it does
    /// less work than the push parser, which checks for the end of every construct in its buffer
    /// before parsing it.
    private func parseFromSource() throws(XMLReaderError) -> XMLNode {
        _ = libxml2Initialized
        var handler = makeSAXHandler()
        let ctxt = xmlCreateIOParserCtxt(
            &handler, nil, { ioContext, buffer, length in
                guard let ioContext, let buffer else { return -1 }
                let session = Unmanaged<SAXSession>.fromOpaque(ioContext).takeUnretainedValue()
                return session.readInput(into: UnsafeMutableRawPointer(buffer), capacity: Int(length))
            }, { _ in 0 }, Unmanaged.passUnretained(self).toOpaque(), XML_CHAR_ENCODING_NONE)
        guard let ctxt else {
            throw XMLReaderError(
                kind: .malformed, message: "libxml2 could not create a parser",
                position: XMLPosition(line: 1, column: 1), file: file)
        }
        // NONET only: never NOENT (substitutes and loads entities), DTDLOAD, HUGE or RECOVER.
        xmlCtxtUseOptions(ctxt, Int32(XML_PARSE_NONET.rawValue))
        ctxt.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        context = ctxt
        defer { release() }
        xmlParseDocument(ctxt)
        // Nothing to read is our error, not libxml2's "Document is empty".
        if bytesRead == 0, error == nil || error?.kind == .malformed { throw emptyError() }
        if let error { throw error }
        if ctxt.pointee.wellFormed == 0 { recordLastError(code: 1) }
        if let error { throw error }
        guard let root else {
            throw XMLReaderError(
                kind: .malformed, message: "the document has no root element",
                position: currentPosition(), file: file)
        }
        return root
    }

    /// Hands libxml2 up to `capacity` more bytes of the document; 0 at its end, or once the parse
    /// has failed (a failure found here is recorded, and libxml2 sees the input end: stopping the
    /// parser from inside its read would let it resume at its buffer's start).
    fileprivate func readInput(into destination: UnsafeMutableRawPointer, capacity: Int) -> Int32 {
        guard !failed, capacity > 0 else { return 0 }
        // libxml2 asks for more while it reads one construct: one that has gone on too long
        // without an event is refused before libxml2 takes in more of it.
        if bytesSinceEvent > limits.maxStartTagBytes, let tag = unfinishedStartTag(), tag.length > limits.maxStartTagBytes {
            error = XMLReaderError(
                kind: .startTagTooLong,
                message: "the start tag `<\(tag.name)` is longer than \(limits.maxStartTagBytes) bytes (its attributes would take libxml2 quadratic time)",
                position: tag.position, file: file)
            return 0
        }
        if bytesSinceEvent > 2 * limits.maxTextBytes + limits.chunkSize {
            let open = innermostOpenElement()
            let element = open.map { "`\($0.name)`" } ?? "the document"
            error = XMLReaderError(
                kind: .textTooLong,
                message: "more than \(limits.maxTextBytes) bytes of text or markup without an element boundary in \(element)",
                position: open.map { XMLPosition(line: $0.position.line, column: $0.position.column) } ?? currentPosition(), file: file)
            return 0
        }
        var count = 0
        switch source {
        case .none:
            return 0
        case .bytes(let bytes):
            count = min(capacity, bytes.count - bytesRead)
            if count > 0 { destination.copyMemory(from: bytes.baseAddress! + bytesRead, byteCount: count) }
        case .file(let fd, let path, let buffer):
            if bufferedStart == bufferedEnd {
                var n = read(fd, buffer.baseAddress, buffer.count)
                while n < 0, errno == EINTR { n = read(fd, buffer.baseAddress, buffer.count) }
                if n < 0 {
                    error = unreadable(path)
                    return 0
                }
                bufferedStart = 0
                bufferedEnd = n
            }
            count = min(capacity, bufferedEnd - bufferedStart)
            if count > 0 { destination.copyMemory(from: buffer.baseAddress! + bufferedStart, byteCount: count) }
            bufferedStart += count
        }
        bytesRead += count
        if bytesRead > limits.maxInputBytes {
            error = tooLarge()
            return 0
        }
        bytesSinceEvent += count
        return Int32(count)
    }

    /// The start tag libxml2 is in the middle of, if it is: the last `<` before its cursor opens
    /// a name (an attribute value holds no `<`), no `>` outside quotes follows it, and libxml2 is
    /// not inside a comment, processing instruction or CDATA section (which may hold both). libxml2
    /// keeps a start tag in its buffer until the tag ends. Looks back at most a little more than
    /// the longest allowed tag: it is asked every few KB while libxml2 reads a long construct, so
    /// a longer tag was caught when its length first passed the limit.
    private func unfinishedStartTag() -> (name: String, length: Int, position: XMLPosition)? {
        guard let context, let input = context.pointee.input, let cursor = input.pointee.cur, let start = input.pointee.base
        else { return nil }
        // This runs inside libxml2's read callback, which libxml2 calls after growing its buffer
        // (which may move it) and before pointing `base` and `cur` into the moved buffer again:
        // they may point at freed memory. The buffer's own content is current, and the cursor's
        // offset into it is the same.
        var base = start
        if let buffer = input.pointee.buf?.pointee.buffer, let content = xmlBufContent(buffer) {
            base = UnsafePointer(content)
        }
        let cur = base + (cursor - start)
        let state = context.pointee.instate
        guard state != XML_PARSER_COMMENT, state != XML_PARSER_PI, state != XML_PARSER_CDATA_SECTION else { return nil }
        let floor = max(base, cur - (limits.maxStartTagBytes + 64 * 1024))
        var lessThan = cur - 1
        while lessThan >= floor, lessThan.pointee != UInt8(ascii: "<") { lessThan -= 1 }
        guard lessThan >= floor, lessThan + 1 < cur else { return nil }
        let next = lessThan[1]
        let startsName = (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z")
            || next == UInt8(ascii: "_") || next == UInt8(ascii: ":") || next >= 0x80
        guard startsName else { return nil }
        var quote: UInt8 = 0
        var p = lessThan + 1
        var nameEnd: UnsafePointer<UInt8>?
        while p < cur {
            let byte = p.pointee
            if nameEnd == nil, " \t\n\r/>".utf8.contains(byte) { nameEnd = p }
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return nil
            }
            p += 1
        }
        let nameBytes = UnsafeBufferPointer(start: lessThan + 1, count: min((nameEnd ?? cur) - (lessThan + 1), 64))
        // Where the `<` is: libxml2's line and column are its cursor's.
        var breaks = 0
        var characters = 0
        for byte in UnsafeBufferPointer(start: lessThan, count: cur - lessThan) {
            if byte == UInt8(ascii: "\n") { breaks += 1 } else if byte & 0xC0 != 0x80 { characters += 1 }
        }
        var column = Int(input.pointee.col) - characters
        if breaks > 0 {
            // The cursor is on a later line: count the `<`'s column along its own line.
            var lineStart = lessThan
            while lineStart > base, (lineStart - 1).pointee != UInt8(ascii: "\n") { lineStart -= 1 }
            // Unknown (0) when the line starts before what libxml2 still holds of the document.
            column = lineStart == base && input.pointee.consumed > 0 ? 0 : 1
                + UnsafeBufferPointer(start: lineStart, count: lessThan - lineStart).reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
        }
        let position = XMLPosition(line: Int(input.pointee.line) - breaks, column: max(column, 0))
        return (String(decoding: nameBytes, as: UTF8.self), cur - lessThan, position)
    }

    private func release() {
        guard let context else { return }
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(context)
        self.context = nil
    }

    deinit {
        release()
        recentNames.deallocate()
        openItemElements.deallocate()
    }

    // MARK: Errors

    private func fail(_ kind: XMLReaderError.Kind, _ message: String, at position: XMLPosition? = nil) {
        if !failed {
            // An error is a point: where the element it is about starts, or where libxml2 is.
            let at = position ?? currentPosition()
            error = XMLReaderError(kind: kind, message: message, position: XMLPosition(line: at.line, column: at.column), file: file)
        }
        stopContext()
    }

    private func stopContext() {
        if let context { xmlStopParser(context) }
    }

    /// Where libxml2 is now (for errors that are ours, not libxml2's).
    func currentPosition() -> XMLPosition {
        guard let input = context?.pointee.input else { return XMLPosition(line: 1, column: 1) }
        return XMLPosition(line: Int(input.pointee.line), column: Int(input.pointee.col))
    }

    fileprivate func libxml2Error(_ raw: UnsafePointer<xmlError>) {
        let e = raw.pointee
        guard e.level.rawValue >= XML_ERR_ERROR.rawValue, !failed else { return }
        var message = e.message.map { String(cString: $0) } ?? "libxml2 error \(e.code)"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        error = XMLReaderError(
            kind: .malformed, message: message,
            position: XMLPosition(line: Int(e.line), column: Int(e.int2)), file: file,
            libxml2Code: e.code)
    }

    private func recordLastError(code: Int32) {
        if let context, let last = xmlCtxtGetLastError(context), last.pointee.code != 0 {
            libxml2Error(last)
        }
        if !failed {
            error = XMLReaderError(
                kind: .malformed, message: "the document is not well-formed (libxml2 error \(code))",
                position: currentPosition(), file: file, libxml2Code: code)
        }
    }

    private func emptyError() -> XMLReaderError {
        XMLReaderError(
            kind: .empty, message: "the document is empty; expected an XML document starting with `<`",
            position: XMLPosition(line: 1, column: 1), file: file)
    }

    private func tooLarge() -> XMLReaderError {
        XMLReaderError(
            kind: .inputTooLarge, message: "the document is larger than the limit of \(limits.maxInputBytes) bytes",
            position: XMLPosition(line: 0, column: 0), file: file)
    }

    // MARK: SAX events

    private func name(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        return names[nameID(pointer)]
    }

    /// The id of an interned libxml2 name (-1 for `nil`).
    @inline(__always)
    func nameID(_ pointer: UnsafePointer<xmlChar>?) -> Int {
        guard let pointer else { return -1 }
        let key = UnsafeRawPointer(pointer)
        // A multiplicative hash of the address: libxml2's dictionary packs names side by side,
        // and their low bits alone put a tenth of a catalog's lookups on a taken slot.
        let slot = Int(truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if recentNames[slot].key == key { return recentNames[slot].id }
        let id: Int
        if let known = nameIDs[key] {
            id = known
        } else {
            let name = String(cString: pointer)
            if let known = idsByName[name] {
                id = known
            } else {
                id = names.count
                names.append(name)
                idsByName[name] = id
                asciiNameLengths.append(name.utf8.allSatisfy { $0 < 0x80 } ? name.utf8.count : -1)
            }
            nameIDs[key] = id
        }
        recentNames[slot] = (key, id)
        return id
    }

    fileprivate func startElement(
        localname: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard !failed else { return }
        bytesSinceEvent = 0
        // Each name's id is looked up once: the tag's span and the arena both need them.
        let localID = nameID(localname), prefixID = nameID(prefix)
        let tag = startTagSpan(name: localID, prefix: prefixID, attributeCount: attributeCount)
        let position = tag.position
        guard stack.count + itemLevel < limits.maxDepth else {
            return fail(
                .tooDeep,
                "elements are nested more than \(limits.maxDepth) deep; this reader refuses deeper documents",
                at: position)
        }
        elementCount += 1
        guard elementCount <= limits.maxElements else {
            return fail(.tooManyElements, "the document has more than \(limits.maxElements) elements", at: position)
        }
        // Inside an item first: binding `select` would retain its closure for every element.
        if itemLevel > 0 {
            return startItemElement(
                name: localID, prefix: prefixID, uri: uri, attributeCount: attributeCount, attributes: attributes, tag: tag)
        }
        if let select {
            let info = XMLStartInfo(
                name: name(localname) ?? "", namespaceURI: name(uri), depth: stack.count + 1, position: position)
            if let itemTag = select(info) {
                if let parent = stack.indices.last {
                    // The item is a child of `parent`: indentation before it is not text.
                    if !stack[parent].text.isEmpty, !stack[parent].hasChildren, stack[parent].text.allSatisfy(isXMLSpaceByte) {
                        stack[parent].text.removeAll(keepingCapacity: true)
                    }
                    stack[parent].hadItems = true
                }
                arena.reset()
                arena.itemTag = itemTag
                return startItemElement(
                    name: localID, prefix: prefixID, uri: uri, attributeCount: attributeCount, attributes: attributes, tag: tag)
            }
        }
        var parsedAttributes: [XMLAttribute] = []
        parsedAttributes.reserveCapacity(attributeCount)
        var locator = AttributeLocator(tag, end: context?.pointee.input?.pointee.cur)
        let attributesFit = forEachAttribute(attributeCount, attributes, at: position) { localName, uri, value in
            parsedAttributes.append(
                XMLAttribute(
                    name: name(localName) ?? "", namespaceURI: name(uri), value: String(decoding: value, as: UTF8.self),
                    valuePosition: locator.span(value)))
        }
        guard attributesFit else { return }
        if let parent = stack.indices.last, !stack[parent].text.isEmpty, !stack[parent].hasChildren,
            stack[parent].text.allSatisfy(isXMLSpaceByte)
        {
            stack[parent].text.removeAll(keepingCapacity: true)
        }
        stack.append(
            Frame(
                name: name(localname) ?? "", prefix: name(prefix), namespaceURI: name(uri),
                attributes: parsedAttributes, position: position))
    }

    fileprivate func endElement() {
        bytesSinceEvent = 0
        guard !failed else { return }
        if itemLevel > 0 { return endItemElement() }
        guard let frame = stack.popLast() else { return }
        var rawText = ""
        var textPosition = XMLPosition(line: 0, column: 0)
        if !frame.text.isEmpty {
            let whitespaceOnly = frame.text.allSatisfy(isXMLSpaceByte)
            // Indentation between child elements is not text.
            if !(whitespaceOnly && frame.hasChildren) {
                rawText = String(decoding: frame.text, as: UTF8.self)
            }
            if !whitespaceOnly, !frame.hasChildren {
                textPosition = frame.text.withUnsafeBufferPointer {
                    textSpan($0, tag: frame.position, pieces: frame.textPieces, hasMarkup: frame.hasMarkup)
                }
            }
        }
        let node = XMLNode(
            name: frame.name, prefix: frame.prefix, namespaceURI: frame.namespaceURI,
            attributes: frame.attributes, children: frame.children, rawText: rawText,
            position: frame.position, textPosition: textPosition)
        let depth = stack.count + 1
        if let itemDepth, let handler, depth == itemDepth {
            // Streamed and let go: its nodes no longer count against the tree's bound.
            heldNodes -= frame.descendants
            do {
                try handler(node, stack.map(\.name))
            } catch {
                handlerError = error
                fail(.stopped, "stopped by the item handler: \(error)")
            }
            return
        }
        heldNodes += 1
        guard heldNodes <= limits.maxTreeElements else {
            return fail(
                .tooManyElements,
                "the document keeps more than \(limits.maxTreeElements) elements in memory (outside streamed items); this reader refuses larger trees",
                at: frame.position)
        }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
            stack[stack.count - 1].descendants += 1 + frame.descendants
        }
    }

    fileprivate func characters(_ bytes: UnsafePointer<xmlChar>?, _ length: Int, isCDATA: Bool = false) {
        bytesSinceEvent = 0
        guard !failed, let bytes, length > 0 else { return }
        if itemLevel > 0 {
            let run = UnsafeBufferPointer(start: bytes, count: length)
            // Indentation after a child element is not text: skip it without storing it.
            if innermostHasChild, isAllXMLSpace(run) { return }
            return itemCharacters(run, isCDATA: isCDATA)
        }
        guard !stack.isEmpty else { return }
        let index = stack.count - 1
        let run = UnsafeBufferPointer(start: bytes, count: length)
        // Indentation after a child element is not text: skip it without storing it.
        if stack[index].hasChildren, run.allSatisfy(isXMLSpaceByte) { return }
        guard stack[index].text.count + length <= limits.maxTextBytes else {
            return fail(
                .textTooLong,
                "the text of element `\(stack[index].name)` is longer than \(limits.maxTextBytes) bytes",
                at: stack[index].position)
        }
        stack[index].text.append(contentsOf: run)
        stack[index].textPieces += 1
        if isCDATA { stack[index].hasMarkup = true }
    }

    /// The span of an element's text, now that libxml2 has read its end tag: between the end of
    /// the start tag `tag` and the `<` of the end tag (found by scanning back from libxml2's cursor).
    private func textSpan(_ text: UnsafeBufferPointer<UInt8>, tag: XMLPosition, pieces: Int, hasMarkup: Bool) -> XMLPosition {
        guard tag.hasEnd else { return XMLPosition(line: 0, column: 0) }
        let endTag = tagSpan().position
        return TextSpan.of(
            text, contentStart: XMLPosition(line: tag.endLine, column: tag.endColumn),
            contentEnd: XMLPosition(line: endTag.line, column: endTag.column), pieces: pieces, hasMarkup: hasMarkup)
    }

    fileprivate func madeProgress() { bytesSinceEvent = 0 }

    /// A comment or processing instruction: progress, and markup inside the open element's
    /// content that its text does not show (so the text's own white space no longer says where
    /// the text starts and ends).
    fileprivate func markupInContent() {
        bytesSinceEvent = 0
        guard !failed else { return }
        if itemLevel > 0 {
            arena.elements[openItemElements[itemLevel - 1]].hasMarkup = true
        } else if !stack.isEmpty {
            stack[stack.count - 1].hasMarkup = true
        }
    }

    // MARK: Scan mode: items in the arena

    /// The innermost open element, inside an item or not.
    private func innermostOpenElement() -> (name: String, position: XMLPosition)? {
        if itemLevel > 0 {
            let element = arena.elements[openItemElements[itemLevel - 1]]
            return (names[element.name], element.position)
        }
        return stack.last.map { ($0.name, $0.position) }
    }

    /// Calls `body` with each attribute's local name, namespace URI and value bytes, in document
    /// order. libxml2 hands five pointers per attribute: local name, prefix, URI, value start and
    /// end. Fails the parse and returns `false` at a value over the text limit.
    @inline(__always)
    private func forEachAttribute(
        _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, at position: XMLPosition,
        _ body: (_ localName: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ value: UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        guard count > 0, let attributes else { return true }
        for index in 0..<count {
            let base = attributes + index * 5
            guard let valueStart = base[3], let valueEnd = base[4] else { continue }
            let length = valueEnd - valueStart
            guard length <= limits.maxTextBytes else {
                fail(.textTooLong, "an attribute value is longer than \(limits.maxTextBytes) bytes", at: position)
                return false
            }
            body(base[0], base[2], UnsafeBufferPointer(start: valueStart, count: length))
        }
        return true
    }

    private func startItemElement(
        name: Int, prefix: Int, uri: UnsafePointer<xmlChar>?,
        attributeCount: Int, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        tag: (position: XMLPosition, lessThan: UnsafePointer<UInt8>?, isSimple: Bool)
    ) {
        arenaRef._withUnsafeGuaranteedRef { arena in
            let position = tag.position
            let attributeStart = arena.attributeCount
            var locator = AttributeLocator(tag, end: context?.pointee.input?.pointee.cur)
            let attributesFit = forEachAttribute(attributeCount, attributes, at: position) { localName, uri, value in
                let valuePosition = locator.span(value)
                let start = arena.appendBytes(value.baseAddress!, value.count)
                arena.appendAttribute(
                    XMLItemArena.Attribute(
                        name: nameID(localName), namespaceURI: nameID(uri), valueStart: start, valueCount: value.count,
                        position: valuePosition))
            }
            guard attributesFit else { return }
            let index = arena.elementCount
            let parent = itemLevel > 0 ? openItemElements[itemLevel - 1] : -1
            if parent >= 0 {
                let p = arena.elements + parent
                // Indentation before the first child is not text.
                if p.pointee.textCount > 0, p.pointee.firstChild < 0, arena.isSpaceOnly(p.pointee.textStart, p.pointee.textCount) {
                    if p.pointee.textStart + p.pointee.textCount == arena.byteCount { arena.byteCount = p.pointee.textStart }
                    p.pointee.textCount = 0
                }
                let previous = p.pointee.lastChild
                if previous >= 0 { arena.elements[previous].nextSibling = index } else { p.pointee.firstChild = index }
                p.pointee.lastChild = index
            }
            arena.appendElement(
                XMLItemArena.Element(
                    name: name, prefix: prefix, namespaceURI: nameID(uri), parent: parent,
                    attributeStart: attributeStart, attributeCount: arena.attributeCount - attributeStart,
                    position: position))
            if itemLevel == openItemCapacity { XMLItemArena.grow(&openItemElements, count: itemLevel, capacity: &openItemCapacity) }
            openItemElements[itemLevel] = index
            itemLevel += 1
            innermostHasChild = false
        }
    }

    private func endItemElement() {
        guard itemLevel > 0 else { return }
        itemLevel -= 1
        // The parent, innermost again, has this child.
        innermostHasChild = true
        let index = openItemElements[itemLevel]
        arenaRef._withUnsafeGuaranteedRef { arena in
            let e = arena.elements + index
            // Indentation between child elements is not text.
            if e.pointee.textCount > 0, e.pointee.firstChild >= 0, arena.isSpaceOnly(e.pointee.textStart, e.pointee.textCount) {
                if e.pointee.textStart + e.pointee.textCount == arena.byteCount { arena.byteCount = e.pointee.textStart }
                e.pointee.textCount = 0
            }
            e.pointee.end = arena.elementCount
            // The text's span needs the end tag's place, known only now; the rest of its work
            // is left to whoever asks for it (``XMLElementView/textPosition``).
            if e.pointee.textCount > 0, e.pointee.firstChild < 0, e.pointee.position.hasEnd {
                let endTag = endTagStart(name: e.pointee.name, prefix: e.pointee.prefix)
                e.pointee.contentEndLine = endTag.line
                e.pointee.contentEndColumn = endTag.column
            }
        }
        guard itemLevel == 0 else { return }
        arena.adoptNames(names, idsByName)
        if let pipeline {
            arena = pipeline.handOff(arena)
            return
        }
        guard let itemHandler else { return }
        do {
            try itemHandler(XMLElementView(arena: arena, index: 0))
        } catch {
            handlerError = error
            fail(.stopped, "stopped by the item handler: \(error)")
        }
    }

    private func itemCharacters(_ run: UnsafeBufferPointer<UInt8>, isCDATA: Bool) {
        arenaRef._withUnsafeGuaranteedRef { arena in
            let index = openItemElements[itemLevel - 1]
            let e = arena.elements + index
            // (Indentation after a child element was skipped by the caller.)
            guard e.pointee.textCount + run.count <= limits.maxTextBytes else {
                return fail(
                    .textTooLong,
                    "the text of element `\(names[e.pointee.name])` is longer than \(limits.maxTextBytes) bytes",
                    at: e.pointee.position)
            }
            e.pointee.textPieces += 1
            if isCDATA { e.pointee.hasMarkup = true }
            if e.pointee.textCount == 0 {
                e.pointee.textStart = arena.byteCount
            } else if e.pointee.textStart + e.pointee.textCount != arena.byteCount {
                // Mixed content: the text resumes after a child; keep it in one piece.
                e.pointee.textStart = arena.moveBytesToEnd(e.pointee.textStart, e.pointee.textCount)
            }
            arena.appendBytes(run.baseAddress!, run.count)
            e.pointee.textCount += run.count
        }
    }

    fileprivate func entityDeclaration(_ entityName: UnsafePointer<xmlChar>?) {
        let entity = entityName.map { String(cString: $0) } ?? "?"
        fail(
            .entityDeclaration,
            "the document declares the entity `\(entity)`; entity declarations are refused (they enable entity-expansion and external-entity attacks)")
    }

    fileprivate func unresolvedReference(_ entityName: UnsafePointer<xmlChar>?) {
        let entity = entityName.map { String(cString: $0) } ?? "?"
        fail(
            .malformed,
            "the entity reference `&\(entity);` cannot be resolved; only the predefined entities (&amp; &lt; &gt; &quot; &apos;) and character references are supported")
    }
}

/// Where ``SAXSession`` reads a document from: bytes in memory, or a file through a buffer.
private enum InputSource {
    case none
    case bytes(UnsafeRawBufferPointer)
    case file(Int32, String, UnsafeMutableRawBufferPointer)
}

// MARK: - C callbacks


private let libxml2Initialized: Void = { xmlInitParser() }()

private func session(_ ctx: UnsafeMutableRawPointer?) -> SAXSession? {
    guard let ctx else { return nil }
    let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let opaque = ctxt.pointee._private else { return nil }
    return Unmanaged<SAXSession>.fromOpaque(opaque).takeUnretainedValue()
}

/// Where libxml2's default generic error handler prints while the reader parses (opened once).
nonisolated(unsafe) private let libxml2ErrorSink: UnsafeMutableRawPointer? = fopen("/dev/null", "w").map { UnsafeMutableRawPointer($0) }

/// Calls `body` with the session without retaining it (it outlives every callback of its parse).
@inline(__always)
private func withSession(_ ctx: UnsafeMutableRawPointer?, _ body: (SAXSession) -> Void) {
    guard let ctx else { return }
    let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let opaque = ctxt.pointee._private else { return }
    Unmanaged<SAXSession>.fromOpaque(opaque)._withUnsafeGuaranteedRef(body)
}

/// A zeroed handler with only the callbacks the reader needs: no default handler is left that
/// could load a DTD or an external entity.
private func makeSAXHandler() -> xmlSAXHandler {
    var handler = xmlSAXHandler()
    handler.initialized = UInt32(truncatingIfNeeded: XML_SAX2_MAGIC)
    handler.startElementNs = { ctx, localname, prefix, uri, _, _, attributeCount, _, attributes in
        withSession(ctx) {
            $0.startElement(
                localname: localname, prefix: prefix, uri: uri, attributeCount: Int(attributeCount),
                attributes: attributes)
        }
    }
    handler.endElementNs = { ctx, _, _, _ in withSession(ctx) { $0.endElement() } }
    handler.characters = { ctx, bytes, length in withSession(ctx) { $0.characters(bytes, Int(length)) } }
    handler.cdataBlock = { ctx, bytes, length in withSession(ctx) { $0.characters(bytes, Int(length), isCDATA: true) } }
    // The same function, not an equal one: libxml2 then skips checking whether each run of white
    // space could be ignorable (it never is without a tree).
    handler.ignorableWhitespace = handler.characters
    handler.entityDecl = { ctx, name, _, _, _, _ in session(ctx)?.entityDeclaration(name) }
    handler.unparsedEntityDecl = { ctx, name, _, _, _ in session(ctx)?.entityDeclaration(name) }
    handler.reference = { ctx, name in session(ctx)?.unresolvedReference(name) }
    // Comments and processing instructions are ignored, but they are progress.
    handler.comment = { ctx, _ in session(ctx)?.markupInContent() }
    handler.processingInstruction = { ctx, _, _ in session(ctx)?.markupInContent() }
    handler.serror = { userData, error in
        guard let error else { return }
        session(userData)?.libxml2Error(error)
    }
    return handler
}
