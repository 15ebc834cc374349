// MARK: - Collection literals and initializers

extension SourceScanner.Resolver {
    /// `Set([…])`, `Set<String>([…])`, `Set(arrayLiteral: a, b)`, `NSSet(array: […])`, `Array(ids)`.
    mutating func collectionInitializer(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        cursor.advance()
        if cursor.current.text.first == "<" {
            var depth = 0
            while !cursor.atEnd {
                let text = cursor.current.text
                if cursor.current.kind == .operatorRun {
                    depth += text.filter { $0 == "<" }.count - text.filter { $0 == ">" }.count
                }
                cursor.advance()
                if depth <= 0 { break }
            }
        }
        guard cursor.isPunctuation("(") else { return nil }
        if cursor.peek(1)?.text == ")" {
            cursor.advance(2)
            return []
        }
        if let label = cursor.peek(1), label.kind == .identifier, cursor.peek(2)?.text == ":" {
            switch label.text {
            case "arrayLiteral":
                cursor.advance(2)
                return list(&cursor, context, closer: ")")
            case "array", "set", "contentsOfFile", "contentsOf":
                // A file's contents stand for themselves: the path evaluates to what it holds.
                cursor.advance(2)
            default:
                return nil
            }
        }
        cursor.advance()
        let items = context.language == .objectiveC ? objectiveCExpression(&cursor, context) : swiftExpression(&cursor, context)
        guard cursor.isPunctuation(")") else { return nil }
        cursor.advance()
        return items
    }

    /// An array or set literal (the cursor is on its opening bracket). Elements that are not
    /// understood are dropped and counted; a dictionary literal is not a list of IDs.
    mutating func list(_ cursor: inout Cursor, _ context: Context, closer: String) -> [Item]? {
        let open = cursor.position
        let failedBefore = failure
        cursor.advance()
        var items: [Item] = []
        if closer == "]" && context.language != .objectiveC && cursor.isPunctuation(":") {
            cursor.position = open
            return dictionary(&cursor, context)
        }
        while !cursor.atEnd && !cursor.isPunctuation(closer) {
            let start = cursor.position
            let element = context.language == .objectiveC ? objectiveCExpression(&cursor, context) : swiftExpression(&cursor, context)
            if cursor.isPunctuation(":") && closer == "]" {
                guard start == open + 1, context.language != .objectiveC else { return nil }
                failure = failedBefore
                cursor.position = open
                return dictionary(&cursor, context)
            }
            if let element, cursor.isPunctuation(",") || cursor.isPunctuation(closer) {
                items += element
            } else {
                cursor.position = start
                cursor.skipElement(closer: closer)
                // Stopped at a bracket that does not close this list: not a list after all.
                guard cursor.isPunctuation(",") || cursor.isPunctuation(closer) else { return nil }
                dropped += 1
            }
            if cursor.isPunctuation(",") { cursor.advance() }
        }
        guard cursor.isPunctuation(closer) else { return nil }
        cursor.advance()
        guard charge(items.count) else { return nil }
        return Self.unique(items)
    }

    /// A dictionary literal (the cursor is on its `[`): one entry per key.
    mutating func dictionary(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        cursor.advance()
        if cursor.isPunctuation(":") && cursor.peek(1)?.text == "]" {
            cursor.advance(2)
            return []
        }
        let entries = dictionaryEntries(&cursor, context, closer: "]")
        isList = true
        return entries
    }

    /// The entries of a dictionary literal, Swift's `[k: v]` or Objective-C's `@{k: v}` (the
    /// cursor is after its opening bracket). A key that is not understood is dropped and counted;
    /// a value that is not a string is kept as nil.
    mutating func dictionaryEntries(_ cursor: inout Cursor, _ context: Context, closer: String) -> [Item]? {
        func element(_ cursor: inout Cursor) -> [Item]? {
            context.language == .objectiveC ? objectiveCExpression(&cursor, context) : swiftExpression(&cursor, context)
        }
        var entries: [Item] = []
        while !cursor.atEnd && !cursor.isPunctuation(closer) {
            let start = cursor.position
            let key: [Item]?
            if cursor.current.kind == .number, cursor.peek(1)?.text == ":" {
                // A number key (Dart's `{200: '200_coins'}`): its digits, so the value counts.
                key = [literalItem(cursor.current, context)]
                cursor.advance()
            } else {
                key = element(&cursor)
            }
            guard cursor.isPunctuation(":") else {
                cursor.position = start
                cursor.skipElement(closer: closer)
                guard cursor.isPunctuation(",") || cursor.isPunctuation(closer) else { return nil }
                dropped += 1
                if cursor.isPunctuation(",") { cursor.advance() }
                continue
            }
            cursor.advance()
            let valueStart = cursor.position
            let saved = (failure, dropped)
            var value = element(&cursor)
            if value == nil || !(cursor.isPunctuation(",") || cursor.isPunctuation(closer)) {
                // The value is not a string (a model, a number): the key still counts.
                (failure, dropped) = saved
                value = nil
                cursor.position = valueStart
                cursor.skipElement(closer: closer)
                guard cursor.isPunctuation(",") || cursor.isPunctuation(closer) else { return nil }
            }
            if let key {
                entries += Self.entries(keys: key, values: value)
            } else {
                dropped += 1
            }
            if cursor.isPunctuation(",") { cursor.advance() }
        }
        guard cursor.isPunctuation(closer) else { return nil }
        cursor.advance()
        guard charge(entries.count) else { return nil }
        return Self.unique(entries)
    }
}
