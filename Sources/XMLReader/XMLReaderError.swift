/// Why the reader refused a document. Every error carries the position where it stopped.
public struct XMLReaderError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Not well-formed XML (libxml2's own diagnosis; `libxml2Code` holds its error code).
        case malformed
        /// An entity declaration (internal subset): refused so entity expansion attacks cannot run.
        case entityDeclaration
        /// Deeper than `XMLReaderLimits.maxDepth`.
        case tooDeep
        /// An element's text or an attribute value longer than `XMLReaderLimits.maxTextBytes`.
        case textTooLong
        /// A start tag longer than `XMLReaderLimits.maxStartTagBytes`.
        case startTagTooLong
        /// More elements than `XMLReaderLimits.maxElements`.
        case tooManyElements
        /// Larger than `XMLReaderLimits.maxInputBytes`.
        case inputTooLarge
        /// No bytes at all.
        case empty
        /// The file could not be opened or read.
        case unreadable
        /// A streaming handler asked to stop.
        case stopped
    }

    public var kind: Kind
    /// What went wrong, one sentence, no trailing newline.
    public var message: String
    /// Where it went wrong (line 0 when there is no position, e.g. an unreadable file).
    public var position: XMLPosition
    /// The file, when reading from a path.
    public var file: String?
    /// libxml2's `xmlParserErrors` code, for `.malformed`.
    public var libxml2Code: Int32?
    /// The system's error number (`errno`), for `.unreadable`.
    public var systemError: Int32?

    public init(
        kind: Kind, message: String, position: XMLPosition, file: String? = nil,
        libxml2Code: Int32? = nil, systemError: Int32? = nil
    ) {
        self.kind = kind
        self.message = message
        self.position = position
        self.file = file
        self.libxml2Code = libxml2Code
        self.systemError = systemError
    }

    /// Whether the system refused the read with `EPERM` (not `EACCES`): what a sandbox answers,
    /// such as the one Xcode 15 and later put Run Script build phases in.
    public var isSandboxDenial: Bool { kind == .unreadable && systemError.map(SystemError.isNotPermitted) == true }

    public var description: String {
        var location = file ?? "<xml>"
        if position.line > 0 { location += ":\(position)" }
        return "\(location): \(message)"
    }
}
