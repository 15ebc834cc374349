extension SourceScanner.Resolver {
    /// The values a RevenueCat key or offering call site is given: one reference per value the
    /// code can give it (a key chosen by platform gives each platform's), or one without a value
    /// when the code's value is not known here.
    mutating func revenueCatReferences(_ call: CallSite, file: Int, api: String, written: String) -> [RevenueCatReference] {
        let kind: RevenueCatReference.Kind = call.kind == .revenueCatKey ? .apiKey : .offering
        failure = nil
        dropped = 0
        unmetered = call.wrapper == nil && !call.argument.contains { $0.kind == .identifier || ($0.kind == .string && !$0.isLiteral) }
        let evaluated = evaluateCall(call, file: file) ?? []
        unmetered = false
        let literals = evaluated.compactMap { literal($0) }
        let debugOnly = Self.debugOnly(call.context.conditions)
        guard !literals.isEmpty else {
            return [RevenueCatReference(kind: kind, value: nil, location: call.location, api: api, call: call.location, written: written, debugOnly: debugOnly)]
        }
        return literals.map {
            RevenueCatReference(kind: kind, value: $0.value, location: $0.location, api: api, call: call.location, written: written, debugOnly: debugOnly)
        }
    }

    /// Whether the `#if`s around a call compile it only in Debug builds (`#if DEBUG`), only in
    /// the others (`#else`, `#if !DEBUG`), or in both (nil): the `DEBUG` flag Xcode's Debug
    /// configuration sets, and the C# symbol of the same name.
    static func debugOnly(_ conditions: [SourceScanner.Condition]) -> Bool? {
        for condition in conditions.reversed() {
            let text = condition.text.filter { $0 != " " && $0 != "\t" }
            if text == "DEBUG" || text == "defined(DEBUG)" { return condition.holds }
            if text == "!DEBUG" || text == "!defined(DEBUG)" { return !condition.holds }
        }
        return nil
    }
}
