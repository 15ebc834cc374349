// MARK: - Dart strings and expressions

extension SourceScanner {
    /// The purchase libraries of Flutter, React Native, Expo, Capacitor, Cordova, .NET and Unity
    /// apps: they call StoreKit on the app's behalf.
    public static var crossPlatformLibraries: Set<String> {
        dartPurchasePackages.union(javaScriptPurchaseModules).union(["Plugin.InAppBilling", "UnityEngine.Purchasing", "Soomla.Store"])
    }

    /// How an app using the cross-platform library is usually launched other than by Xcode's
    /// Run (which alone applies the scheme's StoreKit configuration): `flutter run`.
    public static func launchCommand(ofLibrary library: String) -> String? {
        if dartPurchasePackages.contains(library) { return "`flutter run`" }
        switch library {
        case "Plugin.InAppBilling": return "`dotnet build -t:Run`"
        case "UnityEngine.Purchasing", "Soomla.Store": return "Unity's Build And Run"
        case "@revenuecat/purchases-capacitor", "@capgo/native-purchases": return "`npx cap run ios`"
        case "cordova-plugin-purchase", "@awesome-cordova-plugins/in-app-purchase-2", "cordova-plugin-inapppurchase", "@ionic-native/in-app-purchase",
             "@awesome-cordova-plugins/in-app-purchase":
            return "`cordova run ios` (or `npx cap run ios`)"
        case "@revenuecat/purchases-js": return nil
        default: return javaScriptPurchaseModules.contains(library) ? "`npx react-native run-ios` (or `npx expo run:ios`)" : nil
        }
    }

    /// Cross-platform libraries that load products with StoreKit 1 on any OS: their native side
    /// is Objective-C or C# (StoreKit 2 has no API there), or, as RevenueCat's SDK does, falls
    /// back to StoreKit 1 below iOS 15.
    public static let storeKit1Libraries: Set<String> = [
        "react-native-in-app-utils", "cordova-plugin-inapppurchase", "@ionic-native/in-app-purchase", "@awesome-cordova-plugins/in-app-purchase",
        "cordova-plugin-purchase", "@awesome-cordova-plugins/in-app-purchase-2", "expo-in-app-purchases", "Plugin.InAppBilling", "Soomla.Store",
        "react-native-purchases", "react-native-purchases-ui", "@revenuecat/purchases-capacitor", "purchases_flutter", "purchases_ui_flutter",
    ]

    /// How the library chooses between StoreKit 1 and 2, where the app's code can choose.
    public static func storeKitSwitch(ofLibrary library: String) -> String? {
        switch library {
        case "in_app_purchase", "in_app_purchase_storekit":
            return "in_app_purchase_storekit 0.4.0 and later call StoreKit 2 unless the app calls `InAppPurchaseStoreKitPlatform.enableStoreKit1()`; 0.3.18+1 to 0.3.22+1 call StoreKit 1 unless it calls `enableStoreKit2()`, and earlier versions only StoreKit 1 (the version is in pubspec.lock)"
        case "react-native-iap":
            return "react-native-iap 11 to 13 choose with `setup({ storekitMode })`: `STOREKIT1_MODE`, `STOREKIT2_MODE` or `STOREKIT_HYBRID_MODE` (the version is in package.json)"
        default:
            return nil
        }
    }

    /// Flutter's purchase plugins: a file importing one of them deals with In-App Purchase.
    static let dartPurchasePackages: Set<String> = [
        "in_app_purchase", "in_app_purchase_storekit", "purchases_flutter", "purchases_ui_flutter", "flutter_inapp_purchase",
        "qonversion_flutter", "adapty_flutter", "apphud", "glassfy_flutter",
    ]

    /// Every Dart entry point, one a line. A call with another receiver counts in a file that
    /// imports the plugin (`_inAppPurchase.queryProductDetails(ids)`).
    static let dartEntryPoints: [EntryPoint] = [
        // in_app_purchase (Flutter's own plugin); purchases go through the ProductDetails it returns.
        EntryPoint(receivers: [["InAppPurchase", "instance"]], name: "queryProductDetails", label: nil, api: "InAppPurchase.queryProductDetails", anyReceiverIfImported: "in_app_purchase"),
        // purchases_flutter (RevenueCat)
        EntryPoint(receivers: [["Purchases"]], name: "getProducts", label: nil, api: "Purchases.getProducts", anyReceiverIfImported: "purchases_flutter"),
        EntryPoint(receivers: [["Purchases"]], name: "purchaseProduct", label: nil, api: "Purchases.purchaseProduct", anyReceiverIfImported: "purchases_flutter"),
        EntryPoint(receivers: [["Purchases"]], name: "getOfferings", label: nil, kind: .remoteConfiguration, api: "Purchases.getOfferings", anyReceiverIfImported: "purchases_flutter"),
        EntryPoint(receivers: [[]], name: "PurchasesConfiguration", label: nil, kind: .revenueCatKey, api: "PurchasesConfiguration(apiKey)", anyReceiverIfImported: "purchases_flutter"),
        EntryPoint(receivers: [["Purchases"]], name: "setup", label: nil, kind: .revenueCatKey, api: "Purchases.setup(apiKey)", anyReceiverIfImported: "purchases_flutter"),
        EntryPoint(receivers: [[]], name: "getOffering", label: nil, kind: .offeringID, api: "offerings.getOffering(identifier)", anyReceiverIfImported: "purchases_flutter"),
        EntryPoint(receivers: [], name: "all", label: nil, kind: .offeringID, api: "offerings.all[…]", anyReceiverIfImported: "purchases_flutter"),
        // flutter_inapp_purchase
        EntryPoint(receivers: [["FlutterInappPurchase", "instance"]], name: "getProducts", label: nil, api: "FlutterInappPurchase.getProducts", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [["FlutterInappPurchase", "instance"]], name: "getSubscriptions", label: nil, api: "FlutterInappPurchase.getSubscriptions", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [["FlutterInappPurchase", "instance"]], name: "requestPurchase", label: nil, api: "FlutterInappPurchase.requestPurchase", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [["FlutterInappPurchase", "instance"]], name: "requestSubscription", label: nil, api: "FlutterInappPurchase.requestSubscription", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [["FlutterInappPurchase", "instance"]], name: "requestProducts", label: "skus", api: "FlutterInappPurchase.requestProducts(skus:)", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [["FlutterInappPurchase", "instance"]], name: "fetchProducts", label: "skus", api: "FlutterInappPurchase.fetchProducts(skus:)", anyReceiverIfImported: "flutter_inapp_purchase"),
        // Its request objects (6.0 on): the list a query takes, the iOS product a purchase buys.
        EntryPoint(receivers: [], name: "ProductRequest", label: "skus", api: "ProductRequest(skus:)", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [], name: "RequestProductsParams", label: "skus", api: "RequestProductsParams(skus:)", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [], name: "RequestProductsParams", label: "productIds", api: "RequestProductsParams(productIds:)", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [], name: "RequestPurchaseIosProps", label: "sku", api: "RequestPurchaseIosProps(sku:)", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [], name: "RequestSubscriptionIosProps", label: "sku", api: "RequestSubscriptionIosProps(sku:)", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [], name: "RequestPurchaseIOS", label: "sku", api: "RequestPurchaseIOS(sku:)", anyReceiverIfImported: "flutter_inapp_purchase"),
        EntryPoint(receivers: [], name: "RequestSubscriptionIOS", label: "sku", api: "RequestSubscriptionIOS(sku:)", anyReceiverIfImported: "flutter_inapp_purchase"),
    ]

    static let dartEntryPointsByName: [String: [EntryPoint]] = Dictionary(grouping: dartEntryPoints, by: \.name)
    static let dartEntryPointFirstBytes: Set<UInt8> = Set(dartEntryPoints.compactMap { $0.name.utf8.first })
}

extension SourceScanner.Summarizer {
    typealias Token = SourceScanner.Token

    /// A Dart string's value: escapes decoded, except in a raw string; nil when interpolated or
    /// unterminated.
    func dartStringValue(_ token: Token) -> String? {
        guard token.flags & (Token.interpolated | Token.unterminated) == 0 else { return nil }
        guard let body = dartStringBody(token) else { return nil }
        let raw = language == .dart && bytes[token.start] == 0x72
        return raw ? String(decoding: UnsafeBufferPointer(rebasing: bytes[body]), as: UTF8.self) : dartDecode(body)
    }

    /// The bytes between a Dart string's delimiters; a multi-line string's first line break is
    /// not part of it when nothing but spaces precede it.
    func dartStringBody(_ token: Token) -> Range<Int>? {
        if language == .javaScript { return token.end - 1 >= token.start + 1 ? token.start + 1..<token.end - 1 : nil }
        let quote = bytes[token.start] == 0x72 ? token.start + 1 : token.start
        let width = token.flags & Token.multiline != 0 ? 3 : 1
        var start = quote + width
        let end = token.end - width
        guard start <= end else { return nil }
        if width == 3 {
            var k = start
            while k < end && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 }
            if k < end && bytes[k] == 0x0A { start = k + 1 } else if k + 1 < end && bytes[k] == 0x0D && bytes[k + 1] == 0x0A { start = k + 2 }
        }
        return start..<end
    }

    /// Dart's escapes: `\n \r \t \b \f \v`, `\xHH`, `\uHHHH`, `\u{H…}`; any other escaped
    /// character stands for itself (`\'`, `\$`).
    func dartDecode(_ range: Range<Int>) -> String {
        var scalars = String.UnicodeScalarView()
        var k = range.lowerBound
        var run = k
        func flush(_ end: Int) {
            if end > run { scalars.append(contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<end]), as: UTF8.self).unicodeScalars) }
        }
        func hex(_ from: Int, _ count: Int) -> UInt32? {
            guard from + count <= range.upperBound else { return nil }
            var value: UInt32 = 0
            for p in from..<from + count {
                guard let digit = SourceScanner.hexValue(bytes[p]) else { return nil }
                value = value * 16 + UInt32(digit)
            }
            return value
        }
        while k < range.upperBound {
            guard bytes[k] == 0x5C, k + 1 < range.upperBound else {
                k += 1
                continue
            }
            flush(k)
            let escaped = bytes[k + 1]
            k += 2
            switch escaped {
            case 0x6E: scalars.append("\n")
            case 0x72: scalars.append("\r")
            case 0x74: scalars.append("\t")
            case 0x62: scalars.append("\u{08}")
            case 0x66: scalars.append("\u{0C}")
            case 0x76: scalars.append("\u{0B}")
            case 0x78:  // xHH
                if let value = hex(k, 2), let scalar = Unicode.Scalar(value) {
                    scalars.append(scalar)
                    k += 2
                }
            case 0x75:  // uHHHH or u{H…}
                if k < range.upperBound && bytes[k] == 0x7B {
                    var p = k + 1
                    while p < range.upperBound && bytes[p] != 0x7D && p - k <= 7 { p += 1 }
                    if p < range.upperBound, let value = hex(k + 1, p - k - 1), let scalar = Unicode.Scalar(value) {
                        scalars.append(scalar)
                        k = p + 1
                    }
                } else if let value = hex(k, 4), let scalar = Unicode.Scalar(value) {
                    scalars.append(scalar)
                    k += 4
                }
            case 0x0A: break
            default: scalars.append(Unicode.Scalar(escaped))
            }
            run = k
        }
        flush(range.upperBound)
        return String(scalars)
    }

    /// A single-line Dart string with `$name` or `${…}`: its text pieces and the tokens of each
    /// interpolation.
    func dartInterpolationParts(_ token: Token, line: Int, column: Int, end: (line: Int, column: Int)) -> [SourceScanner.StringPart]? {
        let template = language == .javaScript
        guard token.flags & Token.interpolated != 0, token.flags & Token.unterminated == 0,
              template || token.flags & Token.multiline == 0, let body = dartStringBody(token) else { return nil }
        var parts: [SourceScanner.StringPart] = []
        var segmentStart = body.lowerBound
        var p = body.lowerBound
        func located(_ expression: [ExpressionToken]) -> [ExpressionToken] {
            expression.map { token in
                var token = token
                (token.line, token.column, token.endLine, token.endColumn) = (line, column, end.line, end.column)
                return token
            }
        }
        while p < body.upperBound {
            if bytes[p] == 0x5C {
                p += 2
                continue
            }
            guard bytes[p] == 0x24, p + 1 < body.upperBound, !template || bytes[p + 1] == 0x7B else {
                p += 1
                continue
            }
            if segmentStart < p { parts.append(.text(dartDecode(segmentStart..<p))) }
            if bytes[p + 1] == 0x7B {
                var lexer = SourceScanner.Lexer(bytes: bytes, language: language)
                let after = lexer.skipInterpolation(template ? .template : .braced, openAt: p + 1, allowNewlines: template)
                guard after <= body.upperBound, after > p + 2, bytes[after - 1] == 0x7D else { return nil }
                let inner = UnsafeBufferPointer(rebasing: bytes[(p + 2)..<(after - 1)])
                var innerLexer = SourceScanner.Lexer(bytes: inner, language: language)
                innerLexer.run()
                var nested = SourceScanner.Summarizer(bytes: inner, tokens: innerLexer.tokens, file: summary.path, language: language)
                guard !innerLexer.tokens.isEmpty, innerLexer.tokens.count <= 64,
                      let expression = nested.snapshot(0..<innerLexer.tokens.count) else { return nil }
                parts.append(.expression(located(expression)))
                p = after
            } else {
                var nameEnd = p + 1
                while nameEnd < body.upperBound && SourceScanner.isIdentifierPart(bytes[nameEnd]) && bytes[nameEnd] != 0x24 { nameEnd += 1 }
                guard nameEnd > p + 1 else { return nil }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(p + 1)..<nameEnd]), as: UTF8.self)
                parts.append(.expression(located([ExpressionToken(kind: .identifier, text: name, isLiteral: false, line: line, column: column, attached: false)])))
                p = nameEnd
            }
            segmentStart = p
        }
        if segmentStart < body.upperBound { parts.append(.text(dartDecode(segmentStart..<body.upperBound))) }
        return parts
    }

    /// Dart written over into what the Swift evaluator reads: `const`/`new`/`final` dropped,
    /// spreads dropped (the spread list's elements are the literal's),
    /// type arguments (`<String>[…]`) dropped, set literals `{a, b}` as lists `[a, b]` (maps as
    /// `[k: v]`), `.toSet()`/`.toList()` dropped, adjacent strings joined with `+`, and a choice
    /// on the platform (`Platform.isIOS ? a : b`) reduced to its iOS side.
    static func dartNormalized(_ tokens: [SourceScanner.ExpressionToken]) -> [SourceScanner.ExpressionToken] {
        var output: [SourceScanner.ExpressionToken] = []
        output.reserveCapacity(tokens.count)
        // Braces that open a collection literal, by their position in `output`: closed as `]`.
        var braces: [Bool] = []
        var k = 0
        let statements = StatementTokens(tokens: tokens, ends: .semicolons)
        func isText(_ index: Int, _ text: String) -> Bool { statements.isText(index, text) }
        while k < tokens.count {
            var token = tokens[k]
            // A statement declaring a local (`final ids = …`, `Set<String> ids = …`, `late String id;`),
            // as `var ids = …`.
            if statements.isStatementStart(k), let name = localDeclarationName(tokens, at: k) {
                token.kind = .identifier
                token.text = "var"
                output.append(token)
                output.append(tokens[name])
                k = name + 1
                continue
            }
            // `if (Platform.isIOS) { a } else { b }`: the side iOS runs, in place of the `if`.
            if let branch = statements.rewritten(at: k, condition: { platformCondition(tokens, at: $0) }, loopWord: "in", normalize: dartNormalized) {
                output += branch.tokens
                k = branch.next
                continue
            }
            // `String.fromEnvironment('PRO_ID', defaultValue: 'pro')`: a build-time constant is its
            // default unless the build passes `--dart-define`; without a default it is not known.
            if ["String", "bool", "int"].contains(token.text), isText(k + 1, "."), isText(k + 2, "fromEnvironment"), isText(k + 3, "(") {
                let close = statements.closing(k + 3)
                var p = k + 4
                while p < close, !(isText(p, "defaultValue") && isText(p + 1, ":")) { p = expressionEnd(tokens, from: p) + 1 }
                if p < close {
                    let end = expressionEnd(tokens, from: p + 2)
                    output.append(SourceScanner.ExpressionToken(kind: .punctuation, text: "(", isLiteral: false, line: token.line, column: 0, attached: false))
                    var value = dartNormalized(Array(tokens[(p + 2)..<min(end, close)]))
                    // `bool.fromEnvironment('X', defaultValue: false)`: the default is the build's
                    // truth, as a platform test's is.
                    if value.count == 1, value[0].kind == .identifier, value[0].text == "true" || value[0].text == "false" { value[0].isLiteral = true }
                    output += value
                    output.append(SourceScanner.ExpressionToken(kind: .punctuation, text: ")", isLiteral: false, line: token.line, column: 0, attached: false))
                    k = close + 1
                    continue
                }
            }
            // A spread in a collection literal: its elements are the collection's (`[...a, ...?b]`).
            if token.kind == .operatorRun, token.text == "..." || token.text == "...?", let previous = output.last,
               ["[", ",", "{"].contains(previous.text), previous.kind == .punctuation {
                k += 1
                continue
            }
            if token.kind == .identifier, ["const", "new", "final", "await"].contains(token.text) {
                k += 1
                continue
            }
            // `<String>` or `<String, int>` before a literal or a constructor.
            if token.kind == .operatorRun, token.text == "<", let close = typeArgumentsEnd(tokens, from: k),
               close + 1 < tokens.count, ["[", "{", "("].contains(tokens[close + 1].text) || tokens[close + 1].text == "." {
                k = close + 1
                continue
            }
            if token.kind == .punctuation, token.text == ".", isText(k + 1, "toSet") || isText(k + 1, "toList"),
               isText(k + 2, "("), isText(k + 3, ")") {
                k += 4
                continue
            }
            // `Set.from(x)`, `List.of(x)`: the collection `x`.
            if token.kind == .identifier, ["Set", "List", "LinkedHashSet"].contains(token.text), isText(k + 1, "."),
               isText(k + 2, "from") || isText(k + 2, "of"), isText(k + 3, "(") {
                token.text = "Set"
                output.append(token)
                k += 3
                continue
            }
            // `P.values.map((p) => p.id)`: the list of every case's `id` (`P.values$id`).
            if token.text == "map", let last = output.last, last.text == ".", output.count >= 2, output[output.count - 2].text == "values",
               let (name, end) = arrowProperty(tokens, call: k + 1), isText(end - 1, name) || isText(end - 2, name) {
                output[output.count - 2].text = "values$" + name
                output.removeLast()
                k = end + 1
                continue
            }
            // `list.map((p) => p['id'])`: each map literal's entry.
            if token.text == "map", let (name, end) = arrowProperty(tokens, call: k + 1), isText(end - 1, "]") || isText(end - 2, "]") {
                output.append(token)
                output += subscriptClosure(name, line: token.line)
                k = end + 1
                continue
            }
            // `(p) => p.id` as the closure `{ p in p.id }`.
            if let arrow = arrowClosure(tokens, at: k), output.last?.kind != .identifier {
                let end = expressionEnd(tokens, from: arrow.body)
                output.append(SourceScanner.ExpressionToken(kind: .punctuation, text: "{", isLiteral: false, line: token.line, column: 0, attached: false))
                output += arrow.parameters.map { tokens[$0] }
                output.append(SourceScanner.ExpressionToken(kind: .identifier, text: "in", isLiteral: false, line: token.line, column: 0, attached: false))
                output += dartNormalized(Array(tokens[arrow.body..<end]))
                output.append(SourceScanner.ExpressionToken(kind: .punctuation, text: "}", isLiteral: false, line: token.line, column: 0, attached: false))
                k = end
                continue
            }
            if !continuesCondition(output.last), let side = iOSSide(tokens, at: k, condition: platformCondition(tokens, at: k)) {
                output.append(contentsOf: dartNormalized(side.tokens))
                k = side.end
                continue
            }
            // A platform test anywhere else (`bool get isApple => Platform.isIOS || …`) is the
            // truth it has on iOS.
            if let (count, holds) = platformCondition(tokens, at: k) {
                output.append(SourceScanner.ExpressionToken(kind: .identifier, text: holds ? "true" : "false", isLiteral: true, line: token.line, column: token.column, attached: token.attached))
                k += count
                continue
            }
            if token.kind == .punctuation, token.text == "{" {
                let literal = opensLiteral(after: output.last)
                braces.append(literal)
                if literal { token.text = "[" }
            } else if token.kind == .punctuation, token.text == "}", let literal = braces.popLast(), literal {
                token.text = "]"
            }
            if token.kind == .string, let previous = output.last, previous.kind == .string {
                output.append(SourceScanner.ExpressionToken(kind: .operatorRun, text: "+", isLiteral: false, line: token.line, column: 0, attached: false))
            }
            output.append(token)
            k += 1
        }
        return output
    }

    /// `(p) =>` or `(key, value) =>` at `k`: the parameters' indices and where the body starts.
    static func arrowClosure(_ tokens: [SourceScanner.ExpressionToken], at k: Int) -> (parameters: [Int], body: Int)? {
        func text(_ index: Int) -> String? { index < tokens.count && tokens[index].kind != .string ? tokens[index].text : nil }
        guard text(k) == "(" else { return nil }
        var parameters: [Int] = []
        var p = k + 1
        while p < tokens.count, tokens[p].kind == .identifier, parameters.count < 4 {
            parameters.append(p)
            p += 1
            guard text(p) == "," else { break }
            p += 1
        }
        guard !parameters.isEmpty, text(p) == ")", text(p + 1) == "=>" else { return nil }
        return (parameters, p + 2)
    }

    /// The name a local declaration at `k` declares: `final ids = …`, `var id;`,
    /// `Set<String> ids = …`, `late final List<String> skus;`, `String? id = …`.
    static func localDeclarationName(_ tokens: [SourceScanner.ExpressionToken], at start: Int) -> Int? {
        func text(_ index: Int) -> String? { index < tokens.count && tokens[index].kind != .string ? tokens[index].text : nil }
        func isName(_ index: Int) -> Bool { index < tokens.count && tokens[index].kind == .identifier }
        var k = start
        while let word = text(k), ["final", "const", "var", "late"].contains(word) { k += 1 }
        let modified = k > start
        // `final ids = …`: no type.
        if modified, isName(k), let after = text(k + 1), after == "=" || after == ";" { return k }
        // A type: a name (`prefix.Name` too), its type arguments, `?`.
        guard isName(k), !["return", "if", "for", "while", "switch", "throw", "yield", "else", "do", "try", "await", "assert"].contains(tokens[k].text) else { return nil }
        k += 1
        while text(k) == ".", isName(k + 1) { k += 2 }
        if text(k) == "<" {
            guard let close = typeArgumentsEnd(tokens, from: k) else { return nil }
            k = close + 1
        }
        if text(k) == "?" { k += 1 }
        guard isName(k), let after = text(k + 1), after == "=" || after == ";" else { return nil }
        return k
    }

    /// Whether a `{` after `previous` opens a collection literal (not a block or a closure).
    static func opensLiteral(after previous: SourceScanner.ExpressionToken?) -> Bool {
        guard let previous else { return true }
        return previous.kind == .operatorRun || ["(", "[", ",", ":", "{"].contains(previous.text) || previous.text == "return"
    }

    /// `{ $0["name"] }`: the closure `map` gets for `p => p.name` over dictionaries.
    static func subscriptClosure(_ name: String, line: Int) -> [SourceScanner.ExpressionToken] {
        typealias Token = SourceScanner.ExpressionToken
        return [
            Token(kind: .punctuation, text: "{", isLiteral: false, line: line, column: 0, attached: false),
            Token(kind: .identifier, text: "$0", isLiteral: false, line: line, column: 0, attached: false),
            Token(kind: .punctuation, text: "[", isLiteral: false, line: line, column: 0, attached: true),
            Token(kind: .string, text: name, isLiteral: true, line: line, column: 0, attached: false),
            Token(kind: .punctuation, text: "]", isLiteral: false, line: line, column: 0, attached: true),
            Token(kind: .punctuation, text: "}", isLiteral: false, line: line, column: 0, attached: false),
        ]
    }

    /// The `>` closing type arguments that open at `start`, when only names, `,`, `?` and `.` are
    /// between.
    static func typeArgumentsEnd(_ tokens: [SourceScanner.ExpressionToken], from start: Int) -> Int? {
        var depth = 0
        var k = start
        while k < tokens.count && k - start < 16 {
            let token = tokens[k]
            if token.kind == .operatorRun {
                for character in token.text {
                    if character == "<" { depth += 1 } else if character == ">" { depth -= 1 } else if character != "?" { return nil }
                }
                if depth == 0 { return k }
            } else if token.kind != .identifier && token.text != "," && token.text != "." {
                return nil
            }
            k += 1
        }
        return nil
    }

    /// `Platform.isIOS`, `Platform.isAndroid`, `defaultTargetPlatform == TargetPlatform.iOS`,
    /// `kIsWeb`: how many tokens the condition takes and whether it holds on iOS.
    static func platformCondition(_ tokens: [SourceScanner.ExpressionToken], at k: Int) -> (count: Int, holds: Bool)? {
        func text(_ index: Int) -> String? { index < tokens.count && tokens[index].kind != .string ? tokens[index].text : nil }
        if text(k) == "Platform", text(k + 1) == ".", let name = text(k + 2), name.hasPrefix("is") {
            return (3, name == "isIOS")
        }
        if text(k) == "kIsWeb" { return (1, false) }
        if text(k) == "defaultTargetPlatform", let comparison = text(k + 1), comparison == "==" || comparison == "!=",
           text(k + 2) == "TargetPlatform", text(k + 3) == ".", let name = text(k + 4) {
            return (5, (name == "iOS") == (comparison == "=="))
        }
        return nil
    }

    /// Whether a platform test after `previous` is only part of a condition (`a || Platform.isIOS
    /// ? x : y`): the ternary is then the whole condition's, left to the evaluator.
    static func continuesCondition(_ previous: SourceScanner.ExpressionToken?) -> Bool {
        guard let previous, previous.kind == .operatorRun else { return false }
        return ["||", "&&", "!", "??", "==", "!=", "===", "!=="].contains(previous.text)
    }

    /// `condition ? a : b` at `k`, when the condition (its token count, and whether it holds on
    /// iOS) is a test of the platform: the side iOS takes, and where the ternary ends.
    static func iOSSide(
        _ tokens: [SourceScanner.ExpressionToken], at k: Int, condition: (count: Int, holds: Bool)?
    ) -> (tokens: [SourceScanner.ExpressionToken], end: Int)? {
        guard let (count, holds) = condition, k + count < tokens.count, tokens[k + count].kind != .string, tokens[k + count].text == "?",
              let colon = ternaryColon(tokens, from: k + count + 1) else { return nil }
        let end = expressionEnd(tokens, from: colon + 1)
        return (holds ? Array(tokens[(k + count + 1)..<colon]) : Array(tokens[(colon + 1)..<end]), end)
    }

    /// The `:` of a ternary whose `?` is just before `start`.
    static func ternaryColon(_ tokens: [SourceScanner.ExpressionToken], from start: Int) -> Int? {
        var depth = 0
        var nested = 0
        for k in start..<tokens.count where tokens[k].kind != .string {
            switch tokens[k].text {
            case "(", "[", "{": depth += 1
            case ")", "]", "}":
                if depth == 0 { return nil }
                depth -= 1
            case "?" where depth == 0: nested += 1
            case ":" where depth == 0:
                if nested == 0 { return k }
                nested -= 1
            case ",", ";": if depth == 0 { return nil }
            default: break
            }
        }
        return nil
    }

    /// Where the operand of a ternary's false side ends: `,`, `;` or an unmatched closer.
    static func expressionEnd(_ tokens: [SourceScanner.ExpressionToken], from start: Int) -> Int {
        var depth = 0
        var k = start
        while k < tokens.count {
            if tokens[k].kind != .string {
                switch tokens[k].text {
                case "(", "[", "{": depth += 1
                case ")", "]", "}":
                    if depth == 0 { return k }
                    depth -= 1
                case ",", ";": if depth == 0 { return k }
                default: break
                }
            }
            k += 1
        }
        return k
    }
}
