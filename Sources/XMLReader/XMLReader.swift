#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bounds that make hostile input fail fast instead of eating time and memory.
public struct XMLReaderLimits: Sendable {
    /// Deepest element nesting accepted. Real catalogs and property lists are 10–11 deep.
    public var maxDepth: Int = 64
    /// Longest text of one element, or one attribute value, in UTF-8 bytes.
    public var maxTextBytes: Int = 1 << 20
    /// Most elements in one document (streamed items included: they cost no memory once handled).
    public var maxElements: Int = 20_000_000
    /// Most elements held as a tree at once: the whole document when parsing, the part outside
    /// the items when streaming or scanning. A node costs about 190 bytes, so 1,000,000 keep a
    /// tree near 200 MB; a real property list or catalog outside its items has a few thousand.
    public var maxTreeElements: Int = 1_000_000
    /// Largest input in bytes.
    public var maxInputBytes: Int = 1 << 31
    /// How many bytes are read from a file at a time (libxml2 takes them a few KB at a time).
    public var chunkSize: Int = 32 * 1024
    /// Longest start tag (name and attributes) in bytes. libxml2 2.9 checks attributes for
    /// duplicates pairwise, so a tag's cost grows with the square of its attribute count; the
    /// reader refuses a start tag libxml2 is still inside after this many bytes, before handing it
    /// more (at most ~13,000 attributes).
    /// Apple's catalogs and property lists have a few short attributes per element.
    public var maxStartTagBytes: Int = 64 * 1024

    public init(
        maxDepth: Int = 64, maxTextBytes: Int = 1 << 20, maxElements: Int = 20_000_000,
        maxInputBytes: Int = 1 << 31, chunkSize: Int = 32 * 1024, maxStartTagBytes: Int = 64 * 1024,
        maxTreeElements: Int = 1_000_000
    ) {
        self.maxTreeElements = maxTreeElements
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
        self.maxElements = maxElements
        self.maxInputBytes = maxInputBytes
        self.chunkSize = chunkSize
        self.maxStartTagBytes = maxStartTagBytes
    }
}

/// The XML-to-dictionary reader: throw XML at it, get a tree (or the classic dictionary) back.
///
/// Built on libxml2's SAX2 parser, pulling the document through the reader. Safe by default: no network, no DTD loading, no entity
/// declarations (so no entity expansion and no external entities), bounded depth and text.
/// Malformed input always throws an ``XMLReaderError`` with a position; a partial tree is never
/// returned as success.
public enum XMLReader {
    // MARK: Node tree

    /// Parses a whole document and returns its root element.
    public static func parse(
        bytes: UnsafeRawBufferPointer, file: String? = nil, limits: XMLReaderLimits = XMLReaderLimits()
    ) throws(XMLReaderError) -> XMLNode {
        try SAXSession(file: file, limits: limits, itemDepth: nil, handler: nil).run(bytes: bytes)
    }

    public static func parse(
        bytes: [UInt8], file: String? = nil, limits: XMLReaderLimits = XMLReaderLimits()
    ) throws(XMLReaderError) -> XMLNode {
        do {
            return try bytes.withUnsafeBytes { try parse(bytes: $0, file: file, limits: limits) }
        } catch let error as XMLReaderError { throw error } catch { fatalError("unreachable: \(error)") }
    }

    public static func parse(
        string: String, limits: XMLReaderLimits = XMLReaderLimits()
    ) throws(XMLReaderError) -> XMLNode {
        try parse(bytes: Array(string.utf8), limits: limits)
    }

    /// Reads and parses a file in chunks (constant read buffer; the tree is the only growth).
    public static func parse(
        contentsOfFile path: String, limits: XMLReaderLimits = XMLReaderLimits()
    ) throws(XMLReaderError) -> XMLNode {
        try SAXSession(file: path, limits: limits, itemDepth: nil, handler: nil).run(path: path)
    }

    // MARK: Classic dictionary

    /// `dictionaryForXMLString:error:`: the document as `[rootName: {…}]`.
    public static func dictionary(
        forXMLString string: String, options: XMLDictionaryOptions = XMLDictionaryOptions(),
        limits: XMLReaderLimits = XMLReaderLimits()
    ) throws(XMLReaderError) -> XMLValue {
        try parse(string: string, limits: limits).dictionaryValue(options: options)
    }

    /// `dictionaryForXMLData:error:`: the document as `[rootName: {…}]`.
    public static func dictionary(
        forXMLBytes bytes: [UInt8], options: XMLDictionaryOptions = XMLDictionaryOptions(),
        limits: XMLReaderLimits = XMLReaderLimits()
    ) throws(XMLReaderError) -> XMLValue {
        try parse(bytes: bytes, limits: limits).dictionaryValue(options: options)
    }

    // MARK: Streaming

    /// Streams a file: every element at `itemDepth` (the root is depth 1) is handed to `handler`
    /// as a complete subtree, together with the names of its ancestors, and is not kept. Returns the
    /// root with everything except those items, so memory stays flat however many items there are.
    /// An error thrown by `handler` ends the parse and is rethrown unchanged.
    public static func stream(
        contentsOfFile path: String, itemDepth: Int, limits: XMLReaderLimits = XMLReaderLimits(),
        handler: (_ item: XMLNode, _ ancestors: [String]) throws -> Void
    ) throws -> XMLNode {
        try withoutActuallyEscaping(handler) { handler in
            let session = SAXSession(file: path, limits: limits, itemDepth: itemDepth, handler: handler)
            return try run(session, .file(path))
        }
    }

    /// Streams a file item by item without building a node per element: `select` is asked about
    /// every element that starts outside an item (in document order, so it can track where it
    /// is), and each element it accepts is an item, handed to `handler` when it ends as a view
    /// into a reused arena (valid only during that call). Returns the root with everything except
    /// the items. Texts, attributes and positions are exactly what ``parse(contentsOfFile:limits:)``
    /// gives; an element whose children were all items has no text of its own (white space
    /// between items is indentation, as in the tree). The root cannot be an item.
    /// An error thrown by `handler` ends the parse and is rethrown unchanged.
    public static func scan(
        contentsOfFile path: String, limits: XMLReaderLimits = XMLReaderLimits(),
        select: (XMLStartInfo) -> Bool, handler: (XMLElementView) throws -> Void
    ) throws -> XMLNode {
        try withoutActuallyEscaping(select) { select in
            try withoutActuallyEscaping(handler) { handler in
                let session = SAXSession(file: path, limits: limits, select: { select($0) ? 0 : nil }, itemHandler: handler)
                return try run(session, .file(path))
            }
        }
    }

    /// Scans an in-memory document; see ``scan(contentsOfFile:limits:select:handler:)``.
    public static func scan(
        bytes: [UInt8], file: String? = nil, limits: XMLReaderLimits = XMLReaderLimits(),
        select: (XMLStartInfo) -> Bool, handler: (XMLElementView) throws -> Void
    ) throws -> XMLNode {
        try withoutActuallyEscaping(select) { select in
            try withoutActuallyEscaping(handler) { handler in
                let session = SAXSession(file: file, limits: limits, select: { select($0) ? 0 : nil }, itemHandler: handler)
                return try run(session, .bytes(bytes))
            }
        }
    }

    /// ``scan(contentsOfFile:limits:select:handler:)`` with the items handled on a second thread
    /// while the parse reads on: `select` (on the caller's thread) accepts an item by returning
    /// a tag for it (``XMLElementView/itemTag``), and `handler` receives the items in document
    /// order, one at a time, on a thread of its own, inside `around` (which can give that thread
    /// what the caller's has, such as task-local values). Everything `handler` touches must be
    /// its own until this returns; it returns, or throws the parse's error, only after every
    /// item read before the end or the error has been handled.
    public static func scanInParallel(
        contentsOfFile path: String, limits: XMLReaderLimits = XMLReaderLimits(),
        select: (XMLStartInfo) -> Int?, around: (() -> Void) -> Void = { $0() }, handler: (XMLElementView) -> Void
    ) throws -> XMLNode {
        try scanInParallel(.file(path), file: path, limits: limits, select: select, around: around, handler: handler)
    }

    /// Scans an in-memory document; see ``scanInParallel(contentsOfFile:limits:select:around:handler:)``.
    public static func scanInParallel(
        bytes: [UInt8], file: String? = nil, limits: XMLReaderLimits = XMLReaderLimits(),
        select: (XMLStartInfo) -> Int?, around: (() -> Void) -> Void = { $0() }, handler: (XMLElementView) -> Void
    ) throws -> XMLNode {
        try scanInParallel(.bytes(bytes), file: file, limits: limits, select: select, around: around, handler: handler)
    }

    private static func scanInParallel(
        _ source: Source, file: String?, limits: XMLReaderLimits,
        select: (XMLStartInfo) -> Int?, around: (() -> Void) -> Void, handler: (XMLElementView) -> Void
    ) throws -> XMLNode {
        try withoutActuallyEscaping(select) { select in
            try withoutActuallyEscaping(around) { around in
                try withoutActuallyEscaping(handler) { handler in
                    let session = SAXSession(
                        file: file, limits: limits, select: select, parallelHandler: handler, around: around)
                    return try run(session, source)
                }
            }
        }
    }

    private enum Source {
        case file(String)
        case bytes([UInt8])
    }

    /// Runs a streaming session; an error thrown by its handler ends the parse and is rethrown as
    /// it was, not as the reader's "stopped" error.
    private static func run(_ session: SAXSession, _ source: Source) throws -> XMLNode {
        do {
            switch source {
            case .file(let path): return try session.run(path: path)
            case .bytes(let bytes): return try bytes.withUnsafeBytes { buffer throws(XMLReaderError) in try session.run(bytes: buffer) }
            }
        } catch {
            if let handlerError = session.handlerError { throw handlerError }
            throw error
        }
    }

    /// Streams an in-memory document; see ``stream(contentsOfFile:itemDepth:limits:handler:)``.
    public static func stream(
        bytes: [UInt8], file: String? = nil, itemDepth: Int, limits: XMLReaderLimits = XMLReaderLimits(),
        handler: (_ item: XMLNode, _ ancestors: [String]) throws -> Void
    ) throws -> XMLNode {
        try withoutActuallyEscaping(handler) { handler in
            let session = SAXSession(file: file, limits: limits, itemDepth: itemDepth, handler: handler)
            return try run(session, .bytes(bytes))
        }
    }
}

/// Reads a whole file with POSIX calls (no Foundation on the hot path or at start-up).
/// Used by callers that need the bytes themselves (e.g. to hash them); the reader streams.
public func readFileBytes(_ path: String, maxBytes: Int = 1 << 31) throws(XMLReaderError) -> [UInt8] {
    let fd = try openRegularFile(path)
    defer { close(fd) }
    var info = stat()
    let expected = fstat(fd, &info) == 0 ? min(max(Int(info.st_size), 0), maxBytes) : 0
    // Read straight into an array of the size the file has (one byte more, to see whether it grew),
    // not through a large zeroed buffer, whose every page even a small file would fault in.
    var failed = false
    var result = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
        count = 0
        while count < buffer.count {
            let n = read(fd, buffer.baseAddress! + count, buffer.count - count)
            if n < 0 { failed = true }
            if n <= 0 { break }
            count += n
        }
    }
    if failed { throw unreadable(path) }
    // A file that grew since `fstat`: read on, in pieces, until one past the limit (appending lets
    // the array grow geometrically; reserving each piece would copy it once per piece).
    if result.count > expected {
        var piece = [UInt8](repeating: 0, count: 64 * 1024)
        while result.count <= maxBytes {
            let n = piece.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { throw unreadable(path) }
            if n == 0 { break }
            result.append(contentsOf: piece[0..<n])
        }
    }
    if result.count > maxBytes {
        throw XMLReaderError(
            kind: .inputTooLarge, message: "the file is larger than \(maxBytes) bytes",
            position: XMLPosition(line: 0, column: 0), file: path)
    }
    return result
}

/// Opens `path` for reading without blocking (a FIFO with no writer would wait forever), and only
/// if it is a regular file: a FIFO, a device (`/dev/stdin`, `/dev/zero`) or a socket is refused.
/// A NUL in the path is refused too (the C call would see a shorter path).
func openRegularFile(_ path: String) throws(XMLReaderError) -> Int32 {
    guard !path.utf8.contains(0) else {
        throw XMLReaderError(kind: .unreadable, message: "cannot read the file: the path contains a NUL character",
                             position: XMLPosition(line: 0, column: 0), file: path)
    }
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else { throw unreadable(path) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
        let error = unreadable(path)
        close(fd)
        throw error
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
        close(fd)
        throw XMLReaderError(
            kind: .unreadable, message: "cannot read the file: it is \(describeFileType(info.st_mode)), not a regular file",
            position: XMLPosition(line: 0, column: 0), file: path)
    }
    return fd
}

/// What a file that is not a regular one is, for messages ("a named pipe (FIFO)").
public func describeFileType(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: return "a folder"
    case S_IFIFO: return "a named pipe (FIFO)"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "not a file"
    }
}

func unreadable(_ path: String) -> XMLReaderError {
    let code = errno
    return XMLReaderError(
        kind: .unreadable, message: "cannot read the file: \(SystemError.describe(code))",
        position: XMLPosition(line: 0, column: 0), file: path, systemError: code)
}

/// System error numbers in words of our own. `strerror` and Foundation's `localizedDescription`
/// word errors differently on glibc and Darwin, and these words reach users and golden files.
public enum SystemError {
    public static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or folder"
        case EACCES: return "permission denied"
        case EPERM: return "operation not permitted"
        case EISDIR: return "it is a folder, not a file"
        case ENOTDIR: return "a part of the path is not a folder"
        case ELOOP: return "too many levels of symbolic links"
        case ENAMETOOLONG: return "the path is too long"
        case EMFILE, ENFILE: return "too many open files"
        case EIO: return "input/output error"
        case ENOSPC: return "no space left on the device"
        case EROFS: return "the file system is read-only"
        case EEXIST: return "it already exists"
        case EXDEV: return "it is on another device"
        case EBUSY: return "the file is busy"
        default: return "system error \(code)"
        }
    }

    /// `EPERM`: a sandbox (Xcode's for Run Script phases) or macOS privacy protection, not the
    /// file's mode bits, which answer `EACCES`.
    public static func isNotPermitted(_ code: Int32) -> Bool { code == EPERM }

    /// The system error number of the last failed call.
    public static var current: Int32 { errno }
}
