// MARK: - JavaScript entry points and expressions

extension SourceScanner {
    /// Purchase libraries of React Native, Expo, Capacitor and Cordova apps, as imported.
    static let javaScriptPurchaseModules: Set<String> = [
        "react-native-iap", "expo-iap", "expo-in-app-purchases", "react-native-purchases", "react-native-purchases-ui",
        "@revenuecat/purchases-capacitor", "@revenuecat/purchases-js", "cordova-plugin-purchase", "@awesome-cordova-plugins/in-app-purchase-2",
        "react-native-adapty", "react-native-qonversion", "@capgo/native-purchases",
        // Older libraries still in apps: react-native-in-app-utils (a native module, `NativeModules.InAppUtils`),
        // cordova-plugin-inapppurchase (a global, `inAppPurchase`) and its Ionic Native wrappers.
        "react-native-in-app-utils", "cordova-plugin-inapppurchase", "@ionic-native/in-app-purchase", "@awesome-cordova-plugins/in-app-purchase",
    ]

    /// Every JavaScript entry point, one a line; a bare call (`getProducts(…)`, from a hook) counts
    /// only in a file that imports the library. `label` names the property of an object argument
    /// that holds the IDs (`getProducts({ skus })`; `request.ios.sku` for a nested one); without
    /// it the first argument is the IDs. Entries with a label come before the same name without,
    /// for libraries that took an array first and an object later.
    static let javaScriptEntryPoints: [EntryPoint] = {
        var entries: [EntryPoint] = []
        // react-native-iap and expo-iap share their API across versions: an array, then `{ skus }`,
        // then `{ request: { ios: { sku } } }`.
        for module in ["react-native-iap", "expo-iap"] {
            for name in ["getProducts", "getSubscriptions", "fetchProducts", "requestProducts"] {
                entries.append(EntryPoint(receivers: [["RNIap"]], name: name, label: "skus", api: "\(name)({ skus })", anyReceiverIfImported: module))
                entries.append(EntryPoint(receivers: [["RNIap"]], name: name, label: nil, api: "\(name)(skus)", anyReceiverIfImported: module))
            }
            for name in ["requestPurchase", "requestSubscription"] {
                entries.append(EntryPoint(receivers: [["RNIap"]], name: name, label: "request.ios.sku", api: "\(name)({ request: { ios: { sku } } })", anyReceiverIfImported: module))
                entries.append(EntryPoint(receivers: [["RNIap"]], name: name, label: "request.sku", api: "\(name)({ request: { sku } })", anyReceiverIfImported: module))
                entries.append(EntryPoint(receivers: [["RNIap"]], name: name, label: "sku", api: "\(name)({ sku })", anyReceiverIfImported: module))
                entries.append(EntryPoint(receivers: [["RNIap"]], name: name, label: nil, api: "\(name)(sku)", anyReceiverIfImported: module))
            }
        }
        entries += [
            // expo-in-app-purchases
            EntryPoint(receivers: [["InAppPurchases"]], name: "getProductsAsync", label: nil, api: "InAppPurchases.getProductsAsync", anyReceiverIfImported: "expo-in-app-purchases"),
            EntryPoint(receivers: [["InAppPurchases"]], name: "purchaseItemAsync", label: nil, api: "InAppPurchases.purchaseItemAsync", anyReceiverIfImported: "expo-in-app-purchases"),
            // react-native-purchases (RevenueCat)
            EntryPoint(receivers: [["Purchases"]], name: "getProducts", label: nil, api: "Purchases.getProducts", anyReceiverIfImported: "react-native-purchases"),
            EntryPoint(receivers: [["Purchases"]], name: "purchaseProduct", label: nil, api: "Purchases.purchaseProduct", anyReceiverIfImported: "react-native-purchases"),
            EntryPoint(receivers: [["Purchases"]], name: "getOfferings", label: nil, kind: .remoteConfiguration, api: "Purchases.getOfferings", anyReceiverIfImported: "react-native-purchases"),
            EntryPoint(receivers: [["Purchases"]], name: "configure", label: "apiKey", kind: .revenueCatKey, api: "Purchases.configure({ apiKey })", anyReceiverIfImported: "react-native-purchases"),
            EntryPoint(receivers: [["Purchases"]], name: "configure", label: nil, kind: .revenueCatKey, api: "Purchases.configure(apiKey)", anyReceiverIfImported: "react-native-purchases"),
            EntryPoint(receivers: [["Purchases"]], name: "setup", label: nil, kind: .revenueCatKey, api: "Purchases.setup(apiKey)", anyReceiverIfImported: "react-native-purchases"),
            EntryPoint(receivers: [[]], name: "all", label: nil, kind: .offeringID, api: "offerings.all[…]", anyReceiverIfImported: "react-native-purchases"),
            // @revenuecat/purchases-capacitor
            EntryPoint(receivers: [["Purchases"]], name: "configure", label: "apiKey", kind: .revenueCatKey, api: "Purchases.configure({ apiKey })", anyReceiverIfImported: "@revenuecat/purchases-capacitor"),
            EntryPoint(receivers: [[]], name: "all", label: nil, kind: .offeringID, api: "offerings.all[…]", anyReceiverIfImported: "@revenuecat/purchases-capacitor"),
            // cordova-plugin-purchases (RevenueCat), a global
            EntryPoint(receivers: [["Purchases"], ["window", "Purchases"]], name: "configureWith", label: "apiKey", kind: .revenueCatKey, api: "Purchases.configureWith({ apiKey })"),
            EntryPoint(receivers: [["Purchases"]], name: "getProducts", label: "productIdentifiers", api: "Purchases.getProducts({ productIdentifiers })", anyReceiverIfImported: "@revenuecat/purchases-capacitor"),
            EntryPoint(receivers: [["Purchases"]], name: "getOfferings", label: nil, kind: .remoteConfiguration, api: "Purchases.getOfferings", anyReceiverIfImported: "@revenuecat/purchases-capacitor"),
            // A purchase of a product written out: `purchaseStoreProduct({ product: { productIdentifier } })`.
            EntryPoint(receivers: [["Purchases"]], name: "purchaseStoreProduct", label: "product.productIdentifier", api: "Purchases.purchaseStoreProduct({ product: { productIdentifier } })", anyReceiverIfImported: "@revenuecat/purchases-capacitor"),
            // cordova-plugin-purchase, a global (`CdvPurchase.store`, or `store` in a file that names
            // `CdvPurchase`): `store.register({ id, type, platform })`
            EntryPoint(receivers: [["CdvPurchase", "store"]], name: "register", label: "id", api: "store.register({ id })", anyReceiverIfImported: "cordova-plugin-purchase"),
            // react-native-in-app-utils: `InAppUtils.loadProducts(ids, callback)`, `purchaseProduct(id, callback)`
            EntryPoint(receivers: [["InAppUtils"], ["NativeModules", "InAppUtils"]], name: "loadProducts", label: nil, api: "InAppUtils.loadProducts"),
            EntryPoint(receivers: [["InAppUtils"], ["NativeModules", "InAppUtils"]], name: "purchaseProduct", label: nil, api: "InAppUtils.purchaseProduct"),
        ]
        // cordova-plugin-inapppurchase: the global `inAppPurchase`, or the Ionic Native service
        // (`this.iap.getProducts(ids)`) in a file that imports it.
        for module in ["@ionic-native/in-app-purchase", "@awesome-cordova-plugins/in-app-purchase", nil] {
            for name in ["getProducts", "buy", "subscribe"] {
                entries.append(EntryPoint(
                    receivers: [["inAppPurchase"], ["window", "inAppPurchase"]], name: name, label: nil, api: "inAppPurchase.\(name)",
                    anyReceiverIfImported: module))
            }
        }
        return entries
    }()

    static let javaScriptEntryPointsByName: [String: [EntryPoint]] = Dictionary(grouping: javaScriptEntryPoints, by: \.name)
    static let javaScriptEntryPointFirstBytes: Set<UInt8> = Set(javaScriptEntryPoints.compactMap { $0.name.utf8.first })
}

extension SourceScanner.Summarizer {
    /// The tokens of a call's first argument, or of the property `label` (a dotted path) of the
    /// object literal it is; shorthand `{ skus }` is the name itself.
    func javaScriptArgumentRange(open: Int, close: Int, label: String?) -> Range<Int>? {
        guard open + 1 < close else { return nil }
        let first = open + 1..<argumentEnd(from: open + 1, close: close)
        guard let label else { return first.isEmpty || isPunctuation(first.lowerBound, "{") ? nil : first }
        // `store.register([{ id }, { id }])`: the list, read by `cordovaRegistrations`.
        if label == "id", isPunctuation(first.lowerBound, "[") || (first.count == 1 && isIdentifier(first.lowerBound)) { return first }
        var range = first
        for key in label.split(separator: ".") {
            guard isPunctuation(range.lowerBound, "{") else { return nil }
            let objectClose = matchingClose(range.lowerBound)
            guard let value = javaScriptProperty(String(key), open: range.lowerBound, close: objectClose) else { return nil }
            range = value
        }
        return range.isEmpty ? nil : range
    }

    /// `store.register([{ id, type, platform }, …])`: the IDs of the App Store's products (an
    /// entry for Google Play or another store is left out), as one list.
    mutating func cordovaRegistrations(_ range: Range<Int>) -> [ExpressionToken]? {
        let close = matchingClose(range.lowerBound)
        var ids: [[ExpressionToken]] = []
        var k = range.lowerBound + 1
        while k < close {
            let end = argumentEnd(from: k, close: close)
            if isPunctuation(k, "{") {
                let objectClose = matchingClose(k)
                let platform = javaScriptProperty("platform", open: k, close: objectClose).map { range in
                    range.map { text($0) }.joined()
                } ?? ""
                if !Self.namesOtherStore(platform), let id = javaScriptProperty("id", open: k, close: objectClose), let tokens = snapshot(id) {
                    ids.append(tokens)
                }
            }
            k = end + 1
        }
        guard let first = ids.first?.first else { return nil }
        var list = [ExpressionToken(kind: .punctuation, text: "[", isLiteral: false, line: first.line, column: 0, attached: false)]
        for (index, tokens) in ids.enumerated() {
            if index > 0 { list.append(ExpressionToken(kind: .punctuation, text: ",", isLiteral: false, line: first.line, column: 0, attached: true)) }
            list += tokens
        }
        list.append(ExpressionToken(kind: .punctuation, text: "]", isLiteral: false, line: first.line, column: 0, attached: true))
        return list
    }

    /// The list cordova-plugin-purchase's `store.register(…)` is given: the literal in place, or
    /// the list literal a constant of the same file holds (`const products = [{ id, platform }]`),
    /// whose objects' platforms must be read one by one.
    func registeredList(_ range: Range<Int>) -> Range<Int>? {
        if isPunctuation(range.lowerBound, "[") { return range }
        guard range.count == 1, isIdentifier(range.lowerBound) else { return nil }
        guard let value = constantAssignments(text(range.lowerBound)).first(where: { isPunctuation($0 + 1, "[") }) else { return nil }
        return value + 1..<matchingClose(value + 1) + 1
    }

    /// The `=` of each `const`/`let`/`var` declaration of `name` in the file (`const x: T[] = …`).
    func constantAssignments(_ name: String) -> [Int] {
        tokens.indices.compactMap { k -> Int? in
            guard k + 2 < tokens.count, isIdentifier(k), text(k) == name,
                  isWord(k - 1, "const") || isWord(k - 1, "let") || isWord(k - 1, "var") else { return nil }
            var value = k + 1
            if isPunctuation(value, ":") { value = javaScriptTypeEnd(from: value + 1) }
            return isOperator(value, "=") ? value : nil
        }
    }

    /// A cordova-plugin-purchase `platform` that is not the App Store's.
    static func namesOtherStore(_ platform: String) -> Bool {
        ["GOOGLE", "WINDOWS", "BRAINTREE", "TEST", "AMAZON"].contains { platform.uppercased().contains($0) }
    }

    /// `const products = IDS.map(id => ({ id, type, platform }))` of the same file, given to
    /// `store.register(products)`: the IDs are `IDS` itself, unless the objects are another
    /// store's. The list `IDS` as written, else nil.
    mutating func mappedRegistrations(_ range: Range<Int>) -> [ExpressionToken]? {
        guard range.count == 1, isIdentifier(range.lowerBound) else { return nil }
        for value in constantAssignments(text(range.lowerBound)) {
            // RECEIVER . map ( p => ( { … } ) )
            var dot = value + 1
            while dot < tokens.count, dot - value < 64, !(isPunctuation(dot, ".") && isWord(dot + 1, "map")) {
                guard isIdentifier(dot) || isPunctuation(dot, ".") else { return nil }
                dot += 1
            }
            let open = dot + 2
            guard dot > value + 1, isPunctuation(open, "(") else { return nil }
            var parameter = open + 1
            if isPunctuation(parameter, "(") { parameter += 1 }
            guard isIdentifier(parameter) else { return nil }
            var arrow = parameter + 1
            if isPunctuation(arrow, ")") { arrow += 1 }
            guard isOperator(arrow, "=>"), isPunctuation(arrow + 1, "("), isPunctuation(arrow + 2, "{") else { return nil }
            let objectClose = matchingClose(arrow + 2)
            guard let id = javaScriptProperty("id", open: arrow + 2, close: objectClose), id.count == 1, text(id.lowerBound) == text(parameter)
            else { return nil }
            let platform = javaScriptProperty("platform", open: arrow + 2, close: objectClose).map { $0.map { text($0) }.joined() } ?? ""
            if Self.namesOtherStore(platform) { return nil }
            return snapshot(value + 1..<dot)
        }
        return nil
    }

    /// The value of property `key` in the object literal `open`…`close`.
    func javaScriptProperty(_ key: String, open: Int, close: Int) -> Range<Int>? {
        var k = open + 1
        while k < close {
            let end = argumentEnd(from: k, close: close)
            let named = isIdentifier(k) ? text(k) : (tokens[k].kind == .string ? stringValue(tokens[k]) : nil)
            if named == key {
                if isPunctuation(k + 1, ":") { return k + 2..<end }
                if end == k + 1 { return k..<end }  // `{ skus }`
            }
            k = end + 1
        }
        return nil
    }

    /// JavaScript written over into what the Swift evaluator reads: `new`, `await`, `as const`,
    /// `as T`, `satisfies T` and non-null `!` dropped; object literals as dictionaries with string
    /// keys; `Object.values(x)` / `Object.keys(x)` as `x.values` / `x.keys`; `Array.from(x)` as
    /// `x`; and a choice on the platform (`Platform.select({ ios: a, … })`,
    /// `Platform.OS === 'ios' ? a : b`) reduced to its iOS side.
    static func javaScriptNormalized(_ tokens: [SourceScanner.ExpressionToken]) -> [SourceScanner.ExpressionToken] {
        typealias Token = SourceScanner.ExpressionToken
        var output: [Token] = []
        output.reserveCapacity(tokens.count)
        var objects: [Bool] = []
        var k = 0
        let statements = StatementTokens(tokens: tokens, ends: .lineBreaks)
        func isText(_ index: Int, _ text: String) -> Bool { statements.isText(index, text) }
        func closing(_ open: Int) -> Int { statements.closing(open) }
        while k < tokens.count {
            var token = tokens[k]
            if token.kind == .identifier, token.text == "new" || token.text == "await" {
                k += 1
                continue
            }
            // A statement's `const` declares a local, as `let` does.
            if token.kind == .identifier, token.text == "const", statements.isStatementStart(k) {
                token.text = "let"
                output.append(token)
                k += 1
                continue
            }
            // `if (Platform.OS === 'ios') { a } else { b }`: only the side iOS runs is kept, its
            // statements in place of the `if` (they always run there).
            if let branch = statements.rewritten(at: k, condition: { platformComparison(tokens, at: $0) }, loopWord: "of", normalize: javaScriptNormalized) {
                output += branch.tokens
                k = branch.next
                continue
            }
            if token.kind == .identifier, token.text == "as" || token.text == "satisfies", !output.isEmpty {
                // The type after it: names, dots, brackets, type arguments, and literal types
                // joined by `|` or `&` (`platform as 'ios' | 'android'`).
                k += 1
                var depth = 0
                var wantsType = true
                while k < tokens.count {
                    let t = tokens[k]
                    if t.kind == .operatorRun, t.text.allSatisfy({ $0 == "<" || $0 == ">" }) {
                        depth += t.text.filter { $0 == "<" }.count - t.text.filter { $0 == ">" }.count
                    } else if depth == 0, !wantsType, t.kind == .operatorRun, t.text == "|" || t.text == "&" {
                        wantsType = true
                    } else if depth == 0, wantsType, t.kind == .string || t.kind == .number {
                        wantsType = false
                    } else if depth == 0, t.kind != .identifier, t.text != ".", t.text != "[", t.text != "]" {
                        break
                    } else if depth == 0, t.kind == .identifier {
                        wantsType = t.text == "keyof" || t.text == "typeof"
                    }
                    k += 1
                }
                continue
            }
            // A non-null `!` follows a value (`ids!`); a negation (`(!isIOS)`) leads one.
            if token.kind == .operatorRun, token.text == "!", token.attached, let previous = output.last,
               previous.kind == .identifier || previous.kind == .string || previous.text == ")" || previous.text == "]" {
                k += 1
                continue
            }
            // `useMemo(() => value, deps)`, `React.useMemo(() => { … }, deps)`: the value the
            // closure returns, as if written in place.
            if token.text == "useMemo", isText(k + 1, "("), let value = memoized(tokens, call: k + 1, statements) {
                if output.last?.text == ".", output.count >= 2, output[output.count - 2].text == "React" { output.removeLast(2) }
                output += value.tokens
                k = value.next
                continue
            }
            // A spread in a list: its elements are the list's (`[...consumables, ...subscriptions]`).
            if token.text == "...", token.kind == .operatorRun, let previous = output.last, previous.text == "[" || previous.text == "," {
                k += 1
                continue
            }
            // `Object.values(x)` → `x.values`
            if token.text == "Object", isText(k + 1, "."), isText(k + 2, "values") || isText(k + 2, "keys"), isText(k + 3, "(") {
                let close = closing(k + 3)
                output.append(contentsOf: javaScriptNormalized(Array(tokens[(k + 4)..<close])))
                output.append(Token(kind: .punctuation, text: ".", isLiteral: false, line: token.line, column: 0, attached: true))
                output.append(Token(kind: .identifier, text: tokens[k + 2].text, isLiteral: false, line: token.line, column: 0, attached: true))
                k = close + 1
                continue
            }
            if token.text == "Array", isText(k + 1, "."), isText(k + 2, "from") || isText(k + 2, "of"), isText(k + 3, "(") {
                token.text = "Set"
                output.append(token)
                k += 3
                continue
            }
            // `list.map(p => p.id)`, `list.map(({ id }) => id)`: each object's property.
            if token.text == "map", let (name, end) = SourceScanner.Summarizer.arrowProperty(tokens, call: k + 1) {
                output.append(token)
                output += subscriptClosure(name, line: token.line)
                k = end + 1
                continue
            }
            // `list.map((p) => p[platform])`, `list.filter(id => id !== 'x')`: any other arrow with
            // one parameter is the closure the evaluator applies to each element.
            if token.text == "map" || token.text == "flatMap" || token.text == "filter", output.last?.text == ".",
               let closure = arrowClosure(tokens, call: k + 1, statements) {
                output.append(token)
                output += closure.tokens
                k = closure.next
                continue
            }
            // `Platform.select({ ios: a, android: b, default: c })`
            if token.text == "Platform", isText(k + 1, "."), isText(k + 2, "select"), isText(k + 3, "("), isText(k + 4, "{") {
                let objectClose = closing(k + 4)
                let callClose = closing(k + 3)
                if let value = property(tokens, "ios", open: k + 4, close: objectClose) ?? property(tokens, "default", open: k + 4, close: objectClose) {
                    output.append(contentsOf: javaScriptNormalized(Array(tokens[value])))
                    k = callClose + 1
                    continue
                }
            }
            if !continuesCondition(output.last), let side = iOSSide(tokens, at: k, condition: platformComparison(tokens, at: k)) {
                output.append(contentsOf: javaScriptNormalized(side.tokens))
                k = side.end
                continue
            }
            // A platform test anywhere else (`const IS_IOS = Platform.OS === 'ios'`) is the truth
            // it has on iOS.
            if let (count, holds) = platformComparison(tokens, at: k) {
                output.append(Token(kind: .identifier, text: holds ? "true" : "false", isLiteral: true, line: token.line, column: token.column, attached: token.attached))
                k += count
                continue
            }
            // `Platform.OS` as a value (`SKUS[Platform.OS]`) is `'ios'` in the iOS app.
            if token.text == "Platform", isText(k + 1, "."), isText(k + 2, "OS"), !isText(k - 1, ".") {
                output.append(Token(kind: .string, text: "ios", isLiteral: true, line: token.line, column: token.column, attached: token.attached))
                k += 3
                continue
            }
            if token.kind == .punctuation, token.text == "{" {
                let literal = opensLiteral(after: output.last)
                objects.append(literal)
                if literal { token.text = "[" }
                output.append(token)
                k += 1
                // An empty object is an empty dictionary.
                if literal, isText(k, "}") {
                    output.append(Token(kind: .punctuation, text: ":", isLiteral: false, line: token.line, column: 0, attached: true))
                }
                continue
            }
            if token.kind == .punctuation, token.text == "}", let literal = objects.popLast(), literal {
                token.text = "]"
            }
            // An object's key: `monthly:` as the string `"monthly"`.
            if token.kind == .identifier, objects.last == true, isText(k + 1, ":"),
               let previous = output.last, previous.text == "[" || previous.text == "," {
                output.append(Token(kind: .string, text: token.text, isLiteral: true, line: token.line, column: 0, attached: false))
                k += 1
                continue
            }
            output.append(token)
            k += 1
        }
        return output
    }

    /// The value of `useMemo(() => value, deps)` whose `(` is at `call`: `(value)`, or for a block
    /// body `{ … }()` (a closure run where it is written); and the index after the call.
    static func memoized(
        _ tokens: [SourceScanner.ExpressionToken], call: Int, _ statements: StatementTokens
    ) -> (tokens: [SourceScanner.ExpressionToken], next: Int)? {
        typealias Token = SourceScanner.ExpressionToken
        let close = statements.closing(call)
        guard statements.isText(call + 1, "("), statements.isText(call + 2, ")"), statements.isText(call + 3, "=>"), call + 4 < close else { return nil }
        let line = tokens[call].line
        func punctuation(_ text: String) -> Token { Token(kind: .punctuation, text: text, isLiteral: false, line: line, column: 0, attached: false) }
        if statements.isText(call + 4, "{") {
            let bodyClose = statements.closing(call + 4)
            guard bodyClose < close else { return nil }
            return ([punctuation("{")] + javaScriptNormalized(Array(tokens[(call + 5)..<bodyClose])) + [punctuation("}"), punctuation("("), punctuation(")")], close + 1)
        }
        let end = expressionEnd(tokens, from: call + 4)
        guard end <= close else { return nil }
        return ([punctuation("(")] + javaScriptNormalized(Array(tokens[(call + 4)..<end])) + [punctuation(")")], close + 1)
    }

    /// `(p => expression)`, `((p: Plan) => expression)` or `(p => { statements })` at `call` (the
    /// `(` of a list method): the Swift closure `{ p in … }`, and the index after the call.
    static func arrowClosure(
        _ tokens: [SourceScanner.ExpressionToken], call: Int, _ statements: StatementTokens
    ) -> (tokens: [SourceScanner.ExpressionToken], next: Int)? {
        typealias Token = SourceScanner.ExpressionToken
        guard statements.isText(call, "(") else { return nil }
        let close = statements.closing(call)
        var k = call + 1
        let parameter: Token
        if statements.isText(k, "("), k + 1 < close, tokens[k + 1].kind == .identifier {
            parameter = tokens[k + 1]
            let parametersClose = statements.closing(k)
            // Only one parameter, with or without its type.
            guard parametersClose < close, statements.isText(k + 2, ")") || statements.isText(k + 2, ":") else { return nil }
            k = parametersClose + 1
        } else if k < close, tokens[k].kind == .identifier {
            parameter = tokens[k]
            k += 1
        } else {
            return nil
        }
        guard statements.isText(k, "=>"), k + 1 < close else { return nil }
        k += 1
        let line = tokens[call].line
        func punctuation(_ text: String) -> Token { Token(kind: .punctuation, text: text, isLiteral: false, line: line, column: 0, attached: false) }
        let body: [Token]
        if statements.isText(k, "{") {
            let bodyClose = statements.closing(k)
            guard bodyClose + 1 == close || (bodyClose + 2 == close && statements.isText(bodyClose + 1, ",")) else { return nil }
            body = Array(tokens[(k + 1)..<bodyClose])
        } else {
            let end = expressionEnd(tokens, from: k)
            // A second argument (an index, `thisArg`) is another closure shape.
            guard end == close || (end + 1 == close && statements.isText(end, ",")) else { return nil }
            body = Array(tokens[k..<end])
        }
        let inWord = Token(kind: .identifier, text: "in", isLiteral: false, line: line, column: 0, attached: false)
        return ([punctuation("{"), parameter, inWord] + javaScriptNormalized(body) + [punctuation("}")], close + 1)
    }

    /// `(p => p.id)`, `((p) => p.id)`, `(p => p['id'])`, `(({ id }) => id)` at `call` (the
    /// `(` after `map`): the property taken, and the index of the call's `)`.
    static func arrowProperty(_ tokens: [SourceScanner.ExpressionToken], call: Int) -> (name: String, end: Int)? {
        func text(_ index: Int) -> String? { index < tokens.count && tokens[index].kind != .string ? tokens[index].text : nil }
        guard text(call) == "(" else { return nil }
        var k = call + 1
        var parameter: String?
        var destructured: String?
        if text(k) == "(", text(k + 1) == "{", let name = text(k + 2), text(k + 3) == "}", text(k + 4) == ")" {
            destructured = name
            k += 5
        } else if text(k) == "(", let name = text(k + 1), tokens[k + 1].kind == .identifier, text(k + 2) == ")" {
            parameter = name
            k += 3
        } else if let name = text(k), tokens[k].kind == .identifier {
            parameter = name
            k += 1
        } else {
            return nil
        }
        guard text(k) == "=>" else { return nil }
        k += 1
        if let destructured {
            guard text(k) == destructured, text(k + 1) == ")" else { return nil }
            return (destructured, k + 1)
        }
        guard text(k) == parameter else { return nil }
        // A non-null `!` may follow (Dart's `p['id']!`, TypeScript's `p.id!`).
        func close(_ index: Int) -> Int? { text(index) == ")" ? index : (text(index) == "!" && text(index + 1) == ")" ? index + 1 : nil) }
        if text(k + 1) == ".", let name = text(k + 2), let end = close(k + 3) { return (name, end) }
        if text(k + 1) == "[", k + 2 < tokens.count, tokens[k + 2].kind == .string, tokens[k + 2].isLiteral, text(k + 3) == "]", let end = close(k + 4) {
            return (tokens[k + 2].text, end)
        }
        // `p => p[Platform.OS]`: the iOS app's entry.
        if text(k + 1) == "[", text(k + 2) == "Platform", text(k + 3) == ".", text(k + 4) == "OS", text(k + 5) == "]", let end = close(k + 6) {
            return ("ios", end)
        }
        return nil
    }

    /// The value of `key` in the object literal `open`…`close` of `tokens`.
    static func property(_ tokens: [SourceScanner.ExpressionToken], _ key: String, open: Int, close: Int) -> Range<Int>? {
        var k = open + 1
        while k < close {
            if tokens[k].text == key, k + 1 < close, tokens[k + 1].text == ":" {
                return k + 2..<expressionEnd(tokens, from: k + 2)
            }
            k = expressionEnd(tokens, from: k) + 1
        }
        return nil
    }

    /// `Platform.OS === 'ios'`, `Platform.OS !== "android"`, `Capacitor.getPlatform() === 'ios'`:
    /// how many tokens it takes and whether it holds on iOS.
    static func platformComparison(_ tokens: [SourceScanner.ExpressionToken], at k: Int) -> (count: Int, holds: Bool)? {
        func text(_ index: Int) -> String? { index < tokens.count && tokens[index].kind != .string ? tokens[index].text : nil }
        var width = 0
        if text(k) == "Platform", text(k + 1) == ".", text(k + 2) == "OS" {
            width = 3
        } else if text(k) == "Capacitor", text(k + 1) == ".", text(k + 2) == "getPlatform", text(k + 3) == "(", text(k + 4) == ")" {
            width = 5
        } else {
            return nil
        }
        guard let comparison = text(k + width), ["===", "==", "!==", "!="].contains(comparison), k + width + 1 < tokens.count,
              tokens[k + width + 1].kind == .string, tokens[k + width + 1].isLiteral else { return nil }
        let isIOS = tokens[k + width + 1].text == "ios"
        return (width + 2, isIOS == comparison.hasPrefix("="))
    }
}
