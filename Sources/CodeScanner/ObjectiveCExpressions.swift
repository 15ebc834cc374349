// MARK: - Objective-C expressions

extension SourceScanner.Resolver {
    mutating func objectiveCExpression(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        guard !cursor.atEnd else { return nil }
        guard nesting < Self.maxNesting else { return nil }
        guard work <= Self.maxWork else {
            fail(Self.workExhausted)
            return nil
        }
        nesting += 1
        defer { nesting -= 1 }
        let token = cursor.current
        switch token.kind {
        case .string:
            // Adjacent literals concatenate: `@"com.x." @"pro"`.
            var value = ""
            var usable = true
            while !cursor.atEnd && cursor.current.kind == .string {
                value += cursor.current.text
                usable = usable && cursor.current.isLiteral
                cursor.advance()
            }
            guard usable else { return nil }
            var first = token
            first.text = value
            return [literalItem(first, context)]
        case .punctuation where token.text == "@":
            if cursor.peek(1)?.text == "[" {
                cursor.advance()
                return list(&cursor, context, closer: "]")
            }
            return nil
        case .punctuation where token.text == "[":
            return message(&cursor, context)
        case .punctuation where token.text == "(":
            cursor.advance()
            // A cast: `(NSSet *)ids`, `(NSArray<NSString *> *)ids`.
            if cursor.current.kind == .identifier, let close = cursor.indexOfClosingParenthesis(),
               close + 1 < cursor.tokens.count, !cursor.isCloser(cursor.tokens[close + 1]), cursor.tokens[close + 1].text != ",",
               cursor.tokens[cursor.position..<close].allSatisfy({ $0.kind == .identifier || $0.kind == .operatorRun || $0.text == "," }) {
                cursor.position = close + 1
                return objectiveCExpression(&cursor, context)
            }
            let items = objectiveCExpression(&cursor, context)
            guard cursor.isPunctuation(")") else { return nil }
            cursor.advance()
            return items
        case .identifier:
            cursor.advance()
            if token.text == "nil" || token.text == "NULL" { return [] }
            return unqualified(token.text, context)
        default:
            return nil
        }
    }

    /// `[NSSet setWithObjects:a, b, nil]`, `[[NSSet alloc] initWithArray:@[…]]`, `[ids allObjects]`.
    mutating func message(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        let end = cursor.closingIndex()
        defer { cursor.position = end + 1 }
        cursor.advance()
        guard !cursor.atEnd else { return nil }
        var className: String?
        var receiver: [Item]?
        if cursor.current.kind == .identifier, Self.objectiveCCollections.contains(cursor.current.text) {
            className = cursor.current.text
            cursor.advance()
        } else if cursor.isPunctuation("["), let name = cursor.peek(1), let selector = cursor.peek(2),
                  selector.text == "alloc" || selector.text == "new", cursor.peek(3)?.text == "]" {
            className = Self.objectiveCCollections.contains(name.text) ? name.text : nil
            cursor.advance(4)
        } else {
            receiver = objectiveCExpression(&cursor, context)
        }
        guard cursor.position < end, cursor.current.kind == .identifier else { return nil }
        let selector = cursor.current.text
        if cursor.peek(1)?.text != ":" {
            // A unary message that keeps the elements.
            guard ["allObjects", "copy", "mutableCopy", "array"].contains(selector), cursor.position + 1 == end else { return nil }
            return receiver
        }
        guard className != nil, Self.objectiveCConstructors.contains(selector) else { return nil }
        var items: [Item] = []
        cursor.advance(2)
        while cursor.position < end {
            let elementStart = cursor.position
            if let element = objectiveCExpression(&cursor, context), cursor.isPunctuation(",") || cursor.position == end {
                items += element
            } else {
                cursor.position = elementStart
                cursor.skipElement(closer: "]")
            }
            if cursor.isPunctuation(",") { cursor.advance() } else if cursor.position < end { return nil }
        }
        guard charge(items.count) else { return nil }
        return Self.unique(items)
    }
}
