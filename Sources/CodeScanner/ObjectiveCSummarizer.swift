extension SourceScanner.Summarizer {
    // MARK: Objective-C

    /// What the Objective-C pass remembers between tokens.
    struct ObjectiveCState {
        /// Variables declared outside any block (`static NSArray *ids;`), and whether they are
        /// private to the file: a later `ids = …;` in a method is one more of their values.
        var statics: [String: Bool] = [:]
        /// The names declared in each open block, by the index of its `{`.
        var localNames: [Int: Set<String>] = [:]
    }

    mutating func summarizeObjectiveC() {
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .punctuation:
                switch bytes[token.start] {
                case 0x7B: objectiveCOpenScope(index)  // {
                case 0x7D:  // }
                    if let open = scopes.last?.open { objectiveC.localNames[open] = nil }
                    closeScope(index)
                case 0x3B:  // ; ends a method declaration without a body, or a declaration
                    pendingFunction = nil
                    if scopes.isEmpty { objectiveCFileScopeDeclaration(index) }
                case 0x40: objectiveCClassDirective(index)  // @
                default: break
                }
            case .directive:
                if isWord(index, "#define") { define(index) }
            case .identifier:
                summary.identifiers.insert(bytes, tokens[index].start..<tokens[index].end)
                objectiveCIdentifier(index)
            case .operatorRun:
                if isOperator(index, "=") {
                    objectiveCAssignment(index)
                } else if (isOperator(index, "-") || isOperator(index, "+")) && scopes.isEmpty && !typePaths.isEmpty {
                    objectiveCMethodHeader(index)
                }
            default:
                break
            }
            index += 1
        }
        finish()
    }

    /// `@implementation Store`, `@interface Store ()`, `@implementation Store (Extras)`: what
    /// follows up to `@end` belongs to `Store`, so a property set in one method can be read in
    /// another.
    mutating func objectiveCClassDirective(_ index: Int) {
        guard tokens[index].end == tokens[min(index + 1, tokens.count - 1)].start else { return }
        if isWord(index + 1, "implementation") || isWord(index + 1, "interface") {
            guard isIdentifier(index + 2) else { return }
            typePaths = [[text(index + 2)]]
            if isPunctuation(index + 3, ":"), isIdentifier(index + 4) { summary.supertypes[text(index + 2)] = text(index + 4) }
        } else if isWord(index + 1, "end") || isWord(index + 1, "protocol") {
            typePaths = []
        }
    }

    /// `- (NSArray *)productIDs {`: a method without parameters, whose `return` values are the
    /// values of `[self productIDs]` and `self.productIDs`. Methods with parameters are not followed.
    mutating func objectiveCMethodHeader(_ index: Int) {
        guard isPunctuation(index + 1, "("), index == 0 || tokens[index - 1].line < tokens[index].line else { return }
        // The return type is a few tokens; a longer search would make a broken file quadratic.
        var close = index + 2
        while close < min(index + 32, tokens.count) && !isPunctuation(close, ")") { close += 1 }
        let nameIndex = close + 1
        guard isPunctuation(close, ")") else { return }
        guard isIdentifier(nameIndex) else {
            pendingFunction = nil
            return
        }
        // `- (void)ask:(NSArray *)ids from:(id)sender`: each selector piece and its parameter.
        var parameters: [Parameter] = []
        var k = nameIndex
        while isIdentifier(k) && isPunctuation(k + 1, ":") && parameters.count < 16 {
            var name = k + 2
            if isPunctuation(name, "(") {
                name = matchingClose(name) + 1
            }
            guard isIdentifier(name) else { break }
            parameters.append(Parameter(label: k == nameIndex ? nil : text(k), name: text(name)))
            k = name + 1
        }
        var header = FunctionHeader(name: text(nameIndex), parameters: parameters, location: location(nameIndex))
        header.isObjectiveC = true
        pendingFunction = (header, max(k - 1, nameIndex))
    }

    /// A block's body (`^{ … }`, `^(id x) { … }`) is marked so that its `return` is not taken for
    /// the enclosing method's.
    mutating func objectiveCOpenScope(_ index: Int) {
        var scope = Scope(open: index)
        if let pending = pendingFunction, index > pending.bodyAfter { scope.function = pending.header }
        pendingFunction = nil
        if isOperator(index - 1, "^") || (isPunctuation(index - 1, ")") && isOperator(objectiveCMatchingOpen(index - 1) - 1, "^")) {
            scope.function = FunctionHeader(name: "^", parameters: [], location: location(index))
        }
        scopes.append(scope)
    }

    /// The index of the bracket opening the one closing at `close`, looking back at most 64
    /// tokens (a block's parameter list is short); -1 when not found.
    func objectiveCMatchingOpen(_ close: Int) -> Int {
        var depth = 0
        var k = close
        while k >= max(0, close - 64) {
            if isCloser(k) {
                depth += 1
            } else if isOpener(k) {
                depth -= 1
                if depth == 0 { return k }
            }
            k -= 1
        }
        return -1
    }

    /// `#define kPro @"…"`: the value is the rest of the line, and of the lines a trailing `\`
    /// continues.
    mutating func define(_ index: Int) {
        let nameIndex = index + 1
        guard isIdentifier(nameIndex), tokens[nameIndex].line == tokens[index].line else { return }
        // A function-like macro (`#define ID(x) @("com.x." #x)`): its parameters, then its body.
        var parameters: [Parameter]?
        var start = nameIndex + 1
        if isPunctuation(nameIndex + 1, "("), tokens[nameIndex + 1].start == tokens[nameIndex].end {
            let close = matchingClose(nameIndex + 1)
            guard close < tokens.count, tokens[close].line == tokens[index].line else { return }
            let names = (nameIndex + 2..<close).filter { isIdentifier($0) }.map { Parameter(label: nil, name: text($0)) }
            guard names.count == (nameIndex + 2..<close).filter({ !isPunctuation($0, ",") }).count else { return }
            parameters = names
            start = close + 1
        }
        var pieces: [Range<Int>] = []
        var line = tokens[index].line
        var end = start
        while end < tokens.count && tokens[end].line == line {
            if isPunctuation(end, "\\") && (end + 1 == tokens.count || tokens[end + 1].line > line) {
                pieces.append(start..<end)
                start = end + 1
                line += 1
            }
            end += 1
        }
        pieces.append(start..<end)
        if end == nameIndex + 2 { secretLiteral(name: text(nameIndex), literal: nameIndex + 1) }
        var expression: [SourceScanner.ExpressionToken] = []
        for piece in pieces where !piece.isEmpty {
            guard let tokens = snapshot(piece) else { return }
            expression += tokens
        }
        guard !expression.isEmpty, expression.count <= Self.maxExpressionTokens else { return }
        var definition = Definition(
            name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: false,
            expression: expression, context: context(nameIndex))
        definition.parameters = parameters
        summary.definitions.append(definition)
    }

    mutating func objectiveCIdentifier(_ index: Int) {
        if !wrappers.isEmpty && isPunctuation(index + 1, ":") && !isOperator(index - 1, "?") { objectiveCWrapperCall(index) }
        if !storingTypes.isEmpty && isPunctuation(index + 1, ":") { objectiveCConstruction(index) }
        let first = bytes[tokens[index].start]
        switch first {
        case 0x53:  // S
            if isWord(index, "SKProductsRequest") || isWord(index, "SKPayment") || isWord(index, "SKPaymentQueue") {
                summary.usesStoreKit1 = true
            } else if isWord(index, "SKMutablePayment") {
                summary.usesStoreKit1 = true
                mentionsMutablePayment = true
            }
        case 0x72:  // r
            if isWord(index, "return") { objectiveCMethodReturn(index) }
            // RMStore, a StoreKit 1 library: `[[RMStore defaultStore] requestProducts:ids success:… failure:…]`.
            if isWord(index, "requestProducts"), isPunctuation(index + 1, ":"), isRMStoreReceiver(before: index) {
                summary.usesStoreKit1 = true
                let end = objectiveCExpressionEnd(from: index + 2)
                guard let argument = snapshot(index + 2..<end) else { return }
                summary.calls.append(CallSite(api: "-[RMStore requestProducts:]", argument: argument, context: context(index), location: location(index)))
            }
        case 0x61, 0x69, 0x70, 0x73, 0x75, 0x63:  // a i p s u c
            guard isPunctuation(index + 1, ":") else { return }
            let api: String
            // RevenueCat's SDK key: `[RCPurchases configureWithAPIKey:@"appl_…"]` (also with
            // `appUserID:`), `[[RCConfigurationBuilder alloc] initWithAPIKey:@"appl_…"]`.
            if (isWord(index, "configureWithAPIKey") && isWord(index - 1, "RCPurchases"))
                || (isWord(index, "initWithAPIKey") && isPunctuation(index - 1, "]") && isWord(index - 2, "alloc") && isWord(index - 3, "RCConfigurationBuilder")) {
                let end = objectiveCExpressionEnd(from: index + 2)
                guard let argument = snapshot(index + 2..<end) else { return }
                let shown = isWord(index, "initWithAPIKey") ? "-[RCConfigurationBuilder initWithAPIKey:]" : "+[RCPurchases configureWithAPIKey:]"
                summary.calls.append(CallSite(api: shown, argument: argument, context: context(index), location: location(index), kind: .revenueCatKey))
                return
            }
            if isWord(index, "initWithProductIdentifiers") {
                // A method declared with that name, or the app's own class made with it, is not
                // StoreKit's request.
                if scopes.isEmpty { return }
                if isPunctuation(index - 1, "]"), isWord(index - 2, "alloc"), isIdentifier(index - 3), !isWord(index - 3, "SKProductsRequest") {
                    return
                }
                api = "-initWithProductIdentifiers:"
            } else if isWord(index, "addPayment") && isRMStoreReceiver(before: index) {
                api = "-[RMStore addPayment:]"
            } else if isWord(index, "paymentWithProductIdentifier") {
                api = "+paymentWithProductIdentifier:"
            } else if isWord(index, "setProductIdentifier") {
                let end = objectiveCExpressionEnd(from: index + 2)
                if let argument = snapshot(index + 2..<end) {
                    productIdentifierAssignments.append(CallSite(api: "-setProductIdentifier:", argument: argument, context: context(index), location: location(index)))
                }
                return
            } else {
                objectiveCCollectionMessage(index)
                return
            }
            summary.usesStoreKit1 = true
            let end = objectiveCExpressionEnd(from: index + 2)
            guard let argument = snapshot(index + 2..<end) else { return }
            // A method whose parameter reaches the request is a wrapper: its calls give the IDs.
            if let function = enclosingFunction(), function.isObjectiveC, dependsOnParameters(index + 2..<end, function) {
                // `- (void)buy:(SKProduct *)product { … addPayment:product.productIdentifier }`: a
                // product already fetched.
                if SourceScanner.Resolver.isFetchedProductID(argument) { return }
                let entry = EntryPoint(receivers: [], name: text(index), label: nil, api: api, storeKit1: true)
                summary.wrappers.append(WrapperFunction(
                    name: function.name, parameters: function.parameters, entry: entry, location: function.location,
                    display: objectiveCDisplay(function), body: .entry(argument: argument), prefix: nil, context: context(index)))
                return
            }
            summary.calls.append(CallSite(api: api, argument: argument, context: context(index), location: location(index)))
        default:
            break
        }
    }

    /// `[ids addObject:@"…"]`, `[self.ids addObjectsFromArray:…]`, `[self setIDs:…]`: the argument
    /// is one more value of `ids` (a local, an instance variable or a property).
    mutating func objectiveCCollectionMessage(_ index: Int) {
        let adds = isWord(index, "addObject") || isWord(index, "addObjectsFromArray") || isWord(index, "unionSet")
            || isWord(index, "insertObject") || isWord(index, "unionOrderedSet")
        let replaces = isWord(index, "setArray") || isWord(index, "setSet")
        if adds || replaces {
            guard let target = objectiveCReceiverTarget(before: index) else { return }
            objectiveCRecordValue(of: target, at: index, value: index + 2, isAddition: adds)
            return
        }
        // `[tips setObject:@"Small tip" forKey:@"com.x.tip"]`: one more entry, as `@{key: value}`.
        if isWord(index, "setObject") || isWord(index, "setValue") {
            guard let target = objectiveCReceiverTarget(before: index) else { return }
            let valueEnd = objectiveCExpressionEnd(from: index + 2)
            guard isWord(valueEnd, "forKey"), isPunctuation(valueEnd + 1, ":") else { return }
            let keyEnd = objectiveCExpressionEnd(from: valueEnd + 2)
            guard let value = snapshot(index + 2..<valueEnd), let key = snapshot(valueEnd + 2..<keyEnd),
                  let open = snapshot(index..<index + 1) else { return }
            func punctuation(_ text: String) -> ExpressionToken {
                var token = open[0]
                token.kind = .punctuation
                token.text = text
                return token
            }
            let entry = [punctuation("@"), punctuation("{")] + key + [punctuation(":")] + value + [punctuation("}")]
            objectiveCRecordValue(of: target, at: index, expression: entry, isAddition: true)
            return
        }
        // A setter sent to `self`: `[self setProductIDs:…]` sets `productIDs`.
        let token = tokens[index]
        guard isWord(index - 1, "self"), isPunctuation(index - 2, "["), token.end - token.start > 3,
              objectiveCHasPrefix(index, "set"), (0x41...0x5A).contains(bytes[token.start + 3]) else { return }
        let name = text(index).dropFirst(3)
        objectiveCRecordValue(of: .property(name.prefix(1).lowercased() + name.dropFirst()), at: index, value: index + 2, isAddition: false)
    }

    func objectiveCHasPrefix(_ index: Int, _ prefix: StaticString) -> Bool {
        let token = tokens[index]
        guard token.end - token.start >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in
            (0..<expected.count).allSatisfy { bytes[token.start + $0] == expected[$0] }
        }
    }

    enum ObjectiveCTarget {
        /// A plain name: a local, a static or an instance variable.
        case name(String)
        /// `self.name`, `self->name`, `[self name]`.
        case property(String)
    }

    /// The receiver of the message whose selector starts at `index`, when it is a variable.
    func objectiveCReceiverTarget(before index: Int) -> ObjectiveCTarget? {
        if isIdentifier(index - 1) && isPunctuation(index - 2, "[") && !isWord(index - 1, "self") && !isWord(index - 1, "super") {
            return .name(text(index - 1))
        }
        if isIdentifier(index - 1), isWord(index - 3, "self"), isPunctuation(index - 4, "["),
           isPunctuation(index - 2, ".") || isOperator(index - 2, "->") {
            return .property(text(index - 1))
        }
        if isPunctuation(index - 1, "]"), isIdentifier(index - 2), isWord(index - 3, "self"), isPunctuation(index - 4, "["),
           isPunctuation(index - 5, "[") {
            return .property(text(index - 2))
        }
        return nil
    }

    /// Records the expression starting at `value` as one of the values `target` takes: a local
    /// keeps it beside its declaration, a file's static beside the static, anything else in a
    /// method is a member of the class.
    mutating func objectiveCRecordValue(of target: ObjectiveCTarget, at position: Int, value: Int, isAddition: Bool) {
        let end = objectiveCExpressionEnd(from: value)
        guard let expression = snapshot(value..<end) else { return }
        objectiveCRecordValue(of: target, at: position, expression: expression, isAddition: isAddition)
    }

    mutating func objectiveCRecordValue(of target: ObjectiveCTarget, at position: Int, expression: [ExpressionToken], isAddition: Bool) {
        var definition = Definition(
            name: "", owner: nil, localScope: nil, position: position, isPrivate: false,
            expression: expression, context: context(position), isAddition: isAddition)
        switch target {
        case .name(let name):
            guard name != "self" && name != "super" else { return }
            definition.name = name
            for scopeIndex in scopes.indices.reversed() where objectiveC.localNames[scopes[scopeIndex].open]?.contains(name) == true {
                definition.localScope = scopes[scopeIndex].open..<tokens.count
                scopes[scopeIndex].localDefinitions.append(summary.definitions.count)
                summary.definitions.append(definition)
                return
            }
            if let isPrivate = objectiveC.statics[name] {
                definition.isPrivate = isPrivate
                summary.definitions.append(definition)
                return
            }
            guard let owner = typePaths.last, !scopes.isEmpty else { return }
            definition.owner = owner
            summary.definitions.append(definition)
        case .property(let name):
            guard let owner = typePaths.last, !scopes.isEmpty else { return }
            definition.name = name
            definition.owner = owner
            summary.definitions.append(definition)
        }
    }

    /// `return …;` in a method without parameters: one value of that method.
    mutating func objectiveCMethodReturn(_ index: Int) {
        guard let owner = typePaths.last, let function = scopes.last(where: { $0.function != nil })?.function,
              function.name != "^", function.parameters.isEmpty else { return }
        let end = objectiveCExpressionEnd(from: index + 1)
        guard let expression = snapshot(index + 1..<end) else { return }
        summary.definitions.append(Definition(
            name: function.name, owner: owner, localScope: nil, position: index, isPrivate: false,
            expression: expression, context: context(index)))
    }

    /// `NSString *const kPro = @"…";`, `NSSet *ids = [NSSet setWithObjects:…];`,
    /// `payment.productIdentifier = @"…";`, `self.ids = @[…];`, `_ids = @{…};`, `ids = …;`.
    mutating func objectiveCAssignment(_ index: Int) {
        let nameIndex = index - 1
        guard isIdentifier(nameIndex) else { return }
        if isPunctuation(nameIndex - 1, ".") || isOperator(nameIndex - 1, "->") {
            if isPunctuation(nameIndex - 1, ".") && isWord(nameIndex, "productIdentifier") {
                let end = objectiveCExpressionEnd(from: index + 1)
                if let argument = snapshot(index + 1..<end) {
                    productIdentifierAssignments.append(CallSite(api: "SKMutablePayment.productIdentifier", argument: argument, context: context(index), location: location(index)))
                }
                return
            }
            // `self.products = …`, `self->_products = …`; not `other.self.products`.
            guard isWord(nameIndex - 2, "self"), !isPunctuation(nameIndex - 3, "."), !isOperator(nameIndex - 3, "->") else { return }
            let recorded = summary.definitions.count
            objectiveCRecordValue(of: .property(text(nameIndex)), at: nameIndex, value: index + 1, isAddition: false)
            objectiveCMarkInitialization(recorded, value: index + 1)
            return
        }
        // A declaration: the name follows `*`, `const` or a type name.
        guard isOperator(nameIndex - 1, "*") || (isIdentifier(nameIndex - 1) && !isWord(nameIndex - 1, "else")) else {
            // A statement setting a variable declared before: `ids = …;`, `if (x) ids = …;`.
            if nameIndex == 0 || isPunctuation(nameIndex - 1, ";") || isPunctuation(nameIndex - 1, "{")
                || isPunctuation(nameIndex - 1, "}") || isPunctuation(nameIndex - 1, ")") || isWord(nameIndex - 1, "else") {
                let recorded = summary.definitions.count
                objectiveCRecordValue(of: .name(text(nameIndex)), at: nameIndex, value: index + 1, isAddition: false)
                objectiveCMarkInitialization(recorded, value: index + 1)
            }
            return
        }
        let end = objectiveCExpressionEnd(from: index + 1)
        if end == index + 2 { secretLiteral(name: text(nameIndex), literal: index + 1) }
        guard let expression = snapshot(index + 1..<end) else { return }
        var definition = Definition(
            name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: false,
            expression: expression, context: context(nameIndex))
        if let scope = scopes.last {
            definition.localScope = scope.open..<tokens.count
            scopes[scopes.count - 1].localDefinitions.append(summary.definitions.count)
            objectiveC.localNames[scope.open, default: []].insert(definition.name)
        } else {
            definition.isPrivate = objectiveCIsFilePrivate(nameIndex)
            objectiveC.statics[definition.name] = definition.isPrivate
        }
        summary.definitions.append(definition)
    }

    /// `static` in an implementation file is invisible to other files; in a header it is shared.
    func objectiveCIsFilePrivate(_ nameIndex: Int) -> Bool {
        var k = nameIndex - 1
        while k >= 0 && !isPunctuation(k, ";") && !isPunctuation(k, "}") && tokens[k].kind != .directive {
            if isWord(k, "static") { return SourceScanner.fileExtension(summary.path) != "h" }
            k -= 1
        }
        return false
    }

    /// `static NSArray *ids;`, `NSSet *gIDs;` outside any block: a variable given its values later.
    /// Between `@interface` and `@end` only a `static` is one (not a `@property`).
    mutating func objectiveCFileScopeDeclaration(_ semicolon: Int) {
        let nameIndex = semicolon - 1
        guard isIdentifier(nameIndex), isOperator(nameIndex - 1, "*") || isIdentifier(nameIndex - 1) else { return }
        var isStatic = false
        var k = nameIndex - 1
        while k >= 0 && !isPunctuation(k, ";") && !isPunctuation(k, "}") && !isPunctuation(k, "@") && tokens[k].kind != .directive {
            if isWord(k, "static") { isStatic = true }
            if isPunctuation(k, ".") || isPunctuation(k, "(") || isPunctuation(k, ")") { return }
            k -= 1
        }
        guard typePaths.isEmpty || isStatic, !(isPunctuation(k, "@") && isWord(k + 1, "property")) else { return }
        objectiveC.statics[text(nameIndex)] = isStatic && SourceScanner.fileExtension(summary.path) != "h"
    }

    /// A message to an `@objc` Swift wrapper: `[Store.shared fetch:@[…] parent:self]` calls
    /// `fetch(_:parent:)`; `[store loadWithIDs:…]` calls `load(IDs:)`.
    mutating func objectiveCWrapperCall(_ index: Int) {
        let selector = text(index)
        let candidates = wrappers.values.joined().filter { SourceScanner.objectiveCSelectorStart(of: $0) == selector }
        guard let first = candidates.first, !isPunctuation(index - 1, "[") else { return }
        // The arguments: one after each selector piece, up to the message's `]`.
        var arguments: [CallArgument] = []
        var piece = index
        var firstLabel: String? = first.parameters.first?.label
        while isIdentifier(piece) && isPunctuation(piece + 1, ":") {
            let end = objectiveCExpressionEnd(from: piece + 2)
            guard end > piece + 2, let tokens = snapshot(piece + 2..<end) else { return }
            arguments.append(CallArgument(label: piece == index ? firstLabel : text(piece), tokens: tokens))
            firstLabel = nil
            piece = end
        }
        guard isPunctuation(piece, "]") else { return }
        for wrapper in candidates where fits(arguments.map(\.label), wrapper.parameters) {
            var call = CallSite(
                api: wrapper.entry.api, argument: [], context: context(index), location: location(index),
                kind: wrapper.entry.kind, wrapper: wrapper.display)
            call.arguments = arguments
            summary.calls.append(call)
            return
        }
    }

    /// `[RMStore defaultStore]` right before the selector at `index`.
    func isRMStoreReceiver(before index: Int) -> Bool {
        isPunctuation(index - 1, "]") && isWord(index - 2, "defaultStore") && isWord(index - 3, "RMStore")
    }

    /// `-askStoreFor:from:`, as Objective-C names a method.
    func objectiveCDisplay(_ function: FunctionHeader) -> String {
        "-" + function.name + ":" + function.parameters.dropFirst().compactMap { $0.label.map { $0 + ":" } }.joined()
    }

    /// A member set in an `init…` method from its parameters (`_skus = skus;`): its values come
    /// from the messages that make one (`[[Shop alloc] initWithSKUs:…]`).
    mutating func objectiveCMarkInitialization(_ recorded: Int, value: Int) {
        guard summary.definitions.count == recorded + 1, summary.definitions[recorded].owner != nil,
              let function = enclosingFunction(), function.isObjectiveC, function.name.hasPrefix("init"),
              let type = typePaths.last?.last else { return }
        let end = objectiveCExpressionEnd(from: value)
        guard dependsOnParameters(value..<end, function) else { return }
        summary.definitions[recorded].isFromParameters = true
        summary.definitions[recorded].initializer = (function.name, function.parameters)
        summary.storingTypes.insert(type)
    }

    /// `[[Shop alloc] initWithSKUs:ids]`, `[[self alloc] initWithSKUs:ids]` for a type whose
    /// initializer stores its parameters.
    mutating func objectiveCConstruction(_ index: Int) {
        // index is the initializer's name, after `[X alloc]`.
        guard isPunctuation(index + 1, ":"), isPunctuation(index - 1, "]"), isWord(index - 2, "alloc"), isIdentifier(index - 3),
              isPunctuation(index - 4, "[") else { return }
        let named = text(index - 3)
        guard let type = named == "self" ? typePaths.last?.last : named, storingTypes.contains(type) else { return }
        var arguments: [CallArgument] = []
        var piece = index
        while isIdentifier(piece) && isPunctuation(piece + 1, ":") {
            let end = objectiveCExpressionEnd(from: piece + 2)
            guard end > piece + 2, let tokens = snapshot(piece + 2..<end) else { return }
            arguments.append(CallArgument(label: piece == index ? nil : text(piece), tokens: tokens))
            piece = end
        }
        var construction = Construction(type: type, arguments: arguments, context: context(index), prefix: nil)
        construction.initializer = text(index)
        summary.constructions.append(construction)
    }
}
