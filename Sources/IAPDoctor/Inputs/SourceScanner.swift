import Foundation

/// A product ID the app's code hands to StoreKit, where its string literal is written.
public struct RequestedProductID: Sendable, Hashable {
    /// Exactly as written (whitespace and case kept; escapes decoded).
    public var id: String
    /// The literal's first character: Swift's opening `"` (the first `#` of a raw string), the `@` of
    /// an Objective-C string. For an enum case without a raw value, the case's name.
    public var location: SourceLocation
    /// The StoreKit entry point, e.g. `Product.products(for:)` or `-initWithProductIdentifiers:`.
    public var api: String
    /// The constant or enum case the literal reached the call through (`StoreIDs.pro`,
    /// `ProductID.gold`, `kPro`); nil when the literal is written in the call itself.
    public var viaConstant: String?

    public init(id: String, location: SourceLocation, api: String, viaConstant: String? = nil) {
        self.id = id
        self.location = location
        self.api = api
        self.viaConstant = viaConstant
    }
}

/// What a scan of Swift and Objective-C sources found.
public struct SourceScan: Sendable {
    /// Sorted by the literal's location (files by path, then line and column).
    public var requests: [RequestedProductID]
    /// `SKProductsRequest`, `SKPayment`, `SKMutablePayment` or `SKPaymentQueue` appears in code.
    public var usesStoreKit1: Bool
    /// `Product.products(for:)`, a purchase of a fetched `Product`, or `Product.PurchaseResult` /
    /// `Product.PurchaseOption` appears in code.
    public var usesStoreKit2: Bool
    public var filesScanned: Int
    /// Files that could not be read, symbolic link loops, oversized files. Never fatal.
    public var problems: [String]

    public init(requests: [RequestedProductID] = [], usesStoreKit1: Bool = false, usesStoreKit2: Bool = false,
                filesScanned: Int = 0, problems: [String] = []) {
        self.requests = requests
        self.usesStoreKit1 = usesStoreKit1
        self.usesStoreKit2 = usesStoreKit2
        self.filesScanned = filesScanned
        self.problems = problems
    }
}

/// Finds the product IDs that Swift and Objective-C code passes to StoreKit. Each file is tokenized
/// once (comments, escapes, multi-line and raw strings understood) and summarized into its
/// constants, string enums and StoreKit call sites; the call sites are then resolved against the
/// constants of every scanned file, so an ID defined in `StoreIDs.swift` and requested in
/// `Store.swift` is found and reported where its literal is written.
public enum SourceScanner {
    /// Build products, dependencies and project bundles: not the app's own code.
    static let skippedFolders: Set<String> = [".build", "build", "DerivedData", "Pods", "Carthage", "node_modules", ".git"]
    static let skippedFolderExtensions: Set<String> = ["xcodeproj", "xcworkspace"]
    /// Larger files are generated or vendored; reading them would only slow the scan down.
    static let maxFileBytes = 4 << 20

    /// Scans files and folders; relative paths are resolved against `baseDirectory` and findings
    /// keep that joined path.
    public static func scan(paths: [String], baseDirectory: String) -> SourceScan {
        var walk = FolderWalk()
        for path in paths {
            var resolved = FileSystem.resolve(path, relativeTo: baseDirectory)
            if path == "." { resolved = baseDirectory.isEmpty ? "." : baseDirectory }
            while resolved.count > 1 && resolved.hasSuffix("/") { resolved.removeLast() }
            walk.visit(root: resolved)
        }
        var problems = walk.problems
        var summaries: [FileSummary] = []
        // Sorted so that the order of `paths` cannot change which of two same-named constants wins.
        for file in walk.files.sorted(by: { $0.path < $1.path }) {
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readBytes(file.path, maxBytes: maxFileBytes)
            } catch {
                problems.append(error.message)
                continue
            }
            summaries.append(summarize(bytes: bytes, file: file.path, language: file.language))
        }
        var scan = resolve(summaries)
        scan.problems = problems
        return scan
    }

    /// Scans one file's text; the language comes from the file's extension.
    public static func scan(source: String, file: String) -> SourceScan {
        guard let language = language(ofFile: file) else {
            return SourceScan(problems: ["skipped `\(file)`: not a Swift or Objective-C file (.swift, .m, .mm, .h)"])
        }
        return resolve([summarize(bytes: Array(source.utf8), file: file, language: language)])
    }
}

// MARK: - Files and folders

extension SourceScanner {
    enum Language: Sendable { case swift, objectiveC }

    static func language(ofFile path: String) -> Language? {
        switch fileExtension(path).lowercased() {
        case "swift": return .swift
        case "m", "mm", "h": return .objectiveC
        default: return nil
        }
    }

    static func fileExtension(_ path: String) -> Substring {
        let name = path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...]
    }

    /// Collects source files in a deterministic order (entries sorted by name), following symbolic
    /// links but entering each real folder once, so a link back to an ancestor cannot loop.
    struct FolderWalk {
        struct File { var path: String; var language: Language }
        var files: [File] = []
        var problems: [String] = []
        var visitedRealPaths: Set<String> = []

        mutating func visit(root path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                problems.append("cannot read `\(path)`: no such file or folder")
                return
            }
            let real = realPath(path)
            if isDirectoryMode(info.st_mode) {
                guard visitedRealPaths.insert(real).inserted else { return }
                walk(folder: path, ancestors: [real])
            } else if let language = SourceScanner.language(ofFile: path) {
                addFile(path, real: real, size: Int(info.st_size), language: language)
            } else {
                problems.append("skipped `\(path)`: not a Swift or Objective-C file (.swift, .m, .mm, .h)")
            }
        }

        mutating func walk(folder: String, ancestors: [String]) {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                problems.append("cannot list `\(folder)`: \(FileSystem.describeFileError(error))")
                return
            }
            for name in names {
                let path = folder == "." ? name : (folder == "/" ? "/" + name : folder + "/" + name)
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                if isSymbolicLinkMode(info.st_mode), stat(path, &info) != 0 {
                    problems.append("skipped `\(path)`: broken symbolic link")
                    continue
                }
                if isDirectoryMode(info.st_mode) {
                    if FileSystem.name(name, isIn: SourceScanner.skippedFolders)
                        || FileSystem.name(SourceScanner.fileExtension(name), isIn: SourceScanner.skippedFolderExtensions) {
                        continue
                    }
                    let real = realPath(path)
                    if ancestors.contains(real) {
                        problems.append("skipped `\(path)`: symbolic link loop (it leads back to `\(real)`)")
                        continue
                    }
                    // Already walked through another link: scanning it twice would double every finding.
                    guard visitedRealPaths.insert(real).inserted else { continue }
                    walk(folder: path, ancestors: ancestors + [real])
                } else if isRegularMode(info.st_mode), let language = SourceScanner.language(ofFile: name) {
                    addFile(path, real: realPath(path), size: Int(info.st_size), language: language)
                }
            }
        }

        mutating func addFile(_ path: String, real: String, size: Int, language: Language) {
            guard visitedRealPaths.insert(real).inserted else { return }
            if size > SourceScanner.maxFileBytes {
                problems.append("skipped `\(path)`: larger than \(SourceScanner.maxFileBytes >> 20) MiB")
                return
            }
            files.append(File(path: path, language: language))
        }

        func realPath(_ path: String) -> String {
            guard let resolved = realpath(path, nil) else { return path }
            defer { free(resolved) }
            return String(cString: resolved)
        }

        func isDirectoryMode(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFDIR }
        func isRegularMode(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFREG }
        func isSymbolicLinkMode(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFLNK }
    }
}

// MARK: - Tokens

extension SourceScanner {
    enum TokenKind: UInt8 {
        case identifier, string, number, punctuation, operatorRun
        /// An Objective-C preprocessor directive kept for its tokens (`#define`).
        case directive
    }

    /// A token of one file: byte offsets into the file and the 1-based line it starts on.
    struct Token {
        var kind: TokenKind
        var start: Int
        var end: Int
        var line: Int
        /// The number of `#` around a Swift raw string.
        var hashes: Int = 0
        var flags: UInt8 = 0

        static let interpolated: UInt8 = 1
        static let multiline: UInt8 = 2
        static let unterminated: UInt8 = 4
    }

    static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(character.value) }

    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x24 || c >= 0x80
    }

    static func isIdentifierPart(_ c: UInt8) -> Bool { isIdentifierStart(c) || (c >= 0x30 && c <= 0x39) }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    static func isOperatorCharacter(_ c: UInt8) -> Bool {
        switch c {
        case 0x2F, 0x3D, 0x2D, 0x2B, 0x21, 0x2A, 0x25, 0x3C, 0x3E, 0x26, 0x7C, 0x5E, 0x7E, 0x3F: return true  // / = - + ! * % < > & | ^ ~ ?
        default: return false
        }
    }

    /// One pass over the bytes. Comments vanish; strings (with escapes, interpolation, `"""` and
    /// `#"…"#`) become one token each, so nothing inside them can look like code.
    struct Lexer {
        let bytes: UnsafeBufferPointer<UInt8>
        let language: Language
        var position = 0
        var line = 1
        var atLineStart = true
        var tokens: [Token] = []

        init(bytes: UnsafeBufferPointer<UInt8>, language: Language) {
            self.bytes = bytes
            self.language = language
            tokens.reserveCapacity(bytes.count / 5)
        }

        func byte(_ offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }

        mutating func emit(_ kind: TokenKind, from start: Int, line startLine: Int, hashes: Int = 0, flags: UInt8 = 0) {
            tokens.append(Token(kind: kind, start: start, end: position, line: startLine, hashes: hashes, flags: flags))
            atLineStart = false
        }

        mutating func run() {
            let count = bytes.count
            if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
            let swift = language == .swift
            while position < count {
                let c = bytes[position]
                let start = position
                switch c {
                case 0x0A:
                    line += 1
                    position += 1
                    atLineStart = true
                case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
                    position += 1
                case 0x2F where byte(position + 1) == 0x2F:  // //
                    while position < count && bytes[position] != 0x0A { position += 1 }
                case 0x2F where byte(position + 1) == 0x2A:  // /*
                    skipBlockComment(nested: swift)
                case 0x22:  // "
                    let startLine = line
                    let flags = scanStringBody(quoteAt: position, hashes: 0)
                    emit(.string, from: start, line: startLine, flags: flags)
                case 0x40 where !swift && byte(position + 1) == 0x22:  // @"
                    let startLine = line
                    let flags = scanStringBody(quoteAt: position + 1, hashes: 0)
                    emit(.string, from: start, line: startLine, flags: flags)
                case 0x27 where !swift:  // 'c'
                    position += 1
                    while position < count && bytes[position] != 0x27 && bytes[position] != 0x0A {
                        position += bytes[position] == 0x5C ? 2 : 1
                    }
                    if position < count && bytes[position] == 0x27 { position += 1 }
                    position = min(position, count)
                    emit(.number, from: start, line: line)
                case 0x23:  // #
                    if swift { lexSwiftPound() } else { lexObjectiveCPound() }
                case 0x60 where swift:  // `identifier`
                    position += 1
                    while position < count && bytes[position] != 0x60 && bytes[position] != 0x0A { position += 1 }
                    if position < count && bytes[position] == 0x60 { position += 1 }
                    emit(.identifier, from: start, line: line)
                case _ where SourceScanner.isDigit(c):
                    position += 1
                    while position < count {
                        let d = bytes[position]
                        if SourceScanner.isIdentifierPart(d) || (d == 0x2E && SourceScanner.isDigit(byte(position + 1))) {
                            position += 1
                        } else {
                            break
                        }
                    }
                    emit(.number, from: start, line: line)
                case _ where SourceScanner.isIdentifierStart(c):
                    position += 1
                    while position < count && SourceScanner.isIdentifierPart(bytes[position]) { position += 1 }
                    emit(.identifier, from: start, line: line)
                case 0x2E where byte(position + 1) == 0x2E:  // .. ... ..<
                    position += 1
                    while position < count && (bytes[position] == 0x2E || isOperatorContinuation(position)) { position += 1 }
                    emit(.operatorRun, from: start, line: line)
                case _ where SourceScanner.isOperatorCharacter(c):
                    position += 1
                    while position < count && isOperatorContinuation(position) { position += 1 }
                    emit(.operatorRun, from: start, line: line)
                default:
                    position += 1
                    emit(.punctuation, from: start, line: line)
                }
            }
        }

        /// An operator character that does not open a comment.
        func isOperatorContinuation(_ offset: Int) -> Bool {
            let c = bytes[offset]
            guard SourceScanner.isOperatorCharacter(c) else { return false }
            return !(c == 0x2F && (byte(offset + 1) == 0x2F || byte(offset + 1) == 0x2A))
        }

        mutating func skipBlockComment(nested: Bool) {
            var depth = 0
            let count = bytes.count
            while position < count {
                let c = bytes[position]
                if c == 0x2F && byte(position + 1) == 0x2A {
                    if depth == 0 || nested { depth += 1 }
                    position += 2
                } else if c == 0x2A && byte(position + 1) == 0x2F {
                    depth -= 1
                    position += 2
                    if depth == 0 { return }
                } else {
                    if c == 0x0A { line += 1 }
                    position += 1
                }
            }
        }

        /// Swift `#"raw"#`, `#/regex/#`, `#if` and friends.
        mutating func lexSwiftPound() {
            let start = position
            let startLine = line
            var hashes = 0
            while byte(position + hashes) == 0x23 { hashes += 1 }
            let next = byte(position + hashes)
            if next == 0x22 {
                let flags = scanStringBody(quoteAt: position + hashes, hashes: hashes)
                emit(.string, from: start, line: startLine, hashes: hashes, flags: flags)
            } else if next == 0x2F {
                // An extended regex literal ends at `/` followed by as many `#`.
                position += hashes + 1
                while position < bytes.count {
                    if bytes[position] == 0x2F && (0..<hashes).allSatisfy({ byte(position + 1 + $0) == 0x23 }) {
                        position += 1 + hashes
                        break
                    }
                    if bytes[position] == 0x0A { line += 1 }
                    position += 1
                }
                emit(.number, from: start, line: startLine)
            } else if hashes == 1 && SourceScanner.isIdentifierStart(next) {
                position += 1
                while position < bytes.count && SourceScanner.isIdentifierPart(bytes[position]) { position += 1 }
                emit(.identifier, from: start, line: startLine)
            } else {
                position += 1
                emit(.punctuation, from: start, line: startLine)
            }
        }

        /// Objective-C directives: `#define` stays as tokens; `#import`, `#pragma mark`, `#error` and
        /// the like are skipped to the end of the line (their text is not code: `#pragma mark - Apple's`).
        mutating func lexObjectiveCPound() {
            let start = position
            guard atLineStart else {
                position += 1
                emit(.punctuation, from: start, line: line)
                return
            }
            var nameStart = position + 1
            while byte(nameStart) == 0x20 || byte(nameStart) == 0x09 { nameStart += 1 }
            var nameEnd = nameStart
            while nameEnd < bytes.count && SourceScanner.isIdentifierPart(bytes[nameEnd]) { nameEnd += 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
            if ["import", "include", "include_next", "pragma", "error", "warning", "line"].contains(name) {
                while position < bytes.count && bytes[position] != 0x0A { position += 1 }
                return
            }
            position = nameEnd
            emit(.directive, from: start, line: line)
        }

        /// Scans a string from its opening quote and leaves `position` after its closing delimiter.
        /// A single-line string stops at the end of its line, so an unterminated one cannot swallow
        /// the rest of the file.
        mutating func scanStringBody(quoteAt quote: Int, hashes: Int) -> UInt8 {
            let count = bytes.count
            let swift = language == .swift
            var flags: UInt8 = 0
            var p = quote
            let multiline = swift && byte(p + 1) == 0x22 && byte(p + 2) == 0x22
            if multiline {
                flags |= Token.multiline
                p += 3
            } else {
                p += 1
            }
            while p < count {
                let c = bytes[p]
                if c == 0x5C {  // backslash: an escape only with as many `#` as the delimiter
                    var found = 0
                    while found < hashes && byte(p + 1 + found) == 0x23 { found += 1 }
                    if found == hashes {
                        let escaped = p + 1 + hashes
                        if swift && byte(escaped) == 0x28 {
                            flags |= Token.interpolated
                            p = skipInterpolation(openAt: escaped, allowNewlines: multiline)
                            continue
                        }
                        if byte(escaped) == 0x0A {
                            if !multiline { break }
                            line += 1
                        }
                        p = min(escaped + 1, count)
                        continue
                    }
                    p += 1
                    continue
                }
                if c == 0x0A {
                    if !multiline { break }
                    line += 1
                    p += 1
                    continue
                }
                if c == 0x22 {
                    if multiline {
                        if byte(p + 1) == 0x22 && byte(p + 2) == 0x22 && hashesFollow(p + 3, hashes) {
                            position = p + 3 + hashes
                            return flags
                        }
                    } else if hashesFollow(p + 1, hashes) {
                        position = p + 1 + hashes
                        return flags
                    }
                }
                p += 1
            }
            position = min(p, count)
            return flags | Token.unterminated
        }

        func hashesFollow(_ offset: Int, _ hashes: Int) -> Bool {
            var k = 0
            while k < hashes {
                if byte(offset + k) != 0x23 { return false }
                k += 1
            }
            return true
        }

        /// Skips `\( … )`, nested strings included; returns the offset after the `)`.
        mutating func skipInterpolation(openAt open: Int, allowNewlines: Bool) -> Int {
            var depth = 0
            var p = open
            let count = bytes.count
            while p < count {
                let c = bytes[p]
                switch c {
                case 0x28:
                    depth += 1
                    p += 1
                case 0x29:
                    depth -= 1
                    p += 1
                    if depth == 0 { return p }
                case 0x22:
                    let saved = position
                    _ = scanStringBody(quoteAt: p, hashes: 0)
                    p = max(position, p + 1)
                    position = saved
                case 0x0A:
                    if !allowNewlines { return p }
                    line += 1
                    p += 1
                default:
                    p += 1
                }
            }
            return p
        }
    }
}

// MARK: - File summaries

extension SourceScanner {
    /// A token kept for later evaluation, independent of the file's bytes.
    struct ExpressionToken: Sendable {
        var kind: TokenKind
        /// An identifier's or punctuation's text; a string literal's decoded value.
        var text: String
        /// A string literal with a usable value (not interpolated, not unterminated).
        var isLiteral: Bool
        var line: Int
        var column: Int
        /// Written right after the previous token (a postfix `!` or `?`).
        var attached: Bool
    }

    struct Context: Sendable {
        var file: Int
        var position: Int
        /// Enclosing types, outermost first (`[["Store"], ["Store", "IDs"]]`).
        var typePaths: [[String]]
        var language: Language
    }

    struct Definition: Sendable {
        var name: String
        /// The type it is a member of; nil for globals and locals.
        var owner: [String]?
        /// The token range of the block holding a local.
        var localScope: Range<Int>?
        /// Token index of the name.
        var position: Int
        var isPrivate: Bool
        var expression: [ExpressionToken]
        var context: Context

        var displayName: String { owner.map { ($0 + [name]).joined(separator: ".") } ?? name }
    }

    struct EnumCase: Sendable {
        var name: String
        var rawValue: String?
        var location: SourceLocation
    }

    /// An enum whose raw type is `String`.
    struct StringEnum: Sendable {
        var path: [String]
        var cases: [EnumCase]
    }

    struct CallSite: Sendable {
        var api: String
        var argument: [ExpressionToken]
        var context: Context
    }

    struct FileSummary: Sendable {
        var path: String
        var language: Language
        var definitions: [Definition] = []
        var enums: [StringEnum] = []
        var calls: [CallSite] = []
        var usesStoreKit1 = false
        var usesStoreKit2 = false
    }

    static func summarize(bytes: [UInt8], file: String, language: Language) -> FileSummary {
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = Lexer(bytes: buffer, language: language)
            lexer.run()
            var summarizer = Summarizer(bytes: buffer, tokens: lexer.tokens, file: file, language: language)
            switch language {
            case .swift: summarizer.summarizeSwift()
            case .objectiveC: summarizer.summarizeObjectiveC()
            }
            return summarizer.summary
        }
    }

    /// Walks one file's tokens once, recording constants, string enums and StoreKit call sites.
    struct Summarizer {
        let bytes: UnsafeBufferPointer<UInt8>
        let tokens: [Token]
        let language: Language
        var summary: FileSummary
        var scopes: [Scope] = []
        var typePaths: [[String]] = []
        var pendingType: PendingType?
        var mentionsMutablePayment = false
        var columnCache: (offset: Int, column: Int)?
        var productIdentifierAssignments: [CallSite] = []

        /// Longer initializers are UI code, not ID lists; skipping them keeps summaries small.
        static let maxExpressionTokens = 2048

        struct Scope {
            var open: Int
            var typePath: [String]?
            var enumIndex: Int?
            var localDefinitions: [Int] = []
        }

        struct PendingType {
            var path: [String]
            var isStringEnum: Bool
        }

        init(bytes: UnsafeBufferPointer<UInt8>, tokens: [Token], file: String, language: Language) {
            self.bytes = bytes
            self.tokens = tokens
            self.language = language
            self.summary = FileSummary(path: file, language: language)
        }

        // MARK: Token helpers

        func isWord(_ index: Int, _ word: StaticString) -> Bool {
            guard index >= 0 && index < tokens.count else { return false }
            let token = tokens[index]
            guard token.kind == .identifier || token.kind == .directive else { return false }
            let length = word.utf8CodeUnitCount
            guard token.end - token.start == length else { return false }
            return word.withUTF8Buffer { expected in
                var k = 0
                while k < length {
                    if bytes[token.start + k] != expected[k] { return false }
                    k += 1
                }
                return true
            }
        }

        func isPunctuation(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            guard index >= 0 && index < tokens.count else { return false }
            let token = tokens[index]
            return token.kind == .punctuation && bytes[token.start] == UInt8(character.value)
        }

        func isOperator(_ index: Int, _ text: StaticString) -> Bool {
            guard index >= 0 && index < tokens.count, tokens[index].kind == .operatorRun else { return false }
            let token = tokens[index]
            guard token.end - token.start == text.utf8CodeUnitCount else { return false }
            return text.withUTF8Buffer { expected in
                (0..<expected.count).allSatisfy { bytes[token.start + $0] == expected[$0] }
            }
        }

        func isIdentifier(_ index: Int) -> Bool { index >= 0 && index < tokens.count && tokens[index].kind == .identifier }

        func text(_ index: Int) -> String {
            let token = tokens[index]
            var start = token.start
            var end = token.end
            if bytes[start] == 0x60 {  // `name` is name
                start += 1
                if end > start && bytes[end - 1] == 0x60 { end -= 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// Characters (not bytes) from the start of the line, 1-based. Counting on from the last
        /// answer when it was earlier on the same line keeps a long generated line linear.
        mutating func column(of offset: Int) -> Int {
            if let cached = columnCache, cached.offset <= offset,
               !bytes[cached.offset..<offset].contains(0x0A) {
                let column = cached.column + characterCount(cached.offset..<offset)
                columnCache = (offset, column)
                return column
            }
            var lineStart = offset
            while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
            if lineStart == 0 && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
                lineStart = 3
            }
            let column = characterCount(lineStart..<offset) + 1
            columnCache = (offset, column)
            return column
        }

        func characterCount(_ range: Range<Int>) -> Int {
            guard range.lowerBound < range.upperBound else { return 0 }
            if !bytes[range].contains(where: { $0 >= 0x80 }) { return range.count }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self).count
        }

        mutating func location(_ index: Int) -> SourceLocation {
            SourceLocation(file: summary.path, line: tokens[index].line, column: column(of: tokens[index].start))
        }

        /// The index of the bracket closing the one at `open` (or the end of the tokens).
        func matchingClose(_ open: Int) -> Int {
            var depth = 0
            var k = open
            while k < tokens.count {
                if tokens[k].kind == .punctuation {
                    switch bytes[tokens[k].start] {
                    case 0x28, 0x5B, 0x7B: depth += 1
                    case 0x29, 0x5D, 0x7D:
                        depth -= 1
                        if depth == 0 { return k }
                    default: break
                    }
                }
                k += 1
            }
            return tokens.count
        }

        func isOpener(_ index: Int) -> Bool {
            guard tokens[index].kind == .punctuation else { return false }
            let c = bytes[tokens[index].start]
            return c == 0x28 || c == 0x5B || c == 0x7B
        }

        func isCloser(_ index: Int) -> Bool {
            guard tokens[index].kind == .punctuation else { return false }
            let c = bytes[tokens[index].start]
            return c == 0x29 || c == 0x5D || c == 0x7D
        }

        /// Whether a new line at `index` continues the expression before it: a leading `.member`, a
        /// binary operator at either end of the break.
        func continuesAcrossLine(_ index: Int) -> Bool {
            if isPunctuation(index, ".") { return true }
            if tokens[index].kind == .operatorRun {
                // A prefix operator (`!flag`) starts a new statement; a binary one (`+ x`) continues.
                return !(index + 1 < tokens.count && tokens[index + 1].start == tokens[index].end)
            }
            let previous = index - 1
            if tokens[previous].kind == .operatorRun {
                // A postfix `!`/`?` ends the expression; anything else wants an operand.
                return !(previous > 0 && tokens[previous].start == tokens[previous - 1].end)
            }
            return false
        }

        /// The end (exclusive) of the Swift expression starting at `start`: a `,` or `;` or an
        /// unmatched closer at depth 0, or a line break that does not continue the expression.
        func swiftExpressionEnd(from start: Int) -> Int {
            var depth = 0
            var k = start
            while k < tokens.count {
                if depth == 0 && k > start {
                    if isPunctuation(k, ",") || isPunctuation(k, ";") { break }
                    if tokens[k].line > tokens[k - 1].line && !continuesAcrossLine(k) { break }
                    if isPunctuation(k, "{") && !isTrailingClosureMethod(k - 1) { break }
                }
                if isOpener(k) {
                    depth += 1
                } else if isCloser(k) {
                    if depth == 0 { break }
                    depth -= 1
                }
                k += 1
            }
            return k
        }

        func isTrailingClosureMethod(_ index: Int) -> Bool {
            isWord(index, "map") || isWord(index, "compactMap") || isWord(index, "flatMap") || isWord(index, "filter")
        }

        /// The end (exclusive) of an Objective-C expression: `;`, `,`, an unmatched closer, or the
        /// next selector part (`name:`) at depth 0.
        func objectiveCExpressionEnd(from start: Int) -> Int {
            var depth = 0
            var k = start
            while k < tokens.count {
                if depth == 0 && k > start {
                    if isPunctuation(k, ",") || isPunctuation(k, ";") { break }
                    if isIdentifier(k) && isPunctuation(k + 1, ":") && !isOperator(k - 1, "?") { break }
                }
                if isOpener(k) {
                    depth += 1
                } else if isCloser(k) {
                    if depth == 0 { break }
                    depth -= 1
                }
                k += 1
            }
            return k
        }

        /// Copies `range` out of the file so it can be evaluated once every file is summarized.
        mutating func snapshot(_ range: Range<Int>) -> [ExpressionToken]? {
            guard !range.isEmpty, range.count <= Self.maxExpressionTokens else { return nil }
            var result: [ExpressionToken] = []
            result.reserveCapacity(range.count)
            for k in range {
                let token = tokens[k]
                let attached = k > range.lowerBound && token.start == tokens[k - 1].end
                if token.kind == .string {
                    let value = stringValue(token)
                    result.append(ExpressionToken(
                        kind: .string, text: value ?? "", isLiteral: value != nil, line: token.line,
                        column: column(of: token.start), attached: attached))
                } else {
                    result.append(ExpressionToken(
                        kind: token.kind, text: text(k), isLiteral: false, line: token.line, column: 0, attached: attached))
                }
            }
            return result
        }

        func context(_ position: Int) -> Context {
            Context(file: 0, position: position, typePaths: typePaths, language: language)
        }

        // MARK: String values

        /// The decoded value of a string literal; nil when interpolated or unterminated.
        func stringValue(_ token: Token) -> String? {
            guard token.flags & (Token.interpolated | Token.unterminated) == 0 else { return nil }
            if language == .objectiveC {
                let quote = bytes[token.start] == 0x40 ? token.start + 1 : token.start
                return decodeEscapes(quote + 1..<token.end - 1, hashes: 0, lineContinuation: false)
            }
            let quote = token.start + token.hashes
            if token.flags & Token.multiline == 0 {
                return decodeEscapes(quote + 1..<token.end - 1 - token.hashes, hashes: token.hashes, lineContinuation: false)
            }
            return multilineValue(quote + 3..<token.end - 3 - token.hashes, hashes: token.hashes)
        }

        /// Swift multi-line strings: the text between the delimiters' lines, less the closing
        /// delimiter's indentation on every line.
        func multilineValue(_ range: Range<Int>, hashes: Int) -> String? {
            var lines: [Range<Int>] = []
            var lineStart = range.lowerBound
            for k in range where bytes[k] == 0x0A {
                lines.append(lineStart..<k)
                lineStart = k + 1
            }
            lines.append(lineStart..<range.upperBound)
            guard lines.count >= 2 else { return nil }
            let indentation = lines.removeLast()
            lines.removeFirst()  // the rest of the opening delimiter's line
            var raw: [UInt8] = []
            for (index, var content) in lines.enumerated() {
                if index > 0 { raw.append(0x0A) }
                var k = 0
                while k < indentation.count && content.lowerBound < content.upperBound
                    && bytes[content.lowerBound] == bytes[indentation.lowerBound + k] {
                    content = content.lowerBound + 1..<content.upperBound
                    k += 1
                }
                if content.upperBound > content.lowerBound && bytes[content.upperBound - 1] == 0x0D {
                    content = content.lowerBound..<content.upperBound - 1
                }
                raw.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[content]))
            }
            return raw.withUnsafeBufferPointer { buffer in
                SourceScanner.decodeEscapes(buffer, 0..<buffer.count, hashes: hashes, lineContinuation: true)
            }
        }

        func decodeEscapes(_ range: Range<Int>, hashes: Int, lineContinuation: Bool) -> String {
            guard range.lowerBound <= range.upperBound else { return "" }
            return SourceScanner.decodeEscapes(bytes, range, hashes: hashes, lineContinuation: lineContinuation)
        }

        // MARK: Swift

        mutating func summarizeSwift() {
            var index = 0
            while index < tokens.count {
                let token = tokens[index]
                switch token.kind {
                case .punctuation:
                    switch bytes[token.start] {
                    case 0x7B: openScope(index)
                    case 0x7D: closeScope(index)
                    case 0x3B: pendingType = nil
                    default: break
                    }
                case .identifier:
                    swiftIdentifier(index)
                default:
                    break
                }
                index += 1
            }
            finish()
        }

        mutating func openScope(_ index: Int) {
            var scope = Scope(open: index)
            if let pending = pendingType {
                scope.typePath = pending.path
                typePaths.append(pending.path)
                if pending.isStringEnum {
                    scope.enumIndex = summary.enums.count
                    summary.enums.append(StringEnum(path: pending.path, cases: []))
                }
            }
            pendingType = nil
            scopes.append(scope)
        }

        mutating func closeScope(_ index: Int) {
            guard let scope = scopes.popLast() else { return }
            if scope.typePath != nil { typePaths.removeLast() }
            for definition in scope.localDefinitions {
                summary.definitions[definition].localScope = scope.open..<index
            }
        }

        mutating func finish() {
            while !scopes.isEmpty { closeScope(tokens.count) }
            if mentionsMutablePayment { summary.calls.append(contentsOf: productIdentifierAssignments) }
        }

        mutating func swiftIdentifier(_ index: Int) {
            let first = bytes[tokens[index].start]
            switch first {
            case 0x65, 0x73, 0x61, 0x70, 0x63:  // e s a p c: type declarations, `case`, productIdentifier
                if isWord(index, "enum") || isWord(index, "struct") || isWord(index, "class") || isWord(index, "actor")
                    || isWord(index, "protocol") || isWord(index, "extension") {
                    typeDeclaration(index)
                } else if isWord(index, "case") {
                    enumCases(index)
                } else if isWord(index, "productIdentifier") && isPunctuation(index - 1, ".") && isOperator(index + 1, "=") {
                    let end = swiftExpressionEnd(from: index + 2)
                    if let argument = snapshot(index + 2..<end) {
                        productIdentifierAssignments.append(CallSite(api: "SKMutablePayment.productIdentifier", argument: argument, context: context(index)))
                    }
                }
            case 0x6C, 0x76:  // l v
                if isWord(index, "let") || isWord(index, "var") { bindings(index) }
            case 0x66, 0x69:  // f i: a function or initializer ends a type header that never opened
                if isWord(index, "func") || isWord(index, "init") { pendingType = nil }
            case 0x50:  // P
                if isWord(index, "Product") { productCall(index) }
            case 0x53:  // S
                storeKit1Call(index)
            default:
                break
            }
        }

        static let notTypeNames: Set<String> = [
            "func", "var", "let", "subscript", "override", "final", "static", "private", "public", "internal",
            "fileprivate", "open", "init", "deinit", "convenience", "required", "dynamic", "lazy", "weak",
            "unowned", "mutating", "nonmutating", "indirect", "case", "nonisolated", "where",
        ]

        mutating func typeDeclaration(_ index: Int) {
            // `x.class`, `import class Foo.Bar`, `class func` are not declarations of a type body.
            if isPunctuation(index - 1, ".") || isWord(index - 1, "import") { return }
            guard isIdentifier(index + 1) else { return }
            let name = text(index + 1)
            if Self.notTypeNames.contains(name) { return }
            var path: [String]
            var k = index + 2
            if isWord(index, "extension") {
                path = [name]
                while isPunctuation(k, ".") && isIdentifier(k + 1) {
                    path.append(text(k + 1))
                    k += 2
                }
            } else {
                path = (typePaths.last ?? []) + [name]
            }
            var isStringEnum = false
            if isWord(index, "enum") {
                if isOperator(k, "<") || (k < tokens.count && tokens[k].kind == .operatorRun && bytes[tokens[k].start] == 0x3C) {
                    k = skipGenericParameters(k)
                }
                if isPunctuation(k, ":") && isIdentifier(k + 1) {
                    // The raw type comes first in the inheritance clause: `String` or `Swift.String`.
                    var last = k + 1
                    while isPunctuation(last + 1, ".") && isIdentifier(last + 2) { last += 2 }
                    isStringEnum = isWord(last, "String")
                }
            }
            pendingType = PendingType(path: path, isStringEnum: isStringEnum)
        }

        func skipGenericParameters(_ start: Int) -> Int {
            var depth = 0
            var k = start
            while k < tokens.count {
                if tokens[k].kind == .operatorRun {
                    for offset in tokens[k].start..<tokens[k].end {
                        if bytes[offset] == 0x3C { depth += 1 } else if bytes[offset] == 0x3E { depth -= 1 }
                    }
                    if depth <= 0 { return k + 1 }
                } else if isPunctuation(k, "{") {
                    return k
                }
                k += 1
            }
            return k
        }

        mutating func enumCases(_ index: Int) {
            guard let scope = scopes.last, let enumIndex = scope.enumIndex else { return }
            var k = index + 1
            while isIdentifier(k) {
                let name = text(k)
                var rawValue: String? = name
                var location = self.location(k)
                if isOperator(k + 1, "=") {
                    guard k + 2 < tokens.count, tokens[k + 2].kind == .string else { return }
                    rawValue = stringValue(tokens[k + 2])
                    location = self.location(k + 2)
                    k += 3
                } else if isPunctuation(k + 1, "(") {
                    return  // associated values: not a raw-value case
                } else {
                    k += 1
                }
                summary.enums[enumIndex].cases.append(EnumCase(name: name, rawValue: rawValue, location: location))
                guard isPunctuation(k, ",") else { return }
                k += 1
            }
        }

        /// `let name = …`, `static let a = …, b = …`, `var all: Set<String> { [pro, gold] }`.
        mutating func bindings(_ index: Int) {
            // Conditions (`if let`, `guard let`, `case let`) bind values that are not constants.
            if isWord(index - 1, "if") || isWord(index - 1, "guard") || isWord(index - 1, "while")
                || isWord(index - 1, "case") || isPunctuation(index - 1, ",") || isPunctuation(index - 1, "(") {
                return
            }
            let isPrivate = hasPrivateModifier(before: index)
            var k = index + 1
            while isIdentifier(k) {
                let nameIndex = k
                k += 1
                if isPunctuation(k, ":") { k = skipTypeAnnotation(from: k + 1, nameLine: tokens[nameIndex].line) }
                if isOperator(k, "=") {
                    let end = swiftExpressionEnd(from: k + 1)
                    record(nameIndex, expression: k + 1..<end, isPrivate: isPrivate)
                    k = end
                    guard isPunctuation(k, ","), isIdentifier(k + 1) else { return }
                    k += 1
                } else if isPunctuation(k, "{") {
                    computedProperty(nameIndex, open: k, isPrivate: isPrivate)
                    return
                } else {
                    return
                }
            }
        }

        func hasPrivateModifier(before index: Int) -> Bool {
            var k = index - 1
            // Modifiers are a few words; a bound keeps minified one-line files linear.
            while k >= 0 && k >= index - 8 && tokens[k].line == tokens[index].line {
                if isWord(k, "private") || isWord(k, "fileprivate") {
                    return !isPunctuation(k + 1, "(")  // `private(set)` still reads from everywhere
                }
                if !(isIdentifier(k) || isPunctuation(k, "(") || isPunctuation(k, ")")) { return false }
                k -= 1
            }
            return false
        }

        /// Returns the index of the `=` or `{` after a type annotation, or where the annotation ended.
        func skipTypeAnnotation(from start: Int, nameLine: Int) -> Int {
            var depth = 0
            var k = start
            while k < tokens.count {
                if depth == 0 {
                    if isOperator(k, "=") || isPunctuation(k, "{") { return k }
                    if tokens[k].line > tokens[k - 1].line || isPunctuation(k, ";") || isPunctuation(k, "}") { return k }
                }
                if isPunctuation(k, "(") || isPunctuation(k, "[") {
                    depth += 1
                } else if isPunctuation(k, ")") || isPunctuation(k, "]") {
                    if depth == 0 { return k }
                    depth -= 1
                }
                k += 1
            }
            return k
        }

        mutating func computedProperty(_ nameIndex: Int, open: Int, isPrivate: Bool) {
            var start = open + 1
            guard start < tokens.count else { return }
            if isWord(start, "get") || isWord(start, "set") || isWord(start, "willSet") || isWord(start, "didSet") { return }
            if isWord(start, "return") { start += 1 }
            // Only bodies that look like an ID list; UI code (`var body: some View { … }`) is not kept.
            guard start < tokens.count,
                  tokens[start].kind == .string || isPunctuation(start, "[") || isPunctuation(start, ".")
                    || isWord(start, "Set") || isWord(start, "Array") || isWord(start, "Self")
            else { return }
            let close = matchingClose(open)
            guard close - start <= 256 else { return }
            record(nameIndex, expression: start..<close, isPrivate: isPrivate)
        }

        mutating func record(_ nameIndex: Int, expression range: Range<Int>, isPrivate: Bool) {
            guard let expression = snapshot(range) else { return }
            var definition = Definition(
                name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: isPrivate,
                expression: expression, context: context(range.lowerBound))
            if let scope = scopes.last {
                if let typePath = scope.typePath {
                    definition.owner = typePath
                } else {
                    definition.localScope = scope.open..<tokens.count
                    scopes[scopes.count - 1].localDefinitions.append(summary.definitions.count)
                }
            }
            summary.definitions.append(definition)
        }

        /// `Product.products(for:)`, and whether what it returns is purchased.
        mutating func productCall(_ index: Int) {
            if isPunctuation(index - 1, ".") && !isWord(index - 2, "StoreKit") { return }
            guard isPunctuation(index + 1, "."), isIdentifier(index + 2) else { return }
            if isWord(index + 2, "PurchaseResult") || isWord(index + 2, "PurchaseOption") {
                summary.usesStoreKit2 = true
                return
            }
            guard isWord(index + 2, "products"), isPunctuation(index + 3, "("), isWord(index + 4, "for"),
                  isPunctuation(index + 5, ":")
            else { return }
            summary.usesStoreKit2 = true
            let close = matchingClose(index + 3)
            let purchased = chainPurchases(from: close + 1) || boundResultIsPurchased(call: index, close: close)
            guard let argument = snapshot(index + 6..<close) else { return }
            summary.calls.append(CallSite(
                api: purchased ? "Product.purchase" : "Product.products(for:)", argument: argument, context: context(index)))
        }

        /// `….first?.purchase(`, `…[0].purchase(`: a postfix chain that ends in a purchase.
        func chainPurchases(from start: Int) -> Bool {
            var k = start
            while k < tokens.count {
                if isPunctuation(k, "."), isIdentifier(k + 1) {
                    if isWord(k + 1, "purchase") && isPunctuation(k + 2, "(") { return true }
                    k += 2
                } else if (isOperator(k, "?") || isOperator(k, "!")) && tokens[k].start == tokens[k - 1].end {
                    k += 1
                } else if (isPunctuation(k, "[") || isPunctuation(k, "(")) && tokens[k].start == tokens[k - 1].end {
                    k = matchingClose(k) + 1
                } else {
                    return false
                }
            }
            return false
        }

        /// `let products = try await Product.products(for: …)` followed, in the same block, by
        /// `products.first?.purchase()` or by a purchase of a name bound from `products`
        /// (`if let product = products.first`, `for product in products`).
        func boundResultIsPurchased(call: Int, close: Int) -> Bool {
            var k = call - 1
            while k > 0 && (isWord(k, "try") || isWord(k, "await") || isOperator(k, "?") || isOperator(k, "!")) { k -= 1 }
            guard isOperator(k, "="), isIdentifier(k - 1), isWord(k - 2, "let") || isWord(k - 2, "var") else { return false }
            var names: Set<String> = [text(k - 1)]
            var depth = 0
            var position = close + 1
            while position < tokens.count {
                if isOpener(position) {
                    depth += 1
                } else if isCloser(position) {
                    depth -= 1
                    if depth < 0 { return false }
                } else if isIdentifier(position) {
                    let name = text(position)
                    if names.contains(name) {
                        if chainPurchases(from: position + 1) { return true }
                        // `let product = products.first` / `for product in products`: follow one step.
                        if isOperator(position - 1, "=") && isIdentifier(position - 2) {
                            names.insert(text(position - 2))
                        } else if isWord(position - 1, "in") && isIdentifier(position - 2) && isWord(position - 3, "for") {
                            names.insert(text(position - 2))
                        }
                    }
                }
                position += 1
            }
            return false
        }

        mutating func storeKit1Call(_ index: Int) {
            let isRequest = isWord(index, "SKProductsRequest")
            let isPayment = isWord(index, "SKPayment")
            if isWord(index, "SKMutablePayment") {
                mentionsMutablePayment = true
                summary.usesStoreKit1 = true
            }
            if isWord(index, "SKPaymentQueue") { summary.usesStoreKit1 = true }
            guard isRequest || isPayment else { return }
            summary.usesStoreKit1 = true
            var open = index + 1
            if isPunctuation(open, "."), isWord(open + 1, "init") { open += 2 }
            guard isPunctuation(open, "("), isPunctuation(open + 2, ":") else { return }
            let api: String
            if isRequest && isWord(open + 1, "productIdentifiers") {
                api = "SKProductsRequest(productIdentifiers:)"
            } else if isPayment && isWord(open + 1, "productIdentifier") {
                api = "SKPayment(productIdentifier:)"
            } else {
                return
            }
            let close = matchingClose(open)
            guard let argument = snapshot(open + 3..<close) else { return }
            summary.calls.append(CallSite(api: api, argument: argument, context: context(index)))
        }

        // MARK: Objective-C

        mutating func summarizeObjectiveC() {
            var index = 0
            while index < tokens.count {
                let token = tokens[index]
                switch token.kind {
                case .punctuation:
                    if bytes[token.start] == 0x7B {
                        scopes.append(Scope(open: index))
                    } else if bytes[token.start] == 0x7D {
                        closeScope(index)
                    }
                case .directive:
                    if isWord(index, "#define") { define(index) }
                case .identifier:
                    objectiveCIdentifier(index)
                case .operatorRun:
                    if isOperator(index, "=") { objectiveCAssignment(index) }
                default:
                    break
                }
                index += 1
            }
            finish()
        }

        /// `#define kPro @"…"`: the value is the rest of the line.
        mutating func define(_ index: Int) {
            let nameIndex = index + 1
            guard isIdentifier(nameIndex), tokens[nameIndex].line == tokens[index].line else { return }
            // A function-like macro (`#define ID(x) …`) is not a constant.
            if isPunctuation(nameIndex + 1, "("), tokens[nameIndex + 1].start == tokens[nameIndex].end { return }
            var end = nameIndex + 1
            while end < tokens.count && tokens[end].line == tokens[index].line { end += 1 }
            guard let expression = snapshot(nameIndex + 1..<end) else { return }
            summary.definitions.append(Definition(
                name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: false,
                expression: expression, context: context(nameIndex)))
        }

        mutating func objectiveCIdentifier(_ index: Int) {
            let first = bytes[tokens[index].start]
            switch first {
            case 0x53:  // S
                if isWord(index, "SKProductsRequest") || isWord(index, "SKPayment") || isWord(index, "SKPaymentQueue") {
                    summary.usesStoreKit1 = true
                } else if isWord(index, "SKMutablePayment") {
                    summary.usesStoreKit1 = true
                    mentionsMutablePayment = true
                }
            case 0x69, 0x70, 0x73:  // i p s
                guard isPunctuation(index + 1, ":") else { return }
                let api: String
                if isWord(index, "initWithProductIdentifiers") {
                    api = "-initWithProductIdentifiers:"
                } else if isWord(index, "paymentWithProductIdentifier") {
                    api = "+paymentWithProductIdentifier:"
                } else if isWord(index, "setProductIdentifier") {
                    let end = objectiveCExpressionEnd(from: index + 2)
                    if let argument = snapshot(index + 2..<end) {
                        productIdentifierAssignments.append(CallSite(api: "-setProductIdentifier:", argument: argument, context: context(index)))
                    }
                    return
                } else {
                    return
                }
                summary.usesStoreKit1 = true
                let end = objectiveCExpressionEnd(from: index + 2)
                guard let argument = snapshot(index + 2..<end) else { return }
                summary.calls.append(CallSite(api: api, argument: argument, context: context(index)))
            default:
                break
            }
        }

        /// `NSString *const kPro = @"…";`, `NSSet *ids = [NSSet setWithObjects:…];`,
        /// `payment.productIdentifier = @"…";`.
        mutating func objectiveCAssignment(_ index: Int) {
            let nameIndex = index - 1
            guard isIdentifier(nameIndex) else { return }
            if isPunctuation(nameIndex - 1, ".") {
                guard isWord(nameIndex, "productIdentifier") else { return }
                let end = objectiveCExpressionEnd(from: index + 1)
                if let argument = snapshot(index + 1..<end) {
                    productIdentifierAssignments.append(CallSite(api: "SKMutablePayment.productIdentifier", argument: argument, context: context(index)))
                }
                return
            }
            // A declaration: the name follows `*`, `const` or a type name.
            guard isOperator(nameIndex - 1, "*") || isIdentifier(nameIndex - 1) else { return }
            let end = objectiveCExpressionEnd(from: index + 1)
            guard let expression = snapshot(index + 1..<end) else { return }
            var definition = Definition(
                name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: false,
                expression: expression, context: context(nameIndex))
            if let scope = scopes.last {
                definition.localScope = scope.open..<tokens.count
                scopes[scopes.count - 1].localDefinitions.append(summary.definitions.count)
            } else {
                // `static` in an implementation file is invisible to other files; in a header it is shared.
                var k = nameIndex - 1
                while k >= 0 && !isPunctuation(k, ";") && !isPunctuation(k, "}") && tokens[k].kind != .directive {
                    if isWord(k, "static") { definition.isPrivate = SourceScanner.fileExtension(summary.path) != "h" }
                    k -= 1
                }
            }
            summary.definitions.append(definition)
        }
    }

    /// Decodes `\n`, `\t`, `\"`, `\u{…}` (Swift) and `\x41` (C) escapes; with `hashes`, only
    /// backslashes followed by that many `#` escape (Swift raw strings).
    static func decodeEscapes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, hashes: Int, lineContinuation: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var k = range.lowerBound
        func at(_ offset: Int) -> UInt8 { offset < range.upperBound ? bytes[offset] : 0 }
        while k < range.upperBound {
            let c = bytes[k]
            guard c == 0x5C, (0..<hashes).allSatisfy({ at(k + 1 + $0) == 0x23 }), k + 1 + hashes < range.upperBound else {
                output.append(c)
                k += 1
                continue
            }
            let escaped = k + 1 + hashes
            k = escaped + 1
            switch bytes[escaped] {
            case 0x6E: output.append(0x0A)  // n
            case 0x74: output.append(0x09)  // t
            case 0x72: output.append(0x0D)  // r
            case 0x30: output.append(0x00)  // 0
            case 0x0A where lineContinuation: break
            case 0x75 where at(k) == 0x7B:  // u{…}
                var value: UInt32 = 0
                var p = k + 1
                while p < range.upperBound, let digit = hexValue(bytes[p]) {
                    value = value &* 16 &+ UInt32(digit)
                    p += 1
                }
                if at(p) == 0x7D, let scalar = Unicode.Scalar(value) {
                    output.append(contentsOf: Array(String(Character(scalar)).utf8))
                    k = p + 1
                }
            case 0x78:  // x41
                var value = 0
                var p = k
                while p < range.upperBound, let digit = hexValue(bytes[p]), p - k < 2 {
                    value = value * 16 + digit
                    p += 1
                }
                if p > k {
                    output.append(contentsOf: Array(String(Character(Unicode.Scalar(UInt8(value)))).utf8))
                    k = p
                }
            default: output.append(bytes[escaped])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        default: return nil
        }
    }
}

// MARK: - Resolution

extension SourceScanner {
    static func resolve(_ summaries: [FileSummary]) -> SourceScan {
        var resolver = Resolver(files: summaries)
        var scan = SourceScan(filesScanned: summaries.count)
        var seen: Set<RequestedProductID> = []
        for (fileIndex, file) in resolver.files.enumerated() {
            scan.usesStoreKit1 = scan.usesStoreKit1 || file.usesStoreKit1
            scan.usesStoreKit2 = scan.usesStoreKit2 || file.usesStoreKit2
            for call in file.calls {
                var context = call.context
                context.file = fileIndex
                guard let items = resolver.evaluate(call.argument, context) else { continue }
                for item in items {
                    guard let literal = resolver.literal(item) else { continue }
                    let request = RequestedProductID(id: literal.value, location: literal.location, api: call.api, viaConstant: literal.via)
                    if seen.insert(request).inserted { scan.requests.append(request) }
                }
            }
        }
        scan.requests.sort {
            ($0.location, $0.api, $0.viaConstant ?? "") < ($1.location, $1.api, $1.viaConstant ?? "")
        }
        return scan
    }

    struct DefinitionReference: Hashable {
        var file: Int
        var index: Int
    }

    struct EnumReference: Hashable {
        var file: Int
        var index: Int
    }

    /// What an expression evaluates to: literals, or enum cases not yet turned into raw values.
    enum Item: Hashable {
        case literal(value: String, location: SourceLocation, via: String?)
        case enumCase(EnumReference, index: Int)
    }

    /// Evaluates call arguments and constants against every file's definitions. An expression it
    /// does not understand evaluates to nil; inside a list, only that element is dropped.
    struct Resolver {
        var files: [FileSummary]
        var definitionsByName: [String: [DefinitionReference]] = [:]
        var enumsByName: [String: [EnumReference]] = [:]
        var enumsByCase: [String: [EnumReference]] = [:]
        var evaluated: [DefinitionReference: [Item]?] = [:]
        var inProgress: Set<DefinitionReference> = []
        /// Nested expressions being evaluated. ID lists are shallow; the bound keeps a pathological
        /// `[[[[…` or a long chain of constants from exhausting a small thread stack.
        var nesting = 0
        static let maxNesting = 48

        static let collectionTypes: Set<String> = ["Set", "Array", "NSSet", "NSOrderedSet", "NSArray"]
        static let objectiveCCollections: Set<String> = [
            "NSSet", "NSMutableSet", "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet",
        ]
        static let objectiveCConstructors: Set<String> = [
            "setWithObjects", "setWithObject", "setWithArray", "setWithSet", "arrayWithObjects", "arrayWithObject",
            "arrayWithArray", "orderedSetWithObjects", "orderedSetWithArray", "initWithObjects", "initWithArray",
            "initWithSet",
        ]

        init(files: [FileSummary]) {
            self.files = files
            for fileIndex in files.indices {
                for index in files[fileIndex].definitions.indices {
                    self.files[fileIndex].definitions[index].context.file = fileIndex
                    definitionsByName[files[fileIndex].definitions[index].name, default: []]
                        .append(DefinitionReference(file: fileIndex, index: index))
                }
                for index in files[fileIndex].enums.indices {
                    let reference = EnumReference(file: fileIndex, index: index)
                    let decl = files[fileIndex].enums[index]
                    if let name = decl.path.last { enumsByName[name, default: []].append(reference) }
                    for enumCase in decl.cases { enumsByCase[enumCase.name, default: []].append(reference) }
                }
            }
        }

        func definition(_ reference: DefinitionReference) -> Definition { files[reference.file].definitions[reference.index] }
        func stringEnum(_ reference: EnumReference) -> StringEnum { files[reference.file].enums[reference.index] }

        /// An item as a product ID literal: enum cases become their raw values.
        func literal(_ item: Item) -> (value: String, location: SourceLocation, via: String?)? {
            switch item {
            case .literal(let value, let location, let via):
                return (value, location, via)
            case .enumCase(let reference, let index):
                let decl = stringEnum(reference)
                let enumCase = decl.cases[index]
                guard let raw = enumCase.rawValue else { return nil }
                return (raw, enumCase.location, (decl.path + [enumCase.name]).joined(separator: "."))
            }
        }

        func rawValues(_ items: [Item]) -> [Item] {
            items.compactMap { item in
                if case .enumCase = item, let literal = literal(item) {
                    return .literal(value: literal.value, location: literal.location, via: literal.via)
                }
                return item
            }
        }

        mutating func evaluate(_ tokens: [ExpressionToken], _ context: Context) -> [Item]? {
            var cursor = Cursor(tokens: tokens)
            let items = context.language == .swift ? swiftExpression(&cursor, context) : objectiveCExpression(&cursor, context)
            guard let items else { return nil }
            // A trailing cast (`["a"] as Set<String>`) does not change the IDs.
            if cursor.isWord("as") { return items }
            return cursor.atEnd ? items : nil
        }

        mutating func evaluateDefinition(_ reference: DefinitionReference) -> [Item]? {
            if let cached = evaluated[reference] { return cached }
            guard inProgress.insert(reference).inserted else { return nil }
            let definition = definition(reference)
            let items = evaluate(definition.expression, definition.context).map { items in
                items.map { item -> Item in
                    if case .literal(let value, let location, nil) = item {
                        return .literal(value: value, location: location, via: definition.displayName)
                    }
                    return item
                }
            }
            inProgress.remove(reference)
            // Remembered even when cut short by the nesting bound: re-evaluating would be exponential
            // for lists of lists of constants.
            evaluated[reference] = .some(items)
            return items
        }

        func literalItem(_ token: ExpressionToken, _ context: Context) -> Item {
            .literal(value: token.text, location: SourceLocation(file: files[context.file].path, line: token.line, column: token.column), via: nil)
        }

        // MARK: Swift expressions

        mutating func swiftExpression(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
            guard nesting < Self.maxNesting else { return nil }
            nesting += 1
            defer { nesting -= 1 }
            guard var items = swiftPrimary(&cursor, context) else { return nil }
            while !cursor.atEnd {
                if (cursor.isOperator("!") || cursor.isOperator("?")) && cursor.current.attached {
                    cursor.advance()
                } else if cursor.isPunctuation("."), cursor.peek(1)?.kind == .identifier {
                    let member = cursor.peek(1)!.text
                    cursor.advance(2)
                    switch member {
                    case "rawValue":
                        items = rawValues(items)
                    case "map", "compactMap":
                        guard let mapping = closureMapping(&cursor) else { return nil }
                        if mapping == .rawValue { items = rawValues(items) }
                    case "sorted":
                        guard cursor.isPunctuation("("), cursor.peek(1)?.text == ")" else { return nil }
                        cursor.advance(2)
                    default:
                        return nil
                    }
                } else {
                    break
                }
            }
            return items
        }

        enum Mapping { case identity, rawValue }

        /// `(\.rawValue)`, `(\ProductID.rawValue)`, `{ $0.rawValue }`, `({ $0.rawValue })`, `{ id in id.rawValue }`.
        func closureMapping(_ cursor: inout Cursor) -> Mapping? {
            guard cursor.isPunctuation("(") || cursor.isPunctuation("{") else { return nil }
            let body = cursor.balancedGroup()
            var inner = Array(body.dropFirst().dropLast())
            if inner.first?.text == "{" && inner.last?.text == "}" { inner = Array(inner.dropFirst().dropLast()) }
            if inner.first?.text == "return" { inner.removeFirst() }
            if inner.count >= 3, inner[1].text == "in", inner[0].kind == .identifier, inner[2].text == inner[0].text {
                inner = [ExpressionToken(kind: .identifier, text: "$0", isLiteral: false, line: 0, column: 0, attached: false)] + inner[3...]
            }
            let joined = inner.map(\.text).joined()
            if joined == "$0" || joined == "\\.self" { return .identity }
            if joined == "$0.rawValue" || (joined.hasPrefix("\\") && joined.hasSuffix(".rawValue") && !joined.contains("(")) {
                return .rawValue
            }
            return nil
        }

        mutating func swiftPrimary(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
            guard !cursor.atEnd else { return nil }
            let token = cursor.current
            switch token.kind {
            case .string:
                cursor.advance()
                return token.isLiteral ? [literalItem(token, context)] : nil
            case .punctuation where token.text == "[":
                return list(&cursor, context, closer: "]")
            case .punctuation where token.text == "(":
                cursor.advance()
                let items = swiftExpression(&cursor, context)
                guard cursor.isPunctuation(")") else { return nil }
                cursor.advance()
                return items
            case .punctuation where token.text == "." && cursor.peek(1)?.kind == .identifier:
                cursor.advance()
                let path = memberPath(&cursor)
                return resolveImplicitMember(path, context)
            case .identifier:
                if Self.collectionTypes.contains(token.text) && (cursor.peek(1)?.text == "(" || cursor.peek(1)?.text.first == "<") {
                    return collectionInitializer(&cursor, context)
                }
                let path = memberPath(&cursor)
                if cursor.isPunctuation("(") && !cursor.atEnd { return nil }  // a function call
                return resolvePath(path, context)
            default:
                return nil
            }
        }

        /// `a.b.c`, stopping before a member that is called (`.map(`, `.map {`).
        func memberPath(_ cursor: inout Cursor) -> [String] {
            var path = [cursor.current.text]
            cursor.advance()
            while cursor.isPunctuation("."), let next = cursor.peek(1), next.kind == .identifier {
                if let after = cursor.peek(2), after.text == "(" || after.text == "{" { break }
                path.append(next.text)
                cursor.advance(2)
            }
            return path
        }

        /// `Set([…])`, `Set<String>([…])`, `Set(arrayLiteral: a, b)`, `NSSet(array: […])`, `Array(ids)`.
        mutating func collectionInitializer(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
            cursor.advance()
            if cursor.current.text.first == "<" {
                var depth = 0
                while !cursor.atEnd {
                    let text = cursor.current.text
                    if cursor.current.kind == .operatorRun {
                        depth += text.filter { $0 == "<" }.count - text.filter { $0 == ">" }.count
                    }
                    cursor.advance()
                    if depth <= 0 { break }
                }
            }
            guard cursor.isPunctuation("(") else { return nil }
            if cursor.peek(1)?.text == ")" {
                cursor.advance(2)
                return []
            }
            if let label = cursor.peek(1), label.kind == .identifier, cursor.peek(2)?.text == ":" {
                switch label.text {
                case "arrayLiteral":
                    cursor.advance(2)
                    return list(&cursor, context, closer: ")")
                case "array", "set":
                    cursor.advance(2)
                default:
                    return nil
                }
            }
            cursor.advance()
            let items = context.language == .swift ? swiftExpression(&cursor, context) : objectiveCExpression(&cursor, context)
            guard cursor.isPunctuation(")") else { return nil }
            cursor.advance()
            return items
        }

        /// An array or set literal (the cursor is on its opening bracket). Elements that are not
        /// understood are dropped; a dictionary literal is not a list of IDs.
        mutating func list(_ cursor: inout Cursor, _ context: Context, closer: String) -> [Item]? {
            cursor.advance()
            var items: [Item] = []
            while !cursor.atEnd && !cursor.isPunctuation(closer) {
                let start = cursor.position
                let element = context.language == .swift ? swiftExpression(&cursor, context) : objectiveCExpression(&cursor, context)
                if cursor.isPunctuation(":") && closer == "]" { return nil }
                if let element, cursor.isPunctuation(",") || cursor.isPunctuation(closer) {
                    items += element
                } else {
                    cursor.position = start
                    cursor.skipElement(closer: closer)
                    // Stopped at a bracket that does not close this list: not a list after all.
                    guard cursor.isPunctuation(",") || cursor.isPunctuation(closer) else { return nil }
                }
                if cursor.isPunctuation(",") { cursor.advance() }
            }
            guard cursor.isPunctuation(closer) else { return nil }
            cursor.advance()
            return Self.unique(items)
        }

        /// Resolves `name`, `Type.name`, `Outer.Type.name`, `Self.name`, `Enum.case`, `Enum.allCases`,
        /// with a trailing `.rawValue`.
        mutating func resolvePath(_ path: [String], _ context: Context) -> [Item]? {
            for length in stride(from: path.count, through: 1, by: -1) {
                guard let items = resolvePrefix(Array(path[0..<length]), context) else { continue }
                return applyMembers(items, path[length...])
            }
            return nil
        }

        func applyMembers(_ items: [Item], _ members: ArraySlice<String>) -> [Item]? {
            var items = items
            for member in members {
                switch member {
                case "rawValue": items = rawValues(items)
                case "self": break
                default: return nil
                }
            }
            return items
        }

        mutating func resolvePrefix(_ path: [String], _ context: Context) -> [Item]? {
            guard let name = path.last else { return nil }
            if path.count == 1 {
                if name == "allCases", let current = context.typePaths.last,
                   let reference = enumReference(qualifier: current, context) {
                    return allCases(reference)
                }
                return unqualified(name, context)
            }
            var qualifier = Array(path.dropLast())
            if qualifier == ["Self"] || qualifier == ["self"] {
                guard let current = context.typePaths.last else { return nil }
                qualifier = current
            }
            if name == "allCases", let reference = enumReference(qualifier: qualifier, context) {
                return allCases(reference)
            }
            if let reference = member(name, of: qualifier, context) { return evaluateDefinition(reference) }
            if let reference = enumReference(qualifier: qualifier, context),
               let index = stringEnum(reference).cases.firstIndex(where: { $0.name == name }) {
                return [.enumCase(reference, index: index)]
            }
            return nil
        }

        /// Drops repeats, keeping the first: `[a, a]` of `[b, b]` must not grow exponentially.
        static func unique(_ items: [Item]) -> [Item] {
            var seen: Set<Item> = []
            return items.filter { seen.insert($0).inserted }
        }

        func allCases(_ reference: EnumReference) -> [Item] {
            stringEnum(reference).cases.indices.map { .enumCase(reference, index: $0) }
        }

        /// Prefers the candidate in the same file, then the first in file order.
        func preferred<Reference>(_ candidates: [Reference], file: (Reference) -> Int, _ context: Context) -> Reference? {
            candidates.first { file($0) == context.file } ?? candidates.first
        }

        func enumReference(qualifier: [String], _ context: Context) -> EnumReference? {
            guard let name = qualifier.last else { return nil }
            let candidates = (enumsByName[name] ?? []).filter { stringEnum($0).path.hasSuffix(qualifier) }
            return preferred(candidates, file: \.file, context)
        }

        func member(_ name: String, of qualifier: [String], _ context: Context) -> DefinitionReference? {
            let candidates = (definitionsByName[name] ?? []).filter { reference in
                guard !inProgress.contains(reference), let owner = definition(reference).owner else { return false }
                return owner.hasSuffix(qualifier) && (reference.file == context.file || !definition(reference).isPrivate)
            }
            return preferred(candidates, file: \.file, context)
        }

        /// A plain name: a local of an enclosing block, then a member of an enclosing type (or a
        /// case of an enclosing enum), then a global of this file, then a global of another file.
        mutating func unqualified(_ name: String, _ context: Context) -> [Item]? {
            let candidates = (definitionsByName[name] ?? []).filter { !inProgress.contains($0) }
            var bestLocal: DefinitionReference?
            for reference in candidates where reference.file == context.file {
                let definition = definition(reference)
                guard let scope = definition.localScope, scope.contains(context.position), definition.position < context.position else { continue }
                if let best = bestLocal {
                    let current = self.definition(best)
                    if (scope.lowerBound, definition.position) < (current.localScope!.lowerBound, current.position) { continue }
                }
                bestLocal = reference
            }
            if let bestLocal { return evaluateDefinition(bestLocal) }
            for typePath in context.typePaths.reversed() {
                let members = candidates.filter { reference in
                    guard let owner = definition(reference).owner else { return false }
                    return owner.hasSuffix(typePath) || typePath.hasSuffix(owner)
                }
                if let reference = preferred(members, file: \.file, context) { return evaluateDefinition(reference) }
                if let reference = enumReference(qualifier: typePath, context),
                   let index = stringEnum(reference).cases.firstIndex(where: { $0.name == name }) {
                    return [.enumCase(reference, index: index)]
                }
            }
            let globals = candidates.filter { reference in
                let definition = definition(reference)
                return definition.owner == nil && definition.localScope == nil
                    && (reference.file == context.file || !definition.isPrivate)
            }
            if let reference = preferred(globals, file: \.file, context) { return evaluateDefinition(reference) }
            return nil
        }

        /// `.pro.rawValue` (a case of a string enum) or `.pro` (a `static let` on `String`).
        mutating func resolveImplicitMember(_ path: [String], _ context: Context) -> [Item]? {
            let name = path[0]
            let members = path.dropFirst()
            if members.first != "rawValue", let reference = member(name, of: ["String"], context) {
                return evaluateDefinition(reference).flatMap { applyMembers($0, members) }
            }
            var candidates = enumsByCase[name] ?? []
            if candidates.count > 1 {
                // Several enums have this case: prefer the one the code sits in, then this file's.
                let enclosing = candidates.filter { reference in
                    context.typePaths.contains { stringEnum(reference).path.hasSuffix($0) }
                }
                let sameFile = candidates.filter { $0.file == context.file }
                candidates = !enclosing.isEmpty ? enclosing : sameFile
            }
            guard candidates.count == 1, let reference = candidates.first,
                  let index = stringEnum(reference).cases.firstIndex(where: { $0.name == name })
            else { return nil }
            return applyMembers([.enumCase(reference, index: index)], members)
        }

        // MARK: Objective-C expressions

        mutating func objectiveCExpression(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
            guard !cursor.atEnd else { return nil }
            guard nesting < Self.maxNesting else { return nil }
            nesting += 1
            defer { nesting -= 1 }
            let token = cursor.current
            switch token.kind {
            case .string:
                // Adjacent literals concatenate: `@"com.x." @"pro"`.
                var value = ""
                var usable = true
                while !cursor.atEnd && cursor.current.kind == .string {
                    value += cursor.current.text
                    usable = usable && cursor.current.isLiteral
                    cursor.advance()
                }
                guard usable else { return nil }
                var first = token
                first.text = value
                return [literalItem(first, context)]
            case .punctuation where token.text == "@":
                if cursor.peek(1)?.text == "[" {
                    cursor.advance()
                    return list(&cursor, context, closer: "]")
                }
                return nil
            case .punctuation where token.text == "[":
                return message(&cursor, context)
            case .punctuation where token.text == "(":
                cursor.advance()
                // A cast: `(NSSet *)ids`, `(NSArray<NSString *> *)ids`.
                if cursor.current.kind == .identifier, let close = cursor.indexOfClosingParenthesis(),
                   close + 1 < cursor.tokens.count, !cursor.isCloser(cursor.tokens[close + 1]), cursor.tokens[close + 1].text != ",",
                   cursor.tokens[cursor.position..<close].allSatisfy({ $0.kind == .identifier || $0.kind == .operatorRun || $0.text == "," }) {
                    cursor.position = close + 1
                    return objectiveCExpression(&cursor, context)
                }
                let items = objectiveCExpression(&cursor, context)
                guard cursor.isPunctuation(")") else { return nil }
                cursor.advance()
                return items
            case .identifier:
                cursor.advance()
                if token.text == "nil" || token.text == "NULL" { return [] }
                return unqualified(token.text, context)
            default:
                return nil
            }
        }

        /// `[NSSet setWithObjects:a, b, nil]`, `[[NSSet alloc] initWithArray:@[…]]`, `[ids allObjects]`.
        mutating func message(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
            let end = cursor.closingIndex()
            defer { cursor.position = end + 1 }
            cursor.advance()
            guard !cursor.atEnd else { return nil }
            var className: String?
            var receiver: [Item]?
            if cursor.current.kind == .identifier, Self.objectiveCCollections.contains(cursor.current.text) {
                className = cursor.current.text
                cursor.advance()
            } else if cursor.isPunctuation("["), let name = cursor.peek(1), let selector = cursor.peek(2),
                      selector.text == "alloc" || selector.text == "new", cursor.peek(3)?.text == "]" {
                className = Self.objectiveCCollections.contains(name.text) ? name.text : nil
                cursor.advance(4)
            } else {
                receiver = objectiveCExpression(&cursor, context)
            }
            guard cursor.position < end, cursor.current.kind == .identifier else { return nil }
            let selector = cursor.current.text
            if cursor.peek(1)?.text != ":" {
                // A unary message that keeps the elements.
                guard ["allObjects", "copy", "mutableCopy", "array"].contains(selector), cursor.position + 1 == end else { return nil }
                return receiver
            }
            guard className != nil, Self.objectiveCConstructors.contains(selector) else { return nil }
            var items: [Item] = []
            cursor.advance(2)
            while cursor.position < end {
                let elementStart = cursor.position
                if let element = objectiveCExpression(&cursor, context), cursor.isPunctuation(",") || cursor.position == end {
                    items += element
                } else {
                    cursor.position = elementStart
                    cursor.skipElement(closer: "]")
                }
                if cursor.isPunctuation(",") { cursor.advance() } else if cursor.position < end { return nil }
            }
            return Self.unique(items)
        }
    }

    /// A position in an expression's tokens.
    struct Cursor {
        var tokens: [ExpressionToken]
        var position = 0

        var atEnd: Bool { position >= tokens.count }
        var current: ExpressionToken { tokens[position] }
        func peek(_ offset: Int) -> ExpressionToken? { position + offset < tokens.count ? tokens[position + offset] : nil }
        mutating func advance(_ count: Int = 1) { position += count }

        func isPunctuation(_ text: String) -> Bool { !atEnd && current.kind == .punctuation && current.text == text }
        func isOperator(_ text: String) -> Bool { !atEnd && current.kind == .operatorRun && current.text == text }
        func isWord(_ text: String) -> Bool { !atEnd && current.kind == .identifier && current.text == text }

        func isOpener(_ token: ExpressionToken) -> Bool { token.kind == .punctuation && (token.text == "(" || token.text == "[" || token.text == "{") }
        func isCloser(_ token: ExpressionToken) -> Bool { token.kind == .punctuation && (token.text == ")" || token.text == "]" || token.text == "}") }

        /// The index of the bracket closing the one at the cursor (or the last index).
        func closingIndex() -> Int {
            var depth = 0
            var k = position
            while k < tokens.count {
                if isOpener(tokens[k]) { depth += 1 } else if isCloser(tokens[k]) {
                    depth -= 1
                    if depth == 0 { return k }
                }
                k += 1
            }
            return tokens.count - 1
        }

        func indexOfClosingParenthesis() -> Int? {
            var k = position
            while k < tokens.count {
                if tokens[k].kind == .punctuation && tokens[k].text == ")" { return k }
                if isOpener(tokens[k]) { return nil }
                k += 1
            }
            return nil
        }

        /// The tokens of the bracketed group at the cursor, brackets included; the cursor moves past it.
        mutating func balancedGroup() -> ArraySlice<ExpressionToken> {
            let close = closingIndex()
            let group = tokens[position...close]
            position = close + 1
            return group
        }

        /// Moves to the next `,` or `closer` at this depth.
        mutating func skipElement(closer: String) {
            var depth = 0
            while !atEnd {
                let token = current
                if depth == 0 && token.kind == .punctuation && (token.text == "," || token.text == closer) { return }
                if isOpener(token) { depth += 1 } else if isCloser(token) {
                    if depth == 0 { return }
                    depth -= 1
                }
                advance()
            }
        }
    }
}

extension Array where Element == String {
    fileprivate func hasSuffix(_ suffix: [String]) -> Bool {
        suffix.count <= count && zip(self[(count - suffix.count)...], suffix).allSatisfy { $0 == $1 }
    }
}
