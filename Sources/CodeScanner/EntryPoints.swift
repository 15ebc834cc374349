/// A call that hands product IDs (or a subscription group ID) to StoreKit or to an In-App Purchase
/// library. Adding one is one line in `SourceScanner.entryPoints`.
struct EntryPoint: Sendable {
    enum Kind: Sendable {
        /// The argument is a product ID or a collection of them.
        case productIDs
        /// The argument is a subscription group ID: a group, not a product.
        case groupID
        /// The call names no ID: the library fetches what its dashboard configures (RevenueCat offerings).
        case remoteConfiguration
        /// The argument is the RevenueCat SDK's API key (`Purchases.configure(withAPIKey:)`).
        case revenueCatKey
        /// The argument is a RevenueCat offering's identifier (`offerings.all["pro"]`); with the
        /// name `all`, a subscript, not a call.
        case offeringID
    }

    /// How the call is written before its name: `[["Product"], ["StoreKit", "Product"]]`; `[[]]` is
    /// a bare call (`StoreView(…)`). With `anyReceiverIfImported`, any receiver (or none) counts in
    /// a file that imports that module (`purchases.getProducts(…)` with `import RevenueCat`).
    var receivers: [[String]]
    var name: String
    /// The argument's label; nil for the first, unlabeled argument.
    var label: String?
    var kind: Kind = .productIDs
    /// As shown to the user: `Product.products(for:)`.
    var api: String
    var anyReceiverIfImported: String? = nil
    /// StoreKit 2's fetch: a purchase of what it returns is reported as `Product.purchase`.
    var detectsPurchase = false
    var storeKit1 = false
    var storeKit2 = false
}

extension SourceScanner {
    /// Every Swift entry point, one a line.
    static let entryPoints: [EntryPoint] = [
        // StoreKit 2
        EntryPoint(receivers: [["Product"], ["StoreKit", "Product"]], name: "products", label: "for", api: "Product.products(for:)", detectsPurchase: true, storeKit2: true),
        // StoreKit 1
        EntryPoint(receivers: [[], ["StoreKit"]], name: "SKProductsRequest", label: "productIdentifiers", api: "SKProductsRequest(productIdentifiers:)", storeKit1: true),
        EntryPoint(receivers: [[], ["StoreKit"]], name: "SKPayment", label: "productIdentifier", api: "SKPayment(productIdentifier:)", storeKit1: true),
        // StoreKit 2 SwiftUI views and modifiers
        EntryPoint(receivers: [[], ["StoreKit"]], name: "StoreView", label: "ids", api: "StoreView(ids:)", storeKit2: true),
        EntryPoint(receivers: [[], ["StoreKit"]], name: "ProductView", label: "id", api: "ProductView(id:)", storeKit2: true),
        EntryPoint(receivers: [[], ["StoreKit"]], name: "SubscriptionStoreView", label: "productIDs", api: "SubscriptionStoreView(productIDs:)", storeKit2: true),
        EntryPoint(receivers: [[], ["StoreKit"]], name: "SubscriptionStoreView", label: "groupID", kind: .groupID, api: "SubscriptionStoreView(groupID:)", storeKit2: true),
        EntryPoint(receivers: [[]], name: "storeProductsTask", label: "for", api: ".storeProductsTask(for:)", anyReceiverIfImported: "StoreKit", storeKit2: true),
        EntryPoint(receivers: [[]], name: "storeProductTask", label: "for", api: ".storeProductTask(for:)", anyReceiverIfImported: "StoreKit", storeKit2: true),
        EntryPoint(receivers: [[]], name: "currentEntitlementTask", label: "for", api: ".currentEntitlementTask(for:)", anyReceiverIfImported: "StoreKit", storeKit2: true),
        EntryPoint(receivers: [[]], name: "subscriptionStatusTask", label: "for", kind: .groupID, api: ".subscriptionStatusTask(for:)", anyReceiverIfImported: "StoreKit", storeKit2: true),
        // RevenueCat
        EntryPoint(receivers: [["Purchases", "shared"]], name: "products", label: nil, api: "Purchases.shared.products(_:)", anyReceiverIfImported: "RevenueCat"),
        EntryPoint(receivers: [["Purchases", "shared"]], name: "getProducts", label: nil, api: "Purchases.shared.getProducts(_:)", anyReceiverIfImported: "RevenueCat"),
        EntryPoint(receivers: [["Purchases", "shared"]], name: "offerings", label: nil, kind: .remoteConfiguration, api: "Purchases.shared.offerings()", anyReceiverIfImported: "RevenueCat"),
        EntryPoint(receivers: [["Purchases", "shared"]], name: "getOfferings", label: nil, kind: .remoteConfiguration, api: "Purchases.shared.getOfferings(completion:)", anyReceiverIfImported: "RevenueCat"),
        EntryPoint(receivers: [["Purchases"], ["RevenueCat", "Purchases"]], name: "configure", label: "withAPIKey", kind: .revenueCatKey, api: "Purchases.configure(withAPIKey:)"),
        EntryPoint(receivers: [["Configuration"], ["RevenueCat", "Configuration"]], name: "Builder", label: "withAPIKey", kind: .revenueCatKey, api: "Configuration.Builder(withAPIKey:)"),
        EntryPoint(receivers: [["Configuration"], ["RevenueCat", "Configuration"]], name: "builder", label: "withAPIKey", kind: .revenueCatKey, api: "Configuration.builder(withAPIKey:)"),
        // `Purchases.configure(with: .init(withAPIKey: key))`: the builder as an implicit member.
        EntryPoint(receivers: [[]], name: "init", label: "withAPIKey", kind: .revenueCatKey, api: "Configuration.Builder(withAPIKey:)", anyReceiverIfImported: "RevenueCat"),
        EntryPoint(receivers: [["Purchases"], ["RevenueCat", "Purchases"]], name: "configureInCustomEntitlementsComputationMode", label: "apiKey", kind: .revenueCatKey, api: "Purchases.configureInCustomEntitlementsComputationMode(apiKey:appUserID:)"),
        EntryPoint(receivers: [[]], name: "offering", label: "identifier", kind: .offeringID, api: "offerings.offering(identifier:)", anyReceiverIfImported: "RevenueCat"),
        EntryPoint(receivers: [], name: "all", label: nil, kind: .offeringID, api: "offerings.all[…]", anyReceiverIfImported: "RevenueCat"),
        // RMStore (Objective-C, used from Swift through the bridging header)
        EntryPoint(receivers: [["RMStore", "default"]], name: "requestProducts", label: nil, api: "RMStore.default().requestProducts(_:)", storeKit1: true),
        EntryPoint(receivers: [["RMStore", "default"]], name: "addPayment", label: nil, api: "RMStore.default().addPayment(_:)", storeKit1: true),
        // SwiftyStoreKit
        EntryPoint(receivers: [["SwiftyStoreKit"]], name: "retrieveProductsInfo", label: nil, api: "SwiftyStoreKit.retrieveProductsInfo(_:)", storeKit1: true),
        EntryPoint(receivers: [["SwiftyStoreKit"]], name: "purchaseProduct", label: nil, api: "SwiftyStoreKit.purchaseProduct(_:)", storeKit1: true),
        // RevenueCatUI: a paywall shows the products of an offering configured in the dashboard.
        EntryPoint(receivers: [], name: "PaywallView", label: nil, kind: .remoteConfiguration, api: "PaywallView()", anyReceiverIfImported: "RevenueCatUI"),
        EntryPoint(receivers: [], name: "presentPaywallIfNeeded", label: nil, kind: .remoteConfiguration, api: ".presentPaywallIfNeeded(…)", anyReceiverIfImported: "RevenueCatUI"),
        EntryPoint(receivers: [], name: "paywallFooter", label: nil, kind: .remoteConfiguration, api: ".paywallFooter(…)", anyReceiverIfImported: "RevenueCatUI"),
    ]

    static let entryPointsByName: [String: [EntryPoint]] = Dictionary(grouping: entryPoints, by: \.name)
    static let entryPointFirstBytes: Set<UInt8> = Set(entryPoints.compactMap { $0.name.utf8.first })

    /// Modules whose import says the app deals with In-App Purchase.
    static let inAppPurchaseLibraries: Set<String> = [
        "StoreKit", "_StoreKit_SwiftUI", "RevenueCat", "RevenueCatUI", "SwiftyStoreKit", "MKStoreKit", "StoreHelper",
        "Qonversion", "Adapty", "ApphudSDK", "Glassfy", "Purchasely", "Mercato", "IAPHelper", "RMStore",
    ]

    /// A module the scanner does not know whose name says it deals with purchases
    /// (`InAppPurchaseLibrary`, `IAPKit`, `SubscriptionManager`, `PaywallKit`): the app may sell
    /// through it, and its calls are not read.
    /// A package name (npm, pub) that names a purchase library: `@adplorg/capacitor-in-app-purchase`,
    /// `flutter_iap`. Not "subscription" alone: GraphQL and RxJS packages say it too.
    static func namesPurchasePackage(_ package: String) -> Bool {
        let lower = package.lowercased()
        if ["purchase", "storekit", "paywall", "revenuecat", "in-app", "inapp"].contains(where: { lower.contains($0) }) { return true }
        return lower.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains("iap")
    }

    static func namesPurchaseModule(_ module: String) -> Bool {
        let lower = module.lowercased()
        return ["purchase", "storekit", "subscription", "paywall", "revenuecat"].contains { lower.contains($0) }
            || module.contains("IAP") || lower.hasPrefix("iap") || lower.hasSuffix("iap")
    }

    /// Configuration files of In-App Purchase libraries, read as product ID lists when they are
    /// in a scanned folder.
    static let libraryConfigurationFileNames: Set<String> = ["MKStoreKitConfigs.plist"]
    /// The library files whose requests take their IDs from those configuration files.
    static let libraryFilesReadingConfiguration: Set<String> = ["MKStoreManager.m", "MKStoreKit.m"]

    /// The library an Objective-C `#import` line names: `<StoreKit/StoreKit.h>`, `"MKStoreManager.h"`.
    static func library(inImportLine line: String) -> String? {
        if line.contains("MKStoreKit") || line.contains("MKStoreManager") { return "MKStoreKit" }
        if line.contains("<StoreKit/") { return "StoreKit" }
        if line.contains("RevenueCat") || line.contains("<Purchases/") { return "RevenueCat" }
        if line.contains("RMStore") { return "RMStore" }
        return nil
    }

    /// 32 hexadecimal digits: the shape of an App Store shared secret.
    public static func looksLikeSharedSecret(_ value: String) -> Bool {
        value.utf8.count == 32 && value.utf8.allSatisfy { hexValue($0) != nil }
    }

    /// A name that says it holds a secret (`SharedSecret`, `kSharedSecret`, `sharedSecret:`).
    public static func namesSecret(_ name: String) -> Bool {
        name.lowercased().contains("secret")
    }
}

extension SourceScanner {
    /// The first piece of the Objective-C selector Swift gives a function: `fetch(_:parent:)` is
    /// `fetch:parent:`, `load(ids:)` is `loadWithIds:`.
    static func objectiveCSelectorStart(of wrapper: WrapperFunction) -> String {
        guard let label = wrapper.parameters.first?.label else { return wrapper.name }
        return wrapper.name + "With" + label.prefix(1).uppercased() + label.dropFirst()
    }
}

extension SourceScanner.Summarizer {
    /// The entry point called at `index` (its name), with the argument's token range, if any.
    func entryPointCall(_ index: Int) -> (entry: EntryPoint, argument: Range<Int>?, close: Int)? {
        let table = switch language {
        case .dart: SourceScanner.dartEntryPointsByName
        case .javaScript: SourceScanner.javaScriptEntryPointsByName
        case .cSharp: SourceScanner.cSharpEntryPointsByName
        default: SourceScanner.entryPointsByName
        }
        guard let candidates = table[importAliases[text(index)] ?? text(index)] else { return nil }
        if isWord(index - 1, "func") || isWord(index - 1, "init") || isWord(index - 1, "var") || isWord(index - 1, "let") { return nil }
        let receiver = receiverPath(before: index)
        var open = index + 1
        if isPunctuation(open, "."), isWord(open + 1, "init") { open += 2 }
        // Dart's type arguments: `fetchProducts<Product>(…)`.
        if language == .dart, isOperator(open, "<") { open = typeArgumentsEnd(from: open) + 1 }
        // `getOfferings { … }`: a trailing closure is the only argument.
        // `if let offerings = offerings {` names a value, not a call.
        if isPunctuation(open, "{"), candidates.contains(where: { $0.kind == .remoteConfiguration }),
           !isOperator(index - 1, "="), !isOperator(index - 1, "??") {
            let receiver = receiverPath(before: index)
            if let entry = candidates.first(where: { entry in
                entry.kind == .remoteConfiguration && (entry.receivers.contains { $0 == receiver }
                    || (entry.anyReceiverIfImported.map { summary.imports.contains($0) } ?? false))
            }) {
                return (entry, nil, open)
            }
        }
        // `offerings.all["pro"]`: an offering looked up by its identifier.
        if isPunctuation(open, "["), let entry = candidates.first(where: { $0.kind == .offeringID && $0.name == "all" }),
           entry.anyReceiverIfImported.map({ summary.imports.contains($0) }) ?? false, isPunctuation(index - 1, ".") {
            let close = matchingClose(open)
            return open + 1 < close ? (entry, open + 1..<close, close) : nil
        }
        guard isPunctuation(open, "(") else { return nil }
        let close = matchingClose(open)
        // A test double's `queryProductDetails(Set<String> identifiers) async {`.
        if isScriptDeclaration(name: index, close: close) { return nil }
        for entry in candidates {
            let receiverMatches = entry.receivers.contains { $0 == receiver }
                || (entry.anyReceiverIfImported.map { summary.imports.contains($0) } ?? false)
            guard receiverMatches else { continue }
            if entry.kind == .remoteConfiguration { return (entry, nil, close) }
            if language == .cSharp {
                if entry.label == "1..." {
                    let first = argumentEnd(from: open + 1, close: close)
                    if first + 1 < close { return (entry, first + 1..<close, close) }
                    continue
                }
                if entry.name == "AddProduct", let apple = unityAppleID(open: open, close: close) { return (entry, apple, close) }
                if entry.name == "ProductDefinition" {
                    guard let id = unityDefinitionID(open: open, close: close) else { continue }
                    return (entry, id, close)
                }
                // Soomla's `PurchaseWithMarket(new MarketItem(…))`: the inner call is the request.
                if entry.name == "PurchaseWithMarket", isWord(open + 1, "new") { continue }
            }
            if language == .javaScript {
                if let argument = javaScriptArgumentRange(open: open, close: close, label: entry.label) { return (entry, argument, close) }
                continue
            }
            if let argument = argumentRange(open: open, close: close, label: entry.label, index: 0) { return (entry, argument, close) }
        }
        return nil
    }

    /// The `>` closing the type arguments that open at `open`; `open - 1` when they do not close
    /// within a few tokens.
    func typeArgumentsEnd(from open: Int) -> Int {
        var depth = 0
        var k = open
        while k < tokens.count, k - open < 16 {
            if tokens[k].kind == .operatorRun {
                for offset in tokens[k].start..<tokens[k].end {
                    if bytes[offset] == 0x3C { depth += 1 } else if bytes[offset] == 0x3E { depth -= 1 }
                }
                if depth <= 0 { return k }
            } else if tokens[k].kind != .identifier && !isPunctuation(k, ",") && !isPunctuation(k, ".") && !isPunctuation(k, "?") {
                break
            }
            k += 1
        }
        return open - 1
    }

    /// `Purchases.shared` in `Purchases.shared.getProducts`; `[]` for a bare name; `["?"]` for a
    /// receiver that is not a plain path (`foo().bar`, `.bar` at the start of a line).
    func receiverPath(before index: Int) -> [String] {
        var path: [String] = []
        var k = index - 1
        while isPunctuation(k, ".") {
            // `RMStore.default().requestProducts`: an accessor called with no arguments.
            if isPunctuation(k - 1, ")"), isPunctuation(k - 2, "("), isIdentifier(k - 3) {
                path.insert(text(k - 3), at: 0)
                k -= 4
                continue
            }
            guard isIdentifier(k - 1) else { break }
            path.insert(text(k - 1), at: 0)
            k -= 2
        }
        if isPunctuation(k, ".") { return ["?"] + path }
        return path
    }

    /// Where the argument that starts at `start` ends: the next `,` at its own depth, or `close`.
    func argumentEnd(from start: Int, close: Int) -> Int {
        var end = start
        var depth = 0
        while end < close {
            if isOpener(end) { depth += 1 } else if isCloser(end) { depth -= 1 }
            if depth == 0 && isPunctuation(end, ",") { break }
            end += 1
        }
        return end
    }

    /// The token range of the argument labelled `label` (or, without a label, the `index`th
    /// argument when it is unlabeled) in the call whose parentheses are `open`…`close`.
    func argumentRange(open: Int, close: Int, label: String?, index: Int) -> Range<Int>? {
        var start = open + 1
        var position = 0
        while start < close {
            let end = argumentEnd(from: start, close: close)
            let labelled = isIdentifier(start) && isPunctuation(start + 1, ":")
            if let label {
                if labelled && text(start) == label { return start + 2 < end ? start + 2..<end : nil }
            } else if position == index {
                return labelled || start == end ? nil : start..<end
            }
            position += 1
            start = end + 1
        }
        return nil
    }

    /// Records a call to an entry point, or, when its argument depends on a parameter of the
    /// enclosing function, records that function as a wrapper.
    mutating func entryPoint(_ index: Int) {
        guard let (entry, range, close) = entryPointCall(index) else { return }
        if entry.storeKit1 { summary.usesStoreKit1 = true }
        let location = location(receiverStart(index))
        if entry.storeKit2 { noteStoreKit2(entry.api, at: index, location: location) }
        guard let range else {
            summary.calls.append(CallSite(api: entry.api, argument: [], context: context(index), location: location, kind: entry.kind))
            return
        }
        // flutter_inapp_purchase 6.0 on: `requestPurchase(props)` buys what the props' iOS
        // object names, a call of its own.
        if buildsPurchaseRequests, entry.label == nil, entry.name == "requestPurchase" || entry.name == "requestSubscription",
           !range.contains(where: { isWord($0, "build") }) { return }
        let registrations = language == .javaScript && entry.name == "register" ? registeredList(range) : nil
        let mapped = registrations == nil && language == .javaScript && entry.name == "register" ? mappedRegistrations(range) : nil
        guard let argument = registrations.map({ cordovaRegistrations($0) }) ?? mapped ?? snapshot(range) else { return }
        let prefix = functionPrefix(before: receiverStart(index))
        if let function = enclosingFunction(), dependsOnParameters(range, function) {
            // `func buy(_ product: Product) { … purchase(product.id) }`: a product already fetched.
            if SourceScanner.Resolver.isFetchedProductID(argument) || isFetchedProduct(argument, function) { return }
            summary.wrappers.append(WrapperFunction(
                name: function.name, parameters: function.parameters, entry: entry, location: function.location,
                display: display(function), body: .entry(argument: argument), prefix: prefix, context: context(index),
                isPrivate: function.isPrivate))
            return
        }
        var api = entry.api
        if entry.detectsPurchase {
            if chainPurchases(from: close + 1) || boundResultIsPurchased(call: receiverStart(index), close: close) { api = "Product.purchase" }
        }
        var call = CallSite(api: api, argument: argument, context: context(index), location: location, kind: entry.kind)
        call.prefix = prefix
        if language != .swift && language != .objectiveC { call.written = writtenText(range) }
        summary.calls.append(call)
    }

    /// Members that turn a list of IDs into another list of the same IDs.
    static let valueMembers: Set<String> = [
        "map", "compactMap", "flatMap", "filter", "reduce", "union", "sorted", "rawValue", "keys", "values", "first", "last",
        "self", "allObjects", "lowercased", "uppercased", "toSet", "toList", "toArray", "slice", "concat",
    ]

    /// How a function is named in notes and told apart: Swift's `buy(_:qty:)`; Dart's and
    /// JavaScript's `buy(sku, qty:)`.
    func display(_ function: FunctionHeader) -> String {
        if language == .dart || language == .javaScript {
            return "\(function.name)(\(function.parameters.map { $0.label.map { $0 + ":" } ?? $0.name }.joined(separator: ", ")))"
        }
        return "\(function.name)(\(function.parameters.map { ($0.label ?? "_") + ":" }.joined()))"
    }

    /// The function whose body the current token is in (through closures, not through a type).
    func enclosingFunction() -> FunctionHeader? {
        for scope in scopes.reversed() {
            if let function = scope.function, !Self.capturesOnly(function) { return function }
            if scope.typePath != nil { return nil }
        }
        return nil
    }

    /// A block, or an arrow function without parameters (`later(async () => { … })`): what it
    /// uses comes from the function around it.
    static func capturesOnly(_ function: FunctionHeader) -> Bool {
        function.name == "^" || (function.name == "=>" && function.parameters.isEmpty)
    }

    /// The token range from the enclosing function's body to `end`: the statements before a call.
    func functionPrefix(before end: Int) -> Range<Int>? {
        guard language == .swift || language == .javaScript || language == .dart else { return nil }
        for scope in scopes.reversed() {
            // A function's body, or a computed property's (a SwiftUI view's `body`).
            if scope.function.map({ $0.name != "^" }) ?? false || scope.property != nil {
                let range = scope.open + 1..<end
                return range.count <= Self.maxExpressionTokens ? range : nil
            }
            if scope.typePath != nil { return nil }
        }
        return nil
    }

    /// Whether the tokens in `range` name a parameter of `function`, directly or through locals
    /// of the function declared before them (`let ids = identifiers.map(\.rawValue)`).
    func dependsOnParameters(_ range: Range<Int>, _ function: FunctionHeader) -> Bool {
        let parameters = Set(function.parameters.map(\.name))
        guard !parameters.isEmpty else { return false }
        var locals: [String: [ExpressionToken]] = [:]
        for scope in scopes.reversed() {
            for index in scope.localDefinitions {
                let definition = summary.definitions[index]
                if locals[definition.name] == nil { locals[definition.name] = definition.expression }
            }
            if let function = scope.function, !Self.capturesOnly(function) { break }
        }
        // A parameter counts where its value is used, or transformed as a list; a member of it
        // (`session.productIDs()`) is something else, found at run time.
        // An index (`packs[row]`) chooses among known values; it is not where they come from.
        var names: [String] = []
        var k = range.lowerBound
        while k < range.upperBound {
            if isPunctuation(k, "["), k > range.lowerBound, tokens[k].start == tokens[k - 1].end {
                k = matchingClose(k) + 1
                continue
            }
            defer { k += 1 }
            guard isIdentifier(k), !isPunctuation(k - 1, ".") else { continue }
            // A method of it (`session.productIDs()`) computes something else; a property
            // (`tip.sku`) or a list operation (`ids.map`) is its value.
            if isPunctuation(k + 1, "."), isIdentifier(k + 2), isPunctuation(k + 3, "("), !Self.valueMembers.contains(text(k + 2)) { continue }
            // The condition of `flag ? a : b` chooses between values; it is not one.
            if isOperator(k + 1, "?"), k + 2 < tokens.count, tokens[k + 1].start != tokens[k].end { continue }
            names.append(text(k))
        }
        var seen: Set<String> = []
        while let name = names.popLast() {
            guard seen.insert(name).inserted, seen.count <= 64 else { continue }
            if parameters.contains(name) { return true }
            if let expression = locals[name] {
                for (offset, token) in expression.enumerated() where token.kind == .identifier {
                    if offset > 0 && expression[offset - 1].text == "." { continue }
                    if offset + 3 < expression.count, expression[offset + 1].text == ".", expression[offset + 3].text == "(",
                       !Self.valueMembers.contains(expression[offset + 2].text) { continue }
                    names.append(token.text)
                }
            }
        }
        return false
    }

    /// The first token of `Product.products` (or `StoreKit.Product.products`) for the name at `index`;
    /// the `.` of `.currentEntitlementTask`.
    func receiverStart(_ index: Int) -> Int {
        var k = index
        while isPunctuation(k - 1, "."), isIdentifier(k - 2) { k -= 2 }
        if isPunctuation(k - 1, "."), k == index { return k - 1 }
        return k
    }

    /// `func name(_ a: T, label b: T, c: T) -> R`: remembered until its body opens.
    mutating func functionDeclaration(_ index: Int) {
        pendingFunction = nil
        guard isIdentifier(index + 1) else { return }
        var open = index + 2
        if open < tokens.count, tokens[open].kind == .operatorRun, bytes[tokens[open].start] == 0x3C { open = skipGenericParameters(open) }
        guard isPunctuation(open, "(") else { return }
        let close = matchingClose(open)
        var parameters: [Parameter] = []
        var start = open + 1
        while start < close {
            let end = argumentEnd(from: start, close: close)
            var typeStart: Int
            if isIdentifier(start) && isIdentifier(start + 1) && isPunctuation(start + 2, ":") {
                let label = text(start)
                parameters.append(Parameter(label: label == "_" ? nil : label, name: text(start + 1)))
                typeStart = start + 3
            } else if isIdentifier(start) && isPunctuation(start + 1, ":") {
                parameters.append(Parameter(label: text(start), name: text(start)))
                typeStart = start + 2
            } else {
                return
            }
            // The type's last plain name before a default value: `[ProductID]` → `ProductID`.
            var type: String?
            while typeStart < end && !isOperator(typeStart, "=") {
                if isIdentifier(typeStart) && !isWord(typeStart, "inout") && !isWord(typeStart, "Set") && !isWord(typeStart, "Array") {
                    type = text(typeStart)
                }
                typeStart += 1
            }
            parameters[parameters.count - 1].type = type
            parameters[parameters.count - 1].hasDefault = typeStart < end
            start = end + 1
        }
        var header = FunctionHeader(name: text(index + 1), parameters: parameters, location: location(index + 1))
        header.isPrivate = isWord(index, "func") && hasPrivateModifier(before: index)
        // `-> T` before the body: a value that could be an ID list unless it is a view.
        var k = close + 1
        while k < tokens.count && k < close + 64 && !isPunctuation(k, "{") && !isPunctuation(k, "}") {
            if isOperator(k, "->") {
                header.returnsValue = true
            } else if header.returnsValue && (isWord(k, "View") || isWord(k, "some") || isWord(k, "Void")) {
                header.returnsValue = false
                break
            }
            k += 1
        }
        pendingFunction = (header, close)
    }

    /// A call of a wrapper function found in an earlier pass: `store.requestProducts(for: ids)`.
    /// Inside a function whose parameters the arguments depend on, that function becomes a
    /// wrapper too.
    mutating func wrapperCall(_ index: Int) {
        guard let candidates = wrappers[text(index)], !isWord(index - 1, "func") else { return }
        guard isPunctuation(index + 1, "(") else { return }
        let close = matchingClose(index + 1)
        if isScriptDeclaration(name: index, close: close) { return }
        let arguments = callArguments(open: index + 1, close: close)
        let function = enclosingFunction()
        let trailingClosure = isPunctuation(close + 1, "{")
        for wrapper in candidates where fits(arguments.map(\.label), wrapper.parameters, trailingClosure: trailingClosure)
            && Self.callable(wrapper.location.file, from: language)
            && !(wrapper.isPrivate && wrapper.location.file != summary.path) {
            // A recursive call is not a call site.
            if let function, display(function) == wrapper.display { continue }
            var snapshots: [CallArgument] = []
            for argument in arguments {
                guard let tokens = snapshot(argument.range) else { return }
                snapshots.append(CallArgument(label: argument.label, tokens: tokens))
            }
            let prefix = functionPrefix(before: receiverStart(index))
            if let function, arguments.contains(where: { dependsOnParameters($0.range, function) }) {
                summary.wrappers.append(WrapperFunction(
                    name: function.name, parameters: function.parameters, entry: wrapper.entry, location: function.location,
                    display: display(function), body: .wrapper(wrapper.display, arguments: snapshots), prefix: prefix,
                    context: context(index), isPrivate: function.isPrivate))
                return
            }
            var call = CallSite(
                api: wrapper.entry.api, argument: [], context: context(index), location: location(index),
                kind: wrapper.entry.kind, wrapper: wrapper.display)
            call.arguments = snapshots
            call.prefix = prefix
            summary.calls.append(call)
            return
        }
    }

    /// `item.id` where `item` is a parameter whose type is a fetched product's
    /// (`ProductCommon item`, `_ item: Product`, `ProductDetails item`).
    func isFetchedProduct(_ argument: [ExpressionToken], _ function: FunctionHeader) -> Bool {
        // Alone in a list or set: `[item.id]`, `{item.id}`.
        if argument.count == 5, ["[", "{"].contains(argument[0].text), ["]", "}"].contains(argument[4].text) {
            return isFetchedProduct(Array(argument[1...3]), function)
        }
        // The product itself (`purchaseProduct(product)` with `product: SKProduct`): an overload
        // that takes what a request already returned.
        if argument.count == 1, argument[0].kind == .identifier,
           let type = function.parameters.first(where: { $0.name == argument[0].text })?.type {
            return ["SKProduct", "Product", "StoreProduct", "Package"].contains(type)
        }
        guard argument.count == 3, argument[0].kind == .identifier, argument[1].text == ".",
              ["id", "productId", "productID", "productIdentifier"].contains(argument[2].text),
              let type = function.parameters.first(where: { $0.name == argument[0].text })?.type else { return false }
        return type.hasPrefix("Product") || type.hasPrefix("StoreProduct") || type.hasPrefix("SKProduct")
    }

    /// C# words a call's name can follow, where a declaration's name follows its type.
    static let cSharpWordsBeforeACall: Set<String> = ["await", "return", "new", "throw", "yield", "in", "is", "as", "case", "else", "when", "not", "and", "or"]

    /// Whether `name(…)`, its parentheses closing at `close`, declares a Dart or JavaScript
    /// function rather than calls one: those look like calls until what follows them.
    func isScriptDeclaration(name: Int, close: Int) -> Bool {
        if language == .cSharp {
            // `Task<bool> PurchaseAsync(string id) {`, `=> …`, or an interface's `…(string id);`: a
            // type before the name (a call has `.`, `(`, `=`, `await`, `return`… there).
            if isPunctuation(close + 1, "{") || isOperator(close + 1, "=>") { return true }
            if name > 0, tokens[name - 1].kind == .identifier, !Self.cSharpWordsBeforeACall.contains(text(name - 1)) { return true }
            return isOperator(name - 1, ">") || isOperator(name - 1, "?") || isPunctuation(name - 1, "]")
        }
        guard language == .dart || language == .javaScript else { return false }
        if isPunctuation(close + 1, "{") || isOperator(close + 1, "=>") || isWord(close + 1, "async") || isWord(close + 1, "sync") || isWord(name - 1, "function") {
            return true
        }
        // TypeScript's return type, `): Promise<void> {`; a ternary's `:` is followed by a value.
        guard language == .javaScript, isPunctuation(close + 1, ":") else { return false }
        var k = close + 2
        while k < tokens.count, k - close < 24 {
            if isPunctuation(k, "{") || isOperator(k, "=>") { return true }
            guard tokens[k].kind == .identifier || tokens[k].kind == .operatorRun && !isOperator(k, "=>")
                || isPunctuation(k, ".") || isPunctuation(k, "[") || isPunctuation(k, "]") || isPunctuation(k, ",") else { return false }
            k += 1
        }
        return false
    }

    /// Whether code in `language` can call a function of the file `path`: Swift and
    /// Objective-C call each other; Dart, JavaScript and C# only themselves.
    static func callable(_ path: String, from language: SourceScanner.Language) -> Bool {
        let family = { (language: SourceScanner.Language?) -> Int in
            switch language {
            case .swift?, .objectiveC?: return 0
            case .dart?: return 1
            case .javaScript?: return 2
            case .cSharp?: return 3
            case nil: return -1
            }
        }
        return family(SourceScanner.language(ofFile: path)) == family(language)
    }

    /// Whether a call's argument labels fit a function's parameters, in order (parameters with
    /// default values may be left out).
    func fits(_ labels: [String?], _ parameters: [Parameter], trailingClosure: Bool = false) -> Bool {
        // A trailing closure is the last parameter's argument.
        let parameters = trailingClosure && !parameters.isEmpty ? Array(parameters.dropLast()) : parameters
        var next = 0
        for label in labels {
            guard let index = parameters[next...].firstIndex(where: { $0.label == label }) else { return false }
            // A parameter passed over needs a default value.
            if parameters[next..<index].contains(where: { !$0.hasDefault }) { return false }
            next = index + 1
        }
        return !parameters[next...].contains { !$0.hasDefault }
    }

    /// The arguments between `open` and `close`: each label and token range.
    func callArguments(open: Int, close: Int) -> [(label: String?, range: Range<Int>)] {
        var arguments: [(label: String?, range: Range<Int>)] = []
        var start = open + 1
        while start < close {
            let end = argumentEnd(from: start, close: close)
            if isIdentifier(start) && isPunctuation(start + 1, ":") && start + 2 < end {
                arguments.append((text(start), start + 2..<end))
            } else if start < end {
                arguments.append((nil, start..<end))
            }
            start = end + 1
        }
        return arguments
    }

    /// `name = "…"` / `name: "…"` with a name that says secret and a value shaped like an App Store
    /// shared secret.
    mutating func secretLiteral(name: String, literal index: Int) {
        guard SourceScanner.namesSecret(name), index < tokens.count, tokens[index].kind == .string,
              let value = stringValue(tokens[index]), SourceScanner.looksLikeSharedSecret(value)
        else { return }
        summary.secrets.append(SecretSighting(location: location(index), name: name, value: value))
    }

    /// Tokens as written, spaces where the source has them, shortened to 80 characters.
    func writtenText(_ range: Range<Int>) -> String {
        var text = ""
        for k in range {
            if k > range.lowerBound && tokens[k].start != tokens[k - 1].end { text += " " }
            text += String(decoding: UnsafeBufferPointer(rebasing: bytes[tokens[k].start..<tokens[k].end]), as: UTF8.self)
        }
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }
}
