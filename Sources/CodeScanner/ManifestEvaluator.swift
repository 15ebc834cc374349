/// Evaluates the declarative Swift of a Tuist manifest (`Project.swift` and its
/// `ProjectDescriptionHelpers`): string literals and interpolation, `+`, arrays and dictionaries,
/// `.member` values, calls, `let`/`var`/`static let` constants and functions whose body is a few
/// `let`s and a `return`, across files. What it cannot follow (a loop, a `switch`, an environment
/// variable) is `unknown`, never a guess. Work is bounded: every evaluation counts against a budget.
struct ManifestEvaluator {
    typealias ExpressionToken = SourceScanner.ExpressionToken

    indirect enum Value: Sendable {
        case text(String, CodeLocation)
        /// `.app`, `.iOS`, `.debug`: an enum case or a static member, by name.
        case member(String)
        /// `.target(name: …)`, `Project(…)`: the callee as written (`target`, `Project`) and the arguments.
        case call(String, [(label: String?, value: Value)])
        case array([Value])
        case dictionary([(key: String, value: Value)])
        case unknown

        var text: String? {
            if case .text(let text, _) = self { return text }
            return nil
        }

        func argument(_ label: String) -> Value? {
            guard case .call(_, let arguments) = self else { return nil }
            return arguments.first { $0.label == label }?.value
        }
    }

    /// A `let`/`var` (its initializer's tokens) or a `func` (its parameters and body's tokens),
    /// with the types around it.
    struct Declaration {
        var name: String
        var owners: [String]
        var file: String
        var tokens: ArraySlice<ExpressionToken>
        /// For a function: the parameters' labels (`_` for none) and names.
        var parameters: [(label: String, name: String)]?
    }

    var declarations: [String: [Declaration]] = [:]
    /// Tokens that may still be evaluated, helpers' bodies counted at every call: a manifest of
    /// helpers calling each other twice per level would otherwise take exponential time.
    var budget = 2_000_000
    var depth = 0
    static let maxDepth = 48
    /// Expressions open around the one being parsed, through constants and helpers too: deeper is
    /// unknown, so a crafted manifest cannot exhaust the stack.
    var nesting = 0
    static let maxNesting = 128
    /// Constants evaluated once.
    var cache: [String: Value] = [:]
    /// The longest text a value may be (a bundle ID is at most 255 bytes, a setting a line), and
    /// the most elements a list may have: past either the value is unknown, so constants that
    /// double each other cannot build gigabytes within the token budget.
    static let maxTextBytes = 4_096
    static let maxElements = 10_000

    // MARK: Declarations

    /// Collects the declarations of a file's tokens.
    mutating func collect(_ tokens: [ExpressionToken], file: String) {
        var owners: [(name: String, depth: Int)] = []
        var pendingOwner: String?
        var braces = 0
        var k = 0
        while k < tokens.count {
            let token = tokens[k]
            if token.kind == .punctuation {
                if token.text == "{" {
                    braces += 1
                    if let owner = pendingOwner {
                        owners.append((owner, braces))
                        pendingOwner = nil
                    }
                } else if token.text == "}" {
                    if owners.last?.depth == braces { owners.removeLast() }
                    braces -= 1
                }
                k += 1
                continue
            }
            guard token.kind == .identifier else {
                k += 1
                continue
            }
            switch token.text {
            case "struct", "enum", "extension", "class", "actor", "protocol":
                // `extension Project.Foo`: the owner is the last name.
                var n = k + 1
                var name: String?
                while n < tokens.count, tokens[n].kind == .identifier || tokens[n].text == "." {
                    if tokens[n].kind == .identifier { name = tokens[n].text }
                    n += 1
                }
                pendingOwner = name
                k = n
            case "let", "var":
                guard k + 1 < tokens.count, tokens[k + 1].kind == .identifier else {
                    k += 1
                    continue
                }
                let name = tokens[k + 1].text
                var n = k + 2
                // `: Type` up to `=` or `{` (a computed property).
                var nesting = 0
                while n < tokens.count {
                    let t = tokens[n]
                    if nesting == 0, t.kind == .operatorRun, t.text == "=" { break }
                    if nesting == 0, t.text == "{" { break }
                    if nesting == 0, t.kind == .identifier, ["let", "var", "func", "static", "public", "private"].contains(t.text) { break }
                    if t.text == "(" || t.text == "[" || t.text == "<" { nesting += 1 }
                    if t.text == ")" || t.text == "]" || t.text == ">" { nesting = max(0, nesting - 1) }
                    n += 1
                }
                guard n < tokens.count else { k = n; continue }
                let body: Range<Int>
                if tokens[n].text == "=" {
                    let end = Self.expressionEnd(tokens, from: n + 1)
                    body = (n + 1)..<end
                } else if tokens[n].text == "{" {
                    // A computed property's body: `{ expr }` or `{ return expr }`.
                    body = (n + 1)..<Self.matching(tokens, n)
                } else {
                    k = n
                    continue
                }
                declarations[name, default: []].append(Declaration(
                    name: name, owners: owners.map(\.name), file: file, tokens: tokens[body], parameters: nil))
                k = body.upperBound
            case "func":
                guard k + 2 < tokens.count, tokens[k + 1].kind == .identifier, tokens[k + 2].text == "(" else {
                    k += 1
                    continue
                }
                let name = tokens[k + 1].text
                let close = Self.matching(tokens, k + 2)
                var parameters: [(label: String, name: String)] = []
                var n = k + 3
                while n < close {
                    // `label name: Type` or `name: Type`, up to the next `,` at this level.
                    let end = Self.expressionEnd(tokens, from: n, stopAt: close)
                    let words = tokens[n..<end].prefix { $0.text != ":" }.filter { $0.kind == .identifier }.map(\.text)
                    if words.count >= 2 { parameters.append((words[0], words[1])) } else if let only = words.first { parameters.append((only, only)) }
                    n = end + 1
                }
                guard let open = (close..<tokens.count).first(where: { tokens[$0].text == "{" }) else {
                    k = close
                    continue
                }
                let bodyClose = Self.matching(tokens, open)
                declarations[name, default: []].append(Declaration(
                    name: name, owners: owners.map(\.name), file: file, tokens: tokens[(open + 1)..<bodyClose], parameters: parameters))
                k = bodyClose
            default:
                k += 1
            }
        }
    }

    /// The index of the bracket closing the one at `open` (or the end).
    static func matching(_ tokens: [ExpressionToken], _ open: Int) -> Int {
        var depth = 0
        var k = open
        while k < tokens.count {
            let text = tokens[k].text
            if tokens[k].kind == .punctuation {
                if text == "(" || text == "[" || text == "{" { depth += 1 }
                if text == ")" || text == "]" || text == "}" {
                    depth -= 1
                    if depth == 0 { return k }
                }
            }
            k += 1
        }
        return tokens.count
    }

    /// Where an expression starting at `start` ends: a `,` or closer at its level, or a new
    /// declaration or statement at its level on a later line.
    static func expressionEnd(_ tokens: [ExpressionToken], from start: Int, stopAt limit: Int? = nil) -> Int {
        let limit = limit ?? tokens.count
        var depth = 0
        var k = start
        while k < limit {
            let token = tokens[k]
            if token.kind == .punctuation {
                if ["(", "[", "{"].contains(token.text) { depth += 1 }
                if [")", "]", "}"].contains(token.text) {
                    if depth == 0 { return k }
                    depth -= 1
                }
                if depth == 0, token.text == "," || token.text == ";" { return k }
            }
            if depth == 0, k > start, token.kind == .identifier, token.line > tokens[k - 1].line,
               ["let", "var", "func", "static", "public", "private", "internal", "fileprivate", "struct", "enum", "extension", "class", "return", "import"].contains(token.text) {
                return k
            }
            k += 1
        }
        return k
    }

    // MARK: Evaluation

    typealias Scope = [String: Value]

    mutating func evaluate(_ tokens: ArraySlice<ExpressionToken>, scope: Scope = [:], owners: [String] = [], file: String) -> Value {
        budget -= tokens.count
        guard budget > 0 else { return .unknown }
        var parser = Parser(tokens: Array(tokens), file: file)
        return parser.parseExpression(&self, scope: scope, owners: owners)
    }

    /// The value of the constant `name` (`DefaultSetting.appIdentifier` has the path `[DefaultSetting, appIdentifier]`).
    mutating func constant(_ path: [String], scope: Scope, owners: [String]) -> Value {
        guard let name = path.last else { return .unknown }
        if path.count == 1, let bound = scope[name] { return bound }
        guard let declaration = find(path, owners: owners, function: false) else {
            // `App.target.name`: a property of a value the manifest builds (`.target(name: …)`),
            // which is the argument of that label.
            guard path.count >= 2, case .call = constant(Array(path.dropLast()), scope: scope, owners: owners) else { return .unknown }
            return constant(Array(path.dropLast()), scope: scope, owners: owners).argument(name) ?? .unknown
        }
        let key = (declaration.owners + [declaration.name]).joined(separator: ".") + "@" + declaration.file
        if let done = cache[key] { return done }
        guard depth < Self.maxDepth, budget > 0 else { return .unknown }
        depth += 1
        defer { depth -= 1 }
        let value = body(declaration.tokens, scope: [:], owners: declaration.owners, file: declaration.file)
        cache[key] = value
        return value
    }

    /// A call of a function declared in the manifests, its arguments bound to its parameters.
    mutating func call(_ path: [String], arguments: [(label: String?, value: Value)], owners: [String]) -> Value? {
        guard let declaration = find(path, owners: owners, function: true), let parameters = declaration.parameters else { return nil }
        guard depth < Self.maxDepth, budget > 0 else { return .unknown }
        depth += 1
        defer { depth -= 1 }
        var scope: Scope = [:]
        var remaining = arguments[...]
        for parameter in parameters {
            if let index = remaining.firstIndex(where: { ($0.label ?? "_") == parameter.label }) {
                scope[parameter.name] = remaining[index].value
                remaining.remove(at: index)
            } else {
                scope[parameter.name] = .unknown
            }
        }
        return body(declaration.tokens, scope: scope, owners: declaration.owners, file: declaration.file)
    }

    /// A body: `let x = …` lines, then `return …` (or the one expression).
    mutating func body(_ tokens: ArraySlice<ExpressionToken>, scope: Scope, owners: [String], file: String) -> Value {
        budget -= tokens.count
        guard budget > 0 else { return .unknown }
        let tokens = Array(tokens)
        var scope = scope
        var k = 0
        while k < tokens.count {
            let token = tokens[k]
            if token.kind == .identifier, token.text == "let" || token.text == "var", k + 2 < tokens.count, tokens[k + 1].kind == .identifier {
                var n = k + 2
                while n < tokens.count, tokens[n].text != "=" , tokens[n].line == tokens[k].line { n += 1 }
                guard n < tokens.count, tokens[n].text == "=" else { return .unknown }
                let end = Self.expressionEnd(tokens, from: n + 1)
                scope[tokens[k + 1].text] = evaluate(tokens[(n + 1)..<end], scope: scope, owners: owners, file: file)
                k = end
                continue
            }
            if token.kind == .identifier, token.text == "return" {
                let end = Self.expressionEnd(tokens, from: k + 1)
                return evaluate(tokens[(k + 1)..<end], scope: scope, owners: owners, file: file)
            }
            if token.kind == .identifier, ["if", "guard", "switch", "for", "while"].contains(token.text) { return .unknown }
            // One expression: the body of `{ expr }`.
            let end = Self.expressionEnd(tokens, from: k)
            if end >= tokens.count { return evaluate(tokens[k...], scope: scope, owners: owners, file: file) }
            k = max(end, k + 1)
        }
        return .unknown
    }

    /// The declaration `path` names: its owners must end with the path's qualifiers; a bare name
    /// prefers the caller's own type. Ambiguous names are not guessed.
    func find(_ path: [String], owners: [String], function: Bool) -> Declaration? {
        guard let name = path.last, let candidates = declarations[name] else { return nil }
        let qualifiers = Array(path.dropLast())
        let matching = candidates.filter { declaration in
            (declaration.parameters != nil) == function && (qualifiers.isEmpty || declaration.owners.suffix(qualifiers.count).elementsEqual(qualifiers))
        }
        if matching.count == 1 { return matching[0] }
        if qualifiers.isEmpty {
            let own = matching.filter { $0.owners == owners }
            if own.count == 1 { return own[0] }
            let top = matching.filter { $0.owners.isEmpty }
            if top.count == 1 { return top[0] }
        }
        // `Project.app` and `Target.app`: the one whose owner is the qualifier's last name.
        return matching.first { $0.owners.last == qualifiers.last && !qualifiers.isEmpty }
    }

    // MARK: Parsing

    struct Parser {
        var tokens: [ExpressionToken]
        var file: String
        var k = 0

        func peek(_ offset: Int = 0) -> ExpressionToken? { k + offset < tokens.count ? tokens[k + offset] : nil }

        func isPunctuation(_ text: String, _ offset: Int = 0) -> Bool {
            guard let token = peek(offset) else { return false }
            return (token.kind == .punctuation || token.kind == .operatorRun) && token.text == text
        }

        mutating func parseExpression(_ evaluator: inout ManifestEvaluator, scope: Scope, owners: [String]) -> Value {
            evaluator.budget -= 1
            guard evaluator.budget > 0, evaluator.nesting < ManifestEvaluator.maxNesting else {
                k = tokens.count
                return .unknown
            }
            evaluator.nesting += 1
            defer { evaluator.nesting -= 1 }
            var value = parsePostfix(&evaluator, scope: scope, owners: owners)
            while isPunctuation("+") {
                k += 1
                let right = parsePostfix(&evaluator, scope: scope, owners: owners)
                value = Self.combine(value, right)
            }
            return value
        }

        static func combine(_ left: Value, _ right: Value) -> Value {
            switch (left, right) {
            case (.text(let a, let location), .text(let b, _)):
                guard a.utf8.count + b.utf8.count <= ManifestEvaluator.maxTextBytes else { return .unknown }
                return .text(a + b, location)
            case (.array(let a), .array(let b)):
                guard a.count + b.count <= ManifestEvaluator.maxElements else { return .unknown }
                return .array(a + b)
            case (.dictionary(let a), .dictionary(let b)): return merged(a, b).map(Value.dictionary) ?? .unknown
            default: return .unknown
            }
        }

        /// `b`'s entries over `a`'s, each key where it first is; nil past ``maxElements``.
        static func merged(_ a: [(key: String, value: Value)], _ b: [(key: String, value: Value)]) -> [(key: String, value: Value)]? {
            var result = a
            var positions: [String: Int] = [:]
            for (index, entry) in a.enumerated() where positions[entry.key] == nil { positions[entry.key] = index }
            for entry in b {
                if let index = positions[entry.key] {
                    result[index] = entry
                } else {
                    positions[entry.key] = result.count
                    result.append(entry)
                }
            }
            return result.count <= ManifestEvaluator.maxElements ? result : nil
        }

        mutating func parsePostfix(_ evaluator: inout ManifestEvaluator, scope: Scope, owners: [String]) -> Value {
            var value = parsePrimary(&evaluator, scope: scope, owners: owners)
            // `.merging(other) { … }` and `.merging(other, uniquingKeysWith: …)`.
            while isPunctuation("."), peek(1)?.text == "merging", isPunctuation("(", 2) {
                k += 3
                let other = parseExpression(&evaluator, scope: scope, owners: owners)
                skip(to: ")")
                if isPunctuation("{") { skipBalanced() }
                value = Self.combine(value, other)
            }
            return value
        }

        mutating func skip(to closer: String) {
            var depth = 0
            while let token = peek() {
                k += 1
                if token.kind == .punctuation, ["(", "[", "{"].contains(token.text) { depth += 1 }
                if token.kind == .punctuation, [")", "]", "}"].contains(token.text) {
                    if depth == 0 { return }
                    depth -= 1
                }
            }
        }

        mutating func skipBalanced() {
            k += 1
            skip(to: "}")
        }

        mutating func parsePrimary(_ evaluator: inout ManifestEvaluator, scope: Scope, owners: [String]) -> Value {
            guard let token = peek() else { return .unknown }
            let location = CodeLocation(file: file, line: token.line, column: token.column, endLine: token.endLine, endColumn: token.endColumn)
            switch token.kind {
            case .string:
                k += 1
                if token.isLiteral { return .text(token.text, location) }
                guard let parts = token.parts else { return .unknown }
                var text = ""
                for part in parts {
                    switch part {
                    case .text(let piece):
                        text += piece
                    case .expression(let inner):
                        guard case .text(let piece, _) = evaluator.evaluate(inner[...], scope: scope, owners: owners, file: file) else { return .unknown }
                        text += piece
                    }
                    guard text.utf8.count <= ManifestEvaluator.maxTextBytes else { return .unknown }
                }
                return .text(text, location)
            case .punctuation where token.text == "[":
                k += 1
                if isPunctuation("]") {
                    k += 1
                    return .array([])
                }
                if isPunctuation(":"), isPunctuation("]", 1) {
                    k += 2
                    return .dictionary([])
                }
                var items: [Value] = []
                var entries: [(key: String, value: Value)] = []
                var isDictionary = false
                while peek() != nil, !isPunctuation("]") {
                    let item = parseExpression(&evaluator, scope: scope, owners: owners)
                    if isPunctuation(":") {
                        k += 1
                        isDictionary = true
                        let value = parseExpression(&evaluator, scope: scope, owners: owners)
                        if let key = item.text { entries.append((key, value)) }
                    } else {
                        items.append(item)
                    }
                    if isPunctuation(",") { k += 1 } else if !isPunctuation("]") { skip(to: "]"); return .unknown }
                }
                k += 1
                return isDictionary ? .dictionary(entries) : .array(items)
            case .punctuation where token.text == "(":
                k += 1
                let inner = parseExpression(&evaluator, scope: scope, owners: owners)
                skip(to: ")")
                return inner
            case .punctuation where token.text == ".":
                guard let name = peek(1), name.kind == .identifier else { return .unknown }
                k += 2
                if isPunctuation("(") { return parseCall([name.text], &evaluator, scope: scope, owners: owners) }
                return .member(name.text)
            case .identifier:
                var path = [token.text]
                k += 1
                while isPunctuation("."), let next = peek(1), next.kind == .identifier, next.text != "merging" {
                    path.append(next.text)
                    k += 2
                }
                if isPunctuation("(") {
                    return parseCall(path, &evaluator, scope: scope, owners: owners)
                }
                if path == ["true"] { return .member("true") }
                if path == ["false"] { return .member("false") }
                return evaluator.constant(path, scope: scope, owners: owners)
            default:
                k += 1
                return .unknown
            }
        }

        /// `callee(label: value, …)`, a trailing closure skipped; a function the manifests declare
        /// is evaluated, any other call kept as a call (`Project`, `.target`, `.settings`).
        mutating func parseCall(_ path: [String], _ evaluator: inout ManifestEvaluator, scope: Scope, owners: [String]) -> Value {
            let callee = tokens[max(0, k - 1)]
            k += 1
            var arguments: [(label: String?, value: Value)] = []
            while peek() != nil, !isPunctuation(")") {
                var label: String?
                if let word = peek(), word.kind == .identifier, isPunctuation(":", 1) {
                    label = word.text
                    k += 2
                }
                arguments.append((label, parseExpression(&evaluator, scope: scope, owners: owners)))
                if isPunctuation(",") { k += 1 } else if !isPunctuation(")") { skip(to: ")"); return .unknown }
            }
            k += 1
            if isPunctuation("{") { skipBalanced() }
            if let value = evaluator.call(path, arguments: arguments, owners: owners) {
                // A helper's text is written where the helper is called: that call is what this manifest says.
                if case .text(let text, _) = value {
                    return .text(text, CodeLocation(file: file, line: callee.line, column: callee.column, endLine: callee.line, endColumn: callee.column))
                }
                return value
            }
            return .call(path.joined(separator: "."), arguments)
        }
    }
}
