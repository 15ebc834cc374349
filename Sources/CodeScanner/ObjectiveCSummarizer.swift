extension SourceScanner.Summarizer {
    // MARK: Objective-C

    mutating func summarizeObjectiveC() {
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .punctuation:
                if bytes[token.start] == 0x7B {
                    scopes.append(Scope(open: index))
                } else if bytes[token.start] == 0x7D {
                    closeScope(index)
                }
            case .directive:
                if isWord(index, "#define") { define(index) }
            case .identifier:
                objectiveCIdentifier(index)
            case .operatorRun:
                if isOperator(index, "=") { objectiveCAssignment(index) }
            default:
                break
            }
            index += 1
        }
        finish()
    }

    /// `#define kPro @"…"`: the value is the rest of the line.
    mutating func define(_ index: Int) {
        let nameIndex = index + 1
        guard isIdentifier(nameIndex), tokens[nameIndex].line == tokens[index].line else { return }
        // A function-like macro (`#define ID(x) …`) is not a constant.
        if isPunctuation(nameIndex + 1, "("), tokens[nameIndex + 1].start == tokens[nameIndex].end { return }
        var end = nameIndex + 1
        while end < tokens.count && tokens[end].line == tokens[index].line { end += 1 }
        if end == nameIndex + 2 { secretLiteral(name: text(nameIndex), literal: nameIndex + 1) }
        guard let expression = snapshot(nameIndex + 1..<end) else { return }
        summary.definitions.append(Definition(
            name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: false,
            expression: expression, context: context(nameIndex)))
    }

    mutating func objectiveCIdentifier(_ index: Int) {
        let first = bytes[tokens[index].start]
        switch first {
        case 0x53:  // S
            if isWord(index, "SKProductsRequest") || isWord(index, "SKPayment") || isWord(index, "SKPaymentQueue") {
                summary.usesStoreKit1 = true
            } else if isWord(index, "SKMutablePayment") {
                summary.usesStoreKit1 = true
                mentionsMutablePayment = true
            }
        case 0x69, 0x70, 0x73:  // i p s
            guard isPunctuation(index + 1, ":") else { return }
            let api: String
            if isWord(index, "initWithProductIdentifiers") {
                api = "-initWithProductIdentifiers:"
            } else if isWord(index, "paymentWithProductIdentifier") {
                api = "+paymentWithProductIdentifier:"
            } else if isWord(index, "setProductIdentifier") {
                let end = objectiveCExpressionEnd(from: index + 2)
                if let argument = snapshot(index + 2..<end) {
                    productIdentifierAssignments.append(CallSite(api: "-setProductIdentifier:", argument: argument, context: context(index), location: location(index)))
                }
                return
            } else {
                return
            }
            summary.usesStoreKit1 = true
            let end = objectiveCExpressionEnd(from: index + 2)
            guard let argument = snapshot(index + 2..<end) else { return }
            summary.calls.append(CallSite(api: api, argument: argument, context: context(index), location: location(index)))
        default:
            break
        }
    }

    /// `NSString *const kPro = @"…";`, `NSSet *ids = [NSSet setWithObjects:…];`,
    /// `payment.productIdentifier = @"…";`.
    mutating func objectiveCAssignment(_ index: Int) {
        let nameIndex = index - 1
        guard isIdentifier(nameIndex) else { return }
        if isPunctuation(nameIndex - 1, ".") {
            guard isWord(nameIndex, "productIdentifier") else { return }
            let end = objectiveCExpressionEnd(from: index + 1)
            if let argument = snapshot(index + 1..<end) {
                productIdentifierAssignments.append(CallSite(api: "SKMutablePayment.productIdentifier", argument: argument, context: context(index), location: location(index)))
            }
            return
        }
        // A declaration: the name follows `*`, `const` or a type name.
        guard isOperator(nameIndex - 1, "*") || isIdentifier(nameIndex - 1) else { return }
        let end = objectiveCExpressionEnd(from: index + 1)
        if end == index + 2 { secretLiteral(name: text(nameIndex), literal: index + 1) }
        guard let expression = snapshot(index + 1..<end) else { return }
        var definition = Definition(
            name: text(nameIndex), owner: nil, localScope: nil, position: nameIndex, isPrivate: false,
            expression: expression, context: context(nameIndex))
        if let scope = scopes.last {
            definition.localScope = scope.open..<tokens.count
            scopes[scopes.count - 1].localDefinitions.append(summary.definitions.count)
        } else {
            // `static` in an implementation file is invisible to other files; in a header it is shared.
            var k = nameIndex - 1
            while k >= 0 && !isPunctuation(k, ";") && !isPunctuation(k, "}") && tokens[k].kind != .directive {
                if isWord(k, "static") { definition.isPrivate = SourceScanner.fileExtension(summary.path) != "h" }
                k -= 1
            }
        }
        summary.definitions.append(definition)
    }
}
