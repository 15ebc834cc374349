/// A value of a rule option: numbers, text, booleans or lists of text.
public enum OptionValue: Sendable, Hashable, CustomStringConvertible {
    case number(Double)
    case text(String)
    case flag(Bool)
    case list([String])

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var text: String? {
        switch self {
        case .text(let value): return value
        case .number(let value): return value.rounded() == value ? String(Int(value)) : String(value)
        case .flag(let value): return String(value)
        case .list(let values): return values.joined(separator: ", ")
        }
    }

    public var description: String { text ?? "" }

    init(_ tree: YAMLTree) throws(YAMLProblem) {
        switch tree {
        case .scalar(let scalar):
            if !scalar.isQuoted, let number = Double(scalar.text) {
                self = .number(number)
            } else if !scalar.isQuoted, let flag = DescriptorReader.boolean(scalar.text) {
                self = .flag(flag)
            } else {
                self = .text(scalar.text)
            }
        case .sequence(let items, _):
            self = .list(items.compactMap { $0.scalar?.text })
        case .mapping(_, let location):
            throw YAMLProblem(message: "an option value must be a number, text, `true`/`false` or a list", help: "write a plain value", location: location)
        }
    }
}

/// A declarative check: each item of a list in the descriptor, one field of it, and the
/// constraints (taken from the rule's options, so users can change them).
public struct DeclarativeCheck: Sendable, Hashable {
    /// Path to the list whose items are checked (`products`), or empty for the top level.
    public var each: String
    /// Path inside each item; `*` steps into every value of a mapping or item of a list.
    public var field: String
}

public enum RuleInput: String, Sendable {
    /// The descriptor and the files it points at.
    case descriptor
    /// Bulk product XML (App Store Package metadata.xml).
    case catalog
    /// StoreKit configuration files (.storekit) checked as catalogs.
    case storekit
}

/// What `rules.yaml` says about one rule. The single source of rule metadata: the Swift code of a
/// rule holds only its logic.
public struct RuleMetadata: Sendable {
    public var id: String
    public var checklist: String?
    public var severity: Severity
    public var title: String
    public var rationale: String
    public var help: String
    public var options: [(name: String, value: OptionValue)]
    /// Environments the rule applies in (all when empty).
    public var environments: [Environment]
    /// Why it does not apply elsewhere.
    public var notApplicableReason: String?
    public var check: DeclarativeCheck?
    /// Message and help templates of a declarative rule (`{value}`, `{length}`, `{field}`, `{product}`, options).
    public var messageTemplate: String?
    public var helpTemplate: String?
    public var notes: [String]
    public var triggering: [String]
    public var passing: [String]
    /// Where the entry is (rules.yaml or a configuration file), for configuration errors.
    public var location: SourceLocation
    /// What the rule reads: the descriptor (and the files it names), or bulk product XML catalogs.
    public var input: RuleInput = .descriptor
    /// For rules on `.storekit` files: the severity on a local file not synced with App Store
    /// Connect, where the store's limits are advice (the rule's own severity applies to synced files).
    public var unsyncedSeverity: Severity?
    /// Options the examples run with (a limit of 1,000 items cannot be shown in an example).
    public var exampleOptions: [(name: String, value: OptionValue)] = []

    public func option(_ name: String) -> OptionValue? {
        options.first { $0.name == name }?.value
    }

    public func applies(in environment: Environment) -> Bool {
        environments.isEmpty || environments.contains(environment)
    }
}

public struct RuleCatalog: Sendable {
    public var rules: [RuleMetadata]

    public init(rules: [RuleMetadata]) {
        self.rules = rules
    }

    public func rule(_ id: String) -> RuleMetadata? { rules.first { $0.id == id } }

    /// The text of the `rules.yaml` copy built into the binary.
    public static var builtinSource: String { BuiltinRulesYAML.text }

    /// The catalog that ships inside the binary (a copy of `rules.yaml`; a test keeps them equal).
    public static let builtin: RuleCatalog = {
        do {
            guard let tree = builtinTree else { fatalError("the embedded rules.yaml tree does not decode; run scripts/generate.sh") }
            return try RuleCatalog.parse(tree: tree, file: "rules.yaml")
        } catch {
            fatalError("the built-in rules.yaml does not parse: \(error)")
        }
    }()

    /// The built-in rules.yaml as composed by scripts/embed-rules.py (what the YAML reader would
    /// make of `builtinSource`, without composing it at every start).
    public static var builtinTree: YAMLTree? { BuiltinRulesTree.decode(BuiltinRulesYAML.tree, file: "rules.yaml") }

    /// Parses a `rules.yaml`-shaped list of rule entries.
    public static func parse(bytes: [UInt8], file: String) throws(ConfigurationError) -> RuleCatalog {
        let tree: YAMLTree?
        do {
            tree = try YAMLTreeReader.read(bytes: bytes, file: file).tree
        } catch {
            throw ConfigurationError(problems: [configProblem(error.message, help: error.help, at: error.location)])
        }
        return try parse(tree: tree, file: file)
    }

    /// Interprets a composed `rules.yaml`-shaped document.
    public static func parse(tree: YAMLTree?, file: String) throws(ConfigurationError) -> RuleCatalog {
        guard case .sequence(let items, _)? = tree else {
            throw ConfigurationError(problems: [
                configProblem("\(file) must be a list of rule entries", help: "start each entry with `- id: …`",
                              at: tree?.location ?? SourceLocation(file: file, line: 1, column: 1))
            ])
        }
        var problems: [Finding] = []
        var rules: [RuleMetadata] = []
        for item in items {
            if let rule = parseEntry(item, problems: &problems) {
                if rules.contains(where: { $0.id == rule.id }) {
                    problems.append(configProblem("rule `\(rule.id)` is declared twice", help: "keep one entry", at: rule.location))
                } else {
                    rules.append(rule)
                }
            }
        }
        if !problems.isEmpty { throw ConfigurationError(problems: problems) }
        return RuleCatalog(rules: rules)
    }

    static let entryKeys = [
        "id", "checklist", "severity", "title", "rationale", "help", "input", "options", "environments",
        "not_applicable", "check", "message", "notes", "examples", "example_options", "unsynced_severity",
    ]

    /// One entry; records problems and returns `nil` when the entry is unusable.
    static func parseEntry(_ node: YAMLTree, problems: inout [Finding]) -> RuleMetadata? {
        guard case .mapping(let pairs, let location) = node else {
            problems.append(configProblem("a rule entry must be a mapping", help: "write `- id: my-rule` and its keys", at: node.location))
            return nil
        }
        for (key, _) in pairs where !entryKeys.contains(key.text) {
            let suggestion = closestMatch(to: key.text, in: entryKeys).map { "; did you mean `\($0)`?" } ?? ""
            problems.append(configProblem("unknown key `\(key.text)` in a rule entry\(suggestion)",
                                          help: "the keys of a rule are \(entryKeys.map { "`\($0)`" }.joined(separator: ", "))",
                                          at: key.location))
        }
        func text(_ key: String) -> String? { node[key]?.scalar.map { $0.isNull ? nil : $0.text } ?? nil }
        guard let id = text("id"), !id.isEmpty else {
            problems.append(configProblem("a rule entry has no `id`", help: "add `id: lower-case-words`", at: location))
            return nil
        }
        var checklist: String?
        if let item = text("checklist") {
            if Checklist.ids.contains(item) {
                checklist = item
            } else {
                let suggestion = closestMatch(to: item, in: Checklist.items.map(\.id)).map { " (did you mean `\($0)`?)" } ?? ""
                problems.append(configProblem("rule `\(id)`: `\(item)` is not a checklist item\(suggestion)",
                                              help: "use one of the ids in the checklist, e.g. `product-metadata`",
                                              at: node["checklist"]!.location))
            }
        }
        var severity = Severity.error
        if let value = text("severity") {
            if let parsed = Severity(rawValue: value) {
                severity = parsed
            } else {
                problems.append(configProblem("rule `\(id)`: severity `\(value)` is not `error`, `warning` or `note`",
                                              help: "set `severity: error`, `warning` or `note`", at: node["severity"]!.location))
            }
        }
        func optionList(_ key: String) -> [(String, OptionValue)] {
            var options: [(String, OptionValue)] = []
            guard let optionsNode = node[key], case .mapping(let optionPairs, _) = optionsNode else { return [] }
            for (key, value) in optionPairs {
                do {
                    options.append((key.text, try OptionValue(value)))
                } catch {
                    problems.append(configProblem("rule `\(id)`, option `\(key.text)`: \(error.message)", help: error.help, at: error.location))
                }
            }
            return options
        }
        let options = optionList("options")
        var environments: [Environment] = []
        if case .sequence(let items, _)? = node["environments"] {
            for item in items {
                guard let name = item.scalar?.text, let environment = Environment(spelling: name) else {
                    problems.append(configProblem("rule `\(id)`: `\(item.scalar?.text ?? "?")` is not an environment",
                                                  help: "use \(Environment.choices)", at: item.location))
                    continue
                }
                environments.append(environment)
            }
        }
        var check: DeclarativeCheck?
        if let checkNode = node["check"] {
            let each = checkNode["each"]?.scalar?.text ?? ""
            if let field = checkNode["field"]?.scalar?.text, !field.isEmpty {
                check = DeclarativeCheck(each: each, field: field)
            } else {
                problems.append(configProblem("rule `\(id)`: `check` needs a `field`", help: "write `check: { each: products, field: product_id }`", at: checkNode.location))
            }
        }
        var notes: [String] = []
        if case .sequence(let items, _)? = node["notes"] { notes = items.compactMap { $0.scalar?.text } }
        func examples(_ key: String) -> [String] {
            guard case .sequence(let items, _)? = node["examples"]?[key] else { return [] }
            return items.compactMap { $0.scalar?.text }
        }
        var input = RuleInput.descriptor
        if let value = text("input") {
            if let parsed = RuleInput(rawValue: value) {
                input = parsed
            } else {
                problems.append(configProblem("rule `\(id)`: input `\(value)` is not `descriptor`, `catalog` or `storekit`",
                                              help: "set `input: catalog` for rules on bulk product XML", at: node["input"]!.location))
            }
        }
        var metadata = RuleMetadata(
            id: id, checklist: checklist, severity: severity, title: text("title") ?? id,
            rationale: text("rationale") ?? "", help: text("help") ?? "", options: options,
            environments: environments, notApplicableReason: text("not_applicable"), check: check,
            messageTemplate: text("message"), helpTemplate: text("help"), notes: notes,
            triggering: examples("triggering"), passing: examples("passing"), location: location)
        metadata.input = input
        if let value = text("unsynced_severity") {
            if let parsed = Severity(rawValue: value) {
                metadata.unsyncedSeverity = parsed
            } else {
                problems.append(configProblem("rule `\(id)`: unsynced_severity `\(value)` is not `error`, `warning` or `note`",
                                              help: "set `unsynced_severity: warning`", at: node["unsynced_severity"]!.location))
            }
        }
        metadata.exampleOptions = optionList("example_options")
        return metadata
    }

    static func configProblem(_ message: String, help: String, at location: SourceLocation) -> Finding {
        Finding(rule: "config-invalid", severity: .error, checklist: nil, message: message, help: help, location: location)
    }
}

/// Problems with a rules file or configuration: reported together, exit code 2.
public struct ConfigurationError: Error, Sendable {
    public var problems: [Finding]
}
