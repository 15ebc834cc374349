// MARK: - Branches

/// A call written inside `if (isAndroid) { … }` is not made by the iOS app. The summarizer
/// records each `if`/`else` block with the conditions it runs under, as token ranges; the
/// resolver evaluates them only for the blocks a request is in, and a condition that is a known
/// truth (a platform test, or a name or getter holding one) decides whether the request is made.
extension SourceScanner {
    /// One condition of a block: the `if`'s condition (`holds`), or, for an `else`, an earlier
    /// one that must not hold.
    struct BranchCondition: Sendable {
        var range: Range<Int>
        var holds: Bool
    }

    struct Branch: Sendable {
        /// The block's tokens, from its `{` to its `}`.
        var range: Range<Int>
        var conditions: [BranchCondition]
    }
}

extension SourceScanner.Summarizer {
    typealias BranchCondition = SourceScanner.BranchCondition

    /// How far back an `if`'s `(` is looked for from its `) {`.
    static let maxConditionTokens = 128

    /// The conditions of the block whose `{` is at `open`: `if (c) {`, `else if (c) {`, `else {`
    /// (JavaScript, Dart and C#, whose conditions are in parentheses); nil for any other block.
    func branchConditions(opening open: Int) -> [BranchCondition]? {
        if isWord(open - 1, "else") {
            guard let last = lastIf, last.close == open - 2 else { return nil }
            return last.otherwise
        }
        guard isPunctuation(open - 1, ")"), let k = openingParenthesis(of: open - 1, within: Self.maxConditionTokens - 1),
              k > 0, isWord(k - 1, "if"), k + 1 < open - 1 else { return nil }
        var earlier: [BranchCondition] = []
        if isWord(k - 2, "else") {
            guard let last = lastIf, last.close == k - 3 else { return nil }
            earlier = last.otherwise
        }
        return earlier + [BranchCondition(range: k + 1..<open - 1, holds: true)]
    }

    /// A `return` or `throw` at `index`. Standing directly in a block (after `{`, `;` or `}`), it
    /// makes the block always exit; as the body of `if (c) return …;`, what follows the
    /// statement in the enclosing block runs only when `c` does not hold (the returned value is
    /// computed when it does).
    mutating func exitStatement(_ index: Int) {
        guard !scopes.isEmpty else { return }
        if index > 0, isPunctuation(index - 1, "{") || isPunctuation(index - 1, ";") || isPunctuation(index - 1, "}") {
            scopes[scopes.count - 1].exits = true
            return
        }
        guard isPunctuation(index - 1, ")"), let k = openingParenthesis(of: index - 1, within: Self.maxConditionTokens - 1),
              k > 0, isWord(k - 1, "if"), !isWord(k - 2, "else"), k + 1 < index - 1 else { return }
        let start: Int
        if index + 1 >= tokens.count || (tokens[index + 1].line > tokens[index].line && !isPunctuation(index + 1, ";")) {
            start = index + 1  // a bare `return` ending its line
        } else if let end = statementEnd(after: index) {
            start = end + 1
        } else {
            return  // no `;` ends it (JavaScript without semicolons): nothing is ruled out
        }
        scopes[scopes.count - 1].exitGuards.append((start, BranchCondition(range: k + 1..<index - 1, holds: false)))
    }

    /// The `;` that ends the statement starting at `index`, outside any brackets, within the
    /// look-ahead an `if` condition gets.
    func statementEnd(after index: Int) -> Int? {
        var depth = 0
        var k = index + 1
        while k < tokens.count, k - index <= Self.maxConditionTokens {
            if tokens[k].kind == .punctuation {
                switch bytes[tokens[k].start] {
                case 0x28, 0x5B, 0x7B: depth += 1
                case 0x29, 0x5D, 0x7D:
                    depth -= 1
                    if depth < 0 { return nil }
                case 0x3B where depth == 0: return k
                default: break
                }
            }
            k += 1
        }
        return nil
    }

    /// Records a closed branch; after an `if` block, what an `else` after it runs under.
    mutating func closeBranch(_ conditions: [BranchCondition], open: Int, close: Int) {
        summary.branches.append(SourceScanner.Branch(range: open..<close, conditions: conditions))
        if let own = conditions.last, own.holds {
            lastIf = (close, conditions.dropLast() + [BranchCondition(range: own.range, holds: false)])
        } else {
            lastIf = nil
        }
    }
}

extension SourceScanner.Resolver {
    /// Whether the iOS app runs the code at `position` of `file` as far as the `if`s around it
    /// say: false when one of their conditions is a known truth that rules it out.
    mutating func branchesRun(at position: Int, file: Int, _ context: Context) -> Bool {
        let branches = files[file].branches.filter { $0.range.contains(position) }
        guard !branches.isEmpty else { return true }
        let failedBefore = failure
        let droppedBefore = dropped
        defer {
            failure = failedBefore
            dropped = droppedBefore
        }
        for branch in branches {
            for condition in branch.conditions {
                guard let tokens = tokens(file: file, range: condition.range),
                      let truth = Self.truth(evaluate(tokens, context)) else { continue }
                if truth != condition.holds { return false }
            }
        }
        return true
    }
}
