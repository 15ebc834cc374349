/// The statement shapes JavaScript and Dart share, read over expression tokens while they are
/// written over for the Swift evaluator: where a statement ends, an `if` on the platform reduced
/// to the side iOS runs, and a branch without braces given its block.
struct StatementTokens {
    typealias Token = SourceScanner.ExpressionToken
    /// Whether a line break may end a statement (JavaScript), or only `;` does (Dart).
    enum Ends { case lineBreaks, semicolons }

    let tokens: [Token]
    let ends: Ends

    func isText(_ index: Int, _ text: String) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].text == text && tokens[index].kind != .string
    }

    /// The bracket closing the one at `open`; the end of the tokens when it is unclosed.
    func closing(_ open: Int) -> Int {
        var depth = 0
        var p = open
        while p < tokens.count {
            if tokens[p].kind != .string {
                if ["(", "[", "{"].contains(tokens[p].text) { depth += 1 }
                if [")", "]", "}"].contains(tokens[p].text) {
                    depth -= 1
                    if depth == 0 { return p }
                }
            }
            p += 1
        }
        return tokens.count
    }

    /// Past the statement at `start`: its `;`, the unmatched closer after it, or (JavaScript) the
    /// line break that ends it.
    func statementEnd(_ start: Int) -> Int {
        var depth = 0
        var p = start
        while p < tokens.count {
            let t = tokens[p]
            if t.kind != .string {
                if ends == .lineBreaks, depth == 0, p > start, t.line > tokens[p - 1].line, ![".", "?", ":", "+", "&&", "||"].contains(t.text) { return p }
                if ["(", "[", "{"].contains(t.text) { depth += 1 }
                if [")", "]", "}"].contains(t.text) {
                    if depth == 0 { return p }
                    depth -= 1
                }
                if depth == 0 && t.text == ";" { return p + 1 }
            }
            p += 1
        }
        return tokens.count
    }

    /// Whether a statement starts at `index`.
    func isStatementStart(_ index: Int) -> Bool {
        if index == 0 { return true }
        if tokens[index - 1].kind != .string, [";", "{", "}"].contains(tokens[index - 1].text) { return true }
        return ends == .lineBreaks && tokens[index - 1].line < tokens[index].line
    }

    /// The body of a branch starting at `start`: a block's statements, or the one statement.
    func body(at start: Int) -> (statements: Range<Int>, next: Int)? {
        guard start < tokens.count, !isText(start, ";") else { return nil }
        if isText(start, "{") {
            let close = closing(start)
            return ((start + 1)..<max(close, start + 1), min(close + 1, tokens.count))
        }
        let end = statementEnd(start)
        return (start..<end, end)
    }

    /// `if (condition) … else …` at `start` whose condition (`!` allowed) is a test of the
    /// platform: the statements iOS runs (nil: none), and where to go on.
    func platformIf(_ start: Int, condition: (Int) -> (count: Int, holds: Bool)?) -> (kept: Range<Int>?, next: Int)? {
        guard isText(start, "if"), isText(start + 1, "(") else { return nil }
        let conditionClose = closing(start + 1)
        let negated = isText(start + 2, "!")
        guard let (width, test) = condition(start + 2 + (negated ? 1 : 0)),
              start + 2 + (negated ? 1 : 0) + width == conditionClose, let then = body(at: conditionClose + 1) else { return nil }
        let holds = test != negated
        guard isText(then.next, "else") else { return (holds ? then.statements : nil, then.next) }
        // `else …`, `else if …`: on iOS either this side or what follows `else`, whose end is
        // that of the chain.
        var end = then.next
        while isText(end, "else") {
            if isText(end + 1, "if") {
                guard isText(end + 2, "(") else { return nil }
                let close = closing(end + 2)
                guard let branch = body(at: close + 1) else { return nil }
                end = branch.next
            } else {
                guard let branch = body(at: end + 1) else { return nil }
                end = branch.next
                break
            }
        }
        if holds { return (then.statements, end) }
        if isText(then.next + 1, "if") { return ((then.next + 1)..<end, end) }
        return (body(at: then.next + 1)?.statements, end)
    }

    /// The statement at `k` written over by `normalize` when it has one of these shapes: a
    /// platform `if` (the side iOS runs), a loop over a list (`for (x in xs)` in Dart, with
    /// `loopWord` `of` in JavaScript), or a branch without braces.
    func rewritten(
        at k: Int, condition: (Int) -> (count: Int, holds: Bool)?, loopWord: String, normalize: ([Token]) -> [Token]
    ) -> (tokens: [Token], next: Int)? {
        platformBranch(at: k, condition: condition, normalize: normalize)
            ?? forLoop(at: k, word: loopWord, normalize: normalize)
            ?? bracedBranch(at: k, normalize: normalize)
    }

    /// The statements iOS runs in place of a platform `if` at `k`, written over by `normalize`.
    func platformBranch(
        at k: Int, condition: (Int) -> (count: Int, holds: Bool)?, normalize: ([Token]) -> [Token]
    ) -> (tokens: [Token], next: Int)? {
        guard let taken = platformIf(k, condition: condition) else { return nil }
        return (taken.kept.map { normalize(Array(tokens[$0])) } ?? [], taken.next)
    }

    /// `for (final plan in plans) …` (Dart) or `for (const plan of plans) …` (JavaScript, with
    /// `word` `of`) at `k`: written over as Swift's `for plan in plans { … }`.
    func forLoop(at k: Int, word: String, normalize: ([Token]) -> [Token]) -> (tokens: [Token], next: Int)? {
        guard isText(k, "for"), isText(k + 1, "(") else { return nil }
        let close = closing(k + 1)
        guard close < tokens.count else { return nil }
        var p = k + 2
        var depth = 0
        while p < close, !(depth == 0 && isText(p, word)) {
            if tokens[p].kind != .string, ["(", "[", "{", "<"].contains(tokens[p].text) { depth += 1 }
            if tokens[p].kind != .string, [")", "]", "}", ">"].contains(tokens[p].text) { depth -= 1 }
            p += 1
        }
        guard p < close, p > k + 2, tokens[p - 1].kind == .identifier, let loop = body(at: close + 1) else { return nil }
        var output = [tokens[k], tokens[p - 1]]
        output.append(Token(kind: .identifier, text: "in", isLiteral: false, line: tokens[p].line, column: 0, attached: false))
        output += normalize(Array(tokens[(p + 1)..<close]))
        output.append(Token(kind: .punctuation, text: "{", isLiteral: false, line: tokens[close].line, column: 0, attached: false))
        output += normalize(Array(tokens[loop.statements]))
        output.append(Token(kind: .punctuation, text: "}", isLiteral: false, line: tokens[max(loop.next - 1, close)].line, column: 0, attached: false))
        return (output, loop.next)
    }

    /// `if (ready) load();`, `else load();`, `for (…) add(x);` at `k`: the one statement given
    /// braces, as a block, written over by `normalize`.
    func bracedBranch(at k: Int, normalize: ([Token]) -> [Token]) -> (tokens: [Token], next: Int)? {
        let token = tokens[k]
        guard token.kind == .identifier,
              ["if", "for", "while"].contains(token.text) && isText(k + 1, "(") || token.text == "else" && !isText(k + 1, "if") else { return nil }
        let header = token.text == "else" ? k : closing(k + 1)
        guard header + 1 < tokens.count, !isText(header + 1, "{"), !isText(header + 1, ";") else { return nil }
        let end = statementEnd(header + 1)
        var output = normalize(Array(tokens[k...header]))
        output.append(Token(kind: .punctuation, text: "{", isLiteral: false, line: tokens[header].line, column: 0, attached: false))
        output += normalize(Array(tokens[(header + 1)..<end]))
        output.append(Token(kind: .punctuation, text: "}", isLiteral: false, line: tokens[max(end - 1, header)].line, column: 0, attached: false))
        return (output, end)
    }
}
