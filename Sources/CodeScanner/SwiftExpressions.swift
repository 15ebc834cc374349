import Foundation

// MARK: - Swift expressions

extension SourceScanner.Resolver {
    typealias Item = SourceScanner.Item
    typealias Cursor = SourceScanner.Cursor
    typealias Context = SourceScanner.Context

    /// An expression: operands joined by `+`, alternatives joined by `??` (or JavaScript's `||`),
    /// conditions joined by `&&` and `||`, or a ternary `condition ? a : b`, whose value is the
    /// side the condition picks when it is a known truth (a platform test, or a name holding
    /// one), and either side otherwise.
    mutating func swiftExpression(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        guard enterExpression() else { return nil }
        defer { nesting -= 1 }
        let failedBefore = failure
        let droppedBefore = dropped
        var items = alternatives(&cursor, context)
        var list = isList
        if cursor.isOperator("?") && !cursor.current.attached {
            let condition = Self.truth(items)
            failure = failedBefore
            dropped = droppedBefore
            cursor.advance()
            let whenTrue = swiftExpression(&cursor, context)
            let trueList = isList
            if whenTrue == nil { skipOperand(&cursor) }
            guard cursor.isPunctuation(":") else { return nil }
            cursor.advance()
            let afterTrue = (failure, dropped)
            if condition != nil {
                failure = failedBefore
                dropped = droppedBefore
            }
            let whenFalse = swiftExpression(&cursor, context)
            switch condition {
            case true?:
                (failure, dropped) = afterTrue
                items = whenTrue
                list = trueList
            case false?:
                items = whenFalse
                list = isList
            case nil:
                list = trueList || isList
                items = either(whenTrue, whenFalse)
            }
        }
        isList = list
        return items
    }

    /// Types made from a file's contents.
    static let fileReaders: Set<String> = ["Data", "NSData"]

    /// Types whose values come from outside the code: a note names where.
    static let runTimeSources: [(name: String, source: String)] = [
        ("UserDefaults", "from UserDefaults"), ("NSUbiquitousKeyValueStore", "from iCloud key-value storage"),
        ("RemoteConfig", "from Firebase Remote Config"), ("URLSession", "from the network"), ("JSONDecoder", "from decoded JSON"),
        ("ProcessInfo", "from the environment"), ("Keychain", "from the keychain"),
    ]

    /// Moves past a type: `String`, `[String: String]`, `Set<String>`, `Foo.Bar?`.
    func skipType(_ cursor: inout Cursor) {
        var depth = 0
        while !cursor.atEnd {
            let token = cursor.current
            if depth == 0, token.kind == .operatorRun, token.text.hasPrefix("??") || token.text == "=" || token.text == "==" { return }
            if depth == 0, token.kind == .punctuation, token.text == "," || token.text == ")" || token.text == "}" || token.text == ";" { return }
            if cursor.isOpener(token) || (token.kind == .operatorRun && token.text.hasPrefix("<")) {
                depth += 1
            } else if cursor.isCloser(token) || (token.kind == .operatorRun && token.text.hasPrefix(">")) {
                if depth == 0 { return }
                depth -= 1
            } else if depth == 0, token.kind != .identifier, token.text != ".", token.text != "?", token.text != "!" {
                return
            }
            cursor.advance()
            if depth == 0, !cursor.atEnd, cursor.current.kind == .identifier, !cursor.current.attached,
               cursor.tokens[cursor.position - 1].kind == .identifier || cursor.tokens[cursor.position - 1].text == "]" {
                return
            }
        }
    }

    /// Starts an expression of either language: false, with the reason, past the nesting bound or
    /// the work budget. The caller lowers `nesting` when it is done.
    mutating func enterExpression() -> Bool {
        guard nesting < Self.maxNesting else { return false }
        guard !isExhausted else {
            failSpecifically(fileWork > Self.maxWork ? Self.workExhausted : Self.totalWorkExhausted)
            return false
        }
        nesting += 1
        return true
    }

    /// Both sides' values; a side that cannot be followed is counted as dropped.
    mutating func either(_ left: [Item]?, _ right: [Item]?) -> [Item]? {
        switch (left, right) {
        case (nil, nil): return nil
        case (let one?, nil), (nil, let one?):
            dropped += 1
            return one
        case (let left?, let right?):
            guard charge(left.count + right.count) else { return nil }
            return Self.unique(left + right)
        }
    }

    /// Moves past an operand that could not be followed, to the `??`, `?`, `:`, `,` or closer
    /// after it.
    func skipOperand(_ cursor: inout Cursor) {
        var depth = 0
        while !cursor.atEnd {
            let token = cursor.current
            if depth == 0 {
                if token.kind == .operatorRun && (token.text == "??" || token.text == "||" || token.text == "&&" || (token.text == "?" && !token.attached)) { return }
                if token.kind == .punctuation && (token.text == ":" || token.text == "," || token.text == ";") { return }
            }
            if cursor.isOpener(token) {
                depth += 1
            } else if cursor.isCloser(token) {
                if depth == 0 { return }
                depth -= 1
            }
            cursor.advance()
        }
    }

    /// Operands joined by `+`: string concatenation (`prefix + ".pro"`), or list concatenation
    /// when either side is a list (`consumables + subscriptions`).
    mutating func additive(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        guard var items = swiftOperand(&cursor, context) else { return nil }
        var list = isList
        while cursor.isOperator("+") {
            cursor.advance()
            guard let right = swiftOperand(&cursor, context) else { return nil }
            if list || isList {
                guard charge(items.count + right.count) else { return nil }
                items = Self.unique(items + right)
                list = true
            } else {
                guard let joined = concatenate([items, right]) else { return nil }
                items = joined
            }
        }
        isList = list
        return items
    }

    /// A primary and its postfix members: `.rawValue`, `.map(\.rawValue)`, `.sorted()`, `!`.
    mutating func swiftOperand(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        let droppedBefore = dropped
        guard var items = swiftPrimary(&cursor, context) else { return nil }
        let list = isList
        var subscripted = false
        while !cursor.atEnd {
            if (cursor.isOperator("!") || cursor.isOperator("?")) && cursor.current.attached {
                cursor.advance()
            } else if cursor.isWord("as") {
                // A cast (`as? [String: String]`) keeps the values: its type is skipped.
                cursor.advance()
                if (cursor.isOperator("?") || cursor.isOperator("!")) && cursor.current.attached { cursor.advance() }
                skipType(&cursor)
            } else if cursor.isPunctuation("."), cursor.peek(1)?.kind == .identifier {
                let member = cursor.peek(1)!.text
                cursor.advance(2)
                switch member {
                case "rawValue":
                    items = rawValues(items)
                case "keys":
                    items = keys(items)
                case "values":
                    items = values(items)
                case "map", "compactMap", "flatMap":
                    guard let closure = parseClosure(&cursor) else {
                        fail("the closure given to `.\(member)` is not followed")
                        return nil
                    }
                    guard let mapped = map(items, closure, context) else { return nil }
                    items = mapped
                case "filter":
                    guard let closure = parseClosure(&cursor), let kept = filter(items, closure, context) else {
                        fail("the condition given to `.filter` is not one iapdoctor can follow")
                        return nil
                    }
                    items = kept
                case "reduce":
                    guard let reduced = reduce(items, &cursor, context) else { return nil }
                    items = reduced
                case "union", "formUnion", "subtracting", "intersection", "appending":
                    guard cursor.isPunctuation("(") else { return nil }
                    var group = Array(cursor.balancedGroup().dropFirst().dropLast())
                    if group.count > 2, group[0].kind == .identifier, group[1].text == ":" { group.removeFirst(2) }
                    guard let other = evaluate(group, context) else { return nil }
                    switch member {
                    case "subtracting":
                        let removed = Set(other.compactMap { literal($0)?.value })
                        items = items.filter { literal($0).map { !removed.contains($0.value) } ?? true }
                    case "intersection":
                        let kept = Set(other.compactMap { literal($0)?.value })
                        items = items.filter { literal($0).map { kept.contains($0.value) } ?? false }
                    default:
                        guard charge(items.count + other.count) else { return nil }
                        items = Self.unique(items + other)
                    }
                case "sorted", "shuffled", "reversed", "uniqued":
                    guard cursor.isPunctuation("(") else { return nil }
                    _ = cursor.balancedGroup()
                    if cursor.isPunctuation("{") { _ = cursor.balancedGroup() }
                case "first", "last", "randomElement":
                    // One of the list's values: any of them may be the one requested.
                    if cursor.isPunctuation("(") { _ = cursor.balancedGroup() }
                    if cursor.isPunctuation("{") { _ = cursor.balancedGroup() }
                default:
                    if cursor.isPunctuation("(") || cursor.isPunctuation("{") {
                        fail("`.\(member)(…)` is computed by a call")
                        return nil
                    }
                    guard let mapped = memberOfEach(items, member, context) else { return nil }
                    items = mapped
                }
            } else if cursor.isPunctuation("["), cursor.current.attached {
                // `ids[0]`: the element, when the list's order is known; otherwise any element.
                // `table["key"]`: the values of that key.
                let group = Array(cursor.balancedGroup().dropFirst().dropLast())
                let isDictionary = items.contains { if case .entry = $0 { return true } else { return false } }
                // The key as written (`"monthly"`) or as a name holds it (`SKUS[platform]` with
                // `platform` the app's `Platform.OS`); a key not followed reads every value.
                var keys: [String] = []
                if isDictionary, !group.isEmpty {
                    let failedBefore = failure
                    let droppedBefore = dropped
                    let evaluated = evaluate(group, context)
                    if let evaluated, dropped == droppedBefore, evaluated.allSatisfy({ literal($0) != nil }) {
                        keys = evaluated.compactMap { literal($0)?.value }
                    }
                    failure = failedBefore
                    dropped = droppedBefore
                }
                if !keys.isEmpty {
                    items = items.compactMap { item in
                        guard case .entry(let key, let value) = item, let name = literal(key)?.value, keys.contains(name) else { return nil }
                        return value
                    }
                } else if isDictionary {
                    items = values(items)
                } else if group.count == 1, group[0].kind == .number, let index = Int(group[0].text), index >= 0 {
                    // Where the list lost elements iapdoctor cannot tell, positions are not known:
                    // the element at `index` may be one of those.
                    guard dropped == droppedBefore else {
                        fail("the list has elements iapdoctor cannot tell, so which one is at index \(index) is not known")
                        return nil
                    }
                    if index < items.count { items = [items[index]] }
                }
                subscripted = true
            } else {
                break
            }
        }
        isList = list && !subscripted
        return items
    }

    mutating func swiftPrimary(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        guard !cursor.atEnd else { return nil }
        let token = cursor.current
        isList = false
        switch token.kind {
        case .string:
            cursor.advance()
            if token.isLiteral { return [literalItem(token, context)] }
            return interpolation(token, context)
        case .number where context.language == .javaScript && !token.text.isEmpty && token.text.allSatisfy { $0 >= "0" && $0 <= "9" }:
            // `'com.x.coins' + 250`, `pay(250)` into such a sum: JavaScript writes the number's digits.
            cursor.advance()
            return [literalItem(token, context)]
        case .punctuation where token.text == "[":
            // `[String]()`, `[String: String]()`: an empty collection.
            var k = cursor.position + 1
            while let t = cursor.tokens[safe: k], t.kind == .identifier || t.text == "." || t.text == ":" || t.text == "?" { k += 1 }
            if k > cursor.position + 1, cursor.tokens[safe: k]?.text == "]", cursor.tokens[safe: k + 1]?.text == "(",
               cursor.tokens[safe: k + 2]?.text == ")" {
                cursor.position = k + 3
                isList = true
                return []
            }
            let items = list(&cursor, context, closer: "]")
            isList = true
            return items
        case .punctuation where token.text == "(":
            cursor.advance()
            let items = swiftExpression(&cursor, context)
            guard cursor.isPunctuation(")") else { return nil }
            cursor.advance()
            return items
        case .punctuation where token.text == "{":
            // `{ … }()`: a closure run where it is written.
            let body = Array(cursor.balancedGroup().dropFirst().dropLast())
            guard cursor.isPunctuation("("), cursor.peek(1)?.text == ")" else {
                fail("a closure is not a list of IDs")
                return nil
            }
            cursor.advance(2)
            return evaluateBody(body, context, frame: frames.last ?? SourceScanner.Frame())
        case .punctuation where token.text == "." && cursor.peek(1)?.text == "init" && cursor.peek(2)?.text == "(":
            // `.init(…)` where the parameter names the type.
            guard let typeHint else {
                fail("`.init(…)` of a type iapdoctor cannot tell")
                return nil
            }
            cursor.advance(2)
            return construct(typeHint, &cursor, context)
        case .punctuation where token.text == "." && cursor.peek(1)?.kind == .identifier:
            cursor.advance()
            let path = memberPath(&cursor)
            return resolveImplicitMember(path, context)
        case .identifier where (token.text == "true" || token.text == "false") && cursor.peek(1)?.text != ".":
            // A truth the build decides: a platform test the language's reader decided for iOS,
            // or a build-time constant's default (marked as literal). A `true` or `false` written
            // in the code is a flag the app may change at run time: not a known truth.
            cursor.advance()
            guard token.isLiteral else {
                fail("`\(token.text)` is a flag the app may change")
                return nil
            }
            return [.truth(token.text == "true")]
        case .operatorRun where token.text == "!":
            cursor.advance()
            guard let truth = Self.truth(swiftOperand(&cursor, context)) else {
                fail("the condition is not one iapdoctor can tell")
                return nil
            }
            isList = false
            return [.truth(!truth)]
        case .identifier where token.text == "nil" && cursor.peek(1)?.text != ".":
            cursor.advance()
            return []
        case .identifier where token.text == "try" || token.text == "await":
            // `try? Data(contentsOf: url)`, `await store.ids()`: the value is the expression's.
            cursor.advance()
            if (cursor.isOperator("?") || cursor.isOperator("!")) && cursor.current.attached { cursor.advance() }
            return swiftPrimary(&cursor, context)
        case .identifier where Self.fileReaders.contains(token.text) && cursor.peek(1)?.text == "(":
            // `Data(contentsOf: url)`: what a file holds stands for itself (see `bundleCall`).
            cursor.advance()
            let arguments = callArguments(&cursor)
            guard let first = arguments.first, first.label == "contentsOf" || first.label == "contentsOfFile" else {
                fail("`\(token.text)(…)` is computed by a call")
                return nil
            }
            return evaluate(first.tokens, context)
        case .identifier:
            if Self.collectionTypes.contains(token.text) && (cursor.peek(1)?.text == "(" || cursor.peek(1)?.text.first == "<") {
                let items = collectionInitializer(&cursor, context)
                isList = true
                return items
            }
            if token.text == "String" && cursor.peek(1)?.text == "(" {
                cursor.advance()
                return stringInitializer(&cursor, context)
            }
            let path = memberPath(&cursor)
            if cursor.isPunctuation("(") && !cursor.atEnd {  // a function call
                if let value = call(path.last!, qualifier: Array(path.dropLast()), &cursor, context) { return value }
                if let value = instance(path, &cursor, context) { return value }
                fail("`\(path.joined(separator: "."))(…)` is computed by a call")
                return nil
            }
            // `FileManager.default.contents(atPath: path)`: what the file holds.
            if path == ["FileManager", "default"], cursor.isPunctuation("."), cursor.peek(1)?.text == "contents", cursor.peek(2)?.text == "(" {
                cursor.advance(2)
                guard let file = callArguments(&cursor).first(where: { $0.label == "atPath" }) else { return nil }
                return evaluate(file.tokens, context)
            }
            if path == ["Bundle", "main"], cursor.isPunctuation("."), let name = cursor.peek(1), cursor.peek(2)?.text == "(" {
                cursor.advance(2)
                let arguments = callArguments(&cursor)
                return bundleCall(name.text, arguments, context)
            }
            // `PropertyListSerialization.propertyList(from: data, …)`, `PropertyListDecoder().decode(T.self, from: data)`:
            // the list read from the file.
            if path == ["PropertyListSerialization"], cursor.isPunctuation("."), cursor.peek(1)?.text == "propertyList", cursor.peek(2)?.text == "(" {
                cursor.advance(2)
                let arguments = callArguments(&cursor)
                guard let data = arguments.first(where: { $0.label == "from" }) else { return nil }
                return evaluate(data.tokens, context)
            }
            if path == ["Bundle", "main", "infoDictionary"] {
                isList = true
                return infoDictionary()
            }
            if cursor.isPunctuation("."), let name = cursor.peek(1), name.kind == .identifier, cursor.peek(2)?.text == "(" {
                if functionReference(name.text, qualifier: path, context) != nil {
                    cursor.advance(2)
                    return call(name.text, qualifier: path, &cursor, context) ?? nil
                }
                // `catalog.ids(for: zone)` where `catalog` is a `Catalog`: that type's method, run
                // with `self` as that value.
                if let (type, items) = instances(path, context), functionReference(name.text, qualifier: [type], context) != nil {
                    cursor.advance(2)
                    return call(name.text, qualifier: [type], &cursor, context, on: items) ?? nil
                }
                // Dart's named constructors (`Registry._()`, `Plan.monthly(…)`) make their class.
                if context.language == .dart, path.count == 1, path[0].first?.isUppercase == true, name.text.first?.isUppercase != true,
                   memberOwners.contains(path[0]) {
                    cursor.advance(2)
                    return construct(path[0], &cursor, context)
                }
            }
            if path == ["Bundle", "main", "bundleIdentifier"], let bundleIdentifier {
                return [.literal(value: bundleIdentifier, location: CodeLocation(file: files[context.file].path, line: token.line, column: 0), via: "Bundle.main.bundleIdentifier")]
            }
            if let source = Self.runTimeSources.first(where: { path.first == $0.name }) {
                failSpecifically("`\(path.joined(separator: "."))` is read \(source.source) at run time")
                return nil
            }
            let items = resolvePath(path, context)
            if items == nil, context.language == .javaScript, let key = path.last, path.count == 1 || path.dropLast() == ["Config"] || path.dropLast() == ["process", "env"],
               let hint = environmentHints[key] {
                failSpecifically("`\(path.joined(separator: "."))` comes from an `.env` file that is not in the repository; \(hint)")
            } else if items == nil {
                fail("`\(path.joined(separator: "."))` is not a constant iapdoctor can follow")
            }
            return items
        default:
            fail("`\(token.text)` is not followed")
            return nil
        }
    }

    /// `Tip(id: "com.x.tip", name: "Small")`: a value of an app type (a capitalized name that is not
    /// one of the app's functions), with the fields its labelled arguments give.
    mutating func instance(_ path: [String], _ cursor: inout Cursor, _ context: Context) -> [Item]? {
        guard var type = path.last, type.first?.isUppercase == true, cursor.isPunctuation("(") else { return nil }
        // `Self("…")` inside a type or its extension makes that type.
        if type == "Self", path.count == 1, let enclosing = context.typePaths.last?.last { type = enclosing }
        return construct(type, &cursor, context)
    }

    /// A value of app type `type` from the call at the cursor: the fields its initializer sets,
    /// or, without one that fits, the fields its labelled arguments name (a memberwise init) and
    /// those a Dart constructor sets from its positional parameters.
    mutating func construct(_ type: String, _ cursor: inout Cursor, _ context: Context) -> [Item]? {
        construct(type, arguments: callArguments(&cursor), context)
    }

    mutating func construct(_ type: String, arguments: [(label: String?, tokens: [ExpressionToken])], _ context: Context) -> [Item]? {
        // Its own initializers, or, without one that fits, those it inherits.
        var initializers: [DefinitionReference] = []
        for owner in [type] + SourceScanner.ancestors(of: type, in: supertypes) where initializers.isEmpty {
            initializers = (definitionsByName["init"] ?? []).filter { reference in
                definition(reference).owner?.last == owner && bind(arguments, to: definition(reference).parameters ?? [], context) != nil
            }
        }
        if let initializer = initializers.first, let value = run(initializer, arguments, context, on: nil) {
            isList = false
            return value
        }
        var fields: [String: [Item]] = [:]
        let positional = positionalFields[type] ?? []
        var position = 0
        for argument in arguments {
            var label = argument.label
            if label == nil {
                label = position < positional.count ? positional[position] : nil
                position += 1
            }
            guard let label else { continue }
            let failedBefore = failure
            let droppedBefore = dropped
            if let values = evaluate(argument.tokens, context) { fields[label] = values }
            failure = failedBefore
            dropped = droppedBefore
        }
        isList = false
        return [.instance(type: type, fields: fields)]
    }

    /// The values of one app type a name holds, when it evaluates to them (`let catalog = Catalog()`).
    mutating func instances(_ path: [String], _ context: Context) -> (type: String, items: [Item])? {
        let failedBefore = failure
        let droppedBefore = dropped
        defer {
            failure = failedBefore
            dropped = droppedBefore
        }
        guard let items = resolvePath(path, context), case .instance(let type, _)? = items.first,
              items.allSatisfy({ if case .instance(type, _) = $0 { return true } else { return false } }) else { return nil }
        return (type, items)
    }

    /// `String(format: "pro.%@", tip.rawValue)`, `String(describing: id)`, `String(id)`.
    mutating func stringInitializer(_ cursor: inout Cursor, _ context: Context) -> [Item]? {
        let arguments = callArguments(&cursor)
        guard let first = arguments.first else { return nil }
        if first.label == nil || first.label == "describing" {
            guard arguments.count == 1 else { return nil }
            return evaluate(first.tokens, context)
        }
        guard first.label == "format", let formats = evaluate(first.tokens, context) else {
            fail("`String(…)` is built in a way iapdoctor does not follow")
            return nil
        }
        var results: [Item] = []
        for format in formats {
            guard let literal = literal(format) else { return nil }
            // `%@` takes the next argument's text; any other conversion is not followed.
            let pieces = literal.value.components(separatedBy: "%@")
            guard pieces.count == arguments.count, !pieces.contains(where: { $0.contains("%") && !$0.contains("%%") }) else {
                fail("the format `\(literal.value)` has conversions iapdoctor does not follow")
                return nil
            }
            var parts: [[Item]] = []
            for (index, piece) in pieces.enumerated() {
                parts.append([.literal(value: piece.replacingOccurrences(of: "%%", with: "%"), location: literal.location, via: literal.via)])
                if index + 1 < pieces.count {
                    guard let values = evaluate(arguments[index + 1].tokens, context) else { return nil }
                    parts.append(values)
                }
            }
            guard let joined = concatenate(parts) else { return nil }
            results += joined
        }
        return Self.unique(results)
    }

    /// `"\(prefix).pro"`: every combination of the pieces' values (a bounded number).
    mutating func interpolation(_ token: SourceScanner.ExpressionToken, _ context: Context) -> [Item]? {
        guard let parts = token.parts else {
            fail("a multi-line or unterminated string with interpolation is not followed")
            return nil
        }
        let location = CodeLocation(
            file: files[context.file].path, line: token.line, column: token.column, endLine: token.endLine, endColumn: token.endColumn)
        var pieces: [[Item]] = []
        for part in parts {
            switch part {
            case .text(let text):
                pieces.append([.literal(value: text, location: location, via: nil)])
            case .expression(let tokens):
                guard let items = evaluate(tokens, context), !items.isEmpty else { return nil }
                pieces.append(items)
            }
        }
        isList = false
        return concatenate(pieces, at: location)
    }

    /// Joins one value from each piece, for every combination (at most 256); located at
    /// `location`, or at the first piece's literal. Each 64 bytes of text made count as one ID of
    /// work: a chain `let sN = sN-1 + "x"` makes strings whose lengths add up quadratically. A
    /// string longer than ``maxTextBytes`` is not made: constants that double each other would
    /// otherwise build gigabytes.
    mutating func concatenate(_ pieces: [[Item]], at location: CodeLocation? = nil) -> [Item]? {
        var results: [(value: String, location: CodeLocation?, via: String?)] = [("", location, nil)]
        for piece in pieces {
            var next: [(value: String, location: CodeLocation?, via: String?)] = []
            for partial in results {
                for item in piece {
                    guard let literal = literal(item) else { return nil }
                    guard partial.value.utf8.count + literal.value.utf8.count <= Self.maxTextBytes else {
                        failSpecifically(Self.textTooLong)
                        return nil
                    }
                    // The ID is shown where its first written piece is (a bundle ID has no column).
                    let located = partial.location.map { $0.column == 0 && literal.location.column > 0 ? literal.location : $0 }
                    next.append((partial.value + literal.value, located ?? literal.location, partial.via ?? literal.via))
                }
            }
            guard next.count <= 256 else { return nil }
            results = next
        }
        var made = results.count
        for result in results { made += result.value.utf8.count / 64 }
        guard charge(made) else { return nil }
        return Self.unique(results.compactMap { result in
            result.location.map { .literal(value: result.value, location: $0, via: result.via) }
        })
    }

    /// `member` of each enum case in `items`: a computed property of the enum (`var productID:
    /// String { "com.x.\(rawValue)" }`) evaluated with `self` as that case.
    mutating func memberOfEach(_ items: [Item], _ member: String, _ context: Context) -> [Item]? {
        var results: [Item] = []
        var matchedEntry = false
        for item in items {
            if case .instance(let type, let fields) = item {
                guard let values = fields[member] else {
                    fail("`\(type)` is made without a `\(member)` iapdoctor can see")
                    return nil
                }
                guard charge(values.count) else { return nil }
                results += values
                continue
            }
            // An object's property (JavaScript's `plan.sku` over `{ sku: … }`): the entries of
            // that key; the object's other entries give nothing.
            if case .entry(let key, let value) = item {
                guard let key = literal(key) else {
                    fail("`.\(member)` is not a property iapdoctor can follow")
                    return nil
                }
                if key.value == member, let value { results.append(value) }
                matchedEntry = matchedEntry || key.value == member
                continue
            }
            guard case .enumCase(let reference, _) = item,
                  let definition = self.member(member, of: stringEnum(reference).path, context)
            else {
                fail("`.\(member)` is not a property iapdoctor can follow")
                return nil
            }
            let saved = selfBinding
            let savedFrames = frames
            selfBinding = item
            frames = []
            let value: [Item]?
            if self.definition(definition).body != nil {
                value = bodyTokens(definition).flatMap { evaluateBody($0, self.definition(definition).context) }
            } else {
                value = evaluate(self.definition(definition).expression, self.definition(definition).context)
            }
            selfBinding = saved
            frames = savedFrames
            guard let value else { return nil }
            guard charge(value.count) else { return nil }
            let via = (stringEnum(reference).path + [stringEnum(reference).cases[indexOf(item)].name, member]).joined(separator: ".")
            results += value.compactMap { mapped in
                guard let literal = literal(mapped) else { return nil }
                return .literal(value: literal.value, location: literal.location, via: via)
            }
        }
        if items.contains(where: { if case .entry = $0 { return true } else { return false } }), !matchedEntry {
            fail("no object has a `\(member)` iapdoctor can see")
            return nil
        }
        return Self.unique(results)
    }

    func indexOf(_ item: Item) -> Int {
        if case .enumCase(_, let index) = item { return index }
        return 0
    }

    /// `a.b.c`, stopping before a member that is called (`.map(`, `.map {`).
    func memberPath(_ cursor: inout Cursor) -> [String] {
        var path = [cursor.current.text]
        cursor.advance()
        while true {
            // `a?.b` (optional chaining, every language read here): b of a, when a is there.
            if cursor.isOperator("?"), cursor.current.attached, let dot = cursor.peek(1), dot.text == ".", dot.attached,
               cursor.peek(2)?.kind == .identifier {
                cursor.advance()
            }
            guard cursor.isPunctuation("."), let next = cursor.peek(1), next.kind == .identifier else { break }
            if let after = cursor.peek(2), after.text == "(" || after.text == "{" { break }
            path.append(next.text)
            cursor.advance(2)
        }
        return path
    }

    /// Remembers the first reason a call site's argument could not be resolved.
    mutating func fail(_ reason: String) {
        if failure == nil { failure = reason }
    }

    /// A reason that says where the value comes from: kept even when a constant holds it.
    mutating func failSpecifically(_ reason: String) {
        specificFailures.insert(reason)
        fail(reason)
    }
}

extension SourceScanner.Resolver {
    /// The argument as written, spaces as in the source, shortened to 80 characters.
    static func written(_ tokens: [SourceScanner.ExpressionToken]) -> String {
        var text = ""
        for (index, token) in tokens.enumerated() {
            if index > 0 && !token.attached { text += " " }
            text += spelling(token)
        }
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }

    /// A wrapper call's arguments as written: `ids: [.pro, .gold], force: true`.
    static func written(_ arguments: [SourceScanner.CallArgument]) -> String {
        let text = arguments.map { argument in
            (argument.label.map { "\($0): " } ?? "") + written(argument.tokens)
        }.joined(separator: ", ")
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }

    static func spelling(_ token: SourceScanner.ExpressionToken) -> String {
        guard token.kind == .string else { return token.text }
        if token.isLiteral { return "\"\(token.text)\"" }
        guard let parts = token.parts else { return "\"…\"" }
        return "\"" + parts.map { part -> String in
            switch part {
            case .text(let text): return text
            case .expression(let tokens): return "\\(" + written(tokens) + ")"
            }
        }.joined() + "\""
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { index >= 0 && index < count ? self[index] : nil }
}
