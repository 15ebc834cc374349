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
        /// In-App Purchase libraries named by `#import` / `#include` lines (Objective-C).
        var imports: Set<String> = []
        /// Strings inside interpolations inside strings: counted, so that `"\("\("…` cannot
        /// recurse without end; past the limit the interpolation is read as ending its line.
        var stringNesting = 0
        var stringNestingLimited = false
        static let maxStringNesting = 32
        /// C#'s `#if` blocks open around the current line (``cSharpDirective(from:)``).
        var sharpBranches: [SharpBranch] = []

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
            let dart = language == .dart
            let script = language == .javaScript
            let sharp = language == .cSharp
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
                    skipBlockComment(nested: language == .swift || language == .dart)
                case 0x22 where script, 0x27 where script, 0x60 where script:  // "…", '…', `template`
                    let startLine = line
                    let flags = scanJavaScriptString(quoteAt: position)
                    emit(.string, from: start, line: startLine, flags: flags)
                case 0x2F where script && regexMayStart():  // /regex/
                    scanRegex()
                    emit(.number, from: start, line: line)
                case 0x23 where script:  // `#private`
                    position += 1
                    emit(.punctuation, from: start, line: line)
                case 0x22 where sharp:  // "…", """raw"""
                    let startLine = line
                    let flags = scanCSharpString(quoteAt: position, verbatim: false, interpolated: false)
                    emit(.string, from: start, line: startLine, flags: flags)
                case 0x40 where sharp && (byte(position + 1) == 0x22 || (byte(position + 1) == 0x24 && byte(position + 2) == 0x22)),
                     0x24 where sharp && (byte(position + 1) == 0x22 || (byte(position + 1) == 0x40 && byte(position + 2) == 0x22)):
                    // @"verbatim", $"interpolated {x}", $@"…", @$"…"
                    let startLine = line
                    var quote = position
                    var verbatim = false
                    var interpolated = false
                    while bytes[quote] != 0x22 {
                        if bytes[quote] == 0x40 { verbatim = true } else { interpolated = true }
                        quote += 1
                    }
                    let flags = scanCSharpString(quoteAt: quote, verbatim: verbatim, interpolated: interpolated)
                    emit(.string, from: start, line: startLine, flags: flags)
                case 0x24 where sharp && byte(position + 1) == 0x24:  // $$"""…""" raw interpolated
                    position += 1
                    emit(.punctuation, from: start, line: line)
                case 0x23 where sharp:  // `#if`, `#region`: a preprocessor line
                    cSharpDirective(from: start)
                case 0x22 where dart, 0x27 where dart:  // Dart's "…" and '…'
                    let startLine = line
                    let flags = scanDartString(quoteAt: position, raw: false)
                    emit(.string, from: start, line: startLine, flags: flags)
                case 0x72 where dart && (byte(position + 1) == 0x22 || byte(position + 1) == 0x27):  // r'raw'
                    let startLine = line
                    let flags = scanDartString(quoteAt: position + 1, raw: true)
                    emit(.string, from: start, line: startLine, flags: flags)
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
                case 0x23 where dart:  // `#symbol`
                    position += 1
                    emit(.punctuation, from: start, line: line)
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
                if name == "import" || name == "include" {
                    let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameEnd..<position]), as: UTF8.self)
                    if let library = SourceScanner.library(inImportLine: line) { imports.insert(library) }
                }
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
                            p = skipInterpolation(.parenthesized, openAt: escaped, allowNewlines: multiline)
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

        /// A Dart string from its opening quote (`'`, `"`, or three of either) to past its closing
        /// one: `\` escapes and `$name` / `${…}` interpolation, except in a raw (`r'…'`) string.
        /// A single-line string stops at the end of its line.
        mutating func scanDartString(quoteAt quote: Int, raw: Bool) -> UInt8 {
            let count = bytes.count
            let delimiter = bytes[quote]
            let triple = byte(quote + 1) == delimiter && byte(quote + 2) == delimiter
            var flags: UInt8 = triple ? Token.multiline : 0
            var p = quote + (triple ? 3 : 1)
            while p < count {
                let c = bytes[p]
                if c == 0x5C && !raw {  // backslash
                    if byte(p + 1) == 0x0A {
                        if !triple { break }
                        line += 1
                    }
                    p = min(p + 2, count)
                    continue
                }
                if c == 0x24 && !raw {  // $
                    if byte(p + 1) == 0x7B {
                        flags |= Token.interpolated
                        p = skipInterpolation(.braced, openAt: p + 1, allowNewlines: triple)
                        continue
                    }
                    if SourceScanner.isIdentifierStart(byte(p + 1)) && byte(p + 1) != 0x24 { flags |= Token.interpolated }
                    p += 1
                    continue
                }
                if c == 0x0A {
                    if !triple { break }
                    line += 1
                    p += 1
                    continue
                }
                if c == delimiter {
                    if !triple {
                        position = p + 1
                        return flags
                    }
                    if byte(p + 1) == delimiter && byte(p + 2) == delimiter {
                        position = p + 3
                        return flags
                    }
                }
                p += 1
            }
            position = min(p, count)
            return flags | Token.unterminated
        }

        /// A JavaScript string from its opening quote to past its closing one: `'…'` and `"…"` on
        /// one line (a `\` before the line break continues it), a template literal across lines
        /// with `${…}` interpolation.
        mutating func scanJavaScriptString(quoteAt quote: Int) -> UInt8 {
            let count = bytes.count
            let delimiter = bytes[quote]
            let template = delimiter == 0x60
            var flags: UInt8 = template ? Token.multiline : 0
            var p = quote + 1
            while p < count {
                let c = bytes[p]
                if c == 0x5C {
                    if byte(p + 1) == 0x0A { line += 1 }
                    p = min(p + 2, count)
                    continue
                }
                if template && c == 0x24 && byte(p + 1) == 0x7B {
                    flags |= Token.interpolated
                    p = skipInterpolation(.template, openAt: p + 1, allowNewlines: true)
                    continue
                }
                if c == 0x0A {
                    if !template { break }
                    line += 1
                }
                if c == delimiter {
                    position = p + 1
                    return flags
                }
                p += 1
            }
            position = min(p, count)
            return flags | Token.unterminated
        }

        /// A C# string from its opening `"`: regular (`\` escapes, one line), verbatim (`@"…"`,
        /// `""` for a quote, across lines), raw (`"""…"""`), interpolated (`$"…{x}…"`).
        mutating func scanCSharpString(quoteAt quote: Int, verbatim: Bool, interpolated: Bool) -> UInt8 {
            let count = bytes.count
            var flags: UInt8 = 0
            if byte(quote + 1) == 0x22 && byte(quote + 2) == 0x22 {  // raw: as many quotes close it
                var width = 3
                while byte(quote + width) == 0x22 { width += 1 }
                flags |= Token.multiline
                if interpolated { flags |= Token.interpolated }
                var p = quote + width
                while p < count {
                    if bytes[p] == 0x0A { line += 1 }
                    if bytes[p] == 0x22 && (0..<width).allSatisfy({ byte(p + $0) == 0x22 }) {
                        position = p + width
                        return flags
                    }
                    p += 1
                }
                position = count
                return flags | Token.unterminated
            }
            if verbatim { flags |= Token.multiline }
            var p = quote + 1
            while p < count {
                let c = bytes[p]
                if c == 0x5C && !verbatim {
                    p = min(p + 2, count)
                    continue
                }
                if interpolated && c == 0x7B {
                    if byte(p + 1) == 0x7B {
                        p += 2
                        continue
                    }
                    flags |= Token.interpolated
                    p = skipInterpolation(.braced, openAt: p, allowNewlines: verbatim)
                    continue
                }
                if c == 0x0A {
                    if !verbatim { break }
                    line += 1
                }
                if c == 0x22 {
                    if verbatim && byte(p + 1) == 0x22 {
                        p += 2
                        continue
                    }
                    position = p + 1
                    return flags
                }
                p += 1
            }
            position = min(p, count)
            return flags | Token.unterminated
        }

        /// Whether a `/` here starts a regular expression rather than dividing: it follows
        /// nothing, an operator, an opening bracket, `,` `;` `:` or a keyword that takes a value.
        func regexMayStart() -> Bool {
            let next = byte(position + 1)
            guard next != 0x2F && next != 0x2A else { return false }
            guard let previous = tokens.last else { return true }
            switch previous.kind {
            case .operatorRun: return true
            case .punctuation:
                let c = bytes[previous.start]
                return c != 0x29 && c != 0x5D && c != 0x7D  // ) ] }
            case .identifier:
                let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[previous.start..<previous.end]), as: UTF8.self)
                return ["return", "typeof", "case", "in", "of", "yield", "await", "void", "delete", "throw", "else"].contains(word)
            default: return false
            }
        }

        /// A regular expression literal to its closing `/` (not inside `[…]`), on its line.
        mutating func scanRegex() {
            let count = bytes.count
            var p = position + 1
            var inClass = false
            while p < count && bytes[p] != 0x0A {
                let c = bytes[p]
                if c == 0x5C {
                    p += 2
                    continue
                }
                if c == 0x5B { inClass = true } else if c == 0x5D { inClass = false } else if c == 0x2F && !inClass {
                    p += 1
                    break
                }
                p += 1
            }
            position = min(p, count)
        }

        /// The bracket an interpolation opens with, and the strings that may nest inside it.
        enum Interpolation {
            /// Swift's `\( … )`: nested `"…"` strings.
            case parenthesized
            /// Dart's `${ … }` and C#'s `{ … }`: nested `'…'` and `"…"` strings.
            case braced
            /// JavaScript's `${ … }` in a template literal: nested strings and templates.
            case template
        }

        /// Skips an interpolation from its opening bracket at `open`, nested strings included;
        /// returns the offset after its closing bracket.
        mutating func skipInterpolation(_ kind: Interpolation, openAt open: Int, allowNewlines: Bool) -> Int {
            let (opener, closer): (UInt8, UInt8) = kind == .parenthesized ? (0x28, 0x29) : (0x7B, 0x7D)
            var depth = 0
            var p = open
            let count = bytes.count
            while p < count {
                let c = bytes[p]
                if c == opener {
                    depth += 1
                    p += 1
                    continue
                }
                if c == closer {
                    depth -= 1
                    p += 1
                    if depth == 0 { return p }
                    continue
                }
                if c == 0x22 || (c == 0x27 && kind != .parenthesized) || (c == 0x60 && kind == .template) {
                    guard stringNesting < Self.maxStringNesting else {
                        stringNestingLimited = true
                        while p < count && bytes[p] != 0x0A { p += 1 }
                        return p
                    }
                    let saved = position
                    stringNesting += 1
                    switch kind {
                    case .parenthesized: _ = scanStringBody(quoteAt: p, hashes: 0)
                    case .braced: _ = scanDartString(quoteAt: p, raw: false)
                    case .template: _ = scanJavaScriptString(quoteAt: p)
                    }
                    stringNesting -= 1
                    p = max(position, p + 1)
                    position = saved
                    continue
                }
                if c == 0x0A {
                    if !allowNewlines { return p }
                    line += 1
                }
                p += 1
            }
            return p
        }

        func hashesFollow(_ offset: Int, _ hashes: Int) -> Bool {
            var k = 0
            while k < hashes {
                if byte(offset + k) != 0x23 { return false }
                k += 1
            }
            return true
        }

    }
}

extension SourceScanner {
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
