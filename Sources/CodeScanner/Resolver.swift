// MARK: - Resolution

extension SourceScanner {
    struct DefinitionReference: Hashable {
        var file: Int
        var index: Int
    }

    struct EnumReference: Hashable {
        var file: Int
        var index: Int
    }

    /// What an expression evaluates to: literals, or enum cases not yet turned into raw values.
    enum Item: Hashable {
        case literal(value: String, location: CodeLocation, via: String?)
        case enumCase(EnumReference, index: Int)
        /// A dictionary literal's entry: `.keys` / `allKeys` give its key, `.values` / `allValues`
        /// its value (nil when the value is not a string).
        indirect case entry(key: Item, value: Item?)
        /// A value of an app type made with labelled arguments (`Tip(id: "com.x.tip", name: …)`):
        /// each field the arguments give.
        indirect case instance(type: String, fields: [String: [Item]])
        /// A part of a value that was not followed, kept so the call it reaches says so.
        case unknown(reason: String)
        /// A condition's value: a platform test decided for the app's platform, or a flag.
        case truth(Bool)
    }

    /// Evaluates call arguments and constants against every file's definitions. An expression it
    /// does not understand evaluates to nil; inside a list, only that element is dropped.
    struct Resolver {
        var files: [FileSummary]
        var definitionsByName: [String: [DefinitionReference]] = [:]
        var enumsByName: [String: [EnumReference]] = [:]
        var enumsByCase: [String: [EnumReference]] = [:]
        var evaluated: [DefinitionReference: [Item]?] = [:]
        /// Reasons that say where a value comes from, kept over the definition that holds it.
        var specificFailures: Set<String> = []
        /// What `.env` templates say of their keys (``SourceScanner/environmentHints(_:)``).
        var environmentHints: [String: String] = [:]
        /// Why a remembered definition could not be followed.
        var failedReasons: [DefinitionReference: String] = [:]
        /// Definitions whose value lost elements iapdoctor cannot tell: how many, and why. Every
        /// call site that reads one is told again, as the first was.
        var droppedElements: [DefinitionReference: (count: Int, reason: String?)] = [:]
        var inProgress: Set<DefinitionReference> = []
        /// Nested expressions being evaluated. ID lists are shallow; the bound keeps a pathological
        /// `[[[[…` or a long chain of constants from exhausting a small thread stack.
        var nesting = 0
        static let maxNesting = 48
        /// IDs handled (each list built, and each remembered list used again, counts its length).
        /// Definitions are evaluated once and remembered, but a chain such as
        /// `let dN = [dN-1, "idN"]` still makes lists whose lengths add up quadratically in the
        /// source's length. Each file's call sites have `maxWork` of their own, so that one file
        /// built to spend it cannot hide another's requests; the project has `maxTotalWork`. Past
        /// either, nothing more is followed (a call site that names only literals still is) and
        /// the remaining call sites are notes saying why. A real app's ID lists total a few hundred.
        var work = 0
        var fileWork = 0
        static let maxWork = 250_000
        static let maxTotalWork = 1_000_000
        /// Set while a call site that names no constant is evaluated: its cost is its own length.
        var unmetered = false
        static let workExhausted = "iapdoctor stopped following constants after handling \(maxWork) IDs for this file's requests: the constants build on each other more than any real ID list does"
        static let totalWorkExhausted = "iapdoctor stopped following constants after handling \(maxTotalWork) IDs in all: the constants build on each other more than any real ID list does"

        /// The longest string a value may be built to (a product ID is at most a few hundred bytes).
        static let maxTextBytes = 4_096
        static let textTooLong = "the value is built longer than \(maxTextBytes) bytes, which no product ID is: iapdoctor stops following it there"

        /// Whether the budgets are spent (a call site naming only literals never is).
        var isExhausted: Bool { !unmetered && (fileWork > Self.maxWork || work > Self.maxTotalWork) }

        /// Counts `count` IDs of work; false (with the reason recorded) once a budget is spent.
        mutating func charge(_ count: Int) -> Bool {
            guard !unmetered else { return true }
            work += count
            fileWork += count
            guard !isExhausted else {
                failSpecifically(fileWork > Self.maxWork ? Self.workExhausted : Self.totalWorkExhausted)
                return false
            }
            return true
        }
        /// The first reason the current call site's argument could not be resolved.
        var failure: String?
        /// List elements of the current call site that could not be resolved.
        var dropped = 0
        /// The enum case `self` stands for while a computed property is evaluated for it.
        var selfBinding: Item?
        /// Whether the expression just evaluated is a list (for `+`).
        var isList = false
        var listDefinitions: Set<DefinitionReference> = []
        /// The app target's platform (`ios`, `macos`, …), for `#if os(…)` branches; nil when unknown.
        var platform: String?
        /// Bodies copied out of their files, and the tokens of the file last copied from.
        var bodies: [DefinitionReference: [ExpressionToken]?] = [:]
        var lexed: (file: Int, tokens: [SourceScanner.Token])?
        /// The locals of the bodies being run; only the innermost is visible.
        var frames: [SourceScanner.Frame] = []
        var callDepth = 0
        /// The app's bundle ID, for `Bundle.main.bundleIdentifier`; nil when unknown.
        var bundleIdentifier: String?
        /// The Info.plist and the property lists the app ships, by file name.
        var bundle = BundleFiles()
        var propertyLists: [String: String] = [:]
        /// The type a `.case` argument belongs to, from the parameter it is passed to.
        var typeHint: String?

        static let collectionTypes: Set<String> = ["Set", "Array", "NSSet", "NSOrderedSet", "NSArray", "NSDictionary"]
        static let objectiveCCollections: Set<String> = [
            "NSSet", "NSMutableSet", "NSArray", "NSMutableArray", "NSOrderedSet", "NSMutableOrderedSet",
        ]
        static let objectiveCConstructors: Set<String> = [
            "setWithObjects", "setWithObject", "setWithArray", "setWithSet", "arrayWithObjects", "arrayWithObject",
            "arrayWithArray", "orderedSetWithObjects", "orderedSetWithArray", "initWithObjects", "initWithArray",
            "initWithSet",
        ]

        /// `product.id`, `skProduct.productIdentifier`, `transaction.productID`: the ID of a product
        /// StoreKit returned, or of a purchase made: requested where it was fetched.
        static func isFetchedProductID(_ tokens: [ExpressionToken]) -> Bool {
            guard tokens.count == 3, tokens[0].kind == .identifier, tokens[1].text == ".",
                  ["id", "productIdentifier", "productID"].contains(tokens[2].text) else { return false }
            let name = tokens[0].text.lowercased()
            return name.contains("product") || name.contains("transaction") || name.contains("payment") || name.contains("subscription")
        }

        /// Wrapper functions by display name, with their files.
        var wrappersByDisplay: [String: [(file: Int, wrapper: WrapperFunction)]] = [:]
        /// Each class's superclass.
        var supertypes: [String: String] = [:]
        /// The types that have members (the last name of each definition's owner).
        var memberOwners: Set<String> = []
        /// Each Dart class's fields set from positional constructor parameters.
        var positionalFields: [String: [String]] = [:]
        /// Calls that make values of types whose initializers store parameters, by type.
        var constructionsByType: [String: [(file: Int, construction: SourceScanner.Construction)]] = [:]

        init(files: [FileSummary]) {
            self.files = files
            defer {
                // A value made of a subclass is one of its superclasses' too.
                for fileIndex in files.indices {
                    for construction in files[fileIndex].constructions {
                        for type in [construction.type] + SourceScanner.ancestors(of: construction.type, in: supertypes) {
                            constructionsByType[type, default: []].append((fileIndex, construction))
                        }
                    }
                }
            }
            for fileIndex in files.indices {
                for wrapper in files[fileIndex].wrappers {
                    wrappersByDisplay[wrapper.display, default: []].append((fileIndex, wrapper))
                }
                supertypes.merge(files[fileIndex].supertypes) { first, _ in first }
                positionalFields.merge(files[fileIndex].positionalFields) { first, _ in first }
                for index in files[fileIndex].definitions.indices {
                    self.files[fileIndex].definitions[index].context.file = fileIndex
                    definitionsByName[files[fileIndex].definitions[index].name, default: []]
                        .append(DefinitionReference(file: fileIndex, index: index))
                    if let owner = files[fileIndex].definitions[index].owner?.last { memberOwners.insert(owner) }
                }
                for index in files[fileIndex].enums.indices {
                    let reference = EnumReference(file: fileIndex, index: index)
                    let decl = files[fileIndex].enums[index]
                    if let name = decl.path.last { enumsByName[name, default: []].append(reference) }
                    for enumCase in decl.cases { enumsByCase[enumCase.name, default: []].append(reference) }
                }
            }
        }

        func definition(_ reference: DefinitionReference) -> Definition { files[reference.file].definitions[reference.index] }
        func stringEnum(_ reference: EnumReference) -> EnumDeclaration { files[reference.file].enums[reference.index] }

        /// An item as a product ID literal: enum cases become their raw values.
        func literal(_ item: Item) -> (value: String, location: CodeLocation, via: String?)? {
            switch item {
            case .literal(let value, let location, let via):
                return (value, location, via)
            case .entry, .instance, .unknown, .truth:
                return nil
            case .enumCase(let reference, let index):
                let decl = stringEnum(reference)
                let enumCase = decl.cases[index]
                guard let raw = enumCase.rawValue else { return nil }
                return (raw, enumCase.location, (decl.path + [enumCase.name]).joined(separator: "."))
            }
        }

        /// The keys of a dictionary's entries.
        func keys(_ items: [Item]) -> [Item] {
            items.compactMap { if case .entry(let key, _) = $0 { return key } else { return nil } }
        }

        /// Entries for each key, one per value (a list value gives one entry per element; a value
        /// that is not followed, one entry with no value).
        static func entries(keys: [Item], values: [Item]?) -> [Item] {
            guard let values, !values.isEmpty else { return keys.map { .entry(key: $0, value: nil) } }
            return keys.flatMap { key in values.map { Item.entry(key: key, value: $0) } }
        }

        /// The values of a dictionary's entries that are strings.
        func values(_ items: [Item]) -> [Item] {
            items.compactMap { if case .entry(_, let value) = $0 { return value } else { return nil } }
        }

        func rawValues(_ items: [Item]) -> [Item] {
            items.flatMap { item -> [Item] in
                // A `RawRepresentable` app type: the `rawValue` its initializer set.
                if case .instance(_, let fields) = item { return fields["rawValue"] ?? [] }
                return [item]
            }.compactMap { item in
                if case .enumCase = item, let literal = literal(item) {
                    return .literal(value: literal.value, location: literal.location, via: literal.via)
                }
                return item
            }
        }

        mutating func evaluate(_ tokens: [ExpressionToken], _ context: Context) -> [Item]? {
            var cursor = Cursor(tokens: tokens)
            let items = context.language == .objectiveC ? objectiveCExpression(&cursor, context) : swiftExpression(&cursor, context)
            guard let items else { return nil }
            // A trailing cast (`["a"] as Set<String>`) does not change the IDs.
            if cursor.isWord("as") { return items }
            return cursor.atEnd ? items : nil
        }

        mutating func evaluateDefinition(_ reference: DefinitionReference) -> [Item]? {
            if let cached = evaluated[reference] {
                // A definition that could not be followed says why again, for this call site.
                if cached == nil, let reason = failedReasons[reference] { fail(reason) }
                if cached != nil, let lost = droppedElements[reference] {
                    dropped += lost.count
                    if let reason = lost.reason { fail(reason) }
                }
                isList = listDefinitions.contains(reference)
                guard charge(cached?.count ?? 0) else { return nil }
                return cached
            }
            guard inProgress.insert(reference).inserted else { return nil }
            let droppedBefore = dropped
            let definition = definition(reference)
            let failedBefore = failure != nil
            // A definition sees its own scope, not the locals of the body that asked for it.
            let savedFrames = frames
            let savedHint = typeHint
            frames = []
            typeHint = nil
            let value: [Item]?
            if definition.body != nil {
                value = bodyTokens(reference).flatMap { evaluateBody($0, definition.context) }
            } else {
                value = evaluate(definition.expression, definition.context)
            }
            frames = savedFrames
            typeHint = savedHint
            let items = value.map { items in
                items.map { item -> Item in
                    if case .literal(let value, let location, nil) = item {
                        return .literal(value: value, location: location, via: definition.displayName)
                    }
                    return item
                }
            }
            inProgress.remove(reference)
            if let items, !charge(items.count) {
                evaluated[reference] = .some(nil)
                if let failure { failedReasons[reference] = failure }
                return nil
            }
            // A reason that names where the value comes from (the Info.plist, UserDefaults, a
            // parameter) is kept; otherwise the definition is named.
            let specific = failure.map { specificFailures.contains($0) } ?? false
            if items == nil && !failedBefore && !specific && definition.body == nil {
                failure = "`\(definition.displayName)` is set to `\(Self.written(definition.expression))`, which iapdoctor cannot follow"
            } else if items == nil && !failedBefore && !specific {
                failure = "`\(definition.displayName)` is computed by code iapdoctor cannot follow"
            }
            if isList { listDefinitions.insert(reference) }
            if items == nil, let failure { failedReasons[reference] = failure }
            // Remembered even when cut short by the nesting bound: re-evaluating would be exponential
            // for lists of lists of constants.
            evaluated[reference] = .some(items)
            if items != nil, dropped > droppedBefore { droppedElements[reference] = (dropped - droppedBefore, failure) }
            return items
        }

        func literalItem(_ token: ExpressionToken, _ context: Context) -> Item {
            .literal(
                value: token.text,
                location: CodeLocation(
                    file: files[context.file].path, line: token.line, column: token.column, endLine: token.endLine,
                    endColumn: token.endColumn),
                via: nil)
        }

        /// Resolves `name`, `Type.name`, `Outer.Type.name`, `Self.name`, `Enum.case`, `Enum.allCases`,
        /// with a trailing `.rawValue`.
        mutating func resolvePath(_ path: [String], _ context: Context) -> [Item]? {
            for length in stride(from: path.count, through: 1, by: -1) {
                guard let items = resolvePrefix(Array(path[0..<length]), context) else { continue }
                let list = isList
                let result = applyMembers(items, path[length...], context)
                isList = list
                return result
            }
            return nil
        }

        mutating func applyMembers(_ items: [Item], _ members: ArraySlice<String>, _ context: Context) -> [Item]? {
            var items = items
            for member in members {
                switch member {
                case "rawValue": items = rawValues(items)
                case "keys", "allKeys": items = keys(items)
                case "first", "last": break
                case "values", "allValues": items = values(items)
                case "self": break
                default:
                    guard let mapped = memberOfEach(items, member, context) else { return nil }
                    items = mapped
                }
            }
            return items
        }

        mutating func resolvePrefix(_ path: [String], _ context: Context) -> [Item]? {
            guard let name = path.last else { return nil }
            if let bound = selfBinding {
                if path == ["self"] { return [bound] }
                // A field of the value a method runs on: `ids`, `self.ids`.
                if case .instance(_, let fields) = bound, path.count <= 2, path.count == 1 || path[0] == "self",
                   let values = fields[name] {
                    return values
                }
                if path == ["rawValue"] || path == ["self", "rawValue"] { return rawValues([bound]) }
            }
            if path.count == 1 {
                if name == "allCases", let current = context.typePaths.last,
                   let reference = enumReference(qualifier: current, context) {
                    isList = true
                    return allCases(reference)
                }
                return unqualified(name, context)
            }
            var qualifier = Array(path.dropLast())
            if qualifier == ["Self"] || qualifier == ["self"] {
                guard let current = context.typePaths.last else { return nil }
                qualifier = current
            }
            if name == "allCases", let reference = enumReference(qualifier: qualifier, context) {
                isList = true
                return allCases(reference)
            }
            if let reference = member(name, of: qualifier, context) { return evaluateChoice(reference) }
            // `Store.shared.ids`, `Bundle.main.rootID`: a member of the type the instance belongs to.
            if qualifier.count >= 2, enumReference(qualifier: qualifier, context) == nil,
               let reference = member(name, of: Array(qualifier.dropLast()), context) {
                return evaluateChoice(reference)
            }
            if let reference = enumReference(qualifier: qualifier, context),
               let index = stringEnum(reference).cases.firstIndex(where: { $0.name == name }) {
                return [.enumCase(reference, index: index)]
            }
            return nil
        }

        /// Drops repeats, keeping the first: `[a, a]` of `[b, b]` must not grow exponentially.
        static func unique(_ items: [Item]) -> [Item] {
            var seen: Set<Item> = []
            return items.filter { seen.insert($0).inserted }
        }

        func allCases(_ reference: EnumReference) -> [Item] {
            stringEnum(reference).cases.indices.map { .enumCase(reference, index: $0) }
        }

        /// Prefers the candidate in the same file, then the first in file order.
        func preferred<Reference>(_ candidates: [Reference], file: (Reference) -> Int, _ context: Context) -> Reference? {
            candidates.first { file($0) == context.file } ?? candidates.first
        }

        func enumReference(qualifier: [String], _ context: Context) -> EnumReference? {
            guard let name = qualifier.last else { return nil }
            let candidates = (enumsByName[name] ?? []).filter { stringEnum($0).path.hasSuffix(qualifier) }
            return preferred(candidates, file: \.file, context)
        }

        func member(_ name: String, of qualifier: [String], _ context: Context, function: Bool = false) -> DefinitionReference? {
            let candidates = (definitionsByName[name] ?? []).filter { reference in
                let definition = definition(reference)
                guard !inProgress.contains(reference), let owner = definition.owner, definition.isFunction == function,
                      isActive(definition.conditions) != false else { return false }
                return owner.hasSuffix(qualifier) && (reference.file == context.file || !definition.isPrivate)
            }
            return preferred(candidates, file: \.file, context)
        }

        /// A definition, or, when it is written under `#if`, every branch's definition of the same
        /// name that can be the one built.
        mutating func evaluateChoice(_ reference: DefinitionReference) -> [Item]? {
            let chosen = definition(reference)
            if chosen.isInitialization || hasInitializations(chosen) { return evaluateInitializations(of: chosen) }
            guard !chosen.conditions.isEmpty else { return evaluateDefinition(reference) }
            let siblings = (definitionsByName[chosen.name] ?? []).filter { other in
                let definition = definition(other)
                return other.file == reference.file && definition.owner == chosen.owner
                    && definition.localScope?.lowerBound == chosen.localScope?.lowerBound
                    && definition.isFunction == chosen.isFunction && !definition.conditions.isEmpty
                    && isActive(definition.conditions) != false && !inProgress.contains(other)
            }
            if let certain = siblings.first(where: { isActive(definition($0).conditions) == true }) {
                return evaluateDefinition(certain)
            }
            return union(siblings) { $0.evaluateDefinition($1) }
        }

        /// The values of every definition in `references` together; one that cannot be followed
        /// is counted as dropped, and none followed is nil.
        mutating func union(
            _ references: [DefinitionReference], _ evaluate: (inout Self, DefinitionReference) -> [Item]?
        ) -> [Item]? {
            var items: [Item] = []
            var list = false
            var followed = false
            for reference in references {
                guard let value = evaluate(&self, reference) else {
                    dropped += 1
                    continue
                }
                followed = true
                list = list || isList
                items += value
            }
            isList = list
            return followed ? Self.unique(items) : nil
        }

        /// A local or parameter of the body being run.
        mutating func frameValue(_ name: String) -> [Item]?? {
            guard let frame = frames.last else { return .none }
            if let value = frame.values[name] {
                guard let value else {
                    if let reason = frame.reasons[name] {
                        failSpecifically(reason)
                    } else {
                        fail("`\(name)` is set to a value iapdoctor cannot follow")
                    }
                    return .some(nil)
                }
                if let partial = frame.partial[name] {
                    dropped += partial.count
                    if let reason = partial.reason { fail(reason) }
                }
                isList = frame.lists.contains(name)
                return .some(value)
            }
            if let argument = frame.arguments[name] { return .some(evaluateArgument(argument)) }
            return .none
        }

        /// An argument of a followed call, evaluated where the call is written.
        mutating func evaluateArgument(_ argument: SourceScanner.Argument) -> [Item]? {
            let savedFrames = frames
            let savedHint = typeHint
            frames = argument.frames
            typeHint = argument.type
            let items = evaluate(argument.tokens, argument.context)
            frames = savedFrames
            typeHint = savedHint
            return items
        }

        /// A plain name: a local of an enclosing block, then a member of an enclosing type (or a
        /// case of an enclosing enum), then a global of this file, then a global of another file.
        mutating func unqualified(_ name: String, _ context: Context) -> [Item]? {
            if let value = frameValue(name) { return value }
            // Inside `extension Bundle`, the bundle ID of the main bundle (the one apps ask).
            if name == "bundleIdentifier", context.typePaths.last == ["Bundle"], let bundleIdentifier {
                return [.literal(value: bundleIdentifier, location: CodeLocation(file: files[context.file].path, line: 0, column: 0), via: "Bundle.main.bundleIdentifier")]
            }
            let candidates = (definitionsByName[name] ?? []).filter { reference in
                let definition = definition(reference)
                return !inProgress.contains(reference) && !definition.isFunction && isActive(definition.conditions) != false
            }
            var bestLocal: DefinitionReference?
            for reference in candidates where reference.file == context.file {
                let definition = definition(reference)
                guard let scope = definition.localScope, scope.contains(context.position), definition.position < context.position else { continue }
                if let best = bestLocal {
                    let current = self.definition(best)
                    if (scope.lowerBound, definition.position) < (current.localScope!.lowerBound, current.position) { continue }
                }
                bestLocal = reference
            }
            if let bestLocal { return evaluateChoice(bestLocal) }
            for typePath in context.typePaths.reversed() {
                let members = candidates.filter { reference in
                    guard let owner = definition(reference).owner else { return false }
                    return owner.hasSuffix(typePath) || typePath.hasSuffix(owner)
                }
                if let reference = preferred(members, file: \.file, context) { return evaluateChoice(reference) }
                if let reference = enumReference(qualifier: typePath, context),
                   let index = stringEnum(reference).cases.firstIndex(where: { $0.name == name }) {
                    return [.enumCase(reference, index: index)]
                }
            }
            let globals = candidates.filter { reference in
                let definition = definition(reference)
                return definition.owner == nil && definition.localScope == nil
                    && (reference.file == context.file || !definition.isPrivate)
            }
            if let reference = preferred(globals, file: \.file, context) { return evaluateChoice(reference) }
            return nil
        }

        /// `.pro.rawValue` (a case of a string enum) or `.pro` (a `static let` on `String`).
        mutating func resolveImplicitMember(_ path: [String], _ context: Context) -> [Item]? {
            let name = path[0]
            let members = path.dropFirst()
            if members.first != "rawValue", let reference = member(name, of: ["String"], context) {
                guard let items = evaluateDefinition(reference) else { return nil }
                return applyMembers(items, members, context)
            }
            var candidates = enumsByCase[name] ?? []
            // `.sync` as a static member of the type the code is in, or of the parameter's type.
            if candidates.isEmpty {
                let owners = context.typePaths.reversed() + (typeHint.map { [[$0]] } ?? [])
                for owner in owners {
                    if let reference = member(name, of: owner, context) {
                        guard let items = evaluateChoice(reference) else { return nil }
                        return applyMembers(items, members, context)
                    }
                }
            }
            // The parameter the value is passed to names the enum.
            if candidates.count > 1, let typeHint {
                let named = candidates.filter { stringEnum($0).path.last == typeHint }
                if !named.isEmpty { candidates = named }
            }
            if candidates.count > 1 {
                let strings = candidates.filter { stringEnum($0).hasStringRawValues }
                if !strings.isEmpty { candidates = strings }
            }
            if candidates.count > 1 {
                // Several enums have this case: prefer the one the code sits in, then this file's.
                let enclosing = candidates.filter { reference in
                    context.typePaths.contains { stringEnum(reference).path.hasSuffix($0) }
                }
                let sameFile = candidates.filter { $0.file == context.file }
                candidates = !enclosing.isEmpty ? enclosing : sameFile
            }
            guard candidates.count == 1, let reference = candidates.first,
                  let index = stringEnum(reference).cases.firstIndex(where: { $0.name == name })
            else {
                fail("`.\(path.joined(separator: "."))` is not a case iapdoctor can follow")
                return nil
            }
            return applyMembers([.enumCase(reference, index: index)], members, context)
        }
    }

    /// A position in an expression's tokens.
    struct Cursor {
        var tokens: [ExpressionToken]
        var position = 0

        var atEnd: Bool { position >= tokens.count }
        var current: ExpressionToken { tokens[position] }
        func peek(_ offset: Int) -> ExpressionToken? { position + offset < tokens.count ? tokens[position + offset] : nil }
        mutating func advance(_ count: Int = 1) { position += count }

        func isPunctuation(_ text: String) -> Bool { !atEnd && current.kind == .punctuation && current.text == text }
        func isOperator(_ text: String) -> Bool { !atEnd && current.kind == .operatorRun && current.text == text }
        func isWord(_ text: String) -> Bool { !atEnd && current.kind == .identifier && current.text == text }

        func isOpener(_ token: ExpressionToken) -> Bool { token.kind == .punctuation && (token.text == "(" || token.text == "[" || token.text == "{") }
        func isCloser(_ token: ExpressionToken) -> Bool { token.kind == .punctuation && (token.text == ")" || token.text == "]" || token.text == "}") }

        /// The index of the bracket closing the one at the cursor (or the last index).
        func closingIndex() -> Int {
            var depth = 0
            var k = position
            while k < tokens.count {
                if isOpener(tokens[k]) { depth += 1 } else if isCloser(tokens[k]) {
                    depth -= 1
                    if depth == 0 { return k }
                }
                k += 1
            }
            return tokens.count - 1
        }

        func indexOfClosingParenthesis() -> Int? {
            var k = position
            while k < tokens.count {
                if tokens[k].kind == .punctuation && tokens[k].text == ")" { return k }
                if isOpener(tokens[k]) { return nil }
                k += 1
            }
            return nil
        }

        /// The tokens of the bracketed group at the cursor, brackets included; the cursor moves past it.
        mutating func balancedGroup() -> ArraySlice<ExpressionToken> {
            let close = closingIndex()
            let group = tokens[position...close]
            position = close + 1
            return group
        }

        /// Moves to the next `,` or `closer` at this depth.
        mutating func skipElement(closer: String) {
            var depth = 0
            while !atEnd {
                let token = current
                if depth == 0 && token.kind == .punctuation && (token.text == "," || token.text == closer) { return }
                if isOpener(token) { depth += 1 } else if isCloser(token) {
                    if depth == 0 { return }
                    depth -= 1
                }
                advance()
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether one of `names` occurs as a whole identifier, in one pass over the bytes.
    func containsIdentifier(in set: SourceScanner.IdentifierSet) -> Bool {
        guard !set.names.isEmpty else { return false }
        var k = 0
        while k < count {
            guard SourceScanner.isIdentifierStart(self[k]) else {
                k += 1
                continue
            }
            let start = k
            while k < count && SourceScanner.isIdentifierPart(self[k]) { k += 1 }
            if set.mayContain(first: self[start], length: k - start) && set.names.contains(self[start..<k]) { return true }
        }
        return false
    }

    /// Whether `needle` occurs in the bytes.
    func contains(sequence needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= count else { return needle.isEmpty }
        var start = 0
        while start + needle.count <= count {
            if self[start] == first {
                var k = 1
                while k < needle.count && self[start + k] == needle[k] { k += 1 }
                if k == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}

extension Array where Element == String {
    func hasSuffix(_ suffix: [String]) -> Bool {
        suffix.count <= count && zip(self[(count - suffix.count)...], suffix).allSatisfy { $0 == $1 }
    }
}
