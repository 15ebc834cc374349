// MARK: - Call sites, wrappers and stored initializer parameters

extension SourceScanner.Resolver {
    typealias CallSite = SourceScanner.CallSite
    typealias CallArgument = SourceScanner.CallArgument
    typealias WrapperFunction = SourceScanner.WrapperFunction
    typealias Definition = SourceScanner.Definition

    /// Whether a call's `#if` branches can be the ones built.
    func isActiveCall(_ call: CallSite) -> Bool? { isActive(call.context.conditions) }

    /// Whether the `if`s around a call let the iOS app make it, their conditions seeing the
    /// locals the statements before the call set.
    mutating func callRuns(_ call: CallSite, file: Int) -> Bool {
        guard files[file].branches.contains(where: { $0.range.contains(call.context.position) }) else { return true }
        return atCall(call, file: file) { $0.branchesRun(at: call.context.position, file: file, $1) }
    }

    /// A call site's IDs: its argument, after the statements before it in its function; for a
    /// wrapper's call site, the wrapper's argument to StoreKit with the call's arguments.
    mutating func evaluateCall(_ call: CallSite, file: Int) -> [Item]? {
        atCall(call, file: file) { resolver, context in
            guard let display = call.wrapper else { return resolver.evaluate(call.argument, context) }
            return resolver.evaluateWrapper(display, arguments: call.arguments, context: context, depth: 0)
        }
    }

    /// Runs `body` where the call is: the statements before it in its function have set their
    /// locals; they are gone afterwards.
    mutating func atCall<Value>(_ call: CallSite, file: Int, _ body: (inout Self, Context) -> Value) -> Value {
        var context = call.context
        context.file = file
        frames = []
        defer { frames = [] }
        if let prefix = call.prefix, let tokens = tokens(file: file, range: prefix) {
            frames = [SourceScanner.Frame()]
            runPrefix(tokens, context)
        }
        return body(&self, context)
    }

    /// A wrapper no call of which was found: what its argument to StoreKit gives with its
    /// parameters unknown (a literal it adds itself is still requested).
    mutating func evaluateUncalled(_ wrapper: WrapperFunction, file: Int) -> [Item]? {
        var frame = SourceScanner.Frame()
        for parameter in wrapper.parameters {
            frame.values[parameter.name] = .some(nil)
            frame.reasons[parameter.name] = "`\(parameter.name)` is a parameter of `\(wrapper.display)`, and no call of it with values iapdoctor can follow was found"
        }
        var context = wrapper.context
        context.file = file
        frames = [frame]
        defer { frames = [] }
        if let prefix = wrapper.prefix, let tokens = tokens(file: file, range: prefix) { runPrefix(tokens, context) }
        switch wrapper.body {
        case .entry(let argument): return evaluate(argument, context)
        case .wrapper(let inner, let arguments): return evaluateWrapper(inner, arguments: arguments, context: context, depth: 1)
        }
    }

    /// A wrapper called with `arguments` (written in `context`, seeing the current locals).
    /// Wrappers of the same name in several types are each followed.
    mutating func evaluateWrapper(_ display: String, arguments: [CallArgument], context: Context, depth: Int) -> [Item]? {
        guard depth <= SourceScanner.maxWrapperDepth, let candidates = wrappersByDisplay[display] else {
            fail("`\(display)` hands the IDs on through more functions than iapdoctor follows")
            return nil
        }
        var items: [Item] = []
        var followed = false
        var list = false
        for (file, wrapper) in candidates {
            guard let frame = bind(arguments.map { ($0.label, $0.tokens) }, to: wrapper.parameters, context) else { continue }
            var wrapperContext = wrapper.context
            wrapperContext.file = file
            let saved = frames
            frames = [frame]
            if let prefix = wrapper.prefix, let tokens = tokens(file: file, range: prefix) { runPrefix(tokens, wrapperContext) }
            let value: [Item]?
            switch wrapper.body {
            case .entry(let argument): value = evaluate(argument, wrapperContext)
            case .wrapper(let inner, let innerArguments):
                value = evaluateWrapper(inner, arguments: innerArguments, context: wrapperContext, depth: depth + 1)
            }
            frames = saved
            if let value {
                followed = true
                list = list || isList
                items += value
            }
        }
        isList = list
        return followed ? Self.unique(items) : nil
    }

    func hasInitializations(_ definition: Definition) -> Bool {
        guard definition.owner != nil, !definition.isFunction else { return false }
        return (definitionsByName[definition.name] ?? []).contains { self.definition($0).isInitialization && self.definition($0).owner == definition.owner }
    }

    /// A stored property's values: its initial value and every value an initializer gives it; one
    /// an initializer takes from its parameters is what the calls that make one pass.
    mutating func evaluateInitializations(of chosen: Definition) -> [Item]? {
        let all = (definitionsByName[chosen.name] ?? []).filter { reference in
            let definition = definition(reference)
            return definition.owner == chosen.owner && !definition.isFunction && !inProgress.contains(reference)
                && isActive(definition.conditions) != false
        }
        return union(all) { resolver, reference in
            let definition = resolver.definition(reference)
            guard definition.isFromParameters, let type = definition.owner?.last else { return resolver.evaluateDefinition(reference) }
            let value = resolver.evaluateThroughConstructions(type, field: definition.name)
            resolver.isList = true
            return value
        }
    }

    /// A field an initializer sets from its parameters: what it is in every value of the type
    /// the sources make (`Store(ids: […])`).
    mutating func evaluateThroughConstructions(_ type: String, field: String) -> [Item]? {
        guard let constructions = constructionsByType[type], !constructions.isEmpty else {
            fail("`\(type).\(field)` is set from the initializer's parameters, and no call that makes a `\(type)` with values iapdoctor can follow was found")
            return nil
        }
        var items: [Item] = []
        var followed = false
        let savedFrames = frames
        for (file, construction) in constructions.prefix(64) {
            var context = construction.context
            context.file = file
            frames = [SourceScanner.Frame()]
            if let prefix = construction.prefix, let tokens = tokens(file: file, range: prefix) { runPrefix(tokens, context) }
            let arguments = construction.arguments.map { ($0.label, $0.tokens) }
            guard let made = construct(construction.type, arguments: arguments, context) else { continue }
            for item in made {
                if case .instance(_, let fields) = item, let values = fields[field] {
                    followed = true
                    items += values
                }
            }
        }
        frames = savedFrames
        return followed ? Self.unique(items) : nil
    }
}
