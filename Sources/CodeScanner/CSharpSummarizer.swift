// MARK: - C# (.NET MAUI, Xamarin and Unity apps)

/// C# is read into the same summary as Swift: constants, fields and properties of classes
/// (`const string`, `static readonly string[] … = { … }`, `=> "…"`, `{ get; } = …`), locals,
/// `using` directives of purchase libraries, and the calls of Plugin.InAppBilling and Unity IAP.
/// Expressions are written over into the tokens the Swift evaluator reads.
extension SourceScanner.Summarizer {
    mutating func summarizeCSharp() {
        walkBraces { $0.cSharpIdentifier($1) }
    }

    static let cSharpModifiers: Set<String> = [
        "public", "private", "internal", "protected", "static", "readonly", "const", "new", "override", "virtual", "volatile",
        "unsafe", "required", "sealed", "abstract", "partial", "extern",
    ]

    mutating func cSharpIdentifier(_ index: Int) {
        if isPunctuation(index - 1, ".") {
            if SourceScanner.cSharpEntryPointFirstBytes.contains(bytes[tokens[index].start]) { entryPoint(index) }
            return
        }
        let word = text(index)
        switch word {
        case "using":
            cSharpUsing(index)
            return
        case "class", "struct", "record", "interface":
            if isPunctuation(index - 1, ".") || isWord(index - 1, "where") { return }
            guard isIdentifier(index + 1) else { return }
            var k = index + 2
            while k < tokens.count && !isPunctuation(k, "{") && !isPunctuation(k, ";") && k - index < 64 { k += 1 }
            if isPunctuation(k, "{") { pendingType = PendingType(path: (typePaths.last ?? []) + [text(index + 1)], isEnum: false, hasStringRawValues: false) }
            return
        default:
            break
        }
        if cSharpStartsMember(index) { cSharpMember(from: index) }
        if SourceScanner.cSharpEntryPointFirstBytes.contains(bytes[tokens[index].start]) { entryPoint(index) }
        if isOperator(index + 1, "="), containsSecretWord(index) { secretLiteral(name: word, literal: index + 2) }
    }

    /// `using Plugin.InAppBilling;`, `using UnityEngine.Purchasing;`.
    mutating func cSharpUsing(_ index: Int) {
        var k = index + 1
        var name = ""
        while isIdentifier(k) || isPunctuation(k, ".") {
            name += text(k)
            k += 1
        }
        if SourceScanner.cSharpPurchaseNamespaces.contains(name) { summary.imports.insert(name) }
    }

    /// Whether a member or local declaration starts here: after `;`, `{`, `}` or an attribute's `]`.
    func cSharpStartsMember(_ index: Int) -> Bool {
        index == 0 || isPunctuation(index - 1, ";") || isPunctuation(index - 1, "{") || isPunctuation(index - 1, "}")
            || (isPunctuation(index - 1, "]") && tokens[index].line > tokens[index - 1].line)
    }

    /// `public const string Gold = "…";`, `static readonly string[] Ids = { … };`,
    /// `string Pro => "…";`, `List<string> Ids { get; } = new() { … };`, `var ids = new[] { … };`:
    /// a type, then a name, then its value.
    mutating func cSharpMember(from index: Int) {
        var k = index
        var angle = 0
        var names: [Int] = []
        while k < tokens.count && k - index < 64 {
            if tokens[k].kind == .operatorRun, !isOperator(k, "="), !isOperator(k, "=>") {
                for offset in tokens[k].start..<tokens[k].end {
                    if bytes[offset] == 0x3C { angle += 1 } else if bytes[offset] == 0x3E { angle -= 1 }
                }
            }
            if angle <= 0 {
                if isPunctuation(k, ";") || isPunctuation(k, "(") || isPunctuation(k, "}") || isPunctuation(k, ",") { return }
                // A type, then the name: at least two words (`ids = …` is an assignment).
                let declared = names.filter { !Self.cSharpModifiers.contains(text($0)) }
                if isOperator(k, "=") || isOperator(k, "=>") {
                    guard declared.count >= 2, let name = declared.last, name == k - 1 else { return }
                    var end = bracedExpressionEnd(from: k + 1)
                    record(name, expression: k + 1..<end, isPrivate: false)
                    // `string a = "x", b = "y";`: the names after the first share its type.
                    while isOperator(k, "="), isPunctuation(end, ","), isIdentifier(end + 1), isOperator(end + 2, "="), end + 3 < tokens.count {
                        let next = end + 1
                        let valueEnd = bracedExpressionEnd(from: next + 2)
                        record(next, expression: next + 2..<valueEnd, isPrivate: false)
                        end = valueEnd
                    }
                    return
                }
                if isPunctuation(k, "{") {
                    // A property: `{ get; } = value;` after its accessors.
                    guard declared.count >= 2, let name = declared.last, name == k - 1 else { return }
                    let close = matchingClose(k)
                    if isOperator(close + 1, "=") {
                        let end = bracedExpressionEnd(from: close + 2)
                        record(name, expression: close + 2..<end, isPrivate: false)
                    }
                    return
                }
            }
            if isIdentifier(k) { names.append(k) }
            k += 1
        }
    }

    /// A C# string's value: escapes decoded in a regular string, `""` in a verbatim one, a raw
    /// string as written; nil when interpolated or unterminated.
    func cSharpStringValue(_ token: Token) -> String? {
        guard token.flags & (Token.interpolated | Token.unterminated) == 0 else { return nil }
        var quote = token.start
        var verbatim = false
        while quote < token.end && bytes[quote] != 0x22 {
            if bytes[quote] == 0x40 { verbatim = true }
            quote += 1
        }
        var width = 0
        while quote + width < token.end && bytes[quote + width] == 0x22 { width += 1 }
        if width >= 3 {
            // Raw: the lines between the delimiters, less the closing line's indentation.
            let body = String(decoding: UnsafeBufferPointer(rebasing: bytes[(quote + width)..<(token.end - width)]), as: UTF8.self)
            var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 3 else { return lines.count == 1 ? lines[0] : nil }
            let indentation = lines.removeLast()
            lines.removeFirst()
            return lines.map { $0.hasPrefix(indentation) ? String($0.dropFirst(indentation.count)) : $0 }.joined(separator: "\n")
        }
        let body = quote + 1..<token.end - 1
        guard body.lowerBound <= body.upperBound else { return nil }
        if verbatim {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[body]), as: UTF8.self).replacingOccurrences(of: "\"\"", with: "\"")
        }
        return dartDecode(body)
    }
}

extension SourceScanner {
    /// `using` directives that say a file deals with In-App Purchase.
    static let cSharpPurchaseNamespaces: Set<String> = [
        "Plugin.InAppBilling", "UnityEngine.Purchasing", "UnityEngine.Purchasing.Extension", "StoreKit", "RevenueCat", "Soomla.Store",
    ]

    /// Every C# entry point, one a line. `label` `1...` takes the arguments from the second on
    /// (`GetProductInfoAsync(ItemType.InAppPurchase, "a", "b")`).
    static let cSharpEntryPoints: [EntryPoint] = [
        // Plugin.InAppBilling (.NET MAUI, Xamarin)
        EntryPoint(receivers: [["CrossInAppBilling", "Current"]], name: "GetProductInfoAsync", label: "1...", api: "GetProductInfoAsync", anyReceiverIfImported: "Plugin.InAppBilling"),
        EntryPoint(receivers: [["CrossInAppBilling", "Current"]], name: "PurchaseAsync", label: nil, api: "PurchaseAsync", anyReceiverIfImported: "Plugin.InAppBilling"),
        // Unity IAP
        EntryPoint(receivers: [], name: "AddProduct", label: nil, api: "ConfigurationBuilder.AddProduct", anyReceiverIfImported: "UnityEngine.Purchasing"),
        // `new ProductDefinition(id, type)`, `new ProductDefinition(id, storeSpecificId, type)`:
        // the store's ID when one is given (read by `unityDefinitionID`).
        EntryPoint(receivers: [], name: "ProductDefinition", label: nil, api: "new ProductDefinition", anyReceiverIfImported: "UnityEngine.Purchasing"),
        // Soomla Store (Unity): `new MarketItem(productId, price)`, `new PurchaseWithMarket(productId, price)`;
        // `new PurchaseWithMarket(new MarketItem(…))` is the inner item's ID (read as that call).
        EntryPoint(receivers: [], name: "MarketItem", label: nil, api: "new MarketItem", anyReceiverIfImported: "Soomla.Store"),
        EntryPoint(receivers: [], name: "PurchaseWithMarket", label: nil, api: "new PurchaseWithMarket", anyReceiverIfImported: "Soomla.Store"),
        // RevenueCat's Unity SDK with runtime setup: `PurchasesConfiguration.Builder.Init(apiKey)`.
        EntryPoint(receivers: [["PurchasesConfiguration", "Builder"]], name: "Init", label: nil, kind: .revenueCatKey, api: "PurchasesConfiguration.Builder.Init(apiKey)"),
    ]

    static let cSharpEntryPointsByName: [String: [EntryPoint]] = Dictionary(grouping: cSharpEntryPoints, by: \.name)
    static let cSharpEntryPointFirstBytes: Set<UInt8> = Set(cSharpEntryPoints.compactMap { $0.name.utf8.first })
}

extension SourceScanner.Summarizer {
    /// A single-line `$"…{x}…"`: its text pieces and the tokens of each hole (a format after
    /// `:` or an alignment after `,` is left out).
    func cSharpInterpolationParts(_ token: Token, line: Int, column: Int, end: (line: Int, column: Int)) -> [SourceScanner.StringPart]? {
        guard token.flags & Token.interpolated != 0, token.flags & (Token.unterminated | Token.multiline) == 0 else { return nil }
        var quote = token.start
        while quote < token.end && bytes[quote] != 0x22 { quote += 1 }
        let body = quote + 1..<token.end - 1
        guard body.lowerBound <= body.upperBound else { return nil }
        var parts: [SourceScanner.StringPart] = []
        var text: [UInt8] = []
        var p = body.lowerBound
        func flush() {
            if !text.isEmpty {
                let decoded = text.withUnsafeBufferPointer { SourceScanner.decodeEscapes($0, 0..<$0.count, hashes: 0, lineContinuation: false) }
                parts.append(.text(decoded))
                text = []
            }
        }
        while p < body.upperBound {
            let c = bytes[p]
            if c == 0x5C, p + 1 < body.upperBound {
                text.append(c)
                text.append(bytes[p + 1])
                p += 2
                continue
            }
            if (c == 0x7B || c == 0x7D) && p + 1 < body.upperBound && bytes[p + 1] == c {
                text.append(c)
                p += 2
                continue
            }
            guard c == 0x7B else {
                text.append(c)
                p += 1
                continue
            }
            flush()
            var depth = 0
            var close = p
            var holeEnd: Int?
            while close < body.upperBound {
                if bytes[close] == 0x7B || bytes[close] == 0x28 || bytes[close] == 0x5B { depth += 1 }
                if bytes[close] == 0x7D || bytes[close] == 0x29 || bytes[close] == 0x5D {
                    depth -= 1
                    if depth == 0 { break }
                }
                if depth == 1 && holeEnd == nil && (bytes[close] == 0x3A || bytes[close] == 0x2C) { holeEnd = close }
                close += 1
            }
            guard close < body.upperBound, close > p + 1 else { return nil }
            let inner = UnsafeBufferPointer(rebasing: bytes[(p + 1)..<(holeEnd ?? close)])
            var innerLexer = SourceScanner.Lexer(bytes: inner, language: .cSharp)
            innerLexer.run()
            var nested = SourceScanner.Summarizer(bytes: inner, tokens: innerLexer.tokens, file: summary.path, language: .cSharp)
            guard !innerLexer.tokens.isEmpty, innerLexer.tokens.count <= 64, let expression = nested.snapshot(0..<innerLexer.tokens.count) else { return nil }
            parts.append(.expression(expression.map { token in
                var token = token
                (token.line, token.column, token.endLine, token.endColumn) = (line, column, end.line, end.column)
                return token
            }))
            p = close + 1
        }
        flush()
        return parts
    }

    /// Unity's store-specific IDs, `new IDs { { "ios.id", AppleAppStore.Name }, … }`: the range of
    /// the App Store's ID among a call's arguments.
    /// The ID a `ProductDefinition(id, [storeSpecificId,] type)` asks the store for.
    func unityDefinitionID(open: Int, close: Int) -> Range<Int>? {
        let first = argumentEnd(from: open + 1, close: close)
        guard first < close else { return open + 1 < first ? open + 1..<first : nil }
        let second = argumentEnd(from: first + 1, close: close)
        // A third argument: the second is the store-specific ID.
        if second < close, first + 1 < second { return first + 1..<second }
        return open + 1 < first ? open + 1..<first : nil
    }

    func unityAppleID(open: Int, close: Int) -> Range<Int>? {
        var k = open + 1
        while k < close {
            // The iOS build asks the App Store ID; a Mac App Store one is the Mac build's, and
            // without an App Store one the product's own ID is asked.
            if isWord(k, "AppleAppStore") {
                // The ID in the same `{ "id", Store.Name }` pair: a string, or a name (a constant
                // or field the resolver follows).
                var p = k - 1
                while p > open, !isPunctuation(p, "{") { p -= 1 }
                let pairStart = p + 1
                var end = pairStart
                while end < k, !isPunctuation(end, ",") { end += 1 }
                if pairStart < end, end < k { return pairStart..<end }
            }
            k += 1
        }
        return nil
    }

    /// C# written over into what the Swift evaluator reads: array, list and set initializers
    /// (`new[] { … }`, `new List<string> { … }`, `= { … }`) as lists; type arguments,
    /// `.ToList()`/`.ToArray()`/`.ToHashSet()` dropped; several arguments as one list; and a
    /// choice on the platform (`DeviceInfo.Platform == DevicePlatform.iOS ? a : b`,
    /// `Application.platform == RuntimePlatform.IPhonePlayer ? a : b`) reduced to its iOS side.
    static func cSharpNormalized(_ tokens: [SourceScanner.ExpressionToken]) -> [SourceScanner.ExpressionToken] {
        typealias Token = SourceScanner.ExpressionToken
        var output: [Token] = []
        var braces: [Bool] = []
        var k = 0
        func isText(_ index: Int, _ text: String) -> Bool { index < tokens.count && tokens[index].text == text && tokens[index].kind != .string }
        while k < tokens.count {
            var token = tokens[k]
            if token.kind == .identifier, token.text == "new" {
                // `new[] {`, `new string[] {`, `new List<string> {`, `new() {`, `new List<string>(x)`
                var p = k + 1
                while p < tokens.count, tokens[p].kind == .identifier || tokens[p].text == "." { p += 1 }
                if p < tokens.count, tokens[p].kind == .operatorRun, tokens[p].text.hasPrefix("<"), let close = typeArgumentsEnd(tokens, from: p) { p = close + 1 }
                if isText(p, "["), isText(p + 1, "]") { p += 2 }
                if isText(p, "("), isText(p + 1, ")"), isText(p + 2, "{") { p += 2 }
                if isText(p, "(") {
                    k = p
                    continue
                }
                k = p
                if isText(p, "{") {
                    braces.append(true)
                    token = tokens[p]
                    token.text = "["
                    output.append(token)
                    k = p + 1
                }
                continue
            }
            if token.kind == .operatorRun, token.text.hasPrefix("<"), let close = typeArgumentsEnd(tokens, from: k),
               close + 1 < tokens.count, ["(", "{", "."].contains(tokens[close + 1].text) {
                k = close + 1
                continue
            }
            if token.text == ".", ["ToList", "ToArray", "ToHashSet", "AsReadOnly"].contains(where: { isText(k + 1, $0) }), isText(k + 2, "("), isText(k + 3, ")") {
                k += 4
                continue
            }
            if !continuesCondition(output.last), let side = iOSSide(tokens, at: k, condition: platformTest(tokens, at: k)) {
                output.append(contentsOf: cSharpNormalized(side.tokens))
                k = side.end
                continue
            }
            // A platform test anywhere else is the truth it has on iOS.
            if let (count, holds) = platformTest(tokens, at: k) {
                output.append(Token(kind: .identifier, text: holds ? "true" : "false", isLiteral: true, line: token.line, column: token.column, attached: token.attached))
                k += count
                continue
            }
            if token.kind == .punctuation, token.text == "{" {
                let literal = output.last.map { $0.kind == .operatorRun || ["(", "[", ",", "{"].contains($0.text) || $0.text == "return" } ?? true
                braces.append(literal)
                if literal { token.text = "[" }
            } else if token.kind == .punctuation, token.text == "}", let literal = braces.popLast(), literal {
                token.text = "]"
            }
            output.append(token)
            k += 1
        }
        // Several arguments (`"a", "b"`) are one list.
        var depth = 0
        let commas = output.contains { token in
            if token.kind != .string, ["(", "[", "{"].contains(token.text) { depth += 1 }
            if token.kind != .string, [")", "]", "}"].contains(token.text) { depth -= 1 }
            return depth == 0 && token.kind == .punctuation && token.text == ","
        }
        if commas, let first = output.first {
            output.insert(Token(kind: .punctuation, text: "[", isLiteral: false, line: first.line, column: 0, attached: false), at: 0)
            output.append(Token(kind: .punctuation, text: "]", isLiteral: false, line: first.line, column: 0, attached: true))
        }
        return output
    }

    static func platformTest(_ tokens: [SourceScanner.ExpressionToken], at k: Int) -> (count: Int, holds: Bool)? {
        func text(_ index: Int) -> String? { index < tokens.count && tokens[index].kind != .string ? tokens[index].text : nil }
        let pairs: [([String], [String], String)] = [
            (["DeviceInfo", ".", "Platform"], ["DevicePlatform", "."], "iOS"),
            (["Device", ".", "RuntimePlatform"], ["Device", "."], "iOS"),
            (["Application", ".", "platform"], ["RuntimePlatform", "."], "IPhonePlayer"),
        ]
        for (left, right, ios) in pairs where left.indices.allSatisfy({ text(k + $0) == left[$0] }) {
            let comparison = text(k + left.count)
            guard comparison == "==" || comparison == "!=" else { continue }
            let start = k + left.count + 1
            guard right.indices.allSatisfy({ text(start + $0) == right[$0] }), let name = text(start + right.count) else { continue }
            return (left.count + 1 + right.count + 1, (name == ios) == (comparison == "=="))
        }
        return nil
    }
}
