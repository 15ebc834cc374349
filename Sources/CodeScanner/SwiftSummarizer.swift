extension SourceScanner.Summarizer {
    // MARK: Swift

    mutating func summarizeSwift() {
        walkBraces { summarizer, index in
            if summarizer.bytes[summarizer.tokens[index].start] == 0x23 || summarizer.isPunctuation(index - 1, "@") {
                summarizer.availabilityMarker(index)
            }
            summarizer.swiftIdentifier(index)
        }
    }

    /// The walk every language but Objective-C shares: braces open and close scopes (a type's
    /// body when a declaration is pending), `;` ends a pending declaration, and each identifier
    /// goes to the language's own reading.
    mutating func walkBraces(_ identifier: (inout Self, Int) -> Void) {
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .punctuation:
                switch bytes[token.start] {
                case 0x7B: openScope(index)
                case 0x7D: closeScope(index)
                case 0x3B: pendingType = nil
                default: break
                }
            case .identifier:
                summary.identifiers.insert(bytes, tokens[index].start..<tokens[index].end)
                if language != .swift, isWord(index, "return") || isWord(index, "throw") { exitStatement(index) }
                identifier(&self, index)
            default:
                break
            }
            index += 1
        }
        finish()
    }

    mutating func openScope(_ index: Int) {
        var scope = Scope(open: index)
        if let pending = pendingFunction, index > pending.bodyAfter, pendingType == nil {
            scope.function = pending.header
        }
        pendingFunction = nil
        if language != .swift { scope.branch = branchConditions(opening: index) }
        if language == .javaScript || language == .dart, scope.function == nil, pendingType == nil, let header = functionOpened(at: index) {
            // Its statements run before a request in it, so the locals they set reach the request.
            scope.function = header
        }
        if let property = pendingProperty, index == property.open {
            scope.property = (property.name, property.isPrivate, property.recordsValue)
        }
        pendingProperty = nil
        // Types nested deeper than any app nests them are read as members of the deepest one kept:
        // each level keeps its whole path, so unbounded nesting would cost the square of it.
        if pendingType != nil && typePaths.count >= Self.maxTypeNesting {
            pendingType = nil
            summary.limitsReached.insert("types nested more than \(Self.maxTypeNesting) deep are read as members of the one at that depth")
        }
        if let pending = pendingType {
            scope.typePath = pending.path
            typePaths.append(pending.path)
            if pending.isEnum {
                scope.enumIndex = summary.enums.count
                summary.enums.append(EnumDeclaration(path: pending.path, cases: [], hasStringRawValues: pending.hasStringRawValues))
            }
        }
        pendingType = nil
        scopes.append(scope)
        availability.open(index)
    }

    mutating func closeScope(_ index: Int) {
        guard let scope = scopes.popLast() else { return }
        availability.close(opened: scope.open)
        if scope.typePath != nil { typePaths.removeLast() }
        if let branch = scope.branch { closeBranch(branch, open: scope.open, close: index) }
        for exit in scope.exitGuards {
            summary.branches.append(SourceScanner.Branch(range: exit.start..<index, conditions: [exit.condition]))
        }
        // `if (c) { …; return; }`: what follows in the enclosing block runs only when `c` does not hold.
        if scope.exits, let branch = scope.branch, branch.count == 1, let condition = branch.first, condition.holds, !scopes.isEmpty {
            scopes[scopes.count - 1].exitGuards.append((index + 1, BranchCondition(range: condition.range, holds: false)))
        }
        if let function = scope.function, function.returnsValue || function.name == "init" {
            recordBody(name: function.name, open: scope.open, close: index, isPrivate: function.isPrivate, parameters: function.parameters)
        } else if let property = scope.property, property.recordsValue {
            recordBody(name: text(property.name), open: scope.open, close: index, isPrivate: property.isPrivate, parameters: nil)
        }
        for definition in scope.localDefinitions {
            summary.definitions[definition].localScope = scope.open..<index
        }
    }

    mutating func finish() {
        while !scopes.isEmpty { closeScope(tokens.count) }
        if mentionsMutablePayment { summary.calls.append(contentsOf: productIdentifierAssignments) }
    }

    mutating func swiftIdentifier(_ index: Int) {
        // `ids = value` starting a statement in an initializer: a stored property set.
        if isOperator(index + 1, "="), index == 0 || tokens[index - 1].line < tokens[index].line
            || isPunctuation(index - 1, "{") || isPunctuation(index - 1, ";") {
            bareInitialization(index)
        }
        let first = bytes[tokens[index].start]
        switch first {
        case 0x65, 0x73, 0x61, 0x70, 0x63:  // e s a p c: type declarations, `case`, productIdentifier
            if isWord(index, "enum") || isWord(index, "struct") || isWord(index, "class") || isWord(index, "actor")
                || isWord(index, "protocol") || isWord(index, "extension") {
                typeDeclaration(index)
                return
            } else if isWord(index, "case") {
                enumCases(index)
                return
            } else if isWord(index, "self") && isPunctuation(index + 1, ".") && isIdentifier(index + 2) && isOperator(index + 3, "=") {
                initialization(name: index + 2, value: index + 4)
                return
            } else if isWord(index, "productIdentifier") && isPunctuation(index - 1, ".") && isOperator(index + 1, "=") {
                let end = swiftExpressionEnd(from: index + 2)
                if let argument = snapshot(index + 2..<end) {
                    productIdentifierAssignments.append(CallSite(
                        api: "SKMutablePayment.productIdentifier", argument: argument, context: context(index), location: location(index)))
                }
                return
            }
        case 0x23:  // #
            conditionalCompilation(index)
            return
        case 0x6C, 0x76:  // l v
            if isWord(index, "let") || isWord(index, "var") {
                pendingFunction = nil
                bindings(index)
                return
            }
        case 0x66, 0x69:  // f i: a function or initializer ends a type header that never opened
            if isWord(index, "func") {
                pendingType = nil
                functionDeclaration(index)
                return
            }
            if isWord(index, "init") && !isPunctuation(index - 1, ".") {
                pendingType = nil
                functionDeclaration(index - 1)
                return
            }
            if isWord(index, "import") {
                importDeclaration(index)
                return
            }
        case 0x50:  // P
            if isWord(index, "Product") { productCall(index) }
        case 0x53:  // S
            storeKit1Call(index)
        default:
            break
        }
        if SourceScanner.entryPointFirstBytes.contains(first) { entryPoint(index) }
        if !wrappers.isEmpty && isPunctuation(index + 1, "(") { wrapperCall(index) }
        if !storingTypes.isEmpty { construction(index) }
        if (isPunctuation(index + 1, ":") || isOperator(index + 1, "=")) && containsSecretWord(index) {
            secretLiteral(name: text(index), literal: index + 2)
        }
    }

    /// Whether the identifier contains `secret` in any case, without making a string of it.
    func containsSecretWord(_ index: Int) -> Bool {
        let token = tokens[index]
        let word: [UInt8] = Array("secret".utf8)
        guard token.end - token.start >= word.count else { return false }
        var start = token.start
        while start + word.count <= token.end {
            var k = 0
            while k < word.count && bytes[start + k] | 0x20 == word[k] { k += 1 }
            if k == word.count { return true }
            start += 1
        }
        return false
    }

    /// `import StoreKit`, `import class StoreKit.Product`, `@preconcurrency import RevenueCat`.
    mutating func importDeclaration(_ index: Int) {
        guard index == 0 || tokens[index - 1].line < tokens[index].line || isIdentifier(index - 1) else { return }
        var k = index + 1
        if ["class", "struct", "enum", "protocol", "func", "var", "let", "typealias"].contains(where: { isIdentifier(k) && text(k) == $0 }) { k += 1 }
        guard isIdentifier(k), tokens[k].line == tokens[index].line else { return }
        let module = text(k)
        if SourceScanner.inAppPurchaseLibraries.contains(module) {
            summary.imports.insert(module)
        } else if SourceScanner.namesPurchaseModule(module) {
            summary.unreadLibraries.insert(module)
        }
    }

    static let notTypeNames: Set<String> = [
        "func", "var", "let", "subscript", "override", "final", "static", "private", "public", "internal",
        "fileprivate", "open", "init", "deinit", "convenience", "required", "dynamic", "lazy", "weak",
        "unowned", "mutating", "nonmutating", "indirect", "case", "nonisolated", "where",
    ]

    mutating func typeDeclaration(_ index: Int) {
        // `x.class`, `import class Foo.Bar`, `class func` are not declarations of a type body.
        if isPunctuation(index - 1, ".") || isWord(index - 1, "import") { return }
        guard isIdentifier(index + 1) else { return }
        let name = text(index + 1)
        if Self.notTypeNames.contains(name) { return }
        var path: [String]
        var k = index + 2
        if isWord(index, "extension") {
            path = [name]
            while isPunctuation(k, ".") && isIdentifier(k + 1) {
                path.append(text(k + 1))
                k += 2
            }
        } else {
            path = (typePaths.last ?? []) + [name]
        }
        var hasStringRawValues = false
        if isWord(index, "enum") {
            if isOperator(k, "<") || (k < tokens.count && tokens[k].kind == .operatorRun && bytes[tokens[k].start] == 0x3C) {
                k = skipGenericParameters(k)
            }
            if isPunctuation(k, ":") && isIdentifier(k + 1) {
                // The raw type comes first in the inheritance clause: `String` or `Swift.String`.
                var last = k + 1
                while isPunctuation(last + 1, ".") && isIdentifier(last + 2) { last += 2 }
                hasStringRawValues = isWord(last, "String")
            }
        }
        // `class Cafe: TillBase`: a class's first inherited type may be its superclass, whose
        // initializers it inherits.
        if isWord(index, "class") {
            if k < tokens.count && tokens[k].kind == .operatorRun && bytes[tokens[k].start] == 0x3C { k = skipGenericParameters(k) }
            if isPunctuation(k, ":") && isIdentifier(k + 1) { summary.supertypes[name] = text(k + 1) }
        }
        pendingType = PendingType(path: path, isEnum: isWord(index, "enum"), hasStringRawValues: hasStringRawValues)
    }

    func skipGenericParameters(_ start: Int) -> Int {
        var depth = 0
        var k = start
        while k < tokens.count {
            if tokens[k].kind == .operatorRun {
                for offset in tokens[k].start..<tokens[k].end {
                    if bytes[offset] == 0x3C { depth += 1 } else if bytes[offset] == 0x3E { depth -= 1 }
                }
                if depth <= 0 { return k + 1 }
            } else if isPunctuation(k, "{") {
                return k
            }
            k += 1
        }
        return k
    }

    mutating func enumCases(_ index: Int) {
        guard let scope = scopes.last, let enumIndex = scope.enumIndex else { return }
        let hasStringRawValues = summary.enums[enumIndex].hasStringRawValues
        var k = index + 1
        while isIdentifier(k) {
            let name = text(k)
            var rawValue: String? = hasStringRawValues ? name : nil
            var location = self.location(k)
            if isOperator(k + 1, "=") {
                guard k + 2 < tokens.count else { return }
                if hasStringRawValues {
                    guard tokens[k + 2].kind == .string else { return }
                    rawValue = stringValue(tokens[k + 2])
                    location = self.location(k + 2)
                }
                k += 3
            } else if isPunctuation(k + 1, "(") {
                return  // associated values: not a raw-value case
            } else {
                k += 1
            }
            summary.enums[enumIndex].cases.append(EnumCase(name: name, rawValue: rawValue, location: location))
            guard isPunctuation(k, ",") else { return }
            k += 1
        }
    }

    /// `let name = …`, `static let a = …, b = …`, `var all: Set<String> { [pro, gold] }`.
    mutating func bindings(_ index: Int) {
        // Conditions (`if let`, `guard let`, `case let`) bind values that are not constants.
        // `if let x = …` / `guard let x = …` are kept as locals: they hide a member of the same name.
        if isWord(index - 1, "while") || isWord(index - 1, "case") || isPunctuation(index - 1, "(") {
            return
        }
        let isPrivate = hasPrivateModifier(before: index)
        var k = index + 1
        while isIdentifier(k) {
            let nameIndex = k
            k += 1
            if isPunctuation(k, ":") { k = skipTypeAnnotation(from: k + 1, nameLine: tokens[nameIndex].line) }
            if isOperator(k, "=") {
                let end = swiftExpressionEnd(from: k + 1)
                record(nameIndex, expression: k + 1..<end, isPrivate: isPrivate)
                k = end
                guard isPunctuation(k, ","), isIdentifier(k + 1) else { return }
                k += 1
            } else if isPunctuation(k, "{") {
                computedProperty(nameIndex, open: k, isPrivate: isPrivate)
                return
            } else {
                return
            }
        }
    }

    func hasPrivateModifier(before index: Int) -> Bool {
        var k = index - 1
        // Modifiers are a few words; a bound keeps minified one-line files linear.
        while k >= 0 && k >= index - 8 && tokens[k].line == tokens[index].line {
            if isWord(k, "private") || isWord(k, "fileprivate") {
                return !isPunctuation(k + 1, "(")  // `private(set)` still reads from everywhere
            }
            if !(isIdentifier(k) || isPunctuation(k, "(") || isPunctuation(k, ")")) { return false }
            k -= 1
        }
        return false
    }

    /// Returns the index of the `=` or `{` after a type annotation, or where the annotation ended.
    func skipTypeAnnotation(from start: Int, nameLine: Int) -> Int {
        var depth = 0
        var k = start
        while k < tokens.count {
            if depth == 0 {
                if isOperator(k, "=") || isPunctuation(k, "{") { return k }
                if tokens[k].line > tokens[k - 1].line || isPunctuation(k, ";") || isPunctuation(k, "}") { return k }
            }
            if isPunctuation(k, "(") || isPunctuation(k, "[") {
                depth += 1
            } else if isPunctuation(k, ")") || isPunctuation(k, "]") {
                if depth == 0 { return k }
                depth -= 1
            }
            k += 1
        }
        return k
    }

    /// A computed property: its body is recorded when its scope closes. Property observers are
    /// not values; a view's `body` is not an ID list.
    mutating func computedProperty(_ nameIndex: Int, open: Int, isPrivate: Bool) {
        let start = open + 1
        guard start < tokens.count else { return }
        if isWord(start, "set") || isWord(start, "willSet") || isWord(start, "didSet") { return }
        // A view's `body` is not an ID list: its body is not recorded as a value, but calls in it
        // still run after the statements before them.
        var recordsValue = true
        var k = nameIndex + 1
        while k < open {
            if isWord(k, "some") || isWord(k, "View") || isWord(k, "any") { recordsValue = false }
            k += 1
        }
        pendingProperty = (nameIndex, isPrivate, open, recordsValue)
    }

    /// Records a function's or computed property's body by its token range: it is copied out
    /// only if the resolver asks for it.
    mutating func recordBody(name: String, open: Int, close: Int, isPrivate: Bool, parameters: [Parameter]?) {
        guard close - open <= Self.maxExpressionTokens else { return }
        var definition = Definition(
            name: name, owner: nil, localScope: nil, position: open, isPrivate: isPrivate,
            expression: [], context: context(open + 1))
        definition.body = open + 1..<close
        definition.parameters = parameters
        append(definition)
    }

    /// Adds a definition where it is written: a member of the type around it, or a local of the
    /// block around it.
    mutating func append(_ definition: Definition) {
        var definition = definition
        definition.conditions = conditions
        if let scope = scopes.last {
            if let typePath = scope.typePath {
                definition.owner = typePath
            } else {
                definition.localScope = scope.open..<tokens.count
                scopes[scopes.count - 1].localDefinitions.append(summary.definitions.count)
            }
        }
        summary.definitions.append(definition)
    }

    /// `Store(ids: […])`, `Store.init(ids: […])`: a value of a type whose initializer stores its
    /// parameters; the call's arguments are kept for the resolver.
    mutating func construction(_ index: Int) {
        guard bytes[tokens[index].start] >= 0x41 && bytes[tokens[index].start] <= 0x5A else { return }
        var open = index + 1
        if isPunctuation(open, "."), isWord(open + 1, "init") { open += 2 }
        guard isPunctuation(open, "("), tokens[open].start == tokens[open - 1].end, storingTypes.contains(text(index)),
              !isWord(index - 1, "class"), !isWord(index - 1, "struct"), !isWord(index - 1, "extension") else { return }
        let close = matchingClose(open)
        var arguments: [CallArgument] = []
        for argument in callArguments(open: open, close: close) {
            guard let tokens = snapshot(argument.range) else { return }
            arguments.append(CallArgument(label: argument.label, tokens: tokens))
        }
        summary.constructions.append(Construction(
            type: text(index), arguments: arguments, context: context(index), prefix: functionPrefix(before: index)))
    }

    /// `ids = value` in an initializer, where `ids` is neither a parameter nor a local.
    mutating func bareInitialization(_ index: Int) {
        guard let function = enclosingFunction(), function.name == "init" else { return }
        let name = text(index)
        guard !function.parameters.contains(where: { $0.name == name }) else { return }
        for scope in scopes.reversed() {
            if scope.localDefinitions.contains(where: { summary.definitions[$0].name == name }) { return }
            if scope.function != nil { break }
        }
        initialization(name: index, value: index + 2)
    }

    /// `self.ids = value` in an initializer: one of the values of the type's stored property.
    mutating func initialization(name: Int, value: Int) {
        guard let function = enclosingFunction(), function.name == "init", let owner = typePaths.last else { return }
        let end = swiftExpressionEnd(from: value)
        guard let expression = snapshot(value..<end) else { return }
        var definition = Definition(
            name: text(name), owner: owner, localScope: nil, position: name, isPrivate: false,
            expression: expression, context: context(value))
        definition.isInitialization = true
        if dependsOnParameters(value..<end, function), let type = owner.last {
            definition.isFromParameters = true
            summary.storingTypes.insert(type)
        }
        definition.conditions = conditions
        summary.definitions.append(definition)
    }

    /// `#if`, `#elseif`, `#else`, `#endif`: keeps the branch every definition and call sits in.
    mutating func conditionalCompilation(_ index: Int) {
        if isWord(index, "#endif") {
            _ = conditionStack.popLast()
            return
        }
        let isIf = isWord(index, "#if")
        let isElseIf = isWord(index, "#elseif")
        guard isIf || isElseIf || isWord(index, "#else") else { return }
        var condition = ""
        var k = index + 1
        while k < tokens.count && tokens[k].line == tokens[index].line {
            if !condition.isEmpty && tokens[k].start != tokens[k - 1].end { condition += " " }
            condition += text(k)
            k += 1
        }
        if isIf {
            conditionStack.append([Condition(text: condition, holds: true)])
            return
        }
        guard var branch = conditionStack.popLast() else { return }
        // The branches before this one did not hold.
        if let last = branch.popLast() { branch.append(Condition(text: last.text, holds: !last.holds)) }
        if isElseIf { branch.append(Condition(text: condition, holds: true)) }
        conditionStack.append(branch)
    }

    mutating func record(_ nameIndex: Int, expression range: Range<Int>, isPrivate: Bool) {
        guard let expression = snapshot(range) else { return }
        append(Definition(
            name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: isPrivate,
            expression: expression, context: context(range.lowerBound)))
    }

    /// `Product.PurchaseResult`, `Product.PurchaseOption`: StoreKit 2 in use (the fetch itself is
    /// an entry point).
    mutating func productCall(_ index: Int) {
        guard isPunctuation(index + 1, "."), isWord(index + 2, "PurchaseResult") || isWord(index + 2, "PurchaseOption") else { return }
        noteStoreKit2("Product.\(text(index + 2))", at: index)
    }

    /// `….first?.purchase(`, `…[0].purchase(`: a postfix chain that ends in a purchase.
    func chainPurchases(from start: Int) -> Bool {
        var k = start
        while k < tokens.count {
            if isPunctuation(k, "."), isIdentifier(k + 1) {
                if isWord(k + 1, "purchase") && isPunctuation(k + 2, "(") { return true }
                k += 2
            } else if (isOperator(k, "?") || isOperator(k, "!")) && tokens[k].start == tokens[k - 1].end {
                k += 1
            } else if (isPunctuation(k, "[") || isPunctuation(k, "(")) && tokens[k].start == tokens[k - 1].end {
                k = matchingClose(k) + 1
            } else {
                return false
            }
        }
        return false
    }

    /// `let products = try await Product.products(for: …)` followed, in the same block, by
    /// `products.first?.purchase()` or by a purchase of a name bound from `products`
    /// (`if let product = products.first`, `for product in products`).
    func boundResultIsPurchased(call: Int, close: Int) -> Bool {
        var k = call - 1
        while k > 0 && (isWord(k, "try") || isWord(k, "await") || isOperator(k, "?") || isOperator(k, "!")) { k -= 1 }
        guard isOperator(k, "="), isIdentifier(k - 1), isWord(k - 2, "let") || isWord(k - 2, "var") else { return false }
        var names: Set<String> = [text(k - 1)]
        var depth = 0
        var position = close + 1
        while position < tokens.count {
            if isOpener(position) {
                depth += 1
            } else if isCloser(position) {
                depth -= 1
                if depth < 0 { return false }
            } else if isIdentifier(position) {
                let name = text(position)
                if names.contains(name) {
                    if chainPurchases(from: position + 1) { return true }
                    // `let product = products.first` / `for product in products`: follow one step.
                    if isOperator(position - 1, "=") && isIdentifier(position - 2) {
                        names.insert(text(position - 2))
                    } else if isWord(position - 1, "in") && isIdentifier(position - 2) && isWord(position - 3, "for") {
                        names.insert(text(position - 2))
                    }
                }
            }
            position += 1
        }
        return false
    }

    /// `SKMutablePayment`, `SKPaymentQueue`: StoreKit 1 in use (the requests are entry points).
    mutating func storeKit1Call(_ index: Int) {
        if isWord(index, "SKMutablePayment") {
            mentionsMutablePayment = true
            summary.usesStoreKit1 = true
        }
        if isWord(index, "SKPaymentQueue") { summary.usesStoreKit1 = true }
    }

}
