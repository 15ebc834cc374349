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
        /// Where a string literal ends (see ``CodeLocation``); 0 for other tokens.
        var endLine = 0
        var endColumn = 0
        /// Written right after the previous token (a postfix `!` or `?`).
        var attached: Bool
        /// An interpolated string literal's pieces: text, and the tokens of each `\(…)`.
        var parts: [StringPart]? = nil
    }

    enum StringPart: Sendable {
        case text(String)
        case expression([ExpressionToken])
    }

    struct Context: Sendable {
        var file: Int
        var position: Int
        /// Enclosing types, outermost first (`[["Store"], ["Store", "IDs"]]`).
        var typePaths: [[String]]
        var language: Language
        /// The `#if` branches the code is written under.
        var conditions: [Condition] = []
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
        /// A function's or computed property's body, as token indices into its file: copied out
        /// only when something asks for its value, so unrelated code costs nothing to keep.
        var body: Range<Int>? = nil
        /// A function's parameters; nil for a constant or property.
        var parameters: [Parameter]? = nil
        /// The `#if` branches it is written under, outermost first.
        var conditions: [Condition] = []
        /// Objective-C: added to a mutable collection (`[ids addObject:…]`), one of its values.
        var isAddition = false
        /// Swift: a stored property set in an initializer (`self.ids = …`): one of its values.
        var isInitialization = false
        /// …set from the initializer's parameters: its values come from the calls that make one.
        var isFromParameters = false
        /// Objective-C: the initializer it is set in (`initWithSKUs`) and that method's parameters.
        var initializer: (name: String, parameters: [Parameter])? = nil

        var displayName: String { owner.map { ($0 + [name]).joined(separator: ".") } ?? name }
        var isFunction: Bool { parameters != nil }
    }

    struct Parameter: Sendable {
        /// The argument label; nil for `_`.
        var label: String?
        /// The name inside the body.
        var name: String
        /// The type's last name (`ProductID` in `[ProductID]`), to resolve `.case` arguments.
        var type: String?
        /// Whether it has a default value, so a call may leave it out.
        var hasDefault = false
    }

    /// One `#if` branch: `os(macOS)` holds, or (for `#else` and the branches before an `#elseif`)
    /// does not.
    struct Condition: Sendable, Hashable {
        var text: String
        var holds: Bool
    }

    struct EnumCase: Sendable {
        var name: String
        var rawValue: String?
        var location: CodeLocation
    }

    /// An enum: its cases, with raw values when the raw type is `String`.
    struct EnumDeclaration: Sendable {
        var path: [String]
        var cases: [EnumCase]
        var hasStringRawValues: Bool
    }

    struct CallSite: Sendable {
        var api: String
        var argument: [ExpressionToken]
        var context: Context
        /// The entry point's name in the call.
        var location: CodeLocation
        var kind: EntryPoint.Kind = .productIDs
        /// Set when the call is one of a wrapper function's call sites: the wrapper's display
        /// name, and the call's arguments (`argument` is then empty).
        var wrapper: String? = nil
        var arguments: [CallArgument] = []
        /// The enclosing function's statements before the call, as token indices into the file:
        /// run first, so the argument sees the locals they set.
        var prefix: Range<Int>? = nil
        /// The argument as written, when `argument` was written over from another language (Dart).
        var written: String? = nil
    }

    /// A call that makes a value of an app type whose initializer stores its parameters.
    struct Construction: Sendable {
        var type: String
        /// Objective-C: the initializer called (`initWithSKUs`); nil for Swift, whose `init`s are
        /// chosen by their labels.
        var initializer: String? = nil
        var arguments: [CallArgument]
        var context: Context
        var prefix: Range<Int>?
    }

    struct CallArgument: Sendable {
        var label: String?
        var tokens: [ExpressionToken]
    }

    /// An app function whose parameters reach an entry point: its call sites are entry points.
    struct WrapperFunction: Sendable {
        enum Body: Sendable {
            /// It calls the entry point with this argument.
            case entry(argument: [ExpressionToken])
            /// It calls another wrapper (by display name) with these arguments.
            case wrapper(String, arguments: [CallArgument])
        }

        var name: String
        var parameters: [Parameter]
        var entry: EntryPoint
        var location: CodeLocation
        /// `requestProducts(_:)`.
        var display: String
        var body: Body
        /// The statements before the call, as token indices into the file.
        var prefix: Range<Int>?
        var context: Context
        /// Callable only from its own file: Swift's `private`, Dart's `_name`, a JavaScript
        /// function its module does not export.
        var isPrivate = false
    }

    struct FileSummary: Sendable {
        var path: String
        var language: Language
        var definitions: [Definition] = []
        var enums: [EnumDeclaration] = []
        var calls: [CallSite] = []
        var wrappers: [WrapperFunction] = []
        /// Types whose initializers store a parameter (`init(ids:) { self.ids = ids }`).
        var storingTypes: Set<String> = []
        /// Each class's superclass, as written (`class Cafe: TillBase`, `@interface Kite : Base`).
        var supertypes: [String: String] = [:]
        /// The fields a Dart class's constructor sets from its positional parameters, in order:
        /// `const Coin(this.sku, this.amount)` → `Coin: [sku, amount]`.
        var positionalFields: [String: [String]] = [:]
        /// The types whose code requests products (a call site or a wrapper is in them).
        var requestTypes: Set<String> = []
        /// The limits the file reached, each said once in a scan problem.
        var limitsReached: Set<String> = []
        /// The identifiers the file uses, as a Bloom filter: a later pass looks for a wrapper's
        /// name only in the files that may use it.
        var identifiers = IdentifierFilter()
        /// Calls that make a value of one of those types: `Store(ids: [...])`.
        var constructions: [Construction] = []
        var secrets: [SecretSighting] = []
        var imports: Set<String> = []
        var usesStoreKit1 = false
        var usesStoreKit2 = false
        /// `import StoreKit` only to ask for App Store reviews (``dropReviewOnlyStoreKitImport()``).
        var importsStoreKitForReviews = false
        /// The file's bytes, from which a body is copied out when first evaluated.
        var source: [UInt8] = []
        var storeKit2Uses: [StoreKit2Use] = []
        /// Where the file asks whether the device may make payments (``notePaymentChecks()``).
        var paymentChecks: [PaymentCheck] = []
        /// Imported modules the scanner does not know, named like purchase libraries (``SourceScanner/namesPurchaseModule(_:)``).
        var unreadLibraries: Set<String> = []
        /// The blocks of `if`/`else` statements, with their conditions (``Branches.swift``).
        var branches: [Branch] = []
        /// JavaScript: purchase libraries the file re-exports (`export * from 'react-native-iap'`),
        /// so that importing the file imports them (``Barrels.swift``).
        var reexports: Set<String> = []
        /// JavaScript: the app's own modules the file imports, as written (`./iap`, `@/iap`).
        var localImports: Set<String> = []
    }

    static func summarize(
        bytes: [UInt8], file: String, language: Language, wrappers: [String: [WrapperFunction]] = [:], storingTypes: Set<String> = [],
        moduleAliases: [String: String] = [:]
    ) -> FileSummary {
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = Lexer(bytes: buffer, language: language)
            lexer.run()
            var summarizer = Summarizer(bytes: buffer, tokens: lexer.tokens, file: file, language: language)
            summarizer.summary.source = bytes
            summarizer.wrappers = wrappers
            summarizer.storingTypes = storingTypes
            summarizer.moduleAliases = moduleAliases
            summarizer.summary.imports = lexer.imports
            if lexer.stringNestingLimited {
                summarizer.summary.limitsReached.insert(
                    "strings nested in string interpolation more than \(Lexer.maxStringNesting) deep are not read")
            }
            switch language {
            case .swift: summarizer.summarizeSwift()
            case .objectiveC: summarizer.summarizeObjectiveC()
            case .dart: summarizer.summarizeDart()
            case .javaScript: summarizer.summarizeJavaScript()
            case .cSharp: summarizer.summarizeCSharp()
            }
            summarizer.keepSecretsUsedForReceipts()
            summarizer.dropReviewOnlyStoreKitImport()
            summarizer.notePaymentChecks()
            var summary = summarizer.summary
            summary.requestTypes = Set((summary.calls.map(\.context) + summary.wrappers.map(\.context)).compactMap { $0.typePaths.last?.last })
            return summary
        }
    }

    /// Walks one file's tokens once, recording constants, string enums and StoreKit call sites.
    struct Summarizer {
        typealias CallSite = SourceScanner.CallSite
        typealias Definition = SourceScanner.Definition
        typealias EnumCase = SourceScanner.EnumCase
        typealias EnumDeclaration = SourceScanner.EnumDeclaration
        typealias Parameter = SourceScanner.Parameter
        typealias Condition = SourceScanner.Condition
        typealias WrapperFunction = SourceScanner.WrapperFunction
        typealias ExpressionToken = SourceScanner.ExpressionToken
        typealias CallArgument = SourceScanner.CallArgument
        typealias Construction = SourceScanner.Construction

        let bytes: UnsafeBufferPointer<UInt8>
        let tokens: [Token]
        let language: Language
        var summary: FileSummary
        var scopes: [Scope] = []
        var typePaths: [[String]] = []
        var pendingType: PendingType?
        var mentionsMutablePayment = false
        /// A Dart file that builds flutter_inapp_purchase's request objects
        /// (`RequestPurchaseIosProps(sku:)`): its `requestPurchase(x)` hands one over, not an ID.
        var buildsPurchaseRequests = false
        var columnCache: (offset: Int, column: Int)?
        var columnCheckpoints: [Int: (offset: Int, column: Int)] = [:]
        var productIdentifierAssignments: [CallSite] = []
        /// Wrapper functions found in the first pass, by name: their calls are entry points.
        var wrappers: [String: [WrapperFunction]] = [:]
        /// Types found in an earlier pass whose initializers store parameters: calls that make one
        /// are recorded.
        var storingTypes: Set<String> = []
        /// A `func` whose body has not opened yet, and the token after its parameter list.
        var pendingFunction: (header: FunctionHeader, bodyAfter: Int)?
        /// JavaScript: local names of a purchase library's functions imported under another name.
        var importAliases: [String: String] = [:]
        /// JavaScript: the app's modules that re-export a purchase library, as this file names
        /// them, and the library (``Barrels.swift``).
        var moduleAliases: [String: String] = [:]
        /// The `if` block closed last, and the conditions an `else` after it runs under.
        var lastIf: (close: Int, otherwise: [BranchCondition])?
        /// A computed property whose body opens at `open`.
        var pendingProperty: (name: Int, isPrivate: Bool, open: Int, recordsValue: Bool)?
        /// The OS versions `#available` checks and `@available` attributes require around here.
        var availability = SourceScanner.AvailabilityTracker()
        /// What the Objective-C pass remembers between tokens (ObjectiveCSummarizer.swift).
        var objectiveC = ObjectiveCState()

        /// Longer initializers are UI code, not ID lists; skipping them keeps summaries small.
        static let maxExpressionTokens = 2048
        /// Type declarations nested deeper than this are read as members of the deepest kept.
        static let maxTypeNesting = 16

        struct Scope {
            var open: Int
            var typePath: [String]?
            var enumIndex: Int?
            var localDefinitions: [Int] = []
            var function: FunctionHeader?
            /// A computed property's name token, for a body recorded when it closes.
            var property: (name: Int, isPrivate: Bool, recordsValue: Bool)?
            /// The block of an `if` or `else`: the conditions it runs under.
            var branch: [BranchCondition]?
            /// A `return` or `throw` stands directly in this block: it always exits.
            var exits = false
            /// Early exits in this block (`if (c) return;`): from `start` to the block's end,
            /// the code runs only when `c` does not hold.
            var exitGuards: [(start: Int, condition: BranchCondition)] = []
        }

        struct FunctionHeader {
            var name: String
            var parameters: [Parameter]
            var location: CodeLocation
            /// Whether it returns a value that could be a product ID list (not `Void`, not a view).
            var returnsValue = false
            var isPrivate = false
            /// An Objective-C method: its statements are not run as Swift's are.
            var isObjectiveC = false
        }

        struct PendingType {
            var path: [String]
            var isEnum: Bool
            var hasStringRawValues: Bool
        }

        /// The `#if` branches open at the current token, outermost first; each entry lists the
        /// branch's own condition after the negations of the branches before it.
        var conditionStack: [[Condition]] = []
        var conditions: [Condition] { conditionStack.flatMap { $0 } }

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

        /// Unicode scalars (not bytes) from the start of the line, 1-based, as every reader counts
        /// columns. Counting on from the last answer when it was earlier on the same line keeps a
        /// long generated line linear.
        mutating func column(of offset: Int) -> Int {
            if let cached = columnCache, cached.offset <= offset,
               !bytes[cached.offset..<offset].contains(0x0A) {
                let column = cached.column + scalarCount(cached.offset..<offset)
                remember(offset, column)
                return column
            }
            // An earlier answer on the same line, from the checkpoints kept per 256-byte block: a long
            // generated line read out of order (a declaration, then its object's members) stays
            // linear.
            var block = offset >> 8
            while block >= 0 && (offset >> 8) - block < 256 {
                if let checkpoint = columnCheckpoints[block], checkpoint.offset <= offset {
                    if !bytes[checkpoint.offset..<offset].contains(0x0A) {
                        let column = checkpoint.column + scalarCount(checkpoint.offset..<offset)
                        remember(offset, column)
                        return column
                    }
                    break
                }
                block -= 1
            }
            var lineStart = offset
            while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
            if lineStart == 0 && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
                lineStart = 3
            }
            let column = scalarCount(lineStart..<offset) + 1
            remember(offset, column)
            return column
        }

        /// Keeps `offset`'s column as the last answer and as its block's checkpoint (the earliest).
        mutating func remember(_ offset: Int, _ column: Int) {
            columnCache = (offset, column)
            if columnCheckpoints[offset >> 8].map({ offset < $0.offset }) ?? true { columnCheckpoints[offset >> 8] = (offset, column) }
        }

        /// UTF-8 lead bytes: one per Unicode scalar.
        func scalarCount(_ range: Range<Int>) -> Int {
            var count = 0
            for index in range where bytes[index] & 0xC0 != 0x80 { count += 1 }
            return count
        }

        /// Where `token`, which starts at `line` and `column`, ends: the line of its last character
        /// and the column after it.
        mutating func end(of token: Token, line: Int, column: Int) -> (line: Int, column: Int) {
            let breaks = bytes[token.start..<token.end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            if breaks == 0 { return (line, column + scalarCount(token.start..<token.end)) }
            return (line + breaks, self.column(of: token.end))
        }

        /// The span of the token at `index`.
        mutating func location(_ index: Int) -> CodeLocation {
            let token = tokens[index]
            let column = column(of: token.start)
            let end = end(of: token, line: token.line, column: column)
            return CodeLocation(file: summary.path, line: token.line, column: column, endLine: end.line, endColumn: end.column)
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
            expressionEnd(from: start) { k in
                isPunctuation(k, ",") || isPunctuation(k, ";") || isWord(k, "else")
                    || (tokens[k].line > tokens[k - 1].line && !continuesAcrossLine(k))
                    || (isPunctuation(k, "{") && !isTrailingClosureMethod(k - 1))
            }
        }

        /// The end (exclusive) of an expression starting at `start`, in any language: an unmatched
        /// closer, or a token after the first, at depth 0, where `ends` says the language's
        /// expression stops.
        func expressionEnd(from start: Int, limit: Int? = nil, ends: (Int) -> Bool) -> Int {
            var depth = 0
            var k = start
            let limit = min(limit ?? tokens.count, tokens.count)
            while k < limit {
                if depth == 0 && k > start && ends(k) { break }
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
            expressionEnd(from: start) { k in
                isPunctuation(k, ",") || isPunctuation(k, ";") || (isIdentifier(k) && isPunctuation(k + 1, ":") && !isOperator(k - 1, "?"))
            }
        }

        /// Copies `range` out of the file so it can be evaluated once every file is summarized.
        mutating func snapshot(_ range: Range<Int>, limit: Int = Self.maxExpressionTokens) -> [ExpressionToken]? {
            guard !range.isEmpty, range.count <= limit else { return nil }
            var result: [ExpressionToken] = []
            result.reserveCapacity(range.count)
            for k in range {
                let token = tokens[k]
                let attached = k > range.lowerBound && token.start == tokens[k - 1].end
                if token.kind == .string {
                    let value = stringValue(token)
                    let column = column(of: token.start)
                    let end = end(of: token, line: token.line, column: column)
                    var expression = ExpressionToken(
                        kind: .string, text: value ?? "", isLiteral: value != nil, line: token.line,
                        column: column, endLine: end.line, endColumn: end.column, attached: attached)
                    if value == nil {
                        switch language {
                        case .dart, .javaScript: expression.parts = dartInterpolationParts(token, line: token.line, column: column, end: end)
                        case .cSharp: expression.parts = cSharpInterpolationParts(token, line: token.line, column: column, end: end)
                        default: expression.parts = interpolationParts(token, line: token.line, column: column, end: end)
                        }
                    }
                    result.append(expression)
                } else {
                    result.append(ExpressionToken(
                        kind: token.kind, text: text(k), isLiteral: false, line: token.line, column: 0, attached: attached))
                }
            }
            switch language {
            case .dart: return Self.dartNormalized(result)
            case .javaScript: return Self.javaScriptNormalized(result)
            case .cSharp: return Self.cSharpNormalized(result)
            default: return result
            }
        }

        /// A single-line Swift string with `\(…)`: its text pieces and the tokens of each
        /// interpolation, which the resolver evaluates like any expression.
        func interpolationParts(_ token: Token, line: Int, column: Int, end: (line: Int, column: Int)) -> [StringPart]? {
            guard language == .swift, token.flags & Token.interpolated != 0,
                  token.flags & (Token.unterminated | Token.multiline) == 0 else { return nil }
            let hashes = token.hashes
            let bodyStart = token.start + hashes + 1
            let bodyEnd = token.end - 1 - hashes
            var parts: [StringPart] = []
            var segmentStart = bodyStart
            var p = bodyStart
            while p < bodyEnd {
                guard bytes[p] == 0x5C else {
                    p += 1
                    continue
                }
                var found = 0
                while found < hashes && p + 1 + found < bodyEnd && bytes[p + 1 + found] == 0x23 { found += 1 }
                let open = p + 1 + hashes
                guard found == hashes, open < bodyEnd, bytes[open] == 0x28 else {
                    p += found == hashes ? 2 + hashes : 1  // an escape: skip the escaped character
                    continue
                }
                if segmentStart < p { parts.append(.text(decodeEscapes(segmentStart..<p, hashes: hashes, lineContinuation: false))) }
                var lexer = Lexer(bytes: bytes, language: .swift)
                let after = lexer.skipInterpolation(.parenthesized, openAt: open, allowNewlines: false)
                guard after <= bodyEnd, after > open + 1, bytes[after - 1] == 0x29 else { return nil }
                let inner = UnsafeBufferPointer(rebasing: bytes[(open + 1)..<(after - 1)])
                var innerLexer = Lexer(bytes: inner, language: .swift)
                innerLexer.run()
                let nested = Summarizer(bytes: inner, tokens: innerLexer.tokens, file: summary.path, language: .swift)
                guard var expression = nested.plainSnapshot() else { return nil }
                // What an interpolation yields is written where the whole literal is.
                for k in expression.indices {
                    expression[k].line = line
                    expression[k].column = column
                    expression[k].endLine = end.line
                    expression[k].endColumn = end.column
                }
                parts.append(.expression(expression))
                p = after
                segmentStart = after
            }
            if segmentStart < bodyEnd { parts.append(.text(decodeEscapes(segmentStart..<bodyEnd, hashes: hashes, lineContinuation: false))) }
            return parts
        }

        /// The tokens of an interpolation, without nested interpolations.
        func plainSnapshot() -> [ExpressionToken]? {
            guard !tokens.isEmpty, tokens.count <= 64 else { return nil }
            return tokens.indices.map { k in
                let token = tokens[k]
                let attached = k > 0 && token.start == tokens[k - 1].end
                if token.kind == .string {
                    let value = stringValue(token)
                    return ExpressionToken(kind: .string, text: value ?? "", isLiteral: value != nil, line: token.line, column: 0, attached: attached)
                }
                return ExpressionToken(kind: token.kind, text: text(k), isLiteral: false, line: token.line, column: 0, attached: attached)
            }
        }

        func context(_ position: Int) -> Context {
            Context(file: 0, position: position, typePaths: typePaths, language: language, conditions: conditions)
        }

        // MARK: String values

        /// The decoded value of a string literal; nil when interpolated or unterminated.
        func stringValue(_ token: Token) -> String? {
            guard token.flags & (Token.interpolated | Token.unterminated) == 0 else { return nil }
            if language == .dart || language == .javaScript { return dartStringValue(token) }
            if language == .cSharp { return cSharpStringValue(token) }
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

    }
}
