// MARK: - Function and computed-property bodies

extension SourceScanner {
    /// A function's locals and parameters while its body is evaluated.
    struct Frame {
        /// Locals the body declared; nil when a local's value is not known.
        var values: [String: [Item]?] = [:]
        /// Parameters, bound to the arguments of the call being followed.
        var arguments: [String: Argument] = [:]
        /// Locals that hold lists (for `+`: joining lists, not strings).
        var lists: Set<String> = []
        /// Why an unknown local or parameter is unknown.
        var reasons: [String: String] = [:]
        /// While an initializer runs: the fields it sets (`self.ids = …`).
        var fields: [String: [Item]]?
        /// Locals only partly known: how many of their parts were not followed, and why.
        var partial: [String: (count: Int, reason: String?)] = [:]
    }

    /// An argument of a followed call: evaluated, when the body asks for it, where it is written.
    struct Argument {
        var tokens: [ExpressionToken]
        var context: Context
        var frames: [Frame]
        /// The parameter's type name, for `.case` arguments.
        var type: String?
    }

    /// What running a body's statements found.
    struct BodyRun {
        /// Every value a `return` (or an implicit return) can give.
        var returns: [Item] = []
        var returned = false
        /// `return` statements whose value could not be followed.
        var unknownReturns = 0
        var isList = false
        /// Whether the statements being run run whenever the body does (not in a branch or loop
        /// whose condition is not known): a `return` among them ends the body.
        var isCertain = true
        var isFinished = false
    }
}

extension SourceScanner.Resolver {
    typealias Frame = SourceScanner.Frame
    typealias Argument = SourceScanner.Argument
    typealias BodyRun = SourceScanner.BodyRun
    typealias ExpressionToken = SourceScanner.ExpressionToken
    typealias DefinitionReference = SourceScanner.DefinitionReference

    /// Calls followed inside one another: a wrapper of a wrapper of a wrapper, and the helpers
    /// they call.
    static let maxCallDepth = 6

    /// A body's tokens, copied out of its file the first time it is asked for.
    mutating func bodyTokens(_ reference: DefinitionReference) -> [ExpressionToken]? {
        if let cached = bodies[reference] { return cached }
        guard let range = definition(reference).body else { return nil }
        let tokens = tokens(file: reference.file, range: range)
        bodies[reference] = tokens
        return tokens
    }

    /// The tokens `range` of file `file`, copied out as the summarizer does.
    mutating func tokens(file: Int, range: Range<Int>) -> [ExpressionToken]? {
        let summary = files[file]
        if lexed?.file != file {
            let tokens = summary.source.withUnsafeBufferPointer { buffer in
                var lexer = SourceScanner.Lexer(bytes: buffer, language: summary.language)
                lexer.run()
                return lexer.tokens
            }
            lexed = (file, tokens)
        }
        guard let lexed, range.upperBound <= lexed.tokens.count else { return nil }
        return summary.source.withUnsafeBufferPointer { buffer in
            var summarizer = SourceScanner.Summarizer(bytes: buffer, tokens: lexed.tokens, file: summary.path, language: summary.language)
            return summarizer.snapshot(range)
        }
    }

    /// Runs a body with `frame` as its locals and returns what it returns; nil when nothing it
    /// returns can be followed.
    mutating func evaluateBody(_ tokens: [ExpressionToken], _ context: Context, frame: Frame = Frame()) -> [Item]? {
        guard callDepth < Self.maxCallDepth else {
            fail("the values pass through more than \(Self.maxCallDepth) calls")
            return nil
        }
        callDepth += 1
        let savedFrames = frames
        frames = [frame]
        var run = BodyRun()
        statements(tokens, 0..<tokens.count, context, &run, nested: false, implicitReturn: true)
        frames = savedFrames
        callDepth -= 1
        guard run.returned, !(run.returns.isEmpty && run.unknownReturns > 0) else {
            if !run.returned { fail("the body returns no value iapdoctor can follow") }
            return nil
        }
        dropped += run.unknownReturns
        isList = run.isList
        return Self.unique(run.returns)
    }

    /// Runs a closure's statements with `frame` as its locals and returns the locals after.
    mutating func runBody(_ tokens: [ExpressionToken], _ context: Context, frame: Frame) -> Frame? {
        guard callDepth < Self.maxCallDepth else { return nil }
        callDepth += 1
        let savedFrames = frames
        frames = [frame]
        var run = BodyRun()
        statements(tokens, 0..<tokens.count, context, &run, nested: false, implicitReturn: false)
        let after = frames.last
        frames = savedFrames
        callDepth -= 1
        return after
    }

    /// Runs the statements before a call in its function (`prefix`), so the call's argument sees
    /// the locals they declare and change. The innermost block still open at the call is entered.
    mutating func runPrefix(_ tokens: [ExpressionToken], _ context: Context) {
        let failedBefore = failure
        let droppedBefore = dropped
        var run = BodyRun()
        statements(tokens, 0..<tokens.count, context, &run, nested: false, implicitReturn: false)
        // What the statements before the call return does not matter to the call.
        failure = failedBefore
        dropped = droppedBefore
    }

    // MARK: Statements

    /// Runs the statements in `range`. In a nested block (a branch, a loop) a local that is
    /// assigned keeps its earlier values too: either may be the one at the call.
    mutating func statements(
        _ tokens: [ExpressionToken], _ range: Range<Int>, _ context: Context, _ run: inout BodyRun,
        nested: Bool, implicitReturn: Bool
    ) {
        // Tokens written over from another language may close a block early: never past the end.
        let range = min(range.lowerBound, tokens.count)..<min(max(range.upperBound, range.lowerBound), tokens.count)
        var ranges: [Range<Int>] = []
        var k = range.lowerBound
        while k < range.upperBound {
            if tokens[k].kind == .punctuation && tokens[k].text == ";" {
                k += 1
                continue
            }
            let end = min(statementEnd(tokens, from: k, limit: range.upperBound), range.upperBound)
            ranges.append(k..<end)
            k = max(end, k + 1)
        }
        // A lone expression is the body's value; under `#if`, one per branch.
        var single = implicitReturn
        var inSegment = 0
        for statement in ranges {
            let first = tokens[statement.lowerBound]
            if first.kind == .identifier && first.text.hasPrefix("#") {
                inSegment = 0
            } else {
                inSegment += 1
                if inSegment > 1 { single = false }
            }
        }
        var inactive = false
        var branches: [[Bool?]] = []
        for statement in ranges {
            // Each statement run counts as work: bodies that call each other many times stop.
            guard !run.isFinished, charge(1) else { return }
            let first = tokens[statement.lowerBound]
            if first.kind == .identifier && first.text.hasPrefix("#") {
                conditionalDirective(tokens, statement, &branches)
                inactive = branches.contains { $0.last == false }
                continue
            }
            if inactive { continue }
            self.statement(tokens, statement, context, &run, nested: nested, implicitReturn: single)
        }
    }

    /// `#if os(macOS)` inside a body: a branch that cannot be the app's platform is skipped.
    mutating func conditionalDirective(_ tokens: [ExpressionToken], _ range: Range<Int>, _ branches: inout [[Bool?]]) {
        let first = tokens[range.lowerBound]
        let line = first.line
        var text = ""
        var k = range.lowerBound + 1
        while k < tokens.count && tokens[k].line == line {
            if !text.isEmpty && !tokens[k].attached { text += " " }
            text += tokens[k].text
            k += 1
        }
        switch first.text {
        case "#if":
            branches.append([conditionHolds(text)])
        case "#elseif", "#else":
            guard var branch = branches.popLast() else { return }
            // Taken only if no branch before it was: unknown unless every earlier one was false.
            let earlier: Bool? = branch.contains(true) ? true : (branch.contains(where: { $0 == nil }) ? nil : false)
            let own: Bool? = first.text == "#else" ? true : conditionHolds(text)
            branch.append(earlier == true ? false : (earlier == nil && own != false ? nil : own))
            branches.append(branch)
        case "#endif":
            _ = branches.popLast()
        default:
            break
        }
    }

    /// The end (exclusive) of the statement at `start`: a keyword statement runs through its
    /// blocks; any other ends at `;` or a line break that does not continue it.
    func statementEnd(_ tokens: [ExpressionToken], from start: Int, limit: Int) -> Int {
        let limit = min(limit, tokens.count)
        let first = tokens[start]
        if first.kind == .identifier && first.text.hasPrefix("#") {
            var k = start + 1
            while k < limit && tokens[k].line == first.line { k += 1 }
            return k
        }
        if first.kind == .identifier {
            switch first.text {
            case "if", "guard", "switch", "for", "while", "do", "defer", "repeat", "get":
                return blockStatementEnd(tokens, from: start, limit: limit)
            default:
                break
            }
        }
        var depth = 0
        var k = start
        while k < limit {
            let token = tokens[k]
            if depth == 0 && k > start {
                if token.kind == .punctuation && token.text == ";" { break }
                if token.line > tokens[k - 1].line && !continuesLine(tokens, at: k) { break }
            }
            if isOpener(token) {
                depth += 1
            } else if isCloser(token) {
                if depth == 0 { break }
                depth -= 1
            }
            k += 1
        }
        return k
    }

    /// Whether the line starting at `k` continues the expression before it.
    func continuesLine(_ tokens: [ExpressionToken], at k: Int) -> Bool {
        let token = tokens[k]
        if token.kind == .punctuation && token.text == "." { return true }
        if token.kind == .operatorRun {
            return !(k + 1 < tokens.count && tokens[k + 1].attached && tokens[k + 1].line == token.line)
        }
        let previous = tokens[k - 1]
        if previous.kind == .operatorRun { return !previous.attached }
        return false
    }

    func isOpener(_ token: ExpressionToken) -> Bool {
        token.kind == .punctuation && (token.text == "(" || token.text == "[" || token.text == "{")
    }

    func isCloser(_ token: ExpressionToken) -> Bool {
        token.kind == .punctuation && (token.text == ")" || token.text == "]" || token.text == "}")
    }

    /// The index of the bracket closing the one at `open`, or `limit`.
    func closing(_ tokens: [ExpressionToken], _ open: Int, limit: Int) -> Int {
        var depth = 0
        var k = open
        while k < limit {
            if isOpener(tokens[k]) {
                depth += 1
            } else if isCloser(tokens[k]) {
                depth -= 1
                if depth == 0 { return k }
            }
            k += 1
        }
        return limit
    }

    /// The first `{` at depth 0 from `start`: the block of `if`, `for`, `switch`.
    func blockOpen(_ tokens: [ExpressionToken], from start: Int, limit: Int) -> Int? {
        var depth = 0
        var k = start
        while k < limit {
            let token = tokens[k]
            if token.kind == .punctuation && token.text == "{" && depth == 0 { return k }
            if isOpener(token) { depth += 1 } else if isCloser(token) {
                if depth == 0 { return nil }
                depth -= 1
            }
            k += 1
        }
        return nil
    }

    func blockStatementEnd(_ tokens: [ExpressionToken], from start: Int, limit: Int) -> Int {
        guard let open = blockOpen(tokens, from: start + 1, limit: limit) else { return limit }
        var end = min(closing(tokens, open, limit: limit) + 1, limit)
        // `else { … }`, `else if … { … }`, `catch … { … }`, `repeat { … } while …`.
        while end < limit, tokens[end].kind == .identifier, ["else", "catch", "while"].contains(tokens[end].text) {
            if tokens[end].text == "while" {
                guard tokens[start].text == "repeat" else { break }
                var k = end + 1
                while k < limit && tokens[k].line == tokens[end].line { k += 1 }
                return k
            }
            guard let next = blockOpen(tokens, from: end + 1, limit: limit) else { return limit }
            end = min(closing(tokens, next, limit: limit) + 1, limit)
        }
        return end
    }

    /// One statement: a declaration, a change to a local, a `return`, or a block statement whose
    /// blocks are run in turn. Anything else changes nothing iapdoctor follows.
    mutating func statement(
        _ tokens: [ExpressionToken], _ range: Range<Int>, _ context: Context, _ run: inout BodyRun,
        nested: Bool, implicitReturn: Bool
    ) {
        let first = tokens[range.lowerBound]
        let start = range.lowerBound
        if first.kind == .identifier {
            switch first.text {
            case "let", "var":
                declaration(tokens, range, context)
                return
            case "return":
                let expression = start + 1..<range.upperBound
                if run.isCertain { run.isFinished = true }
                if expression.isEmpty { return }
                returnValue(Array(tokens[expression]), context, &run)
                return
            case "if", "guard", "for", "while", "do", "defer", "repeat", "get":
                blockStatement(tokens, range, context, &run, implicitReturn: implicitReturn)
                return
            case "switch":
                switchStatement(tokens, range, context, &run, implicitReturn: implicitReturn)
                return
            default:
                break
            }
            if mutation(tokens, range, context, nested: nested) { return }
            if frames.last?.fields != nil, initializerStatement(tokens, range, context) { return }
        }
        if implicitReturn {
            returnValue(Array(tokens[range]), context, &run)
            return
        }
        // The statements before a call end inside the blocks the call is in (`Task {`,
        // `queue.async {`): those blocks' statements run too.
        if range.upperBound == tokens.count,
           let open = range.first(where: { tokens[$0].kind == .punctuation && tokens[$0].text == "{" && closing(tokens, $0, limit: tokens.count) == tokens.count }) {
            let start = bindClosureParameters(tokens, statement: range.lowerBound, open: open, context)
            statements(tokens, start..<range.upperBound, context, &run, nested: true, implicitReturn: false)
        }
    }

    mutating func returnValue(_ expression: [ExpressionToken], _ context: Context, _ run: inout BodyRun) {
        run.returned = true
        if let items = evaluate(expression, context) {
            run.returns += items
            run.isList = run.isList || isList
        } else {
            run.unknownReturns += 1
        }
    }

    /// `let name = value`, `var name: T = value`, `var name = Set<String>()`; a local with no
    /// value, or one iapdoctor cannot follow, is known to be unknown.
    mutating func declaration(_ tokens: [ExpressionToken], _ range: Range<Int>, _ context: Context) {
        var k = range.lowerBound + 1
        guard k < range.upperBound, tokens[k].kind == .identifier else { return }
        let name = tokens[k].text
        k += 1
        var depth = 0
        while k < range.upperBound {
            let token = tokens[k]
            if depth == 0 && token.kind == .operatorRun && token.text == "=" { break }
            if isOpener(token) { depth += 1 } else if isCloser(token) { depth -= 1 }
            k += 1
        }
        guard k < range.upperBound else {
            frames[frames.count - 1].values[name] = .some(nil)
            return
        }
        let value = quietly(name) { $0.evaluate(Array(tokens[(k + 1)..<range.upperBound]), context) }.map { items in
            items.map { item -> Item in
                if case .literal(let value, let location, nil) = item { return .literal(value: value, location: location, via: name) }
                return item
            }
        }
        frames[frames.count - 1].values[name] = .some(value)
        if isList { frames[frames.count - 1].lists.insert(name) }
    }

    /// Runs `evaluate` without letting its failure become the call site's reason: a local that
    /// cannot be followed keeps the reason, shown only if the local reaches the call.
    mutating func quietly(_ name: String, _ evaluate: (inout Self) -> [Item]?) -> [Item]? {
        let failedBefore = failure
        let droppedBefore = dropped
        failure = nil
        let value = evaluate(&self)
        if value == nil, let failure, !frames.isEmpty { frames[frames.count - 1].reasons[name] = failure }
        if value != nil, dropped > droppedBefore, !frames.isEmpty {
            frames[frames.count - 1].partial[name] = (dropped - droppedBefore, failure)
        }
        failure = failedBefore
        dropped = droppedBefore
        return value
    }

    /// `ids.insert(x)`, `ids.append(contentsOf: xs)`, `ids.formUnion(xs)`, `ids += xs`,
    /// `ids = xs`, `tips[id] = name` on a local of this body. True when the statement was one.
    mutating func mutation(_ tokens: [ExpressionToken], _ range: Range<Int>, _ context: Context, nested: Bool) -> Bool {
        let start = range.lowerBound
        let name = tokens[start].text
        guard let current = frames.last?.values[name] else { return false }
        let failedBefore = failure
        let droppedBefore = dropped
        failure = nil
        defer {
            failure = failedBefore
            dropped = droppedBefore
        }
        var added: [Item]?
        var replaces = false
        let next = start + 1
        guard next < range.upperBound else { return false }
        let token = tokens[next]
        if token.kind == .punctuation && token.text == ".", next + 2 < range.upperBound,
           tokens[next + 1].kind == .identifier, tokens[next + 2].text == "(" {
            let method = tokens[next + 1].text
            // Swift's, Dart's (`add`, `addAll`) and JavaScript's (`push`).
            guard ["insert", "append", "formUnion", "update", "updateValue", "add", "addAll", "push"].contains(method) else { return false }
            let close = closing(tokens, next + 2, limit: range.upperBound)
            var argument = next + 3
            if argument + 1 < close, tokens[argument].kind == .identifier, tokens[argument + 1].text == ":" { argument += 2 }
            if method == "updateValue" {
                // `updateValue(name, forKey: id)`: the key is the ID.
                var k = argument
                while k + 1 < close && !(tokens[k].text == "forKey" && tokens[k + 1].text == ":") { k += 1 }
                guard k + 1 < close else { return true }
                guard k < close else { return true }
                let value = evaluate(Array(tokens[argument..<k].dropLast()), context)
                added = evaluate(Array(tokens[(k + 2)..<close]), context).map { keys in
                    Self.entries(keys: keys, values: value)
                }
            } else if method == "push" {
                // `ids.push(a, b)`: each argument an element.
                var elements: [Item]? = []
                var start = argument
                var depth = 0
                for k in argument...close {
                    if k < close, isOpener(tokens[k]) { depth += 1 }
                    if k < close, isCloser(tokens[k]) { depth -= 1 }
                    guard k == close || depth == 0 && tokens[k].kind == .punctuation && tokens[k].text == "," else { continue }
                    if start < k {
                        elements = evaluate(Array(tokens[start..<k]), context).flatMap { element in elements.map { $0 + element } }
                    }
                    start = k + 1
                }
                added = elements
            } else {
                added = evaluate(Array(tokens[argument..<close]), context)
            }
        } else if token.kind == .operatorRun && (token.text == "+=" || token.text == "=") {
            added = evaluate(Array(tokens[(next + 1)..<range.upperBound]), context)
            replaces = token.text == "=" && !nested
        } else if token.kind == .punctuation && token.text == "[" {
            // `tips["com.x.tip"] = "Small tip"`
            let close = closing(tokens, next, limit: range.upperBound)
            guard close + 1 < range.upperBound, tokens[close + 1].text == "=" else { return false }
            let value = evaluate(Array(tokens[(close + 2)..<range.upperBound]), context)
            added = evaluate(Array(tokens[(next + 1)..<close]), context).map { keys in
                Self.entries(keys: keys, values: value)
            }
        } else {
            return false
        }
        if added == nil, let failure { frames[frames.count - 1].reasons[name] = failure }
        let updated: [Item]?
        if replaces {
            updated = added
        } else if let current, let added {
            guard charge(current.count + added.count) else { return true }
            updated = Self.unique(current + added)
        } else {
            updated = nil
        }
        frames[frames.count - 1].values[name] = .some(updated)
        if !replaces || isList { frames[frames.count - 1].lists.insert(name) }
        return true
    }

    /// In an initializer: `self.ids = value`, `ids = value` (not a local), `self.init(…)`.
    mutating func initializerStatement(_ tokens: [ExpressionToken], _ range: Range<Int>, _ context: Context) -> Bool {
        var k = range.lowerBound
        let isSuper = tokens[k].text == "super" && k + 2 < range.upperBound && tokens[k + 1].text == "."
        let isSelf = (tokens[k].text == "self" || isSuper) && k + 2 < range.upperBound && tokens[k + 1].text == "."
        if isSelf { k += 2 }
        guard k + 1 < range.upperBound, tokens[k].kind == .identifier else { return false }
        let name = tokens[k].text
        if isSelf && name == "init" && tokens[k + 1].text == "(" {
            // `self.init(…)`: another initializer of the same type sets the fields;
            // `super.init(…)`: the superclass's.
            guard let own = context.typePaths.last?.last, let type = isSuper ? supertypes[own] : own else { return true }
            var cursor = Cursor(tokens: Array(tokens[(k + 1)..<range.upperBound]))
            if let made = construct(type, &cursor, context), case .instance(_, let fields)? = made.first {
                frames[frames.count - 1].fields?.merge(fields) { $1 }
            }
            return true
        }
        guard tokens[k + 1].kind == .operatorRun, tokens[k + 1].text == "=",
              isSelf || (frames.last?.values[name] == nil && frames.last?.arguments[name] == nil) else { return false }
        var value = quietly(name) { $0.evaluate(Array(tokens[(k + 2)..<range.upperBound]), context) }
        // The parts not followed stay with the field, for the call that reads it to report.
        if value != nil, let partial = frames.last?.partial[name] {
            value! += Array(repeating: .unknown(reason: partial.reason ?? "a part of `\(name)` is not followed"), count: partial.count)
        }
        if let value { frames[frames.count - 1].fields?[name] = value }
        return true
    }

    /// `if`/`guard`/`for`/`while`/`do`/`defer`/`repeat`/`get`: each block runs, as a branch.
    /// `if let x = value` and `for x in values` bind `x`.
    mutating func blockStatement(
        _ tokens: [ExpressionToken], _ range: Range<Int>, _ context: Context, _ run: inout BodyRun, implicitReturn: Bool
    ) {
        var k = range.lowerBound
        // Whether every branch before an `else` is known not to run.
        var elseRuns = false
        while k < range.upperBound {
            let keyword = tokens[k].text
            guard let open = blockOpen(tokens, from: k + 1, limit: range.upperBound) else { return }
            let header = k + 1..<open
            if keyword == "for" { bindLoop(tokens, header, context) }
            if keyword == "if" || keyword == "guard" || keyword == "while" { bindCondition(tokens, header, context) }
            let close = closing(tokens, open, limit: range.upperBound)
            // An `if` whose condition is a known truth (a platform test, or a name holding one)
            // runs only the branch it picks.
            let truth = keyword == "if" ? conditionTruth(tokens, header, context) : (keyword == "else" && elseRuns ? true : nil)
            elseRuns = truth == false
            // An `if` used as a value (`if a { "x" } else { "y" }`) gives each branch's value.
            if truth != false {
                let wasCertain = run.isCertain
                run.isCertain = wasCertain && (truth == true || keyword == "do")
                statements(tokens, open + 1..<close, context, &run, nested: true, implicitReturn: implicitReturn && keyword != "for")
                run.isCertain = wasCertain
            }
            k = close + 1
            if truth == true { return }
            guard k < range.upperBound, tokens[k].kind == .identifier else { return }
            if tokens[k].text == "else" && k + 1 < range.upperBound && tokens[k + 1].text == "if" { k += 1 }
        }
    }

    /// The truth of an `if`'s condition, when it is one: nil for a binding (`if let`), a pattern
    /// (`if case`) or a condition iapdoctor cannot tell. Its failure is not the call site's.
    mutating func conditionTruth(_ tokens: [ExpressionToken], _ header: Range<Int>, _ context: Context) -> Bool? {
        guard let first = header.first, !["let", "var", "case"].contains(tokens[first].text) else { return nil }
        let failedBefore = failure
        let droppedBefore = dropped
        defer {
            failure = failedBefore
            dropped = droppedBefore
        }
        return Self.truth(evaluate(Array(tokens[header]), context))
    }

    /// `for id in ids`, `for (id, name) in tips`: the loop variable takes each value.
    mutating func bindLoop(_ tokens: [ExpressionToken], _ header: Range<Int>, _ context: Context) {
        guard let inIndex = header.first(where: { tokens[$0].kind == .identifier && tokens[$0].text == "in" }) else { return }
        var end = header.upperBound
        if let whereIndex = (inIndex..<header.upperBound).first(where: { tokens[$0].text == "where" }) { end = whereIndex }
        let pattern = tokens[header.lowerBound..<inIndex].filter { $0.kind == .identifier && $0.text != "case" && $0.text != "let" && $0.text != "var" }
        let values = quietly(pattern.first?.text ?? "_") { $0.evaluate(Array(tokens[(inIndex + 1)..<end]), context) }
        if pattern.count == 1 {
            frames[frames.count - 1].values[pattern[0].text] = .some(values)
        } else if pattern.count == 2, let values {
            frames[frames.count - 1].values[pattern[0].text] = .some(keys(values))
            frames[frames.count - 1].values[pattern[1].text] = .some(self.values(values))
        }
    }

    /// `if let id = value`, `guard let id = value else`: binds `id` to the value.
    mutating func bindCondition(_ tokens: [ExpressionToken], _ header: Range<Int>, _ context: Context) {
        var k = header.lowerBound
        guard k + 2 < header.upperBound, tokens[k].text == "let" || tokens[k].text == "var" else { return }
        k += 1
        guard tokens[k].kind == .identifier else { return }
        let name = tokens[k].text
        if tokens[k + 1].text != "=" {
            // `if let id {`: the name stays bound to what it was.
            return
        }
        var end = k + 2
        var depth = 0
        while end < header.upperBound {
            let token = tokens[end]
            if depth == 0 && (token.text == "," || token.text == "else") { break }
            if isOpener(token) { depth += 1 } else if isCloser(token) { depth -= 1 }
            end += 1
        }
        frames[frames.count - 1].values[name] = .some(quietly(name) { $0.evaluate(Array(tokens[(k + 2)..<end]), context) })
    }

    /// `switch subject { case .a: … default: … }`: when the subject is known enum cases, only
    /// their clauses (or `default`) run; otherwise every clause does.
    mutating func switchStatement(
        _ tokens: [ExpressionToken], _ range: Range<Int>, _ context: Context, _ run: inout BodyRun, implicitReturn: Bool
    ) {
        guard let open = blockOpen(tokens, from: range.lowerBound + 1, limit: range.upperBound) else { return }
        let wasCertain = run.isCertain
        run.isCertain = false
        defer { run.isCertain = wasCertain }
        let close = closing(tokens, open, limit: range.upperBound)
        let subjectTokens = Array(tokens[(range.lowerBound + 1)..<open])
        let failedBefore = failure
        let subject = evaluate(subjectTokens, context)
        failure = failedBefore
        var subjectCases: Set<String>?
        if let subject, !subject.isEmpty {
            var names: Set<String> = []
            for item in subject {
                guard case .enumCase(let reference, let index) = item else {
                    names = []
                    break
                }
                names.insert(stringEnum(reference).cases[index].name)
            }
            if !names.isEmpty { subjectCases = names }
        }
        // Clauses: `case patterns:` or `default:`, and the statements up to the next one.
        var clauses: [(patterns: [String]?, body: Range<Int>)] = []
        var k = open + 1
        while k < close {
            var token = tokens[k]
            if token.text == "@" && k + 2 < close {  // `@unknown default:`
                k += 2
                token = tokens[k]
            }
            guard token.kind == .identifier, token.text == "case" || token.text == "default" else {
                k += 1
                continue
            }
            var colon = k + 1
            var depth = 0
            while colon < close {
                let t = tokens[colon]
                if depth == 0 && t.kind == .punctuation && t.text == ":" { break }
                if isOpener(t) { depth += 1 } else if isCloser(t) { depth -= 1 }
                colon += 1
            }
            var patterns: [String]? = nil
            if token.text == "case" {
                patterns = tokens[(k + 1)..<colon].enumerated().compactMap { offset, t in
                    let index = k + 1 + offset
                    return t.kind == .identifier && index > 0 && tokens[index - 1].text == "." ? t.text : nil
                }
            }
            // The clause runs to the next `case`/`default` that starts a statement.
            var end = colon + 1
            while end < close {
                let t = tokens[end]
                if t.kind == .identifier && (t.text == "case" || t.text == "default")
                    && (tokens[end - 1].line < t.line || tokens[end - 1].text == ";") { break }
                if t.text == "@" && end + 1 < close && tokens[end + 1].text == "unknown" { break }
                if isOpener(t) { end = closing(tokens, end, limit: close) }
                end += 1
            }
            clauses.append((patterns, colon + 1..<end))
            k = end
        }
        var matched = false
        if let subjectCases {
            for clause in clauses where clause.patterns.map({ !subjectCases.isDisjoint(with: $0) }) ?? false {
                matched = true
                statements(tokens, clause.body, context, &run, nested: true, implicitReturn: implicitReturn)
            }
            let covered = Set(clauses.compactMap(\.patterns).joined())
            if !subjectCases.isSubset(of: covered) {
                for clause in clauses where clause.patterns == nil {
                    matched = true
                    statements(tokens, clause.body, context, &run, nested: true, implicitReturn: implicitReturn)
                }
            }
        }
        if !matched && subjectCases == nil {
            for clause in clauses {
                statements(tokens, clause.body, context, &run, nested: true, implicitReturn: implicitReturn)
            }
        }
    }

    /// The closure opening at `open` is called with the elements of a list: `ForEach(tips) { tip in`,
    /// `List(plans) { plan in`, `tips.forEach { tip in`. Its parameter takes each of them. Returns
    /// where the closure's statements start.
    mutating func bindClosureParameters(_ tokens: [ExpressionToken], statement: Int, open: Int, _ context: Context) -> Int {
        var k = open + 1
        var names: [String] = []
        while k < tokens.count && k < open + 12 && (tokens[k].kind == .identifier || tokens[k].text == "," || tokens[k].text == "(" || tokens[k].text == ")") {
            if tokens[k].kind == .identifier && tokens[k].text == "in" { break }
            if tokens[k].kind == .identifier { names.append(tokens[k].text) }
            k += 1
        }
        let hasParameters = k < tokens.count && tokens[k].kind == .identifier && tokens[k].text == "in" && !names.isEmpty
        let bodyStart = hasParameters ? k + 1 : open + 1
        let name = hasParameters ? names[0] : "$0"
        // What the closure runs over: the first argument of the call it trails, or the receiver
        // of `.forEach`/`.map`.
        var source: [ExpressionToken]?
        if open > statement, tokens[open - 1].text == ")" {
            var depth = 0
            var paren = open - 1
            while paren > statement {
                if isCloser(tokens[paren]) { depth += 1 } else if isOpener(tokens[paren]) {
                    depth -= 1
                    if depth == 0 { break }
                }
                paren -= 1
            }
            var end = paren + 1
            var level = 0
            while end < open - 1 {
                if isOpener(tokens[end]) { level += 1 } else if isCloser(tokens[end]) { level -= 1 }
                if level == 0 && tokens[end].text == "," { break }
                end += 1
            }
            if paren + 1 < end, !(tokens[paren + 2].text == ":" && tokens[paren + 1].kind == .identifier) {
                source = Array(tokens[(paren + 1)..<end])
            }
        } else if open - 2 > statement, tokens[open - 2].text == ".",
                  ["forEach", "map", "compactMap", "flatMap", "filter"].contains(tokens[open - 1].text) {
            var start = statement
            for index in statement..<(open - 2) where tokens[index].kind == .operatorRun && tokens[index].text == "=" { start = index + 1 }
            if start < open - 2 { source = Array(tokens[start..<(open - 2)]) }
        }
        if let source, !frames.isEmpty {
            let values = quietly(name) { $0.evaluate(source, context) }
            if let values { frames[frames.count - 1].values[name] = .some(values) }
        }
        return bodyStart
    }
}
