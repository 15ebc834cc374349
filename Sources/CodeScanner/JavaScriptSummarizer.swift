// MARK: - JavaScript and TypeScript (React Native, Expo, Capacitor, Cordova apps)

/// JavaScript and TypeScript are read into the same summary as Swift: `const`/`let`/`var`
/// values (an object's properties as members of it, `SKUS.monthly`), TypeScript enums, class
/// fields, imports of purchase libraries, and the calls of those libraries, whose IDs often sit in
/// an object argument (`getProducts({ skus })`). Expressions are written over into the tokens the
/// Swift evaluator reads (see `JavaScriptExpressions.swift`).
extension SourceScanner.Summarizer {
    mutating func summarizeJavaScript() {
        if usesCordovaPurchase() { summary.imports.insert("cordova-plugin-purchase") }
        summary.imports.formUnion(nativeGlobalLibraries())
        walkBraces { $0.javaScriptIdentifier($1) }
    }

    /// The product types of cordova-plugin-purchase before version 13, on its global `store`.
    static let cordovaProductTypes: Set<String> = [
        "CONSUMABLE", "NON_CONSUMABLE", "PAID_SUBSCRIPTION", "FREE_SUBSCRIPTION", "NON_RENEWING_SUBSCRIPTION",
    ]

    /// Whether the file uses cordova-plugin-purchase, a global that is never imported: it names
    /// `CdvPurchase` (version 13 on), or a product type on `store` (`store.CONSUMABLE`, earlier).
    func usesCordovaPurchase() -> Bool {
        // Every name looked for starts with one of these letters: others are never made strings.
        let initials: Set<UInt8> = [0x43, 0x46, 0x4E, 0x50]
        for index in tokens.indices where tokens[index].kind == .identifier && initials.contains(bytes[tokens[index].start]) {
            let word = text(index)
            if word == "CdvPurchase" { return true }
            if Self.cordovaProductTypes.contains(word), isPunctuation(index - 1, "."), isWord(index - 2, "store") { return true }
        }
        return false
    }

    /// Libraries reached through a global or a native module rather than an import:
    /// react-native-in-app-utils (`InAppUtils.loadProducts(…)`, the module taken from `NativeModules`)
    /// and cordova-plugin-inapppurchase (`inAppPurchase.getProducts(…)`).
    func nativeGlobalLibraries() -> Set<String> {
        var found: Set<String> = []
        for index in tokens.indices where tokens[index].kind == .identifier && (bytes[tokens[index].start] == 0x49 || bytes[tokens[index].start] == 0x69) {
            if isWord(index, "InAppUtils"), isPunctuation(index + 1, "."),
               isWord(index + 2, "loadProducts") || isWord(index + 2, "purchaseProduct") || isWord(index + 2, "canMakePayments") {
                found.insert("react-native-in-app-utils")
            } else if isWord(index, "inAppPurchase"), isPunctuation(index + 1, "."),
                      isWord(index + 2, "getProducts") || isWord(index + 2, "buy") || isWord(index + 2, "subscribe") {
                found.insert("cordova-plugin-inapppurchase")
            }
        }
        return found
    }

    mutating func javaScriptIdentifier(_ index: Int) {
        if isPunctuation(index - 1, ".") {
            if SourceScanner.javaScriptEntryPointFirstBytes.contains(bytes[tokens[index].start]) { entryPoint(index) }
            if !wrappers.isEmpty && isPunctuation(index + 1, "(") { wrapperCall(index) }
            return
        }
        switch text(index) {
        case "import", "require", "from":
            javaScriptImport(index)
        case "class", "enum", "namespace", "interface":
            javaScriptTypeDeclaration(index)
        case "const", "let", "var":
            javaScriptDeclaration(index)
        case "static", "readonly", "private", "public", "protected":
            javaScriptField(index)
        default:
            if SourceScanner.javaScriptEntryPointFirstBytes.contains(bytes[tokens[index].start]) || importAliases[text(index)] != nil { entryPoint(index) }
            if !wrappers.isEmpty && isPunctuation(index + 1, "(") { wrapperCall(index) }
            if isPunctuation(index + 1, ":") || isOperator(index + 1, "="), containsSecretWord(index) {
                secretLiteral(name: text(index), literal: index + 2)
            }
        }
    }

    /// `import … from 'react-native-iap'`, `require('react-native-purchases')`, `import('expo-iap')`.
    mutating func javaScriptImport(_ index: Int) {
        var k = index + 1
        if isPunctuation(k, "(") { k += 1 }
        guard k < tokens.count, tokens[k].kind == .string, var module = stringValue(tokens[k]) else { return }
        // Ionic Native's Angular flavour: `@awesome-cordova-plugins/in-app-purchase-2/ngx`.
        if module.hasSuffix("/ngx") { module.removeLast(4) }
        if let library = moduleAliases[module] { module = library }
        if SourceScanner.javaScriptPurchaseModules.contains(module) {
            summary.imports.insert(module)
            if isWord(index, "from") {
                recordImportAliases(before: index)
                if reexports(before: index) { summary.reexports.insert(module) }
            }
        } else if SourceScanner.isLocalModule(module) {
            summary.localImports.insert(module)
        } else if SourceScanner.namesPurchasePackage(module) {
            // `@adplorg/capacitor-in-app-purchase`: a purchase library iapdoctor does not read.
            summary.unreadLibraries.insert(module)
        }
    }

    /// Whether the `from` at `from` ends `export * from`, `export * as x from` or
    /// `export { a, b as c } from`.
    func reexports(before from: Int) -> Bool {
        var k = from - 1
        if isPunctuation(k, "}") {
            while k > 0, from - k < 512, !isPunctuation(k, "{") { k -= 1 }
            return isWord(k - 1, "export")
        }
        if isIdentifier(k), isWord(k - 1, "as") { k -= 2 }
        return isOperator(k, "*") && isWord(k - 1, "export")
    }

    /// `import { getSubscriptions as iapGetSubscriptions } from 'react-native-iap'`: the local
    /// name calls the library's function.
    mutating func recordImportAliases(before from: Int) {
        guard isPunctuation(from - 1, "}") else { return }
        var k = from - 2
        while k > 0, from - k < 512, !isPunctuation(k, "{") { k -= 1 }
        guard isPunctuation(k, "{") else { return }
        while k < from - 1 {
            if isIdentifier(k), isWord(k + 1, "as"), isIdentifier(k + 2) { importAliases[text(k + 2)] = text(k) }
            k += 1
        }
    }

    /// `class Store {`, `enum Sku {` (TypeScript), `namespace Ids {`: the body's members belong
    /// to it. An interface holds types only: its body is read as nobody's.
    mutating func javaScriptTypeDeclaration(_ index: Int) {
        guard isIdentifier(index + 1) else { return }
        var k = index + 2
        while k < tokens.count && !isPunctuation(k, "{") && !isPunctuation(k, ";") && k - index < 64 { k += 1 }
        guard isPunctuation(k, "{") else { return }
        let path = (typePaths.last ?? []) + [text(index + 1)]
        if isWord(index, "interface") { return }
        pendingType = PendingType(path: path, isEnum: false, hasStringRawValues: false)
        if isWord(index, "enum") { javaScriptEnumMembers(path: path, open: k) }
    }

    /// `enum Sku { Monthly = 'com.x.monthly', Yearly = "com.x.yearly" }`: constants `Sku.Monthly`.
    mutating func javaScriptEnumMembers(path: [String], open: Int) {
        let close = matchingClose(open)
        var k = open + 1
        while k < close {
            guard isIdentifier(k) || (k < tokens.count && tokens[k].kind == .string) else { return }
            let name = tokens[k].kind == .string ? (stringValue(tokens[k]) ?? "") : text(k)
            if isOperator(k + 1, "=") {
                let end = javaScriptExpressionEnd(from: k + 2, limit: close)
                if let expression = snapshot(k + 2..<end) {
                    appendMember(name: name, owner: path, position: k, expression: expression, context: context(k + 2))
                }
                k = end
            } else {
                k += 1
            }
            guard isPunctuation(k, ",") else { return }
            k += 1
        }
    }

    /// `const SKUS = …`, `export let a = 'x', b = 'y'`, `const ids: string[] = […] as const`.
    /// An object literal's properties become members (`SKUS.monthly`), nested ones too.
    mutating func javaScriptDeclaration(_ index: Int) {
        var k = index + 1
        while isIdentifier(k) {
            let nameIndex = k
            k += 1
            if isPunctuation(k, ":") { k = javaScriptTypeEnd(from: k + 1) }
            guard isOperator(k, "=") else { return }
            let end = javaScriptExpressionEnd(from: k + 1, limit: tokens.count)
            record(nameIndex, expression: k + 1..<end, isPrivate: false)
            arrowFunction(nameIndex, from: k + 1, end: end, isPrivate: !isWord(index - 1, "export"))
            if scopes.isEmpty {
                javaScriptObjectMembers(owner: (typePaths.last ?? []) + [text(nameIndex)], from: k + 1, end: end, depth: 0)
            }
            guard isPunctuation(end, ","), isIdentifier(end + 1) else { return }
            k = end + 1
        }
    }

    /// `const skus = () => […]`, `const idsFor = async (plan) => plan.ids`: a function whose body
    /// is the arrow's one expression (a block body is read where its `{` opens).
    mutating func arrowFunction(_ nameIndex: Int, from start: Int, end: Int, isPrivate: Bool) {
        var k = start
        if isWord(k, "async") { k += 1 }
        var parameters: [Parameter] = []
        if isPunctuation(k, "(") {
            let close = matchingClose(k)
            guard close < end, let list = scriptParameters(open: k, close: close) else { return }
            parameters = list
            k = close + 1
            // `(): string[] =>`: the return type.
            if isPunctuation(k, ":") {
                while k < end, !isOperator(k, "=>") { k += 1 }
            }
        } else if isIdentifier(k) {
            parameters = [Parameter(label: nil, name: text(k), type: nil, hasDefault: false)]
            k += 1
        } else {
            return
        }
        guard isOperator(k, "=>"), k + 1 < end, !isPunctuation(k + 1, "{"), end - k <= Self.maxExpressionTokens else { return }
        var definition = Definition(
            name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: isPrivate,
            expression: [], context: context(k + 1))
        definition.body = k + 1..<end
        definition.parameters = parameters
        append(definition)
    }

    /// `static readonly IDS = […]`, `private skus: string[] = […]`: a field of the class around it.
    mutating func javaScriptField(_ index: Int) {
        guard let owner = scopes.last?.typePath else { return }
        var k = index
        while isIdentifier(k), ["static", "readonly", "private", "public", "protected", "override", "declare"].contains(text(k)) { k += 1 }
        guard isIdentifier(k) else { return }
        let nameIndex = k
        k += 1
        if isOperator(k, "?") || isOperator(k, "!") { k += 1 }
        if isPunctuation(k, ":") { k = javaScriptTypeEnd(from: k + 1) }
        guard isOperator(k, "=") else { return }
        let end = javaScriptExpressionEnd(from: k + 1, limit: tokens.count)
        if let expression = snapshot(k + 1..<end) {
            appendMember(name: text(nameIndex), owner: owner, position: nameIndex, expression: expression, context: context(k + 1))
        }
        javaScriptObjectMembers(owner: owner + [text(nameIndex)], from: k + 1, end: end, depth: 0)
    }

    /// `{ monthly: 'com.x.m', pro: { yearly: … } }` as the value of `owner`: each property a
    /// member of it.
    mutating func javaScriptObjectMembers(owner: [String], from start: Int, end: Int, depth: Int) {
        guard depth < 4, isPunctuation(start, "{") else { return }
        let close = matchingClose(start)
        guard close <= end else { return }
        var k = start + 1
        while k < close {
            let keyIndex = k
            let key: String
            if isIdentifier(k) {
                key = text(k)
            } else if k < tokens.count, tokens[k].kind == .string, let value = stringValue(tokens[k]) {
                key = value
            } else {
                return
            }
            guard isPunctuation(k + 1, ":") else {
                // Shorthand `{ skus }`: the member is the binding of that name.
                if isIdentifier(k), isPunctuation(k + 1, ",") || k + 1 == close, let expression = snapshot(k..<k + 1) {
                    appendMember(name: key, owner: owner, position: keyIndex, expression: expression, context: context(k))
                }
                // Or a method: skip to the next property.
                k = javaScriptExpressionEnd(from: k, limit: close)
                if isPunctuation(k, ",") { k += 1 }
                continue
            }
            let valueEnd = javaScriptExpressionEnd(from: k + 2, limit: close)
            if let expression = snapshot(k + 2..<valueEnd) {
                appendMember(name: key, owner: owner, position: keyIndex, expression: expression, context: context(k + 2))
            }
            javaScriptObjectMembers(owner: owner + [key], from: k + 2, end: valueEnd, depth: depth + 1)
            k = valueEnd
            guard isPunctuation(k, ",") else { return }
            k += 1
        }
    }

    mutating func appendMember(name: String, owner: [String], position: Int, expression: [ExpressionToken], context: SourceScanner.Context) {
        var definition = Definition(
            name: name, owner: owner, localScope: nil, position: position, isPrivate: false, expression: expression, context: context)
        definition.conditions = conditions
        summary.definitions.append(definition)
    }

    /// Past a TypeScript type annotation: the `=` (or `;`, `,` at depth 0) after it.
    func javaScriptTypeEnd(from start: Int) -> Int {
        var depth = 0
        var k = start
        while k < tokens.count {
            if depth == 0 && (isOperator(k, "=") || isPunctuation(k, ";") || isPunctuation(k, ",")) { return k }
            if tokens[k].kind == .operatorRun {
                for offset in tokens[k].start..<tokens[k].end {
                    if bytes[offset] == 0x3C { depth += 1 } else if bytes[offset] == 0x3E { depth -= 1 }
                }
                if isOperator(k, "=>") { depth += 1 }
            } else if isOpener(k) {
                depth += 1
            } else if isCloser(k) {
                if depth == 0 { return k }
                depth -= 1
            }
            k += 1
        }
        return k
    }

    /// The end (exclusive) of a JavaScript expression: `;`, or `,` or an unmatched closer at
    /// depth 0, or a line break where the next line starts a new statement (no semicolons).
    func javaScriptExpressionEnd(from start: Int, limit: Int) -> Int {
        expressionEnd(from: start, limit: limit) { k in
            isPunctuation(k, ",") || isPunctuation(k, ";") || (tokens[k].line > tokens[k - 1].line && !javaScriptContinues(k))
        }
    }

    /// Whether the line break before token `k` continues the expression: the line before ends
    /// in an operator, or this one starts with one (`.`, `?`, `:`, `+`…).
    func javaScriptContinues(_ k: Int) -> Bool {
        let previous = tokens[k - 1]
        if previous.kind == .operatorRun { return true }
        if previous.kind == .punctuation, [0x28, 0x5B, 0x7B, 0x2C, 0x2E, 0x3A].contains(bytes[previous.start]) { return true }
        let token = tokens[k]
        if token.kind == .operatorRun { return true }
        if token.kind == .punctuation, [0x2E, 0x3A, 0x29, 0x5D, 0x7D].contains(bytes[token.start]) { return true }
        return isWord(k, "as") || isWord(k, "satisfies")
    }
}
