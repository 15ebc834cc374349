import XMLReader
import JSONReader
import Formats
import Model
import Loaders

/// Field constraints declared in `rules.yaml` (or a user's `custom_rules`) instead of Swift:
/// `check: { each, field }` says where, the options say what (`pattern`, `max_length`,
/// `min_length`, `required`), `message` and `help` are templates.
package struct DeclarativeRule: Rule {
    package let id: String

    package func check(_ context: RuleContext) -> [Outcome] {
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
        // A product App Store Connect's snapshot lists has its fields there (App Store Connect
        // enforces them); only what the descriptor itself states is checked here. By product ID,
        // as `Project.product(withID:)` answers (the first product with the ID), made once: asking
        // it per item would make a check quadratic in the number of products.
        var listedByStore: [String: Bool] = [:]
        if check.each == "products", constraints.required {
            for product in context.project.products {
                guard let id = product.productID?.value, listedByStore[id] == nil else { continue }
                listedByStore[id] = product.store != nil
            }
        }
        var outcomes: [Outcome] = []
        for item in items {
            let product = item["product_id"]?.scalar?.text
            var findings: [Finding] = []
            let values = Self.values(at: check.field, in: item)
            let listedByStore = product.flatMap { listedByStore[$0] } ?? false
            if values.isEmpty, constraints.required, !listedByStore {
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
    /// The checks ran while each package streamed by (``CatalogPlan``, in the engine's scan).
    func checkCatalogs(_ context: RuleContext) -> [Outcome] {
        guard context.metadata.check != nil else { return [] }
        return context.outcomes(context.project.catalogPackages.flatMap { context.itemFindings(in: $0) })
    }

    /// A declarative `each: in_app_purchase` check with its configured options, ready to run on
    /// items as they stream by.
    final class CatalogPlan {
        let metadata: RuleMetadata
        /// The alternatives of `field`, each split into element names.
        let paths: [[XMLName]]
        let field: String
        let constraints: Constraints
        let message: CompiledTemplate
        let help: CompiledTemplate?

        init?(_ metadata: RuleMetadata) {
            guard metadata.input == .catalog, let check = metadata.check else { return nil }
            self.metadata = metadata
            field = check.field
            paths = check.field.split(separator: "|").map { $0.split(separator: ".").map { XMLName(String($0)) } }
            constraints = Constraints(metadata)
            message = CompiledTemplate(metadata.messageTemplate ?? metadata.title, metadata: metadata)
            help = metadata.helpTemplate.map { CompiledTemplate($0, metadata: metadata) }
        }

        /// The finding for a value kept in `store` as ``finding(value:field:product:at:product:)``
        /// would make it, its templates filled straight into the store (no string for either).
        private func keep(value: String, field: String, product name: String, at location: SourceLocation, product: String?, in store: CompactFindings) {
            let defaultHelp = metadata.defaultHelp
            store.append(
                rule: metadata.id, severity: metadata.severity, checklist: metadata.checklist,
                writingMessage: { message.fill(value: value, field: field, product: name, into: &$0) },
                hasHelp: help != nil || defaultHelp != nil,
                writingHelp: { bytes in
                    if let help {
                        help.fill(value: value, field: field, product: name, into: &bytes)
                    } else if let defaultHelp {
                        CompactFindings.append(defaultHelp, to: &bytes)
                    }
                },
                notes: metadata.notes, location: location, product: product)
        }

        /// The finding for a value, as ``DeclarativeRule/finding(_:fields:at:product:)`` makes it.
        private func finding(value: String, field: String, product name: String, at location: SourceLocation, product: String?) -> Finding {
            metadata.finding(
                message.fill(value: value, field: field, product: name), at: location,
                help: help?.fill(value: value, field: field, product: name), notes: metadata.notes, product: product)
        }

        /// Checks one item, whose elements at the end of this plan's paths `router` has found (it
        /// is plan `index` there), appending what they break to `findings` (see
        /// ``FindingSink``: counted, no template is filled).
        func check(
            _ streamed: CatalogStreamedItem, router: CatalogPlanRouter, plan index: Int, sink: FindingSink,
            into findings: inout [Finding]
        ) {
            var found = false
            router.forEachMatch(ofPlan: index, in: streamed.element) { element in
                found = true
                check(element, of: streamed, sink: sink, into: &findings)
            }
            if !found, constraints.required {
                let item = streamed.item
                if case .count = sink { return findings.append(metadata.countedFinding(product: item.productID?.value)) }
                let name = item.productID?.value ?? "the item at line \(item.location.line)"
                // No `length` for a missing value (the template keeps `{length}`), as before.
                findings.append(DeclarativeRule.finding(
                    metadata, fields: ["field": field, "product": name, "value": ""], at: item.location, product: item.productID?.value))
            }
        }

        /// Checks one element at the end of a path.
        private func check(_ element: XMLElementView, of streamed: CatalogStreamedItem, sink: FindingSink, into findings: inout [Finding]) {
            guard element.withTextBytes({ constraints.violates(bytes: $0) }) else { return }
            let item = streamed.item
            let product = item.productID?.value
            switch sink {
            case .count:
                findings.append(metadata.countedFinding(product: product))
            case .list:
                let text = element.text
                findings.append(finding(
                    value: text, field: element.name, product: product ?? "the item at line \(item.location.line)",
                    at: streamed.valueLocation(of: element), product: product))
            case .compact(let store, let tally):
                let text = element.text, field = element.name, name = product ?? "the item at line \(item.location.line)"
                keep(value: text, field: field, product: name, at: streamed.valueLocation(of: element), product: product, in: store)
                findings.append(metadata.tally(product: product, in: tally))
            }
        }
    }

    /// StoreKit checks: `each: product` visits every product of every file it judges (subscriptions
    /// too); `field` is a path of JSON keys, stepping into every element of an array on the way.
    func checkStoreKitFiles(_ context: RuleContext) -> [Outcome] {
        guard let check = context.metadata.check else { return [] }
        if let notApplicable = context.storeLimitNotApplicable { return [notApplicable] }
        let constraints = Constraints(context.metadata)
        var outcomes: [Outcome] = []
        for configuration in context.judgedStoreKitFiles {
            for product in configuration.products {
                let id = product.productID?.value
                let name = id ?? "the product at line \(product.location.line)"
                var findings: [Finding] = []
                var values: [JSONNode] = [product.json]
                for step in check.field.split(separator: ".") {
                    values = values.flatMap { value -> [JSONNode] in
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
                outcomes += context.outcomes(findings, product: id)
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }

    func finding(_ context: RuleContext, fields: [String: String], at location: SourceLocation, product: String?) -> Finding {
        Self.finding(context.metadata, fields: fields, at: location, product: product)
    }

    /// The finding of the rule `metadata` describes, its templates filled with `fields`.
    static func finding(_ metadata: RuleMetadata, fields: [String: String], at location: SourceLocation, product: String?) -> Finding {
        let message = fill(metadata.messageTemplate ?? metadata.title, fields: fields, metadata: metadata)
        let help = metadata.helpTemplate.map { fill($0, fields: fields, metadata: metadata) }
        return metadata.finding(message, at: location, help: help, notes: metadata.notes, product: product)
    }

    /// Replaces `{name}` with a field or an option value.
    ///
    /// Works on the template's UTF-8 bytes through a buffer pointer (the braces are ASCII, so every
    /// cut falls between scalars), not on its characters, nor through `String.UTF8View` indices,
    /// which are slow to search: a faulty catalog fills two templates for every finding it lists.
    package static func fill(_ template: String, fields: [String: String], metadata: RuleMetadata) -> String {
        var template = template
        return template.withUTF8 { utf8 -> String in
            let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
            var result: [UInt8] = []
            result.reserveCapacity(utf8.count + 64)
            var rest = 0
            while let open = utf8[rest...].firstIndex(of: openBrace), let close = utf8[open...].firstIndex(of: closeBrace) {
                result.append(contentsOf: utf8[rest..<open])
                let name = String(decoding: utf8[(open + 1)..<close], as: UTF8.self)
                if var value = fields[name] ?? metadata.option(name)?.text {
                    value.withUTF8 { result.append(contentsOf: $0) }
                } else {
                    result.append(contentsOf: utf8[open...close])
                }
                rest = close + 1
            }
            result.append(contentsOf: utf8[rest...])
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// What a declarative check's options require of a value.
    final class Constraints {
        let maxLength: Int?
        let minLength: Int?
        /// The pattern, matched in linear time (never Swift's backtracking `Regex`: values come
        /// from the repository). A pattern the matcher cannot take was refused with the
        /// configuration; one that still fails to compile here checks nothing.
        let pattern: LinearPattern?
        let hasPattern: Bool
        let required: Bool

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
            if let pattern, !pattern.wholeMatch(text) { return "pattern" }
            return nil
        }

        enum Answer {
            case passes, breaks(String), undecided
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
            guard Self.isSimple(bytes) else { return .undecided }
            let length = bytes.count
            if let max = maxLength, length > max { return .breaks("max_length") }
            if let min = minLength, length < min { return .breaks("min_length") }
            guard let pattern else { return .passes }
            return pattern.wholeMatch(ascii: bytes) ? .passes : .breaks("pattern")
        }

        /// No byte of `bytes` is non-ASCII (0x80 and up) or a carriage return, looked at eight
        /// bytes at a time (every value of every checked field of every item comes by here, so a
        /// byte-at-a-time loop would cost more).
        static func isSimple(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            var index = 0
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= bytes.count {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    if word & highs != 0 { return false }
                    // A carriage return: a zero byte once XORed with 0x0D (exact, as no byte is high).
                    let returns = word ^ (0x0D &* ones)
                    if (returns &- ones) & ~returns & highs != 0 { return false }
                    index += 8
                }
            }
            while index < bytes.count {
                if bytes[index] >= 0x80 || bytes[index] == 0x0D { return false }
                index += 1
            }
            return true
        }

        init(_ metadata: RuleMetadata) {
            maxLength = metadata.option("max_length")?.number.flatMap(OptionValue.integer)
            minLength = metadata.option("min_length")?.number.flatMap(OptionValue.integer)
            pattern = metadata.option("pattern")?.text.flatMap { try? LinearPattern.shared($0) }
            hasPattern = pattern != nil
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

extension RuleSet {
    /// Checks every pattern option compiles for the linear-time matcher, so a bad pattern is a
    /// configuration error, not a silent pass. (Options are also checked where they are read,
    /// with the option's own position; this catches the built-in rule set and anything else.)
    public func invalidPatterns() -> [Finding] {
        rules.compactMap { rule -> Finding? in
            guard let pattern = rule.option("pattern")?.text else { return nil }
            do throws(LinearPattern.Problem) {
                _ = try LinearPattern.shared(pattern)
                return nil
            } catch {
                return RuleSet.patternProblem(rule.id, pattern, error, at: rule.location)
            }
        }
    }

    static func patternProblem(_ rule: String, _ pattern: String, _ problem: LinearPattern.Problem, at location: SourceLocation) -> Finding {
        let shown = pattern.count > 60 ? String(pattern.prefix(59)) + "…" : pattern
        return configProblem(
            "rule `\(rule)`: the pattern `\(shown)` cannot be used: \(problem.message) (at character \(problem.offset + 1) of the pattern)",
            help: "patterns use literals, `.`, classes, `\\d \\w \\s`, groups, `|`, `* + ? {n,m}`, `^` and `$`, and must match the whole value",
            at: location)
    }
}
