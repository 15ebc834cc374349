// MARK: - Functions of JavaScript and Dart

/// Their functions have no keyword to find them by (`func`): a body is told from a block by what
/// comes before its `{`, and its parameters are read so a request that takes one of them is
/// followed from the function's callers, as a Swift wrapper is.
extension SourceScanner.Summarizer {
    /// How far back the parameter list's `(` is looked for.
    static let maxParameterTokens = 256

    /// The function whose body the `{` at `open` starts (`function load(sku) {`, `load() {`,
    /// `const buy = async (sku: string): Promise<void> => {`, `x => {`; Dart's
    /// `Future<void> buy(String sku) async {` and `onPressed: () async {`), or nil for a block
    /// of `if`, `for`, `while`, `switch` or `catch`, or an object. One without a name is `=>`,
    /// and its parameters are not read: nothing calls it by name.
    mutating func functionOpened(at open: Int) -> FunctionHeader? {
        guard var header = scriptFunctionOpened(at: open) else { return nil }
        // A named function's returns are its value when a call of it is an argument; one
        // declared `void` returns none.
        if header.name != "=>" { header.returnsValue = !declaresVoid(before: open) }
        return header
    }

    /// Whether the declaration whose body opens at `open` says it returns nothing: TypeScript's
    /// `): void {` / `Promise<void>`, Dart's `void name(` / `Future<void> name(`.
    func declaresVoid(before open: Int) -> Bool {
        // TypeScript's return type sits between the parameters' `)` and the body.
        var k = open - 1
        while k >= 0, open - k < Self.maxParameterTokens, !(tokens[k].kind != .string && text(k) == ")") {
            if isWord(k, "void") { return true }
            k -= 1
        }
        // Dart's sits before the name.
        guard language == .dart, k >= 0, let parameters = openingParenthesis(of: k, within: Self.maxParameterTokens) else { return false }
        return isWord(parameters - 2, "void") || (isOperator(parameters - 2, ">") && isWord(parameters - 3, "void"))
    }

    /// The `(` matching the `)` at `close`, looked for at most `limit` tokens back: every `{`
    /// may ask, and an unbounded look back through nested groups would cost the square of the
    /// file.
    func openingParenthesis(of close: Int, within limit: Int) -> Int? {
        var depth = 0
        var k = close
        while k >= 0, close - k <= limit {
            if tokens[k].kind == .punctuation {
                if isPunctuation(k, ")") { depth += 1 }
                if isPunctuation(k, "(") {
                    depth -= 1
                    if depth == 0 { return k }
                }
            }
            k -= 1
        }
        return nil
    }

    mutating func scriptFunctionOpened(at open: Int) -> FunctionHeader? {
        var k = open - 1
        var steps = 0
        // A return type (`): Promise<string[]> {`) between the parameters and the body.
        while k >= 0, steps < 16, tokens[k].kind != .string {
            let text = self.text(k)
            if text == ")" || text == "=>" { break }
            guard tokens[k].kind == .identifier || [":", "<", ">", ".", ",", "[", "]", "|", "?", ">>", "*"].contains(text) else { return nil }
            if tokens[k].kind == .identifier, ["else", "try", "do", "finally", "return", "class", "interface", "enum", "extends", "implements", "namespace"].contains(text) { return nil }
            k -= 1
            steps += 1
        }
        guard k >= 0, tokens[k].kind != .string else { return nil }
        var arrow = false
        if text(k) == "=>" {
            // `(sku) => {`, `sku => {`, `async (sku) => {`.
            arrow = true
            k -= 1
            if k >= 0, isIdentifier(k), !isPunctuation(k, ")") {
                return FunctionHeader(name: "=>", parameters: [], location: location(open))
            }
            while k >= 0, !isPunctuation(k, ")"), open - k < 64, tokens[k].kind != .string { k -= 1 }
        }
        guard k >= 0, isPunctuation(k, ")") else { return arrow ? FunctionHeader(name: "=>", parameters: [], location: location(open)) : nil }
        let close = k
        guard let parameterOpen = openingParenthesis(of: close, within: Self.maxParameterTokens - 1), parameterOpen > 0 else { return nil }
        k = parameterOpen
        let unnamed = FunctionHeader(name: "=>", parameters: [], location: location(open))
        if arrow {
            // `const buy = async (sku) => {`: the constant names it, also through React's
            // `useCallback((sku) => {…}, [deps])`.
            var n = parameterOpen - 1
            if isWord(n, "async") { n -= 1 }
            if isPunctuation(n, "("), isWord(n - 1, "useCallback") { n -= 2 }
            guard isOperator(n, "="), isIdentifier(n - 1) else { return unnamed }
            var header = FunctionHeader(name: text(n - 1), parameters: scriptParameters(open: parameterOpen, close: close) ?? [], location: location(n - 1))
            // A module's `const` is its own unless exported; a class's field is called on its values.
            header.isPrivate = isWord(n - 2, "const") || isWord(n - 2, "let") || isWord(n - 2, "var") ? !isWord(n - 3, "export") : false
            return header
        }
        // A Dart closure: its parameters follow an argument's start or an `=`.
        if language == .dart, isPunctuation(k - 1, "(") || isPunctuation(k - 1, ",") || isPunctuation(k - 1, ":") || isOperator(k - 1, "=") { return unnamed }
        guard tokens[k - 1].kind == .identifier else { return nil }
        let before = text(k - 1)
        if ["if", "for", "while", "switch", "catch", "with"].contains(before) { return nil }
        if before == "function" { return unnamed }
        var header = FunctionHeader(name: before, parameters: scriptParameters(open: parameterOpen, close: close) ?? [], location: location(k - 1))
        if language == .dart {
            // `_name` is private to its library (its file).
            header.isPrivate = before.hasPrefix("_")
        } else if isWord(k - 2, "function") {
            // `export function buy(`, `export async function buy(`; a method is called on its values.
            let keyword = isWord(k - 3, "async") ? k - 4 : k - 3
            header.isPrivate = !(isWord(keyword, "export") || isWord(keyword, "default"))
        }
        return header
    }

    /// The parameters between `open` and `close`: Dart's named ones (`{required String sku}`)
    /// are labelled as Swift's are, positional ones are not. Nil when one is destructured
    /// (`{ sku }: Props`) or otherwise not a plain name.
    func scriptParameters(open: Int, close: Int, named: Bool = false) -> [Parameter]? {
        var parameters: [Parameter] = []
        var start = open + 1
        while start < close {
            if language == .dart, isPunctuation(start, "{") || isPunctuation(start, "[") {
                let groupClose = matchingClose(start)
                guard groupClose <= close, let group = scriptParameters(open: start, close: groupClose, named: isPunctuation(start, "{")) else { return nil }
                parameters += group
                start = groupClose + 1
                if isPunctuation(start, ",") { start += 1 }
                continue
            }
            // The parameter's end, and its default value's `=`, at depth 0 (type arguments count).
            var end = start
            var depth = 0
            var equals: Int?
            while end < close {
                if isOpener(end) { depth += 1 } else if isCloser(end) { depth -= 1 }
                if tokens[end].kind == .operatorRun {
                    for offset in tokens[end].start..<tokens[end].end {
                        if bytes[offset] == 0x3C { depth += 1 } else if bytes[offset] == 0x3E, bytes[max(offset - 1, tokens[end].start)] != 0x3D { depth -= 1 }
                    }
                }
                if depth == 0 && isPunctuation(end, ",") { break }
                if depth == 0 && equals == nil && isOperator(end, "=") { equals = end }
                end += 1
            }
            let declared = start..<(equals ?? end)
            let name: Int?
            var type: String?
            if language == .dart {
                // `String sku`, `required this.sku`, `List<String> ids`: the last name, after its type.
                let names = declared.filter { index in
                    isIdentifier(index) && !["required", "covariant", "final", "this", "super", "var"].contains(text(index))
                }
                name = names.last
                if names.count > 1, let first = names.first { type = text(first) }
            } else {
                // `sku: string`, `sku = 'x'`, `sku?: string`: the first name.
                name = isIdentifier(start) ? start : nil
                if let name, isPunctuation(name + 1, ":") || isOperator(name + 1, "?:"), isIdentifier(name + 2) { type = text(name + 2) }
            }
            guard let name, !declared.isEmpty else { return nil }
            parameters.append(Parameter(label: named ? text(name) : nil, name: text(name), type: type, hasDefault: equals != nil || named))
            start = end + 1
        }
        return parameters
    }
}
