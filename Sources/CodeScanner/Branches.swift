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
