// MARK: - Objective-C expressions

extension SourceScanner.Resolver {
    static let objectiveCDictionaries: Set<String> = ["NSDictionary", "NSMutableDictionary"]
    /// Messages to a collection class that make an empty one, to be filled by `addObject:`.
    static let objectiveCEmptyConstructors: Set<String> = ["set", "array", "orderedSet", "dictionary", "new", "init"]
    static let objectiveCCapacityConstructors: Set<String> = [
        "setWithCapacity:", "arrayWithCapacity:", "orderedSetWithCapacity:", "dictionaryWithCapacity:", "initWithCapacity:",
    ]
    /// Constructors taking a `nil`-terminated list of elements.
    static let objectiveCVariadicConstructors: Set<String> = [
        "setWithObjects:", "arrayWithObjects:", "orderedSetWithObjects:", "initWithObjects:",
    ]
    /// Constructors and messages whose result holds the elements of their one argument.
    static let objectiveCCopyingConstructors: Set<String> = [
        "setWithObject:", "setWithArray:", "setWithSet:", "arrayWithObject:", "arrayWithArray:", "orderedSetWithObject:",
        "orderedSetWithArray:", "orderedSetWithSet:", "initWithArray:", "initWithSet:", "initWithOrderedSet:",
        "initWithArray:copyItems:", "initWithSet:copyItems:", "dictionaryWithDictionary:", "initWithDictionary:",
    ]
    /// Messages to a collection whose result is the receiver's elements and the argument's.
    static let objectiveCAddingMessages: Set<String> = [
        "arrayByAddingObject:", "arrayByAddingObjectsFromArray:", "setByAddingObject:", "setByAddingObjectsFromArray:",
        "setByAddingObjectsFromSet:",
    ]

    /// A value: operands written side by side are one string, as the compiler joins adjacent
    /// literals, also once macros are expanded (`kPrefix @"pro"`).
    mutating func objectiveCExpression(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        guard !cursor.atEnd, enterExpression() else { return nil }
        defer { nesting -= 1 }
        if let question = objectiveCTernaryQuestion(cursor) { return objectiveCTernary(&cursor, question, context) }
        let first = cursor.current
        guard let items = objectiveCOperand(&cursor, context) else { return nil }
        var pieces = [items]
        // Located at the first literal written here, so that `#define kPro kPrefix @"pro"` points at kPro.
        var location: Item? = first.kind == .string ? literalItem(first, context) : nil
        while objectiveCAdjacentString(cursor), pieces.allSatisfy({ $0.allSatisfy { if case .literal = $0 { true } else { false } } }) {
            let start = cursor.position
            let saved = (failure, dropped)
            let token = cursor.current
            guard let next = objectiveCOperand(&cursor, context), !next.isEmpty else {
                // Not a string after all (`[kIDs count]` where `count` is also a constant's name).
                cursor.position = start
                (failure, dropped) = saved
                break
            }
            if location == nil && token.kind == .string { location = literalItem(token, context) }
            pieces.append(next)
        }
        guard pieces.count > 1 else { return items }
        guard let at = location.flatMap({ literal($0)?.location }) else { return concatenate(pieces) }
        return concatenate(pieces, at: at)?.map { item in
            guard case .literal(let value, let location, _) = item else { return item }
            return .literal(value: value, location: location, via: nil)
        }
    }

    /// The `?` of a conditional expression starting at the cursor, if it has one at this depth.
    func objectiveCTernaryQuestion(_ cursor: Cursor) -> Int? {
        var depth = 0
        var k = cursor.position
        while k < cursor.tokens.count {
            let token = cursor.tokens[k]
            if token.kind == .operatorRun && token.text == "?" && depth == 0 { return k }
            if token.kind == .punctuation {
                if ["(", "[", "{"].contains(token.text) {
                    depth += 1
                } else if [")", "]", "}"].contains(token.text) {
                    if depth == 0 { return nil }
                    depth -= 1
                } else if depth == 0 && [",", ";", ":"].contains(token.text) {
                    return nil
                }
            }
            k += 1
        }
        return nil
    }

    /// `isPro ? kProID : kBasicID`: either branch is a possible value; the condition is not
    /// evaluated. A branch that cannot be followed is dropped and counted.
    mutating func objectiveCTernary(_ cursor: inout Cursor, _ question: Int, _ context: Context) -> [Item]? {
        let start = cursor.position
        cursor.position = question + 1
        var branches: [[Item]?] = []
        if cursor.isPunctuation(":") {
            // `value ?: fallback`: the value itself is the first branch.
            guard start < question else { return nil }
            var condition = Cursor(tokens: Array(cursor.tokens[start..<question]))
            branches.append(objectiveCExpression(&condition, context).flatMap { condition.atEnd ? $0 : nil })
        } else {
            branches.append(objectiveCExpression(&cursor, context))
            guard cursor.isPunctuation(":") else { return nil }
        }
        cursor.advance()
        branches.append(objectiveCExpression(&cursor, context))
        let followed = branches.compactMap { $0 }
        guard !followed.isEmpty else { return nil }
        dropped += branches.count - followed.count
        return Self.unique(followed.flatMap { $0 })
    }

    /// A string literal, or a macro or constant (not a selector part `name:`) written next to one.
    func objectiveCAdjacentString(_ cursor: Cursor) -> Bool {
        guard !cursor.atEnd else { return false }
        if cursor.current.kind == .string { return true }
        guard cursor.current.kind == .identifier, cursor.peek(1)?.text != ":" else { return false }
        return (definitionsByName[cursor.current.text] ?? []).contains {
            definition($0).owner == nil && definition($0).localScope == nil
        }
    }

    /// A primary and its dot-syntax members: `tips.allKeys`, `self.products.allValues`.
    mutating func objectiveCOperand(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        let start = cursor.position
        guard var items = objectiveCPrimary(&cursor, context) else { return nil }
        while cursor.isPunctuation("."), let member = cursor.peek(1), member.kind == .identifier {
            cursor.advance(2)
            guard let kept = objectiveCElements(items, keptBy: member.text) else {
                fail("`\(Self.written(Array(cursor.tokens[start..<cursor.position])))` is not a value iapdoctor can follow")
                return nil
            }
            items = kept
        }
        return items
    }

    /// What a message or property without arguments keeps of a collection's elements.
    func objectiveCElements(_ items: [Item], keptBy selector: String) -> [Item]? {
        switch selector {
        case "allKeys": keys(items)
        case "allValues": values(items)
        case "allObjects", "copy", "mutableCopy", "array", "set": items
        default: nil
        }
    }

    mutating func objectiveCPrimary(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        let token = cursor.current
        switch token.kind {
        case .string:
            cursor.advance()
            guard token.isLiteral else { return nil }
            return [literalItem(token, context)]
        case .punctuation where token.text == "@":
            cursor.advance()
            if cursor.isPunctuation("[") { return list(&cursor, context, closer: "]") }
            if cursor.isPunctuation("{") { return objectiveCDictionary(&cursor, context) }
            // `@("com.x.pro")` boxes a C string; `@(3)` a number, which fails inside.
            if cursor.isPunctuation("(") { return objectiveCPrimary(&cursor, context) }
            fail("`@` before `\(cursor.atEnd ? "" : cursor.current.text)` is not followed")
            return nil
        case .punctuation where token.text == "[":
            return message(&cursor, context)
        case .punctuation where token.text == "(":
            cursor.advance()
            // A cast: `(NSSet *)ids`, `(NSArray<NSString *> *)ids`.
            if !cursor.atEnd, cursor.current.kind == .identifier, let close = cursor.indexOfClosingParenthesis(),
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
            // `self.products`, `self->_products`.
            if token.text == "self", let access = cursor.peek(1), access.text == "." || access.text == "->",
               let name = cursor.peek(2), name.kind == .identifier {
                cursor.advance(3)
                return objectiveCClassValues(name.text, context, written: "self\(access.text)\(name.text)")
            }
            cursor.advance()
            if token.text == "nil" || token.text == "NULL" { return [] }
            if cursor.isPunctuation("("), let expanded = objectiveCMacro(token.text, &cursor, context) { return expanded }
            return objectiveCName(token.text, context)
        default:
            fail("`\(token.text)` is not a string iapdoctor can follow")
            return nil
        }
    }

    /// `@{ key: value, … }` (the cursor is on its `{`): one entry per key.
    mutating func objectiveCDictionary(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        cursor.advance()
        return dictionaryEntries(&cursor, context, closer: "}")
    }

    static let objectiveCContentsConstructors: Set<String> = [
        "arrayWithContentsOfFile:", "dictionaryWithContentsOfFile:", "initWithContentsOfFile:", "arrayWithContentsOfURL:",
        "dictionaryWithContentsOfURL:", "initWithContentsOfURL:",
    ]

    enum ObjectiveCReceiver {
        /// `NSSet`, `[NSMutableSet alloc]`: a collection class.
        case collection
        /// `self`, `[self class]`, `GemStore`: the methods and properties of a class of the app.
        case type([String])
        case value([Item])
        /// `[NSBundle mainBundle]`: the Info.plist and the files the app ships.
        case bundle
    }

    /// `[NSSet setWithObjects:a, b, nil]`, `[[NSSet alloc] initWithArray:@[…]]`, `[ids allObjects]`,
    /// `[tips allKeys]`, `[self productIDs]`, `[NSDictionary dictionaryWithObjectsAndKeys:…]`.
    mutating func message(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        let open = cursor.position
        let end = cursor.closingIndex()
        defer { cursor.position = end + 1 }
        guard cursor.tokens[end].text == "]" else { return nil }
        var written: String { Self.written(Array(cursor.tokens[open...end])) }
        cursor.advance()
        guard cursor.position < end else { return nil }
        let receiver: ObjectiveCReceiver
        let token = cursor.current
        let classes = Self.objectiveCCollections.union(Self.objectiveCDictionaries)
        if token.kind == .identifier && classes.contains(token.text) {
            receiver = .collection
            cursor.advance()
        } else if cursor.isPunctuation("["), cursor.peek(1)?.text == "NSBundle", cursor.peek(2)?.text == "mainBundle", cursor.peek(3)?.text == "]" {
            receiver = .bundle
            cursor.advance(4)
        } else if cursor.isPunctuation("["), let name = cursor.peek(1), let selector = cursor.peek(2), cursor.peek(3)?.text == "]",
                  ["alloc", "new", "class"].contains(selector.text) {
            if classes.contains(name.text) && selector.text != "class" {
                receiver = .collection
            } else if selector.text == "class", let type = name.text == "self" ? context.typePaths.last : [name.text] {
                receiver = .type(type)
            } else {
                fail("`\(written)` is computed by a message iapdoctor cannot follow")
                return nil
            }
            cursor.advance(4)
        } else if token.kind == .identifier && (token.text == "self" || token.text == "super") && cursor.peek(1)?.kind == .identifier {
            guard let type = context.typePaths.last else { return nil }
            receiver = .type(type)
            cursor.advance()
        } else if token.kind == .identifier, token.text.first?.isUppercase == true, cursor.peek(1)?.kind == .identifier,
                  (definitionsByName[token.text] ?? []).isEmpty {
            receiver = .type([token.text])
            cursor.advance()
        } else {
            guard let items = objectiveCExpression(&cursor, context) else { return nil }
            receiver = .value(items)
        }
        guard cursor.position < end, cursor.current.kind == .identifier else { return nil }
        let parts = objectiveCSelectorParts(cursor.tokens, from: cursor.position, to: end)
        if parts.isEmpty {
            guard cursor.position + 1 == end else { return nil }
            let selector = cursor.current.text
            switch receiver {
            case .collection:
                if Self.objectiveCEmptyConstructors.contains(selector) { return [] }
            case .type(let type):
                return objectiveCClassValues(selector, of: type, context, written: written)
            case .value(let items):
                if let kept = objectiveCElements(items, keptBy: selector) { return kept }
            case .bundle:
                break
            }
            fail("`\(written)` is computed by a message iapdoctor cannot follow")
            return nil
        }
        let selector = parts.map { $0.name + ":" }.joined()
        var items: [Item]
        switch receiver {
        case .collection where Self.objectiveCCapacityConstructors.contains(selector):
            return []
        case .collection where Self.objectiveCVariadicConstructors.contains(selector):
            items = []
            for element in objectiveCArguments(cursor.tokens, parts[0].range) {
                if element.count == 1 && (element.first?.text == "nil" || element.first?.text == "NULL") { break }
                if let value = objectiveCElement(element, context) { items += value } else { dropped += 1 }
            }
        case .bundle:
            // `objectForInfoDictionaryKey:`, `pathForResource:ofType:`, `URLForResource:withExtension:`.
            let methods = ["objectForInfoDictionaryKey": ("object", ["forInfoDictionaryKey"]),
                           "pathForResource": ("path", ["forResource", "ofType"]),
                           "URLForResource": ("url", ["forResource", "withExtension"])]
            guard let (method, labels) = methods[parts[0].name], labels.count == parts.count else {
                fail("`\(written)` is computed by a message iapdoctor cannot follow")
                return nil
            }
            let arguments = zip(labels, parts).map { (label: Optional($0.0), tokens: Array(cursor.tokens[$0.1.range])) }
            guard let value = bundleCall(method, arguments, context) else { return nil }
            items = value
        case .collection where Self.objectiveCContentsConstructors.contains(selector):
            // A file's contents stand for themselves: the path evaluates to what it holds.
            guard let value = objectiveCElement(cursor.tokens[parts[0].range], context) else { return nil }
            items = value
        case .collection where Self.objectiveCCopyingConstructors.contains(selector):
            guard let value = objectiveCElement(cursor.tokens[parts[0].range], context) else { return nil }
            items = value
        case .collection where selector == "dictionaryWithObjectsAndKeys:" || selector == "initWithObjectsAndKeys:":
            // Objects first, then their keys: `@"Small", @"com.x.small", …, nil`.
            let elements = objectiveCArguments(cursor.tokens, parts[0].range)
            items = []
            var k = 0
            while k + 1 < elements.count {
                if elements[k].count == 1 && elements[k].first?.text == "nil" { break }
                let saved = (failure, dropped)
                let value = objectiveCElement(elements[k], context)
                if value == nil { (failure, dropped) = saved }
                if let key = objectiveCElement(elements[k + 1], context) {
                    items += Self.entries(keys: key, values: value)
                } else {
                    dropped += 1
                }
                k += 2
            }
        case .collection where selector == "dictionaryWithObjects:forKeys:" || selector == "initWithObjects:forKeys:":
            guard let keys = objectiveCElement(cursor.tokens[parts[1].range], context) else { return nil }
            let saved = (failure, dropped)
            var objects = objectiveCElement(cursor.tokens[parts[0].range], context) ?? []
            if objects.count != keys.count {
                (failure, dropped) = saved
                objects = []
            }
            items = keys.indices.map { .entry(key: keys[$0], value: $0 < objects.count ? objects[$0] : nil) }
        case .value(let receiverItems) where Self.objectiveCAddingMessages.contains(selector):
            guard let value = objectiveCElement(cursor.tokens[parts[0].range], context) else { return nil }
            items = receiverItems + value
        default:
            fail("`\(written)` is computed by a message iapdoctor cannot follow")
            return nil
        }
        guard charge(items.count) else { return nil }
        return Self.unique(items)
    }

    /// The keyword parts of a message's selector from `start` (its first name) to `end` (its
    /// `]`), each with the range of its argument; empty for a unary message.
    func objectiveCSelectorParts(_ tokens: [SourceScanner.ExpressionToken], from start: Int, to end: Int) -> [(name: String, range: Range<Int>)] {
        var starts: [(name: String, at: Int)] = []
        var depth = 0
        var k = start
        while k < end {
            let token = tokens[k]
            if depth == 0, token.kind == .identifier, k + 1 < end, tokens[k + 1].kind == .punctuation, tokens[k + 1].text == ":",
               !(k > start && tokens[k - 1].kind == .operatorRun && tokens[k - 1].text == "?") {
                starts.append((token.text, k))
                k += 2
                continue
            }
            if token.kind == .punctuation && ["(", "[", "{"].contains(token.text) { depth += 1 }
            if token.kind == .punctuation && [")", "]", "}"].contains(token.text) { depth -= 1 }
            k += 1
        }
        guard starts.first?.at == start else { return [] }
        return starts.indices.map { index in
            let next = index + 1 < starts.count ? starts[index + 1].at : end
            return (starts[index].name, starts[index].at + 2..<next)
        }
    }

    /// A variadic argument's elements, split at the commas outside brackets.
    func objectiveCArguments(_ tokens: [SourceScanner.ExpressionToken], _ range: Range<Int>) -> [ArraySlice<SourceScanner.ExpressionToken>] {
        var elements: [ArraySlice<SourceScanner.ExpressionToken>] = []
        var depth = 0
        var start = range.lowerBound
        for k in range {
            let token = tokens[k]
            guard token.kind == .punctuation else { continue }
            if ["(", "[", "{"].contains(token.text) { depth += 1 }
            if [")", "]", "}"].contains(token.text) { depth -= 1 }
            if depth == 0 && token.text == "," {
                elements.append(tokens[start..<k])
                start = k + 1
            }
        }
        if start < range.upperBound { elements.append(tokens[start..<range.upperBound]) }
        return elements
    }

    /// One argument, which must be an expression from start to end.
    mutating func objectiveCElement(_ tokens: ArraySlice<SourceScanner.ExpressionToken>, _ context: Context) -> [Item]? {
        guard !tokens.isEmpty else { return nil }
        var cursor = Cursor(tokens: Array(tokens))
        guard let items = objectiveCExpression(&cursor, context) else { return nil }
        guard cursor.atEnd else {
            fail("`\(Self.written(Array(tokens)))` is not a value iapdoctor can follow")
            return nil
        }
        return items
    }

    // MARK: Names

    /// A plain name: a local of an enclosing block, an instance variable or property of the
    /// class, a static of this file, then any constant or macro. Every value a variable is
    /// given (`ids = …;`, `[ids addObject:…]`) is one of its values.
    mutating func objectiveCName(_ name: String, _ context: Context) -> [Item]? {
        // A parameter of a method followed from one of its calls.
        if let value = frameValue(name) { return value }
        if let locals = objectiveCLocals(name, context) { return objectiveCUnion(locals) }
        if let type = context.typePaths.last {
            let members = objectiveCMembers(name, of: type)
            if !members.isEmpty { return objectiveCUnion(members) }
        }
        let statics = (definitionsByName[name] ?? []).filter {
            $0.file == context.file && definition($0).owner == nil && definition($0).localScope == nil
        }
        if statics.count > 1 { return objectiveCUnion(statics) }
        if let items = unqualified(name, context) { return items }
        fail("`\(name)` is not a constant iapdoctor can follow")
        return nil
    }

    /// The definitions of a local `name` visible at the context's position (its declaration and
    /// the values given to it before), in the innermost block declaring one; nil when none does.
    func objectiveCLocals(_ name: String, _ context: Context) -> [SourceScanner.DefinitionReference]? {
        var scope: Range<Int>?
        var found: [SourceScanner.DefinitionReference] = []
        for reference in definitionsByName[name] ?? [] where reference.file == context.file {
            let definition = definition(reference)
            guard let block = definition.localScope, block.contains(context.position), definition.position < context.position else { continue }
            if let current = scope {
                if block.lowerBound < current.lowerBound { continue }
                if block.lowerBound > current.lowerBound { found = [] }
            }
            scope = block
            found.append(reference)
        }
        return scope == nil ? nil : found
    }

    /// The definitions of a property or instance variable of a class: `products` and `_products`
    /// are one, and so is a method `products` returning a value.
    func objectiveCMembers(_ name: String, of type: [String]) -> [SourceScanner.DefinitionReference] {
        let base = name.hasPrefix("_") ? String(name.dropFirst()) : name
        return [base, "_" + base].flatMap { definitionsByName[$0] ?? [] }.filter {
            let definition = definition($0)
            return definition.owner == type && definition.localScope == nil && definition.context.language == .objectiveC
        }
    }

    /// `self.products`, `[self products]`, `[Store productIDs]`.
    mutating func objectiveCClassValues(_ name: String, of type: [String]? = nil, _ context: Context, written: String) -> [Item]? {
        guard let type = type ?? context.typePaths.last else {
            fail("`\(written)` is outside a class iapdoctor can follow")
            return nil
        }
        let members = objectiveCMembers(name, of: type)
        guard !members.isEmpty else {
            fail("iapdoctor found nothing that sets `\((type + [name]).joined(separator: "."))`: its value comes from code it did not scan or cannot follow")
            return nil
        }
        return objectiveCUnion(members)
    }

    /// Every value the definitions give, together. One that cannot be followed is counted as
    /// dropped, its reason kept; nil when none can be followed.
    mutating func objectiveCUnion(_ references: [SourceScanner.DefinitionReference]) -> [Item]? {
        var items: [Item] = []
        var followed = false
        var unfollowed = 0
        for reference in references where !inProgress.contains(reference) {
            // Each value followed counts, so that many assignments read by many others stay bounded.
            guard charge(1) else { return nil }
            let saved = failure
            failure = nil
            let value = definition(reference).initializer != nil
                ? evaluateThroughObjectiveCConstructions(reference) : evaluateDefinition(reference)
            let reason = failure
            failure = saved
            if let value {
                items += value
                followed = true
                continue
            }
            unfollowed += 1
            let definition = definition(reference)
            let expression = Self.written(definition.expression)
            if definition.isAddition {
                fail("`\(definition.displayName)` is filled at run time from `\(expression)`, which iapdoctor cannot follow")
            } else {
                fail(reason ?? "`\(definition.displayName)` is set to `\(expression)`, which iapdoctor cannot follow")
            }
        }
        guard followed else { return nil }
        dropped += unfollowed
        guard charge(items.count) else { return nil }
        return Self.unique(items)
    }

    /// A use of a function-like macro, `kID(tips)` with `#define kID(x) @("com.x." #x)`: its body
    /// with each parameter replaced by the argument, and `#x` by the argument's text.
    mutating func objectiveCMacro(_ name: String, _ cursor: inout Cursor, _ context: Context) -> [Item]? {
        guard let reference = definitionsByName[name]?.first(where: { definition($0).isFunction && definition($0).context.language == .objectiveC })
        else { return nil }
        let macro = definition(reference)
        let group = Array(cursor.balancedGroup().dropFirst().dropLast())
        var arguments: [[ExpressionToken]] = [[]]
        var depth = 0
        for token in group {
            if cursor.isOpener(token) { depth += 1 } else if cursor.isCloser(token) { depth -= 1 }
            if depth == 0 && token.kind == .punctuation && token.text == "," {
                arguments.append([])
            } else {
                arguments[arguments.count - 1].append(token)
            }
        }
        let parameters = macro.parameters ?? []
        guard arguments.count == parameters.count || (parameters.isEmpty && group.isEmpty) else { return nil }
        var expanded: [ExpressionToken] = []
        var k = 0
        let body = macro.expression
        while k < body.count {
            let token = body[k]
            if token.kind == .punctuation && token.text == "#", k + 1 < body.count,
               let index = parameters.firstIndex(where: { $0.name == body[k + 1].text }) {
                var text = ""
                for (offset, piece) in arguments[index].enumerated() {
                    if offset > 0 && !piece.attached { text += " " }
                    text += piece.text
                }
                var string = arguments[index].first ?? token
                string.kind = .string
                string.text = text
                string.isLiteral = true
                string.column = 0
                string.parts = nil
                expanded.append(string)
                k += 2
                continue
            }
            if token.kind == .identifier, let index = parameters.firstIndex(where: { $0.name == token.text }) {
                expanded += arguments[index]
            } else {
                expanded.append(token)
            }
            k += 1
        }
        var macroContext = macro.context
        macroContext.file = reference.file
        return evaluate(expanded, macroContext)
    }

    /// A member an `init…` method sets from its parameters: its value in every message that makes
    /// one with that initializer.
    mutating func evaluateThroughObjectiveCConstructions(_ reference: SourceScanner.DefinitionReference) -> [Item]? {
        let definition = definition(reference)
        guard let initializer = definition.initializer, let type = definition.owner?.last else { return nil }
        let constructions = (constructionsByType[type] ?? []).filter { $0.construction.initializer == initializer.name }
        guard !constructions.isEmpty else {
            fail("`\(type).\(definition.name)` is set from the initializer's parameters, and no message that makes a `\(type)` with values iapdoctor can follow was found")
            return nil
        }
        var items: [Item] = []
        var followed = false
        let savedFrames = frames
        for (file, construction) in constructions.prefix(64) {
            var callContext = construction.context
            callContext.file = file
            frames = []
            guard let frame = bind(construction.arguments.map { ($0.label, $0.tokens) }, to: initializer.parameters, callContext) else { continue }
            frames = [frame]
            var ownContext = definition.context
            ownContext.file = reference.file
            if let value = evaluate(definition.expression, ownContext) {
                followed = true
                items += value
            }
        }
        frames = savedFrames
        return followed ? Self.unique(items) : nil
    }
}
