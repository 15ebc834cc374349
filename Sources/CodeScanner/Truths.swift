// MARK: - Truths

extension SourceScanner.Resolver {
    /// The truth an expression's value is, when it is exactly one (`true`, a platform test the
    /// language's reader decided, a name or getter holding one); nil otherwise.
    static func truth(_ items: [Item]?) -> Bool? {
        guard let items, items.count == 1, case .truth(let value) = items[0] else { return nil }
        return value
    }

    /// `a || b` of truths: true when either is, false when both are known and false; nil when
    /// neither operand is a truth (the operator is then JavaScript's alternatives).
    static func disjunction(_ left: [Item]?, _ right: [Item]?) -> Bool?? {
        let (one, other) = (truth(left), truth(right))
        guard one != nil || other != nil else { return nil }
        if one == true || other == true { return .some(true) }
        if one == false && other == false { return .some(false) }
        return .some(nil)
    }

    /// Operands joined by `??`, or by `||` (JavaScript's alternatives and every language's
    /// disjunction): either value, or, when the operands are truths, their disjunction.
    mutating func alternatives(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        let failedBefore = failure
        var items = conjunction(&cursor, context)
        var list = isList
        if items == nil { skipOperand(&cursor) }
        while cursor.isOperator("??") || cursor.isOperator("||") {
            cursor.advance()
            // `?? ""` (JavaScript's `|| ''` too): the "no value" default names no product.
            if !cursor.atEnd, cursor.current.kind == .string, cursor.current.text.isEmpty,
               cursor.peek(1).map({ $0.kind != .operatorRun || $0.text == "??" || $0.text == "||" }) ?? true {
                cursor.advance()
                continue
            }
            let right = conjunction(&cursor, context)
            if right == nil { skipOperand(&cursor) }
            if let truth = Self.disjunction(items, right) {
                list = false
                if let truth {
                    failure = failedBefore
                    items = [.truth(truth)]
                } else {
                    items = nil
                    fail("the condition is not one iapdoctor can tell")
                }
                continue
            }
            list = list || isList
            items = either(items, right)
        }
        isList = list
        return items
    }

    /// Operands joined by `&&`: a truth when both are known or either is false.
    mutating func conjunction(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        var items = equality(&cursor, context)
        guard cursor.isOperator("&&") else { return items }
        if items == nil { skipOperand(&cursor) }
        while cursor.isOperator("&&") {
            cursor.advance()
            let right = equality(&cursor, context)
            if right == nil { skipOperand(&cursor) }
            let left = Self.truth(items)
            let other = Self.truth(right)
            items = left == false || other == false ? [.truth(false)] : (left == true && other == true ? [.truth(true)] : nil)
        }
        isList = false
        if items == nil { fail("the condition is not one iapdoctor can tell") }
        return items
    }

    static let equalities: Set<String> = ["==", "===", "!=", "!=="]

    /// `a == b` (`===`, `!=`, `!==`): a truth when each side is exactly one known string
    /// (`platform === 'android'` with `const platform = Platform.OS`); unknown otherwise.
    mutating func equality(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        let items = additive(&cursor, context)
        guard items != nil, !cursor.atEnd, cursor.current.kind == .operatorRun, Self.equalities.contains(cursor.current.text) else { return items }
        let equal = cursor.current.text.hasPrefix("=")
        cursor.advance()
        let right = additive(&cursor, context)
        if right == nil { skipOperand(&cursor) }
        isList = false
        guard let left = items, left.count == 1, let one = literal(left[0]),
              let right, right.count == 1, let other = literal(right[0])
        else {
            fail("the comparison is not one iapdoctor can tell")
            return nil
        }
        return [.truth((one.value == other.value) == equal)]
    }
}
