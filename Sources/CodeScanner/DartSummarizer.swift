// MARK: - Dart (Flutter apps)

/// Dart is read into the same summary as Swift: constants and fields (`const`, `final`, `static`,
/// getters written `=> value`), enums whose cases pass values to their fields, imports of
/// In-App Purchase packages, and the calls of Flutter's purchase plugins. Expressions are written
/// over into the tokens the Swift evaluator reads (see `DartExpressions.swift`).
extension SourceScanner.Summarizer {
    mutating func summarizeDart() {
        buildsPurchaseRequests = namesPurchaseRequestType()
        walkBraces { $0.dartIdentifier($1) }
    }

    /// Whether the file names one of flutter_inapp_purchase's request types (6.0 on):
    /// `RequestPurchaseProps`, `RequestPurchaseIosProps`, `RequestSubscriptionIOS`, … (its
    /// builders aside, which iapdoctor does not read).
    func namesPurchaseRequestType() -> Bool {
        for index in tokens.indices where tokens[index].kind == .identifier && bytes[tokens[index].start] == 0x52 {
            let word = text(index)
            if word.hasPrefix("RequestPurchase") || word.hasPrefix("RequestSubscription"), !word.hasSuffix("Builder") { return true }
        }
        return false
    }

    /// Words that begin a declaration of a constant or field before its type and name.
    static let dartDeclarationWords: Set<String> = ["const", "final", "var", "static", "late"]

    mutating func dartIdentifier(_ index: Int) {
        let word = text(index)
        switch word {
        case "import", "export":
            dartImport(index)
            return
        case "class", "mixin", "enum", "extension":
            dartTypeDeclaration(index)
            return
        case "const", "final", "var", "static", "late":
            if dartStartsDeclaration(index) { dartDeclaration(from: index) }
            return
        case "get":
            dartGetter(index)
            return
        default:
            if dartStartsTypedDeclaration(index) {
                dartDeclaration(from: index)
                return
            }
        }
        if SourceScanner.dartEntryPointFirstBytes.contains(bytes[tokens[index].start]) { entryPoint(index) }
        if !wrappers.isEmpty && isPunctuation(index + 1, "(") { wrapperCall(index) }
        if isOperator(index + 1, "=") || isPunctuation(index + 1, ":"), containsSecretWord(index) {
            secretLiteral(name: word, literal: index + 2)
        }
    }

    /// `import 'package:in_app_purchase/in_app_purchase.dart';`: the package's name.
    mutating func dartImport(_ index: Int) {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .string, let path = stringValue(tokens[index + 1]),
              path.hasPrefix("package:") else { return }
        let package = path.dropFirst("package:".count).split(separator: "/").first.map(String.init) ?? ""
        if SourceScanner.dartPurchasePackages.contains(package) {
            summary.imports.insert(package)
        } else if SourceScanner.namesPurchasePackage(package) {
            summary.unreadLibraries.insert(package)
        }
    }

    /// `class Store {`, `enum ProductID {`, `mixin M on S {`, `extension X on Y {`: the body's
    /// members belong to the type (an unnamed extension's to nothing).
    mutating func dartTypeDeclaration(_ index: Int) {
        if isPunctuation(index - 1, ".") { return }
        guard isIdentifier(index + 1) else { return }
        let name = text(index + 1)
        if isWord(index, "extension") && name == "on" { return }
        var k = index + 2
        while k < tokens.count && !isPunctuation(k, "{") && !isPunctuation(k, ";") && k - index < 64 { k += 1 }
        guard isPunctuation(k, "{") else { return }
        let path = (typePaths.last ?? []) + [name]
        pendingType = PendingType(path: path, isEnum: false, hasStringRawValues: false)
        if isWord(index, "enum") {
            dartEnumCases(path: path, open: k)
        } else if isWord(index, "class") {
            let close = matchingClose(k)
            if close > k {
                let fields = dartConstructorFields(name: name, in: k + 1..<close)
                if !fields.positional.isEmpty { summary.positionalFields[name] = fields.positional }
            }
        }
    }

    /// Whether `const`/`final`/`var`/`static`/`late` here starts a declaration (rather than
    /// `const [..]` inside an expression): it follows a statement's or member's end.
    func dartStartsDeclaration(_ index: Int) -> Bool {
        if index == 0 { return true }
        if isIdentifier(index - 1), Self.dartDeclarationWords.contains(text(index - 1)) { return false }
        if isPunctuation(index - 1, ";") || isPunctuation(index - 1, "{") || isPunctuation(index - 1, "}") { return true }
        // An annotation (`@override`) or a modifier word before it.
        if isIdentifier(index - 1), isPunctuation(index - 2, "@") { return true }
        if isPunctuation(index - 1, ")"), tokens[index].line > tokens[index - 1].line { return true }
        return isWord(index - 1, "external") || isWord(index - 1, "abstract") || isWord(index - 1, "covariant")
    }

    /// Words that begin a statement, never a type.
    static let dartStatementWords: Set<String> = [
        "return", "await", "throw", "yield", "case", "else", "new", "is", "as", "in", "if", "for", "while", "do", "switch",
        "try", "catch", "assert", "break", "continue", "default", "typedef", "import", "export", "part", "library",
    ]

    /// Whether a type written without `final`/`var` starts a declaration here: `Set<String> ids =
    /// {id};` in a body, `String productId = "…";` as a field. A statement's start, then a type
    /// (`Name`, `prefix.Name`, `Name<…>`, `Name?`), then the name and `=`.
    func dartStartsTypedDeclaration(_ index: Int) -> Bool {
        guard !Self.dartStatementWords.contains(text(index)), !isPunctuation(index - 1, "."), dartStartsDeclaration(index) else { return false }
        var k = index + 1
        while isPunctuation(k, "."), isIdentifier(k + 1) { k += 2 }
        if k < tokens.count, tokens[k].kind == .operatorRun, bytes[tokens[k].start] == 0x3C {
            var angle = 0
            while k < tokens.count, k - index < 64 {
                if tokens[k].kind == .operatorRun {
                    for offset in tokens[k].start..<tokens[k].end {
                        if bytes[offset] == 0x3C { angle += 1 } else if bytes[offset] == 0x3E { angle -= 1 }
                    }
                } else if !isIdentifier(k) && !isPunctuation(k, ",") && !isPunctuation(k, ".") {
                    return false
                }
                k += 1
                if angle <= 0 { break }
            }
            guard angle == 0 else { return false }
        }
        if isOperator(k, "?") { k += 1 }
        return isIdentifier(k) && !Self.dartStatementWords.contains(text(k)) && isOperator(k + 1, "=")
    }

    /// `const String a = 'x', b = 'y';`, `static final Set<String> ids = {…};`,
    /// `late final ids = …;`: each declared name and its value.
    mutating func dartDeclaration(from index: Int) {
        var k = index
        var angle = 0
        var nameIndex: Int?
        while k < tokens.count {
            if tokens[k].kind == .operatorRun {
                for offset in tokens[k].start..<tokens[k].end {
                    if bytes[offset] == 0x3C { angle += 1 } else if bytes[offset] == 0x3E { angle -= 1 }
                }
            }
            if angle <= 0 {
                if isPunctuation(k, ";") || isPunctuation(k, "{") || isPunctuation(k, "(") || isPunctuation(k, "}") { return }
                if isOperator(k, "="), let name = nameIndex {
                    let end = bracedExpressionEnd(from: k + 1)
                    // Not private to the file even when `_name`: a library's `part` files share it.
                    record(name, expression: k + 1..<end, isPrivate: false)
                    guard isPunctuation(end, ","), isIdentifier(end + 1) else { return }
                    nameIndex = nil
                    k = end + 1
                    continue
                }
                if isOperator(k, "=>") { return }
            }
            nameIndex = isIdentifier(k) ? k : nil
            k += 1
        }
    }

    /// `static List<String> get ids => [a, b];`: a value like a constant's.
    mutating func dartGetter(_ index: Int) {
        guard isIdentifier(index + 1), isOperator(index + 2, "=>") else { return }
        let end = bracedExpressionEnd(from: index + 3)
        record(index + 1, expression: index + 3..<end, isPrivate: false)
    }

    /// The end (exclusive) of a Dart or C# expression: `;`, or `,` or an unmatched closer at
    /// depth 0 (braces count: collection literals, closures).
    func bracedExpressionEnd(from start: Int) -> Int {
        // An empty expression ends where it starts.
        if isPunctuation(start, ",") || isPunctuation(start, ";") { return start }
        return expressionEnd(from: start) { isPunctuation($0, ",") || isPunctuation($0, ";") }
    }

    /// An enum's cases up to the first `;`: `coins('com.x.coins'), pro(id: 'com.x.pro');` gives
    /// each case's values to the fields its constructor sets (`const P(this.id)`), as constants
    /// named `P.coins.id`.
    mutating func dartEnumCases(path: [String], open: Int) {
        let close = matchingClose(open)
        guard close > open else { return }
        let fields = dartConstructorFields(name: path.last ?? "", in: open + 1..<close)
        // Every case's value of each field, and every case's name, for `P.values.map((p) => p.id)`.
        var columns: [String: [[ExpressionToken]]] = [:]
        var names: [ExpressionToken] = []
        // Each case's fields, for the getters that combine them.
        var cases: [(index: Int, fields: [String: [ExpressionToken]])] = []
        var k = open + 1
        while k < close, isIdentifier(k) {
            let caseIndex = k
            let name = text(caseIndex)
            let location = location(caseIndex)
            names.append(ExpressionToken(
                kind: .string, text: name, isLiteral: true, line: location.line, column: location.column,
                endLine: location.line, endColumn: location.column + name.unicodeScalars.count, attached: false))
            var values: [String: [ExpressionToken]] = [:]
            k += 1
            if isPunctuation(k, "(") {
                let argumentsClose = matchingClose(k)
                var position = 0
                for argument in callArguments(open: k, close: argumentsClose) {
                    let field: String?
                    if let label = argument.label {
                        field = fields.named.contains(label) ? label : nil
                    } else {
                        field = position < fields.positional.count ? fields.positional[position] : nil
                        position += 1
                    }
                    guard let field, let expression = snapshot(argument.range) else { continue }
                    columns[field, default: []].append(expression)
                    values[field] = expression
                    var definition = Definition(
                        name: field, owner: path + [text(caseIndex)], localScope: nil, position: caseIndex, isPrivate: false,
                        expression: expression, context: context(argument.range.lowerBound))
                    definition.conditions = conditions
                    summary.definitions.append(definition)
                }
                k = argumentsClose + 1
            }
            cases.append((caseIndex, values))
            guard isPunctuation(k, ",") else { break }
            k += 1
        }
        // `String get productID => Platform.isIOS ? iosId : androidId;`: each case's value, its
        // fields put in.
        for (name, expression, at) in dartEnumGetters(in: min(k, close)..<close) {
            for (caseIndex, values) in cases {
                let value = Self.substituting(values, in: expression)
                columns[name, default: []].append(value)
                var definition = Definition(
                    name: name, owner: path + [text(caseIndex)], localScope: nil, position: caseIndex, isPrivate: false,
                    expression: value, context: context(at))
                definition.conditions = conditions
                summary.definitions.append(definition)
            }
        }
        dartEnumValues(path: path, columns: columns, names: names, at: open)
    }

    /// The getters written `get name => expression;` among an enum's members.
    mutating func dartEnumGetters(in range: Range<Int>) -> [(name: String, expression: [ExpressionToken], at: Int)] {
        var getters: [(name: String, expression: [ExpressionToken], at: Int)] = []
        var k = range.lowerBound
        while k < range.upperBound {
            if isPunctuation(k, "{") || isPunctuation(k, "(") || isPunctuation(k, "[") {
                k = matchingClose(k) + 1
                continue
            }
            if isWord(k, "get"), isIdentifier(k + 1), isOperator(k + 2, "=>") {
                let end = bracedExpressionEnd(from: k + 3)
                if let expression = snapshot(k + 3..<end) { getters.append((text(k + 1), expression, k + 3)) }
                k = end
                continue
            }
            k += 1
        }
        return getters
    }

    /// `expression` with each field it names (`iosId`, `this.iosId`) replaced by its value.
    static func substituting(_ values: [String: [ExpressionToken]], in expression: [ExpressionToken]) -> [ExpressionToken] {
        var output: [ExpressionToken] = []
        var k = 0
        while k < expression.count {
            let token = expression[k]
            var name = k
            if token.kind == .identifier, token.text == "this", k + 2 < expression.count, expression[k + 1].text == "." { name = k + 2 }
            let member = k > 0 && expression[k - 1].kind == .punctuation && expression[k - 1].text == "."
            if expression[name].kind == .identifier, !member, let value = values[expression[name].text] {
                let line = value.first?.line ?? token.line
                output.append(ExpressionToken(kind: .punctuation, text: "(", isLiteral: false, line: line, column: 0, attached: false))
                output += value
                output.append(ExpressionToken(kind: .punctuation, text: ")", isLiteral: false, line: line, column: 0, attached: true))
                k = name + 1
                continue
            }
            output.append(token)
            k += 1
        }
        return output
    }

    /// `P.values.map((p) => p.field)` is written over as `P.values$field`: one list per field of
    /// every case's value, and `values$name` of the cases' names.
    mutating func dartEnumValues(path: [String], columns: [String: [[ExpressionToken]]], names: [ExpressionToken], at open: Int) {
        var lists = columns
        lists["name"] = names.map { [$0] }
        for (field, values) in lists where !values.isEmpty {
            guard let line = values.first?.first?.line else { continue }
            var list = [ExpressionToken(kind: .punctuation, text: "[", isLiteral: false, line: line, column: 0, attached: false)]
            for (index, value) in values.enumerated() {
                if index > 0 { list.append(ExpressionToken(kind: .punctuation, text: ",", isLiteral: false, line: line, column: 0, attached: true)) }
                list += value
            }
            list.append(ExpressionToken(kind: .punctuation, text: "]", isLiteral: false, line: line, column: 0, attached: true))
            var definition = Definition(
                name: "values$" + field, owner: path, localScope: nil, position: open, isPrivate: false, expression: list, context: context(open))
            definition.conditions = conditions
            summary.definitions.append(definition)
        }
    }

    /// The fields an enum's or class's constructor sets from its parameters: `const P(this.id, {required this.name})`.
    func dartConstructorFields(name: String, in range: Range<Int>) -> (positional: [String], named: Set<String>) {
        var k = range.lowerBound
        while k < range.upperBound {
            // `const P(this.id)`, or `P(this.id);` as a member of its own.
            if isIdentifier(k), text(k) == name, isPunctuation(k + 1, "("),
               isWord(k - 1, "const") || isPunctuation(k - 1, ";") || isPunctuation(k - 1, "{") || isPunctuation(k - 1, "}") {
                let close = matchingClose(k + 1)
                var positional: [String] = []
                var named: Set<String> = []
                var inNamed = false
                var p = k + 2
                while p < close {
                    if isPunctuation(p, "{") || isPunctuation(p, "[") { inNamed = isPunctuation(p, "{") }
                    if isWord(p, "this"), isPunctuation(p + 1, "."), isIdentifier(p + 2) {
                        if inNamed { named.insert(text(p + 2)) } else { positional.append(text(p + 2)) }
                        p += 3
                        continue
                    }
                    p += 1
                }
                return (positional, named)
            }
            k += 1
        }
        return ([], [])
    }
}
