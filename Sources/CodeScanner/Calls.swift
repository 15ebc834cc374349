// MARK: - Calls of the app's functions, and closures

extension SourceScanner {
    /// A closure given to `map`, `filter`, `reduce`: its parameters and body, or a key path.
    struct Closure {
        /// Names the body uses for its arguments (`$0`, `$1` when it names none).
        var parameters: [String] = []
        var body: [ExpressionToken] = []
        /// `\.productID.rawValue` → `["productID", "rawValue"]`.
        var keyPath: [String]?
    }
}

extension SourceScanner.Resolver {
    typealias Closure = SourceScanner.Closure

    /// The app's function `name`, called with `qualifier` (`Store.ids()`, `self.ids()`, `ids()`).
    func functionReference(_ name: String, qualifier: [String], _ context: Context) -> DefinitionReference? {
        guard (definitionsByName[name] ?? []).contains(where: { definition($0).isFunction }) else { return nil }
        var qualifier = qualifier
        if qualifier == ["self"] || qualifier == ["Self"] { qualifier = [] }
        if !qualifier.isEmpty {
            if let reference = member(name, of: qualifier, context, function: true) { return reference }
            // `Store.shared.ids()`: a member of the type the shared instance belongs to.
            if qualifier.count >= 2 { return member(name, of: Array(qualifier.dropLast()), context, function: true) }
            return nil
        }
        let candidates = (definitionsByName[name] ?? []).filter { reference in
            let definition = definition(reference)
            return definition.isFunction && !inProgress.contains(reference) && isActive(definition.conditions) != false
        }
        if let local = candidates.first(where: { reference in
            reference.file == context.file && definition(reference).localScope?.contains(context.position) == true
        }) {
            return local
        }
        for typePath in context.typePaths.reversed() {
            let members = candidates.filter { definition($0).owner.map { $0.hasSuffix(typePath) || typePath.hasSuffix($0) } ?? false }
            if let reference = preferred(members, file: \.file, context) { return reference }
        }
        let globals = candidates.filter { reference in
            let definition = definition(reference)
            return definition.owner == nil && definition.localScope == nil && (reference.file == context.file || !definition.isPrivate)
        }
        return preferred(globals, file: \.file, context)
    }

    /// The arguments of the call whose `(` is at the cursor, as (label, tokens); the cursor moves
    /// past them and past a trailing closure.
    func callArguments(_ cursor: inout Cursor) -> [(label: String?, tokens: [ExpressionToken])] {
        let group = Array(cursor.balancedGroup().dropFirst().dropLast())
        if cursor.isPunctuation("{") { _ = cursor.balancedGroup() }
        var arguments: [(label: String?, tokens: [ExpressionToken])] = []
        var start = 0
        var depth = 0
        for k in 0...group.count {
            if k < group.count {
                let token = group[k]
                if isOpener(token) { depth += 1 } else if isCloser(token) { depth -= 1 }
                guard depth == 0 && token.kind == .punctuation && token.text == "," else { continue }
            }
            var tokens = Array(group[start..<k])
            var label: String?
            if tokens.count > 2, tokens[0].kind == .identifier, tokens[1].kind == .punctuation, tokens[1].text == ":" {
                label = tokens[0].text
                tokens.removeFirst(2)
            }
            if !tokens.isEmpty { arguments.append((label, tokens)) }
            start = k + 1
        }
        return arguments
    }

    /// Binds a call's arguments to a function's parameters: labels in order, unlabeled arguments
    /// to `_` parameters. Nil when the labels do not fit (another function of the same name).
    func bind(
        _ arguments: [(label: String?, tokens: [ExpressionToken])], to parameters: [SourceScanner.Parameter], _ context: Context
    ) -> SourceScanner.Frame? {
        var frame = SourceScanner.Frame()
        var next = 0
        for argument in arguments {
            guard let index = parameters[next...].firstIndex(where: { $0.label == argument.label }) else { return nil }
            let parameter = parameters[index]
            frame.arguments[parameter.name] = SourceScanner.Argument(
                tokens: argument.tokens, context: context, frames: frames, type: parameter.type)
            next = index + 1
        }
        return frame
    }

    /// A call of the app's function: its body run with the call's arguments. Nil (`.none`) when
    /// `name` is not one of the app's functions. Called on `instances` (values of an app type), the
    /// body runs once for each, with `self` as that value.
    mutating func call(
        _ name: String, qualifier: [String], _ cursor: inout Cursor, _ context: Context, on instances: [Item] = []
    ) -> [Item]?? {
        guard cursor.isPunctuation("("), functionReference(name, qualifier: qualifier, context) != nil else { return .none }
        let arguments = callArguments(&cursor)
        // Overloads of the same name and labels: the one whose parameter types fit the arguments.
        let overloads = functionOverloads(name, qualifier: qualifier, context).filter {
            bind(arguments, to: definition($0).parameters ?? [], context) != nil
        }
        guard !overloads.isEmpty else {
            fail("the call of `\(name)(…)` does not match its declaration")
            return .some(nil)
        }
        let chosen = choose(overloads, arguments, context)
        var results: [Item] = []
        var followed = false
        for reference in chosen {
            for instance in instances.isEmpty ? [nil] : instances.map(Optional.some) {
                guard let value = run(reference, arguments, context, on: instance) else { continue }
                followed = true
                results += value
            }
        }
        return .some(followed ? Self.unique(results) : nil)
    }

    /// Runs a function's body with `arguments` bound to its parameters.
    mutating func run(_ reference: DefinitionReference, _ arguments: [(label: String?, tokens: [ExpressionToken])], _ context: Context, on instance: Item?) -> [Item]? {
        let function = definition(reference)
        guard charge(1), var frame = bind(arguments, to: function.parameters ?? [], context) else { return nil }
        guard inProgress.insert(reference).inserted else { return nil }
        defer { inProgress.remove(reference) }
        guard let body = bodyTokens(reference) else { return nil }
        let savedHint = typeHint
        let savedSelf = selfBinding
        typeHint = nil
        if let instance { selfBinding = instance }
        if function.name == "init" { frame.fields = [:] }
        let value: [Item]?
        if function.name == "init" {
            // An initializer's value is the fields it sets.
            value = runBody(body, function.context, frame: frame).map { after in
                [.instance(type: function.owner?.last ?? "", fields: after.fields ?? [:])]
            }
        } else {
            value = evaluateBody(body, function.context, frame: frame)
        }
        typeHint = savedHint
        selfBinding = savedSelf
        return value.map { items in
            items.map { item in
                if case .literal(let value, let location, nil) = item {
                    return .literal(value: value, location: location, via: function.displayName + "()")
                }
                return item
            }
        }
    }

    /// Every function `name` the call could mean, in the order `functionReference` prefers.
    func functionOverloads(_ name: String, qualifier: [String], _ context: Context) -> [DefinitionReference] {
        guard let first = functionReference(name, qualifier: qualifier, context) else { return [] }
        let owner = definition(first).owner
        let scope = definition(first).localScope?.lowerBound
        return [first] + (definitionsByName[name] ?? []).filter { reference in
            let definition = definition(reference)
            return reference != first && definition.isFunction && definition.owner == owner
                && definition.localScope?.lowerBound == scope && !inProgress.contains(reference)
                && isActive(definition.conditions) != false
        }
    }

    /// The overload whose parameter types match what the arguments are: enum cases of a named
    /// enum, or strings. Every overload when the arguments do not tell: any may be the one called.
    mutating func choose(_ overloads: [DefinitionReference], _ arguments: [(label: String?, tokens: [ExpressionToken])], _ context: Context) -> [DefinitionReference] {
        guard overloads.count > 1, let first = arguments.first else { return overloads }
        let failedBefore = failure
        let droppedBefore = dropped
        let values = evaluate(first.tokens, context) ?? []
        failure = failedBefore
        dropped = droppedBefore
        var typeName: String?
        if case .enumCase(let reference, _)? = values.first { typeName = stringEnum(reference).path.last }
        if case .literal? = values.first { typeName = "String" }
        guard let typeName else { return overloads }
        let matching = overloads.filter { reference in
            let parameters = definition(reference).parameters ?? []
            return parameters.first(where: { $0.label == first.label })?.type == typeName
        }
        return matching.isEmpty ? overloads : matching
    }

    // MARK: Closures

    /// `(\.rawValue)`, `(\Tip.productID)`, `{ $0.rawValue }`, `({ tier in tier.productID })`,
    /// `{ (key, value) in key }`.
    func parseClosure(_ cursor: inout Cursor) -> Closure? {
        guard cursor.isPunctuation("(") || cursor.isPunctuation("{") else { return nil }
        var inner = Array(cursor.balancedGroup())
        if inner.first?.text == "(" {
            inner = Array(inner.dropFirst().dropLast())
            // `map(transform:)` style labels are not used by the standard library's `map`.
            if inner.first?.text.hasPrefix("\\") == true {
                let path = inner.filter { $0.kind == .identifier }.map(\.text)
                // `\.a.b` has only members; `\Type.a.b` starts with the type.
                let members = inner.count > 1 && inner[1].text == "." ? path : Array(path.dropFirst())
                return Closure(keyPath: members)
            }
            guard inner.first?.text == "{", inner.last?.text == "}" else { return nil }
        }
        var body = Array(inner.dropFirst().dropLast())
        var parameters: [String] = []
        if let inIndex = body.prefix(12).firstIndex(where: { $0.kind == .identifier && $0.text == "in" }),
           body[..<inIndex].allSatisfy({ $0.kind == .identifier || $0.text == "," || $0.text == "(" || $0.text == ")" || $0.text == ":" }) {
            parameters = body[..<inIndex].filter { $0.kind == .identifier }.map(\.text)
            body.removeFirst(inIndex + 1)
        }
        return Closure(parameters: parameters, body: body)
    }

    /// The closure's value for `arguments` (one list of values per parameter).
    mutating func apply(_ closure: Closure, _ arguments: [[Item]], _ context: Context) -> [Item]? {
        if let keyPath = closure.keyPath {
            guard let first = arguments.first else { return nil }
            return applyMembers(first, keyPath[...], context)
        }
        var frame = frames.last ?? SourceScanner.Frame()
        for (index, values) in arguments.enumerated() {
            let name = index < closure.parameters.count ? closure.parameters[index] : "$\(index)"
            frame.values[name] = .some(values)
            if index == 0 && closure.parameters.count > arguments.count {
                // `{ (key, value) in … }` over a dictionary's entries.
                frame.values[closure.parameters[0]] = .some(keys(values))
                frame.values[closure.parameters[1]] = .some(self.values(values))
            }
        }
        return evaluateBody(closure.body, context, frame: frame)
    }

    /// `map`, `compactMap`, `flatMap`: the closure's values for each element.
    mutating func map(_ items: [Item], _ closure: Closure, _ context: Context) -> [Item]? {
        // Objects' entries (`Object.values(PLANS)`) are one flat list: the closure reads each
        // object's property from all of them at once (`plan => plan.ios`).
        if !items.isEmpty, items.allSatisfy({ if case .entry = $0 { return true } else { return false } }) {
            guard let value = apply(closure, [items], context) else { return nil }
            isList = true
            return Self.unique(value)
        }
        var results: [Item] = []
        for item in items {
            guard let value = apply(closure, [[item]], context) else { return nil }
            guard charge(value.count) else { return nil }
            results += value
        }
        isList = true
        return Self.unique(results)
    }

    /// `filter`: the elements the condition keeps. Only conditions that compare the element
    /// with known strings are followed (`$0 != "x"`, `!$0.hasPrefix("x")`, `$0.isEmpty`).
    mutating func filter(_ items: [Item], _ closure: Closure, _ context: Context) -> [Item]? {
        guard closure.keyPath == nil else { return nil }
        var kept: [Item] = []
        for item in items {
            guard let value = literal(item)?.value else { return nil }
            var frame = frames.last ?? SourceScanner.Frame()
            frame.values[closure.parameters.first ?? "$0"] = .some([item])
            frames.append(frame)
            let keeps = predicate(closure.body[...], context, element: value, name: closure.parameters.first ?? "$0")
            frames.removeLast()
            guard let keeps else { return nil }
            if keeps { kept.append(item) }
        }
        isList = true
        return kept
    }

    /// A condition on one string element: `!`, `&&`, `||`, `==`, `!=`, `.isEmpty`, `.hasPrefix(…)`,
    /// `.hasSuffix(…)`, `.contains(…)`, `list.contains(element)`. Nil when it says something else.
    mutating func predicate(_ tokens: ArraySlice<ExpressionToken>, _ context: Context, element: String, name: String) -> Bool? {
        var tokens = tokens
        if tokens.first?.text == "return" { tokens.removeFirst() }
        guard !tokens.isEmpty, tokens.count <= 64 else { return nil }
        // Split at the loosest operator at depth 0: `||`, then `&&`.
        for symbol in ["||", "&&"] {
            var depth = 0
            for k in tokens.indices {
                let token = tokens[k]
                if isOpener(token) { depth += 1 } else if isCloser(token) { depth -= 1 }
                if depth == 0 && token.kind == .operatorRun && token.text == symbol {
                    guard let left = predicate(tokens[..<k], context, element: element, name: name),
                          let right = predicate(tokens[(k + 1)...], context, element: element, name: name) else { return nil }
                    return symbol == "||" ? left || right : left && right
                }
            }
        }
        if tokens.first?.kind == .operatorRun && tokens.first?.text == "!" {
            return predicate(tokens.dropFirst(), context, element: element, name: name).map { !$0 }
        }
        if tokens.first?.text == "(" && tokens.last?.text == ")" {
            return predicate(tokens.dropFirst().dropLast(), context, element: element, name: name)
        }
        for symbol in ["==", "!="] {
            if let k = tokens.firstIndex(where: { $0.kind == .operatorRun && $0.text == symbol }) {
                let left = tokens[..<k]
                let right = tokens[(k + 1)...]
                let other = left.count == 1 && left.first?.text == name ? right : left
                guard let values = evaluate(Array(other), context), values.count == 1, let value = literal(values[0])?.value else { return nil }
                return (value == element) == (symbol == "==")
            }
        }
        let texts = tokens.map(\.text)
        if texts == [name, ".", "isEmpty"] { return element.isEmpty }
        if texts.count >= 5, texts[0] == name, texts[1] == ".", texts[3] == "(", texts.last == ")" {
            guard let values = evaluate(Array(tokens.dropFirst(4).dropLast()), context), values.count == 1,
                  let argument = literal(values[0])?.value else { return nil }
            switch texts[2] {
            case "hasPrefix": return element.hasPrefix(argument)
            case "hasSuffix": return element.hasSuffix(argument)
            case "contains": return element.contains(argument)
            default: return nil
            }
        }
        // `excluded.contains($0)`
        if texts.count >= 5, texts[texts.count - 4] == "contains", texts[texts.count - 2] == name, texts.last == ")" {
            guard let list = evaluate(Array(tokens.dropLast(5)), context) else { return nil }
            return list.contains { literal($0)?.value == element }
        }
        return nil
    }

    /// `reduce(into: Set<String>()) { $0.insert($1.rawValue) }`, `reduce([]) { $0 + [$1.id] }`.
    mutating func reduce(_ items: [Item], _ cursor: inout Cursor, _ context: Context) -> [Item]? {
        guard cursor.isPunctuation("(") else { return nil }
        var group = Array(cursor.balancedGroup().dropFirst().dropLast())
        let into = group.first?.text == "into" && group.count > 1 && group[1].text == ":"
        if into { group.removeFirst(2) }
        // The initial value, then the closure: a second argument or a trailing closure.
        var depth = 0
        var comma: Int?
        for k in group.indices {
            if isOpener(group[k]) { depth += 1 } else if isCloser(group[k]) { depth -= 1 }
            if depth == 0 && group[k].text == "," {
                comma = k
                break
            }
        }
        let initial = Array(group[..<(comma ?? group.count)])
        var closure: Closure?
        if let comma {
            var rest = Cursor(tokens: Array(group[(comma + 1)...]))
            closure = parseClosure(&rest)
        } else {
            closure = parseClosure(&cursor)
        }
        guard let closure, closure.keyPath == nil, var accumulated = evaluate(initial, context) else {
            fail("the `reduce` is not one iapdoctor can follow")
            return nil
        }
        let accumulator = closure.parameters.first ?? "$0"
        for item in items {
            var frame = frames.last ?? SourceScanner.Frame()
            frame.values[accumulator] = .some(accumulated)
            frame.lists.insert(accumulator)
            frame.values[closure.parameters.count > 1 ? closure.parameters[1] : "$1"] = .some([item])
            if into {
                guard let after = runBody(closure.body, context, frame: frame), let value = after.values[accumulator], let value else {
                    fail("the `reduce` closure changes the result in a way iapdoctor cannot follow")
                    return nil
                }
                accumulated = value
            } else {
                guard let value = evaluateBody(closure.body, context, frame: frame) else { return nil }
                accumulated = value
            }
            guard charge(accumulated.count) else { return nil }
        }
        isList = true
        return Self.unique(accumulated)
    }
}
