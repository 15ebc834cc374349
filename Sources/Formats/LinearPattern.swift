import Foundation

/// The regular expressions of `pattern` options (`rules.yaml` and users' `custom_rules`), matched
/// in time linear in the value: a Thompson automaton simulated one character at a time, never a
/// backtracking engine (which, like Swift's `Regex`, can take exponential time, e.g. on
/// `([A-Za-z]+ ?)+` against a product title with one accented letter).
///
/// The syntax is the common subset of regular expressions: literals, `.`, classes (`[a-z._-]`,
/// `[^-]`, with `\d`, `\w`, `\s` inside), `\d \D \w \W \s \S`, escaped punctuation, `\n \t \r \f
/// \v \0`, groups (`(…)`, `(?:…)`, `(?<name>…)`), `|`, `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (a
/// lazy `?` after a quantifier is accepted: it does not change what matches the whole value), and
/// the anchors `^` and `$`. Anything else (back references, look-around, atomic groups,
/// possessive quantifiers, `\b`, `\p{…}`, inline options, nested classes and class set
/// operations) is a configuration error that names it and where it is.
///
/// The pattern must match the whole value. It is matched against the value's characters
/// (extended grapheme clusters, as Swift's `Regex` does by default): a character of several
/// scalars (`e` + a combining accent) is taken in its composed form when it has one (`é`); a class
/// range or member matches only a character that is one scalar that way, and `\d \w \s` test the
/// character's first scalar.
/// Cost: at most (value's characters) × (pattern's states), with at most `maxStates` states.
public final class LinearPattern: @unchecked Sendable {
    /// A pattern the matcher cannot take, with where in the pattern (0-based, in characters).
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public var offset: Int
    }

    /// States after `{n,m}` are expanded: enough for any real pattern, and a bound on the cost per character.
    public static let maxStates = 2_000
    /// The largest `n` or `m` in `{n,m}`.
    public static let maxRepeat = 1_000

    // MARK: The syntax tree

    struct ClassSet {
        /// Answers for ASCII scalars (escapes included), precomputed.
        var ascii = [Bool](repeating: false, count: 128)
        /// Inclusive scalar ranges (non-ASCII part).
        var ranges: [ClosedRange<UInt32>] = []
        var properties: [Property] = []
        var negated = false

        /// For a character that is not one scalar: only the escapes can match it, by its first scalar.
        func contains(composite first: Unicode.Scalar) -> Bool {
            properties.contains { $0.matches(first) } != negated
        }

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            let inSet: Bool
            if scalar.value < 128 {
                inSet = ascii[Int(scalar.value)]
            } else {
                inSet = ranges.contains { $0.contains(scalar.value) } || properties.contains { $0.matches(scalar) }
            }
            return inSet != negated
        }
    }

    enum Property {
        case digit(Bool), word(Bool), space(Bool)

        func matches(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .digit(let positive): return LinearPattern.isDigit(scalar) == positive
            case .word(let positive): return LinearPattern.isWord(scalar) == positive
            case .space(let positive): return LinearPattern.isSpace(scalar) == positive
            }
        }
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.numericType == .decimal }
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" || isDigit(scalar) || scalar.properties.isAlphabetic { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
        default: return false
        }
    }
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }

    enum Test {
        case character(Character)
        case any
        case set(ClassSet)
    }

    indirect enum Tree {
        case empty
        case test(Test)
        case sequence([Tree])
        case choice([Tree])
        case star(Tree)
        case plus(Tree)
        case optional(Tree)
        case begin
        case end

        /// States this tree compiles to (an upper bound).
        var size: Int {
            switch self {
            case .empty, .test, .begin, .end: return 1
            case .sequence(let items): return items.reduce(0) { $0 + $1.size }
            case .choice(let items): return items.reduce(items.count) { $0 + $1.size }
            case .star(let inner), .plus(let inner), .optional(let inner): return inner.size + 1
            }
        }
    }

    // MARK: Parsing

    private struct Parser {
        let p: [Character]
        var i = 0
        /// States so far, bounded while `{n,m}` is expanded.
        var budget = LinearPattern.maxStates

        init(_ pattern: String) { p = Array(pattern) }

        func problem(_ message: String, at offset: Int) -> Problem { Problem(message: message, offset: offset) }

        mutating func parseChoice(depth: Int) throws(Problem) -> Tree {
            guard depth < 64 else { throw problem("groups are nested more than 64 deep", at: i) }
            var branches: [Tree] = [try parseSequence(depth: depth)]
            while i < p.count, p[i] == "|" {
                i += 1
                branches.append(try parseSequence(depth: depth))
            }
            return branches.count == 1 ? branches[0] : .choice(branches)
        }

        mutating func parseSequence(depth: Int) throws(Problem) -> Tree {
            var items: [Tree] = []
            while i < p.count, p[i] != "|", p[i] != ")" {
                let atomStart = i
                var atom = try parseAtom(depth: depth)
                atom = try quantified(atom, atomStart: atomStart)
                items.append(atom)
            }
            if items.isEmpty { return .empty }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        /// Reads the quantifiers after an atom (several may follow one another, as in `a??` or `(a*)*`).
        mutating func quantified(_ atom: Tree, atomStart: Int) throws(Problem) -> Tree {
            var atom = atom
            while i < p.count {
                let start = i
                let (minimum, maximum): (Int, Int?)
                switch p[i] {
                case "*": (minimum, maximum) = (0, nil); i += 1
                case "+": (minimum, maximum) = (1, nil); i += 1
                case "?": (minimum, maximum) = (0, 1); i += 1
                case "{":
                    // A brace that starts no `{n,m}` is the character itself.
                    guard let bounds = try counted() else { return atom }
                    (minimum, maximum) = bounds
                default:
                    return atom
                }
                if case .begin = atom { throw problem("a quantifier after `^` repeats nothing", at: start) }
                if case .end = atom { throw problem("a quantifier after `$` repeats nothing", at: start) }
                // A lazy `?` right after a quantifier: the same whole-value answer.
                if i < p.count, p[i] == "?" { i += 1 }
                if i < p.count, p[i] == "+" {
                    throw problem("possessive quantifiers (`*+`, `++`, `?+`) are not supported", at: i)
                }
                atom = try repeated(atom, minimum, maximum, at: start)
            }
            return atom
        }

        /// `{n}`, `{n,}`, `{n,m}` at `i`; nil (and `i` unchanged) when the brace starts none of them.
        mutating func counted() throws(Problem) -> (Int, Int?)? {
            let start = i
            var k = i + 1
            func number() -> Int? {
                var value = 0
                var digits = 0
                while k < p.count, let digit = p[k].wholeNumberValue, p[k].isASCII {
                    value = min(value * 10 + digit, 1_000_000)
                    digits += 1
                    k += 1
                }
                return digits > 0 ? value : nil
            }
            guard let minimum = number() else { return nil }
            var maximum: Int? = minimum
            if k < p.count, p[k] == "," {
                k += 1
                maximum = number()
            }
            guard k < p.count, p[k] == "}" else { return nil }
            if minimum > LinearPattern.maxRepeat || (maximum ?? 0) > LinearPattern.maxRepeat {
                throw problem("a count in `{n,m}` is over \(LinearPattern.maxRepeat)", at: start)
            }
            if let maximum, maximum < minimum {
                throw problem("`{\(minimum),\(maximum)}` has its larger number first", at: start)
            }
            i = k + 1
            return (minimum, maximum)
        }

        mutating func repeated(_ atom: Tree, _ minimum: Int, _ maximum: Int?, at offset: Int) throws(Problem) -> Tree {
            let copies = minimum + (maximum.map { $0 - minimum } ?? 1)
            let size = atom.size
            guard size.multipliedReportingOverflow(by: max(copies, 1)).partialValue <= budget, copies <= LinearPattern.maxStates else {
                throw problem("the pattern is too large once `{n,m}` is expanded (more than \(LinearPattern.maxStates) states)", at: offset)
            }
            budget -= size * max(copies - 1, 0)
            switch (minimum, maximum) {
            case (0, nil): return .star(atom)
            case (1, nil): return .plus(atom)
            case (0, 1?): return .optional(atom)
            default: break
            }
            var items = Array(repeating: atom, count: minimum)
            if let maximum {
                if maximum > minimum {
                    // `a{2,4}` is `aa(a(a)?)?`: nested, so the automaton stays linear in the count.
                    var tail: Tree = .optional(atom)
                    for _ in 0..<(maximum - minimum - 1) { tail = .optional(.sequence([atom, tail])) }
                    items.append(tail)
                }
            } else {
                items.append(.star(atom))
            }
            if items.isEmpty { return .empty }
            return items.count == 1 ? items[0] : .sequence(items)
        }

        mutating func parseAtom(depth: Int) throws(Problem) -> Tree {
            let start = i
            let c = p[i]
            switch c {
            case "(":
                i += 1
                if i < p.count, p[i] == "?" {
                    guard i + 1 < p.count else { throw problem("`(?` is not finished", at: start) }
                    let kind = p[i + 1]
                    if kind == ":" {
                        i += 2
                    } else if kind == "<" && i + 2 < p.count && p[i + 2] != "=" && p[i + 2] != "!" {
                        try skipName(start: start, closer: ">", from: i + 2)
                    } else if kind == "P" && i + 2 < p.count && p[i + 2] == "<" {
                        try skipName(start: start, closer: ">", from: i + 3)
                    } else if kind == "'" {
                        try skipName(start: start, closer: "'", from: i + 2)
                    } else {
                        let what: String
                        switch kind {
                        case "=", "!": what = "look-ahead `(?\(kind)…)`"
                        case "<": what = "look-behind `(?<\(i + 2 < p.count ? String(p[i + 2]) : "")…)`"
                        case ">": what = "atomic groups `(?>…)`"
                        default: what = "inline options and other `(?…)` groups"
                        }
                        throw problem("\(what) are not supported: patterns run in linear time", at: start)
                    }
                }
                let inner = try parseChoice(depth: depth + 1)
                guard i < p.count, p[i] == ")" else { throw problem("this `(` is never closed", at: start) }
                i += 1
                return inner
            case ")":
                throw problem("this `)` closes no group", at: start)
            case "[":
                return .test(.set(try parseClass()))
            case "\\":
                return try parseEscape(inClass: false)
            case ".":
                i += 1
                return .test(.any)
            case "^":
                i += 1
                return .begin
            case "$":
                i += 1
                return .end
            case "*", "+", "?":
                throw problem("`\(c)` follows nothing it could repeat", at: start)
            case "{":
                if (try? counted()) ?? nil != nil { throw problem("`{n,m}` follows nothing it could repeat", at: start) }
                i = start + 1
                return .test(.character(c))
            default:
                i += 1
                return .test(.character(c))
            }
        }

        mutating func skipName(start: Int, closer: Character, from: Int) throws(Problem) {
            var k = from
            while k < p.count, p[k] != closer {
                guard p[k].isLetter || p[k].isNumber || p[k] == "_" else { throw problem("a group name has `\(p[k])`", at: k) }
                k += 1
            }
            guard k < p.count, k > from else { throw problem("the group's name is not finished", at: start) }
            i = k + 1
        }

        /// `\` at `i`: a class escape, a control character or escaped punctuation.
        mutating func parseEscape(inClass: Bool) throws(Problem) -> Tree {
            let start = i
            guard i + 1 < p.count else { throw problem("the pattern ends with a lone `\\`", at: start) }
            let c = p[i + 1]
            i += 2
            var set = ClassSet()
            switch c {
            case "d", "D", "w", "W", "s", "S":
                let positive = c.isLowercase
                let property: Property = c == "d" || c == "D" ? .digit(positive) : c == "w" || c == "W" ? .word(positive) : .space(positive)
                set.properties = [property]
                for byte in 0..<128 { set.ascii[byte] = property.matches(Unicode.Scalar(UInt8(byte))) }
                return .test(.set(set))
            case "n": return .test(.character("\n"))
            case "t": return .test(.character("\t"))
            case "r": return .test(.character("\r"))
            case "f": return .test(.character("\u{0C}"))
            case "v": return .test(.character("\u{0B}"))
            case "0": return .test(.character("\u{00}"))
            default:
                if c.isASCII, c.isPunctuation || c.isSymbol || c == " " {
                    return .test(.character(c))
                }
                let what: String
                switch c {
                case "b", "B": what = "word boundaries (`\\b`, `\\B`)"
                case "A", "z", "Z", "G": what = "`\\\(c)`; use `^` and `$`"
                case "p", "P": what = "Unicode properties (`\\p{…}`)"
                case "1"..."9", "k", "g": what = "back references"
                default: what = "the escape `\\\(c)`"
                }
                throw problem("\(what) \(what.hasPrefix("the escape") ? "is" : "are") not supported", at: start)
            }
        }

        mutating func parseClass() throws(Problem) -> ClassSet {
            let start = i
            i += 1
            var set = ClassSet()
            if i < p.count, p[i] == "^" {
                set.negated = true
                i += 1
            }
            var first = true
            func add(_ low: Unicode.Scalar, _ high: Unicode.Scalar, into set: inout ClassSet) {
                if low.value < 128 { for byte in low.value...min(high.value, 127) { set.ascii[Int(byte)] = true } }
                if high.value >= 128 { set.ranges.append(max(low.value, 128)...high.value) }
            }
            /// One class member: a scalar, or nil for an escape that added a property.
            func member(_ parser: inout Parser, _ set: inout ClassSet) throws(Problem) -> Unicode.Scalar? {
                let c = parser.p[parser.i]
                if c == "\\" {
                    let escapeStart = parser.i
                    let tree = try parser.parseEscape(inClass: true)
                    switch tree {
                    case .test(.character(let literal)):
                        return literal.unicodeScalars.first
                    case .test(.set(let escaped)):
                        for byte in 0..<128 where escaped.ascii[byte] { set.ascii[byte] = true }
                        set.properties += escaped.properties
                        return nil
                    default:
                        throw parser.problem("this escape is not supported in a class", at: escapeStart)
                    }
                }
                guard c.unicodeScalars.count == 1, let scalar = c.unicodeScalars.first else {
                    throw parser.problem("`\(c)` is several characters in one; write it outside the class", at: parser.i)
                }
                parser.i += 1
                return scalar
            }
            while true {
                guard i < p.count else { throw problem("this `[` is never closed", at: start) }
                let c = p[i]
                if c == "]" && !first {
                    i += 1
                    break
                }
                if c == "]" { throw problem("an empty class `[]` matches nothing; write `\\]` for the character", at: i) }
                first = false
                if c == "[" { throw problem("nested classes and `[:name:]` are not supported; write `\\[` for the character", at: i) }
                if i + 1 < p.count, c == p[i + 1], c == "&" || c == "-" || c == "~" {
                    throw problem("class set operations (`&&`, `--`, `~~`) are not supported", at: i)
                }
                let memberStart = i
                guard let low = try member(&self, &set) else { continue }
                if i + 1 < p.count, p[i] == "-", p[i + 1] != "]" {
                    i += 1
                    guard let high = try member(&self, &set) else {
                        throw problem("a range ends in a class escape", at: memberStart)
                    }
                    guard low.value <= high.value else { throw problem("the range `\(low)-\(high)` is backwards", at: memberStart) }
                    add(low, high, into: &set)
                } else {
                    add(low, low, into: &set)
                }
            }
            return set
        }
    }

    // MARK: The automaton

    private enum Node {
        case test(Int, next: Int)
        case split(Int, Int)
        case begin(next: Int)
        case end(next: Int)
        case jump(Int)
        case match
    }

    /// By bit: what a character must pass for the state to consume it (nil for non-consuming bits).
    private let tests: [Test?]
    /// By bit: the states reached after the state consumed a character.
    private let follow: [[UInt64]]
    private let startMask: [UInt64]
    private let startMaskAtEnd: Bool
    private let acceptBit: Int
    /// Bits of `$` states whose continuation accepts at the end of the value.
    private let endAccepting: [UInt64]
    private let words: Int
    /// For ASCII values when the automaton is small: by (byte, word), the states whose test the
    /// byte passes; with `flatFollow` (by (bit, word)), what they lead to. 1 KB a word, where a
    /// table by (bit, byte, word) would take up to 200 KB a pattern, all zeroed at start-up.
    private let asciiPasses: [UInt64]?
    private let flatFollow: [UInt64]
    /// For ASCII values: the automaton's sets of states made states of their own, so a byte costs
    /// one table lookup (``AsciiDFA``); nil when there would be more than ``AsciiDFA/maxStates``.
    private let asciiDFA: AsciiDFA?

    /// The source, for messages.
    public let source: String

    public init(_ pattern: String) throws(Problem) {
        source = pattern
        var parser = Parser(pattern)
        let tree = try parser.parseChoice(depth: 0)
        if parser.i < parser.p.count { throw Problem(message: "this `)` closes no group", offset: parser.i) }
        guard tree.size <= Self.maxStates else {
            throw Problem(message: "the pattern is too large (more than \(Self.maxStates) states)", offset: 0)
        }

        var nodes: [Node] = [.match]
        var testList: [Test] = []
        func compile(_ tree: Tree, next: Int) -> Int {
            switch tree {
            case .empty:
                return next
            case .test(let test):
                testList.append(test)
                nodes.append(.test(testList.count - 1, next: next))
                return nodes.count - 1
            case .begin:
                nodes.append(.begin(next: next))
                return nodes.count - 1
            case .end:
                nodes.append(.end(next: next))
                return nodes.count - 1
            case .sequence(let items):
                var entry = next
                for item in items.reversed() { entry = compile(item, next: entry) }
                return entry
            case .choice(let branches):
                var entry = compile(branches[branches.count - 1], next: next)
                for branch in branches.dropLast().reversed() {
                    let other = compile(branch, next: next)
                    nodes.append(.split(other, entry))
                    entry = nodes.count - 1
                }
                return entry
            case .star(let inner):
                nodes.append(.jump(next))
                let loop = nodes.count - 1
                let body = compile(inner, next: loop)
                nodes[loop] = .split(body, next)
                return loop
            case .plus(let inner):
                nodes.append(.jump(next))
                let loop = nodes.count - 1
                let body = compile(inner, next: loop)
                nodes[loop] = .split(body, next)
                return body
            case .optional(let inner):
                let body = compile(inner, next: next)
                nodes.append(.split(body, next))
                return nodes.count - 1
            }
        }
        let start = compile(tree, next: 0)

        // Bits: consuming states, `$` states and the match state.
        var bit = [Int](repeating: -1, count: nodes.count)
        var tests: [Test?] = []
        for (index, node) in nodes.enumerated() {
            switch node {
            case .test(let test, _):
                bit[index] = tests.count
                tests.append(testList[test])
            case .end, .match:
                bit[index] = tests.count
                tests.append(nil)
            default:
                continue
            }
        }
        let count = tests.count
        let words = (count + 63) / 64
        /// The bits reachable from `state` without consuming: `^` passes only at the start; `$`
        /// stops (its bit is set) unless `atEnd`, where it passes.
        func closure(_ state: Int, atStart: Bool, atEnd: Bool) -> [UInt64] {
            var mask = [UInt64](repeating: 0, count: words)
            var seen = [Bool](repeating: false, count: nodes.count)
            var stack = [state]
            while let current = stack.popLast() {
                guard !seen[current] else { continue }
                seen[current] = true
                switch nodes[current] {
                case .split(let a, let b):
                    stack.append(b)
                    stack.append(a)
                case .jump(let target):
                    stack.append(target)
                case .begin(let next):
                    if atStart { stack.append(next) }
                case .end(let next):
                    if atEnd { stack.append(next) } else { mask[bit[current] / 64] |= 1 << UInt64(bit[current] % 64) }
                case .test, .match:
                    mask[bit[current] / 64] |= 1 << UInt64(bit[current] % 64)
                }
            }
            return mask
        }
        func has(_ mask: [UInt64], _ b: Int) -> Bool { mask[b / 64] & (1 << UInt64(b % 64)) != 0 }
        var follow = [[UInt64]](repeating: [], count: count)
        var endAccepting = [UInt64](repeating: 0, count: words)
        let acceptBit = bit[0]
        for (index, node) in nodes.enumerated() {
            switch node {
            case .test(_, let next):
                follow[bit[index]] = closure(next, atStart: false, atEnd: false)
            case .end(let next):
                if has(closure(next, atStart: false, atEnd: true), acceptBit) {
                    endAccepting[bit[index] / 64] |= 1 << UInt64(bit[index] % 64)
                }
            default:
                break
            }
        }
        self.tests = tests
        self.follow = follow
        self.words = words
        self.acceptBit = acceptBit
        self.endAccepting = endAccepting
        let startMask = closure(start, atStart: true, atEnd: false)
        self.startMask = startMask
        startMaskAtEnd = has(closure(start, atStart: true, atEnd: true), acceptBit)
        // Non-consuming states have no follow set: `words` zeros each, so rows line up.
        let flatFollow = follow.flatMap { $0.isEmpty ? [UInt64](repeating: 0, count: words) : $0 }
        self.flatFollow = flatFollow
        if count <= 256 {
            var passes = [UInt64](repeating: 0, count: 128 * words)
            for (b, test) in tests.enumerated() {
                guard let test else { continue }
                for byte in 0..<128 where Self.passes(Self.asciiSubjects[byte], test) {
                    passes[byte * words + b / 64] |= 1 << UInt64(b % 64)
                }
            }
            asciiPasses = passes
            asciiDFA = AsciiDFA(start: startMask, words: words, passes: passes, follow: flatFollow) { set in
                Self.accepts(set, acceptBit: acceptBit, endAccepting: endAccepting)
            }
        } else {
            asciiPasses = nil
            asciiDFA = nil
        }
    }

    /// A character of the value, with the scalar classes test.
    struct Subject {
        var character: Character
        /// The character as one scalar (composed if it has a composed form), or nil.
        var scalar: Unicode.Scalar?
        var first: Unicode.Scalar

        init(_ c: Character) {
            character = c
            let scalars = c.unicodeScalars
            first = scalars.first ?? "\u{0}"
            if scalars.count == 1 {
                scalar = first
            } else if c == "\r\n" {
                // One character: a newline, white space.
                scalar = "\n"
            } else {
                let composed = String(c).precomposedStringWithCanonicalMapping.unicodeScalars
                scalar = composed.count == 1 ? composed.first : nil
            }
        }
    }

    static func passes(_ c: Character, _ test: Test) -> Bool { passes(Subject(c), test) }

    /// The 128 ASCII characters as subjects, made once: the byte table asks each of them of every
    /// state, and making a `Character` and its scalar view each time would be most of a tiny
    /// check's start-up.
    static let asciiSubjects: [Subject] = (0..<128).map { Subject(Character(Unicode.Scalar(UInt8($0)))) }

    static func passes(_ subject: Subject, _ test: Test) -> Bool {
        switch test {
        case .character(let literal): return subject.character == literal
        case .any: return !subject.character.isNewline
        case .set(let set):
            if let scalar = subject.scalar { return set.contains(scalar) }
            return set.contains(composite: subject.first)
        }
    }

    private func accepts(_ current: [UInt64]) -> Bool {
        Self.accepts(current, acceptBit: acceptBit, endAccepting: endAccepting)
    }

    /// Whether a set of states matches at the end of the value: it holds the match state, or a
    /// `$` whose continuation matches there.
    private static func accepts(_ current: [UInt64], acceptBit: Int, endAccepting: [UInt64]) -> Bool {
        if current[acceptBit / 64] & (1 << UInt64(acceptBit % 64)) != 0 { return true }
        for word in endAccepting.indices where current[word] & endAccepting[word] != 0 { return true }
        return false
    }

    /// The states of the byte table ASCII values are matched with, or nil when they are matched
    /// with sets of states (for tests).
    var asciiTableStates: Int? { asciiDFA?.stateCount }

    /// Whether the whole of `text` matches. `steps`, when given, counts the state visits.
    public func wholeMatch(_ text: String) -> Bool {
        var steps = 0
        return wholeMatch(text, steps: &steps)
    }

    public func wholeMatch(_ text: String, steps: inout Int) -> Bool {
        if text.isEmpty { return startMaskAtEnd }
        var current = startMask
        var next = [UInt64](repeating: 0, count: words)
        for c in text {
            let subject = Subject(c)
            for word in 0..<words { next[word] = 0 }
            var any = false
            for word in 0..<words {
                var remaining = current[word]
                while remaining != 0 {
                    let b = word &* 64 &+ remaining.trailingZeroBitCount
                    remaining &= remaining - 1
                    steps += 1
                    guard let test = tests[b], Self.passes(subject, test) else { continue }
                    let reached = follow[b]
                    for target in 0..<words { next[target] |= reached[target] }
                    any = true
                }
            }
            if !any { return false }
            swap(&current, &next)
        }
        return accepts(current)
    }

    /// Whether the whole of `bytes` matches, for ASCII text without `\r` (each byte a character).
    public func wholeMatch(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.isEmpty { return startMaskAtEnd }
        if let asciiDFA { return asciiDFA.wholeMatch(bytes) }
        guard let asciiPasses else { return wholeMatch(String(decoding: bytes, as: UTF8.self)) }
        let words = words
        return asciiPasses.withUnsafeBufferPointer { passes in
            flatFollow.withUnsafeBufferPointer { follow in
                if words == 1 {
                    var current = startMask[0]
                    for byte in bytes {
                        guard byte < 0x80 else { return false }
                        // The states whose test the byte passes, each to where it leads.
                        var remaining = current & passes[Int(byte)]
                        var next: UInt64 = 0
                        while remaining != 0 {
                            next |= follow[remaining.trailingZeroBitCount]
                            remaining &= remaining - 1
                        }
                        current = next
                        if current == 0 { return false }
                    }
                    return accepts([current])
                }
                var current = startMask
                var next = [UInt64](repeating: 0, count: words)
                for byte in bytes {
                    guard byte < 0x80 else { return false }
                    for word in 0..<words { next[word] = 0 }
                    var any: UInt64 = 0
                    for word in 0..<words {
                        var remaining = current[word] & passes[Int(byte) &* words &+ word]
                        while remaining != 0 {
                            let base = (word &* 64 &+ remaining.trailingZeroBitCount) &* words
                            remaining &= remaining - 1
                            for target in 0..<words {
                                next[target] |= follow[base &+ target]
                                any |= follow[base &+ target]
                            }
                        }
                    }
                    swap(&current, &next)
                    if any == 0 { return false }
                }
                return accepts(current)
            }
        }
    }
}

/// A deterministic automaton over ASCII bytes, made from a ``LinearPattern``'s automaton by
/// taking each set of states it can be in as one state (the subset construction, for the sets
/// reachable from the start), over classes of bytes that every state tests alike. Every item of a
/// catalog has its product ID matched against a pattern in two rules, and its type and price tier
/// in others: the table takes one lookup a byte, where following the set of states goes bit by bit.
struct AsciiDFA: Sendable {
    /// Enough for the built-in patterns (the item types need 64); a pattern that would need more
    /// keeps the bit-set matcher.
    static let maxStates = 128
    private static let dead: UInt8 = 0xFF

    /// By byte: its class. Class 0 is the bytes no state consumes, and every byte over 0x7F.
    private let classOf: [UInt8]
    /// log2 of a state's row in `transitions` (the class count, rounded up to a power of two).
    private let rowShift: Int
    /// By (state, class): the next state, or ``dead``.
    private let transitions: [UInt8]
    private let accepting: [Bool]

    /// `start`: the start set, in `words` words; `passes[byte * words + word]`: the states whose
    /// test `byte` passes; `follow[bit * words + word]`: where state `bit` leads once it consumed
    /// a byte; `accepts`: whether a set matches at the end.
    init?(start: [UInt64], words: Int, passes: [UInt64], follow: [UInt64], accepts: ([UInt64]) -> Bool) {
        // Bytes that pass the same states are one class (each class keeps one byte's row); made
        // by comparing rows, as there are few classes (a tiny check builds every pattern's table).
        var classOf = [UInt8](repeating: 0, count: 256)
        var classRows: [ArraySlice<UInt64>] = [ArraySlice(repeating: 0, count: words)]
        for byte in 0..<128 {
            let row = passes[byte * words..<(byte + 1) * words]
            if let known = classRows.firstIndex(where: { $0.elementsEqual(row) }) {
                classOf[byte] = UInt8(known)
            } else {
                classOf[byte] = UInt8(classRows.count)
                classRows.append(row)
            }
        }
        var rowShift = 0
        while 1 << rowShift < classRows.count { rowShift += 1 }
        // The sets found so far, `words` words each, and where each is, by a hash of its words
        // (open addressing; no `Dictionary` of arrays, whose first use alone costs a tiny check
        // a search for conformances).
        var sets = start
        var slots = [Int](repeating: -1, count: 2 * Self.maxStates)
        func slot(of set: UnsafeBufferPointer<UInt64>) -> (slot: Int, state: Int?) {
            var hash: UInt64 = 0
            for word in set { hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15 }
            var slot = Int(truncatingIfNeeded: hash >> 56) & (slots.count - 1)
            while let state = slots[slot] >= 0 ? slots[slot] : nil {
                if sets[state * words..<(state + 1) * words].elementsEqual(set) { return (slot, state) }
                slot = (slot + 1) & (slots.count - 1)
            }
            return (slot, nil)
        }
        slots[start.withUnsafeBufferPointer { slot(of: $0).slot }] = 0
        var transitions: [UInt8] = []
        var next = [UInt64](repeating: 0, count: words)
        var state = 0
        while state * words < sets.count {
            for row in classRows {
                var any: UInt64 = 0
                for word in 0..<words { next[word] = 0 }
                for word in 0..<words {
                    var remaining = sets[state * words + word] & row[row.startIndex + word]
                    while remaining != 0 {
                        let base = (word * 64 + remaining.trailingZeroBitCount) * words
                        remaining &= remaining - 1
                        for target in 0..<words {
                            next[target] |= follow[base + target]
                            any |= follow[base + target]
                        }
                    }
                }
                guard any != 0 else {
                    transitions.append(Self.dead)
                    continue
                }
                let found = next.withUnsafeBufferPointer { slot(of: $0) }
                if let known = found.state {
                    transitions.append(UInt8(known))
                } else {
                    let count = sets.count / words
                    guard count < Self.maxStates else { return nil }
                    slots[found.slot] = count
                    transitions.append(UInt8(count))
                    sets += next
                }
            }
            transitions += repeatElement(Self.dead, count: (1 << rowShift) - classRows.count)
            state += 1
        }
        self.classOf = classOf
        self.rowShift = rowShift
        self.transitions = transitions
        accepting = (0..<state).map { accepts(Array(sets[$0 * words..<($0 + 1) * words])) }
    }

    /// How many states it has (for tests).
    var stateCount: Int { accepting.count }

    /// Whether the whole of `bytes` (not empty) matches.
    func wholeMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        classOf.withUnsafeBufferPointer { classOf in
            transitions.withUnsafeBufferPointer { table in
                var state = 0
                for byte in bytes {
                    let next = table[state &<< rowShift | Int(classOf[Int(byte)])]
                    if next == Self.dead { return false }
                    state = Int(next)
                }
                return accepting[state]
            }
        }
    }
}
