import XMLReader

/// Field constraints declared in `rules.yaml` (or a user's `custom_rules`) instead of Swift:
/// `check: { each, field }` says where, the options say what (`pattern`, `max_length`,
/// `min_length`, `required`), `message` and `help` are templates.
struct DeclarativeRule: Rule {
    let id: String

    func check(_ context: RuleContext) -> [Outcome] {
        if context.metadata.input == .catalog { return checkCatalogs(context) }
        if context.metadata.input == .storekit { return checkStoreKitFiles(context) }
        guard let check = context.metadata.check, let root = context.project.descriptor else { return [] }
        let items: [YAMLTree]
        if check.each.isEmpty {
            items = [root]
        } else {
            guard let list = Self.node(at: check.each, in: root) else { return [context.pass()] }
            switch list {
            case .sequence(let elements, _): items = elements
            case .mapping(let pairs, _): items = pairs.map(\.value)
            case .scalar: items = []
            }
        }
        let constraints = Constraints(context.metadata)
        var outcomes: [Outcome] = []
        for item in items {
            let product = item["product_id"]?.scalar?.text
            var findings: [Finding] = []
            let values = Self.values(at: check.field, in: item)
            if values.isEmpty, constraints.required {
                var fields = ["field": check.field, "product": product ?? "the item at line \(item.location.line)"]
                fields["value"] = ""
                findings.append(finding(context, fields: fields, at: item.location, product: product))
            }
            for value in values {
                guard let scalar = value.scalar, !scalar.isNull else {
                    if constraints.required {
                        let fields = ["field": check.field, "product": product ?? "the item at line \(item.location.line)", "value": ""]
                        findings.append(finding(context, fields: fields, at: value.location, product: product))
                    }
                    continue
                }
                let text = scalar.text
                let length = text.count
                if constraints.violation(text) != nil {
                    let fields = [
                        "value": text, "length": String(length), "field": check.field,
                        "product": product ?? "the item at line \(item.location.line)",
                    ]
                    findings.append(finding(context, fields: fields, at: scalar.location, product: product))
                }
            }
            outcomes += context.outcomes(findings, product: product)
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }

    /// Catalog checks: `each: in_app_purchase` visits every item of every package; `field` is a
    /// path of element names below it (`locales.locale.title`), with `|` between alternatives.
    /// The built-in checks ran while each package streamed; others read the package again.
    func checkCatalogs(_ context: RuleContext) -> [Outcome] {
        guard let plan = CatalogPlan(context.metadata) else { return [] }
        var findings: [Finding] = []
        for package in context.project.catalogPackages {
            for found in package.findings(of: plan) {
                findings.append(finding(context, fields: found.fields, at: found.location, product: found.product))
            }
        }
        return context.outcomes(findings)
    }

    /// A declarative `each: in_app_purchase` check, ready to run on items as they stream by.
    final class CatalogPlan {
        let id: String
        /// The alternatives of `field`, each split into element names.
        let paths: [[XMLName]]
        let field: String
        let constraints: Constraints
        /// What the findings depend on: the field and the constraint options.
        let signature: String

        init?(_ metadata: RuleMetadata) {
            guard metadata.input == .catalog, let check = metadata.check else { return nil }
            id = metadata.id
            field = check.field
            paths = check.field.split(separator: "|").map { $0.split(separator: ".").map { XMLName(String($0)) } }
            constraints = Constraints(metadata)
            let options = ["max_length", "min_length", "pattern", "required"].map { name -> String in
                switch metadata.option(name) {
                case .number(let value)?: return "number \(value)"
                case .text(let value)?: return "text \(value)"
                case .flag(let value)?: return "flag \(value)"
                case .list(let values)?: return "list \(values)"
                case nil: return "-"
                }
            }
            signature = ([check.each, check.field] + options).joined(separator: "\u{1F}")
        }

        /// The path names' ids in the current parse, and how many names it had when they were looked up.
        private var ids: [[Int]] = []
        private var idsNameCount = -1
        private var idsArena: ObjectIdentifier?

        /// Checks one item, appending what it breaks to `findings`.
        func check(_ streamed: CatalogStreamedItem, into findings: inout [DeclarativeItemFinding]) {
            let names = streamed.element.names
            if idsArena != ObjectIdentifier(names) || idsNameCount != names.nameCount {
                ids = paths.map { $0.map { names.id(of: $0) } }
                idsNameCount = names.nameCount
                idsArena = ObjectIdentifier(names)
            }
            var found = false
            for path in ids where path.allSatisfy({ $0 >= 0 }) {
                visit(streamed.element, path, 0, streamed, &found, &findings)
            }
            if !found, constraints.required {
                let item = streamed.item
                let name = item.productID?.value ?? "the item at line \(item.location.line)"
                findings.append(DeclarativeItemFinding(
                    fields: ["field": field, "product": name, "value": ""], location: item.location, product: item.productID?.value))
            }
        }

        /// The elements at `path[step...]` below `element`, in document order.
        private func visit(
            _ element: XMLElementView, _ path: [Int], _ step: Int, _ streamed: CatalogStreamedItem, _ found: inout Bool,
            _ findings: inout [DeclarativeItemFinding]
        ) {
            guard step < path.count else {
                found = true
                guard element.withTextBytes({ constraints.violates(bytes: $0) }) else { return }
                let item = streamed.item
                let text = element.text
                let name = item.productID?.value ?? "the item at line \(item.location.line)"
                let fields = ["value": text, "length": String(text.count), "field": element.name, "product": name]
                findings.append(DeclarativeItemFinding(fields: fields, location: streamed.location(of: element), product: item.productID?.value))
                return
            }
            let id = path[step]
            for child in element.children where child.nameID == id {
                visit(child, path, step + 1, streamed, &found, &findings)
            }
        }
    }

    /// Calls `body` for every element at `path[step...]` below `element`, in document order.
    static func forEachElement(at path: [XMLName], step: Int, in element: XMLElementView, _ body: (XMLElementView) -> Void) {
        guard step < path.count else { return body(element) }
        let id = element.names.id(of: path[step])
        guard id >= 0 else { return }
        for child in element.children where child.nameID == id {
            forEachElement(at: path, step: step + 1, in: child, body)
        }
    }

    /// StoreKit checks: `each: product` visits every product of every file (subscriptions too);
    /// `field` is a path of JSON keys, stepping into every element of an array on the way.
    func checkStoreKitFiles(_ context: RuleContext) -> [Outcome] {
        guard let check = context.metadata.check else { return [] }
        let constraints = Constraints(context.metadata)
        var outcomes: [Outcome] = []
        for configuration in context.project.storeKitCatalogs {
            for product in configuration.products {
                let id = product.productID?.value
                let name = id ?? "the product at line \(product.location.line)"
                var findings: [Finding] = []
                var values: [JSONValue] = [product.json]
                for step in check.field.split(separator: ".") {
                    values = values.flatMap { value -> [JSONValue] in
                        let children = value.elements.isEmpty ? [value] : value.elements
                        return children.compactMap { $0[String(step)] }
                    }
                }
                if values.isEmpty, constraints.required {
                    findings.append(finding(context, fields: ["field": check.field, "product": name, "value": ""], at: product.location, product: id))
                }
                for value in values {
                    guard let text = value.string else { continue }
                    if constraints.violation(text) != nil {
                        let fields = ["value": text, "length": String(text.count), "field": check.field, "product": name]
                        findings.append(finding(context, fields: fields, at: value.location, product: id))
                    }
                }
                outcomes += context.outcomes(findings.map { context.adjusted($0, for: configuration) }, product: id)
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }

    func finding(_ context: RuleContext, fields: [String: String], at location: SourceLocation, product: String?) -> Finding {
        let metadata = context.metadata
        let message = Self.fill(metadata.messageTemplate ?? metadata.title, fields: fields, metadata: metadata)
        let help = metadata.helpTemplate.map { Self.fill($0, fields: fields, metadata: metadata) }
        return context.finding(message, at: location, help: help, notes: metadata.notes, product: product)
    }

    /// Replaces `{name}` with a field or an option value.
    static func fill(_ template: String, fields: [String: String], metadata: RuleMetadata) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            if let value = fields[name] ?? metadata.option(name)?.text {
                result += value
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// What a declarative check's options require of a value.
    final class Constraints {
        let maxLength: Int?
        let minLength: Int?
        let patternSource: String?
        /// Compiled on first use: most values are ASCII and answered by `simplePattern`, and
        /// compiling every built-in pattern with `Regex` took a third of a tiny check's start-up.
        private lazy var pattern: Regex<AnyRegexOutput>? = patternSource.flatMap { try? Regex($0) }
        /// The pattern as a small byte automaton, when it only uses literals, classes, groups,
        /// `|`, `*`, `+` and `?` (what the built-in patterns use); used on ASCII text, where
        /// characters are bytes, with the same answers as `pattern`.
        let simplePattern: SimplePattern?
        let hasPattern: Bool
        let required: Bool
        /// Results of `pattern` by value when only `Regex` can answer (values repeat: types, tiers).
        private var memo: [String: Bool] = [:]

        enum Answer {
            case passes, breaks(String), undecided
        }

        /// What `text` breaks, if anything.
        func violation(_ text: String) -> String? {
            var text = text
            switch text.withUTF8({ violation(simpleBytes: $0) }) {
            case .passes: return nil
            case .breaks(let kind): return kind
            case .undecided: break
            }
            let length = text.count
            if let max = maxLength, length > max { return "max_length" }
            if let min = minLength, length < min { return "min_length" }
            if let pattern, !matches(pattern, text) { return "pattern" }
            return nil
        }

        /// Whether `bytes` (UTF-8) break the constraints: `violation(_:) != nil` without making a
        /// string for ASCII text.
        func violates(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            switch violation(simpleBytes: bytes) {
            case .passes: return false
            case .breaks: return true
            case .undecided: return violation(String(decoding: bytes, as: UTF8.self)) != nil
            }
        }

        /// The answer for ASCII text without carriage returns (one character per byte, and no
        /// `\r\n` pair counted as one character), or `.undecided` when `String` has to decide.
        private func violation(simpleBytes bytes: UnsafeBufferPointer<UInt8>) -> Answer {
            for byte in bytes where byte >= 0x80 || byte == 0x0D { return .undecided }
            let length = bytes.count
            if let max = maxLength, length > max { return .breaks("max_length") }
            if let min = minLength, length < min { return .breaks("min_length") }
            guard hasPattern else { return .passes }
            guard let simplePattern else { return .undecided }
            return simplePattern.wholeMatch(bytes) ? .passes : .breaks("pattern")
        }

        private func matches(_ pattern: Regex<AnyRegexOutput>, _ text: String) -> Bool {
            if let known = memo[text] { return known }
            let result = (try? pattern.wholeMatch(in: text)) != nil
            if memo.count < 512 { memo[text] = result }
            return result
        }

        init(_ metadata: RuleMetadata) {
            maxLength = metadata.option("max_length")?.number.map { Int($0) }
            minLength = metadata.option("min_length")?.number.map { Int($0) }
            let source = metadata.option("pattern")?.text
            patternSource = source
            // A pattern SimplePattern reads uses only regex syntax that always compiles; any
            // other is compiled now to know whether there is a valid pattern at all.
            simplePattern = source.flatMap(SimplePattern.init)
            hasPattern = simplePattern != nil || source.flatMap { try? Regex($0) } != nil
            if case .flag(let flag)? = metadata.option("required") { required = flag } else { required = false }
        }
    }

    static func node(at path: String, in root: YAMLTree) -> YAMLTree? {
        var current: YAMLTree? = root
        for step in path.split(separator: ".") { current = current?[String(step)] }
        return current
    }

    /// Every node at `path` below `root`, stepping into all children at `*`.
    static func values(at path: String, in root: YAMLTree) -> [YAMLTree] {
        var current: [YAMLTree] = [root]
        for step in path.split(separator: ".") {
            var next: [YAMLTree] = []
            for node in current {
                if step == "*" {
                    switch node {
                    case .mapping(let pairs, _): next += pairs.map(\.value)
                    case .sequence(let items, _): next += items
                    case .scalar: break
                    }
                } else if let child = node[String(step)] {
                    next.append(child)
                }
            }
            current = next
        }
        return current
    }
}

extension RuleCatalog {
    /// Checks a pattern option compiles, so a bad user regex is a configuration error, not a silent pass.
    public func invalidPatterns() -> [Finding] {
        rules.compactMap { rule in
            guard let pattern = rule.option("pattern")?.text, (try? Regex(pattern)) == nil else { return nil }
            return RuleCatalog.configProblem(
                "rule `\(rule.id)`: the pattern `\(pattern)` is not a valid regular expression",
                help: "fix the pattern; it is matched against the whole value", at: rule.location)
        }
    }
}


/// A regular expression made only of ASCII literals, escaped punctuation, character classes
/// (`[a-z._-]`, `[^-]`), groups, `|`, `*`, `+` and `?`, run as a Thompson automaton over bytes.
/// `init` returns `nil` for anything else (anchors, `.`, `{m,n}`, `\d`, lazy quantifiers, class
/// set operations, …), and the caller uses `Regex`. For ASCII subjects without `\r` it answers
/// `wholeMatch` exactly as Swift's `Regex` does (every character is one byte there).
final class SimplePattern {
    private indirect enum Tree {
        case set([Bool])
        case sequence([Tree])
        case choice([Tree])
        case star(Tree)
        case plus(Tree)
        case optional(Tree)
    }

    init?(_ pattern: String) {
        let bytes = Array(pattern.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var position = 0
        guard let tree = Self.parseChoice(bytes, &position), position == bytes.count,
            let tables = Self.tables(tree)
        else { return nil }
        words = tables.words
        startMask = tables.start
        acceptMask = tables.accept
        transitions = tables.transitions
    }

    // MARK: Parsing

    private static let metacharacters = Set("\\^$.|?*+()[]{}".utf8)

    private static func parseChoice(_ p: [UInt8], _ i: inout Int) -> Tree? {
        var branches: [Tree] = []
        while true {
            guard let branch = parseSequence(p, &i) else { return nil }
            branches.append(branch)
            guard i < p.count, p[i] == UInt8(ascii: "|") else { break }
            i += 1
        }
        return branches.count == 1 ? branches[0] : .choice(branches)
    }

    private static func parseSequence(_ p: [UInt8], _ i: inout Int) -> Tree? {
        var items: [Tree] = []
        while i < p.count, p[i] != UInt8(ascii: "|"), p[i] != UInt8(ascii: ")") {
            guard var atom = parseAtom(p, &i) else { return nil }
            if i < p.count {
                switch p[i] {
                case UInt8(ascii: "*"): atom = .star(atom); i += 1
                case UInt8(ascii: "+"): atom = .plus(atom); i += 1
                case UInt8(ascii: "?"): atom = .optional(atom); i += 1
                default: break
                }
                // Lazy, possessive or stacked quantifiers, and `{m,n}`: leave them to Regex.
                if i < p.count, [UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{")].contains(p[i]) {
                    return nil
                }
            }
            items.append(atom)
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private static func single(_ byte: UInt8) -> Tree {
        var set = [Bool](repeating: false, count: 128)
        set[Int(byte)] = true
        return .set(set)
    }

    /// `\` followed by ASCII punctuation stands for that character; other escapes are not simple.
    private static func escaped(_ p: [UInt8], _ i: inout Int) -> UInt8? {
        guard i + 1 < p.count else { return nil }
        let byte = p[i + 1]
        let isPunctuation = (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
        guard isPunctuation else { return nil }
        i += 2
        return byte
    }

    private static func parseAtom(_ p: [UInt8], _ i: inout Int) -> Tree? {
        let byte = p[i]
        switch byte {
        case UInt8(ascii: "("):
            i += 1
            if i + 1 < p.count, p[i] == UInt8(ascii: "?") {
                guard p[i + 1] == UInt8(ascii: ":") else { return nil }
                i += 2
            }
            guard let inner = parseChoice(p, &i), i < p.count, p[i] == UInt8(ascii: ")") else { return nil }
            i += 1
            return inner
        case UInt8(ascii: "["):
            return parseClass(p, &i)
        case UInt8(ascii: "\\"):
            return escaped(p, &i).map(single)
        default:
            guard !metacharacters.contains(byte), byte >= 0x20, byte != 0x7F else { return nil }
            i += 1
            return single(byte)
        }
    }

    private static func parseClass(_ p: [UInt8], _ i: inout Int) -> Tree? {
        i += 1
        var negated = false
        if i < p.count, p[i] == UInt8(ascii: "^") {
            negated = true
            i += 1
        }
        var set = [Bool](repeating: false, count: 128)
        var first = true
        while true {
            guard i < p.count else { return nil }
            var byte = p[i]
            if byte == UInt8(ascii: "]") {
                if first { return nil }
                i += 1
                break
            }
            first = false
            // Nested classes, POSIX classes and set operations (`&&`, `--`, `~~`) are not simple.
            if byte == UInt8(ascii: "[") { return nil }
            if i + 1 < p.count, byte == p[i + 1], [UInt8(ascii: "&"), UInt8(ascii: "-"), UInt8(ascii: "~")].contains(byte) {
                return nil
            }
            if byte == UInt8(ascii: "\\") {
                guard let literal = escaped(p, &i) else { return nil }
                byte = literal
            } else {
                guard byte >= 0x20, byte != 0x7F else { return nil }
                i += 1
            }
            // A range `a-z` (a `-` first or last is itself).
            if i + 1 < p.count, p[i] == UInt8(ascii: "-"), p[i + 1] != UInt8(ascii: "]") {
                i += 1
                var upper = p[i]
                if upper == UInt8(ascii: "\\") {
                    guard let literal = escaped(p, &i) else { return nil }
                    upper = literal
                } else {
                    guard upper != UInt8(ascii: "["), upper >= 0x20, upper != 0x7F else { return nil }
                    i += 1
                }
                guard byte <= upper else { return nil }
                for value in byte...upper { set[Int(value)] = true }
            } else {
                set[Int(byte)] = true
            }
        }
        if negated { set = set.map { !$0 } }
        return .set(set)
    }

    // MARK: The automaton

    private enum State {
        case byte(set: Int, next: Int)
        case split(Int, Int)
        case match
    }

    /// Builds the Thompson automaton (states ending in `.match` at index 0), then turns it into
    /// bit masks over its byte-consuming states: for each such state and byte, the set of states
    /// reached (after following every split). Matching is then a few mask operations per byte.
    private static func tables(_ tree: Tree) -> (words: Int, start: [UInt64], accept: [UInt64], transitions: [UInt64])? {
        var states: [State] = [.match]
        var sets: [[Bool]] = []
        func compile(_ tree: Tree, next: Int) -> Int {
            switch tree {
            case .set(let set):
                sets.append(set)
                states.append(.byte(set: sets.count - 1, next: next))
                return states.count - 1
            case .sequence(let items):
                var entry = next
                for item in items.reversed() { entry = compile(item, next: entry) }
                return entry
            case .choice(let branches):
                var entry = compile(branches[branches.count - 1], next: next)
                for branch in branches.dropLast().reversed() {
                    let other = compile(branch, next: next)
                    states.append(.split(other, entry))
                    entry = states.count - 1
                }
                return entry
            case .star(let inner):
                states.append(.split(-1, next))
                let loop = states.count - 1
                let body = compile(inner, next: loop)
                states[loop] = .split(body, next)
                return loop
            case .plus(let inner):
                states.append(.split(-1, next))
                let loop = states.count - 1
                let body = compile(inner, next: loop)
                states[loop] = .split(body, next)
                return body
            case .optional(let inner):
                let body = compile(inner, next: next)
                states.append(.split(body, next))
                return states.count - 1
            }
        }
        let start = compile(tree, next: 0)
        // Bits: one per byte-consuming state, and one for `.match`.
        var bit = [Int](repeating: -1, count: states.count)
        var count = 0
        for (index, state) in states.enumerated() {
            switch state {
            case .split: continue
            default:
                bit[index] = count
                count += 1
            }
        }
        guard count <= 256 else { return nil }
        let words = (count + 63) / 64
        func closure(_ state: Int) -> [UInt64] {
            var mask = [UInt64](repeating: 0, count: words)
            var seen = Set<Int>()
            var stack = [state]
            while let current = stack.popLast() {
                guard seen.insert(current).inserted else { continue }
                if case .split(let a, let b) = states[current] {
                    stack.append(b)
                    stack.append(a)
                } else {
                    mask[bit[current] / 64] |= 1 << UInt64(bit[current] % 64)
                }
            }
            return mask
        }
        var transitions = [UInt64](repeating: 0, count: count * 128 * words)
        for (index, state) in states.enumerated() {
            guard case .byte(let set, let next) = state else { continue }
            let reached = closure(next)
            for byte in 0..<128 where sets[set][byte] {
                for word in 0..<words { transitions[(bit[index] * 128 + byte) * words + word] = reached[word] }
            }
        }
        var accept = [UInt64](repeating: 0, count: words)
        accept[bit[0] / 64] |= 1 << UInt64(bit[0] % 64)
        return (words, closure(start), accept, transitions)
    }

    private let words: Int
    private let startMask: [UInt64]
    private let acceptMask: [UInt64]
    /// By (state bit, byte, word).
    private let transitions: [UInt64]

    /// Whether the whole of `bytes` (ASCII) matches.
    func wholeMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if words == 1 {
            var current = startMask[0]
            return transitions.withUnsafeBufferPointer { table in
                for byte in bytes {
                    guard byte < 0x80 else { return false }
                    var next: UInt64 = 0
                    var remaining = current
                    while remaining != 0 {
                        let state = remaining.trailingZeroBitCount
                        remaining &= remaining - 1
                        next |= table[state &* 128 &+ Int(byte)]
                    }
                    current = next
                    if current == 0 { return false }
                }
                return current & acceptMask[0] != 0
            }
        }
        let words = words
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * words) { scratch -> Bool in
            var current = scratch.baseAddress!
            var next = current + words
            for word in 0..<words { current[word] = startMask[word] }
            return transitions.withUnsafeBufferPointer { table -> Bool in
                for byte in bytes {
                    guard byte < 0x80 else { return false }
                    for word in 0..<words { next[word] = 0 }
                    var any: UInt64 = 0
                    for word in 0..<words {
                        var remaining = current[word]
                        while remaining != 0 {
                            let state = word &* 64 &+ remaining.trailingZeroBitCount
                            remaining &= remaining - 1
                            let base = (state &* 128 &+ Int(byte)) &* words
                            for target in 0..<words {
                                next[target] |= table[base &+ target]
                                any |= table[base &+ target]
                            }
                        }
                    }
                    swap(&current, &next)
                    if any == 0 { return false }
                }
                for word in 0..<words where current[word] & acceptMask[word] != 0 { return true }
                return false
            }
        }
    }
}
