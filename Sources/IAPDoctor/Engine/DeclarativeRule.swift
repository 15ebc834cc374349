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
    func checkCatalogs(_ context: RuleContext) -> [Outcome] {
        guard let check = context.metadata.check else { return [] }
        let constraints = Constraints(context.metadata)
        var outcomes: [Outcome] = []
        for package in context.project.catalogPackages {
            for item in package.items {
                let product = item.productID?.value
                let name = product ?? "the item at line \(item.location.line)"
                var findings: [Finding] = []
                let values = check.field.split(separator: "|").flatMap { Self.elements(at: String($0), in: item.node) }
                if values.isEmpty, constraints.required {
                    findings.append(finding(
                        context, fields: ["field": check.field, "product": name, "value": ""], at: item.location, product: product))
                }
                for node in values {
                    let text = node.text
                    if constraints.violation(text) != nil {
                        let fields = ["value": text, "length": String(text.count), "field": node.name, "product": name]
                        findings.append(finding(context, fields: fields, at: package.location(of: node), product: product))
                    }
                }
                outcomes += context.outcomes(findings, product: product)
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
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
                outcomes += context.outcomes(findings, product: id)
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }

    static func elements(at path: String, in root: XMLNode) -> [XMLNode] {
        var current = [root]
        for step in path.split(separator: ".") {
            current = current.flatMap { $0.children(named: String(step)) }
        }
        return current
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

    struct Constraints {
        var maxLength: Int?
        var minLength: Int?
        var pattern: Regex<AnyRegexOutput>?
        var required: Bool

        /// What `text` breaks, if anything.
        func violation(_ text: String) -> String? {
            let length = text.count
            if let max = maxLength, length > max { return "max_length" }
            if let min = minLength, length < min { return "min_length" }
            if let pattern, (try? pattern.wholeMatch(in: text)) == nil { return "pattern" }
            return nil
        }

        init(_ metadata: RuleMetadata) {
            maxLength = metadata.option("max_length")?.number.map { Int($0) }
            minLength = metadata.option("min_length")?.number.map { Int($0) }
            pattern = metadata.option("pattern")?.text.flatMap { try? Regex($0) }
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
