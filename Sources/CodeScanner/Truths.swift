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
}
