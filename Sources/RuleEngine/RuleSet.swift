import Formats
import Model
import Loaders

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

    var isText: Bool {
        if case .text = self { return true }
        return false
    }

    public var text: String? {
        switch self {
        case .text(let value): return value
        case .number(let value): return OptionValue.integer(value).map { String($0) } ?? String(value)
        case .flag(let value): return String(value)
        case .list(let values): return values.joined(separator: ", ")
        }
    }

    public var description: String { text ?? "" }

    /// `value` as an `Int` when it is a finite whole number well inside `Int`'s range, else nil:
    /// the one conversion of option numbers to integers (`Int(_:)` traps on `inf`, `nan` and 1e300).
    public static func integer(_ value: Double) -> Int? {
        guard value.isFinite, value.rounded(.towardZero) == value, value.magnitude < 1e15 else { return nil }
        return Int(value)
    }

    /// What an option of this name must hold, for the options iapdoctor itself reads.
    enum Kind {
        case integer(ClosedRange<Int>, unit: String)
        case hours(ClosedRange<Double>)
        case pattern
        case flag
    }

    static let kinds: [String: Kind] = [
        "max_length": .integer(0...1_000_000, unit: "characters"),
        "min_length": .integer(0...1_000_000, unit: "characters"),
        "max_items": .integer(1...1_000_000, unit: "items"),
        "sandbox_hours": .hours(0...8_760),
        "production_hours": .hours(0...8_760),
        "pattern": .pattern,
        "required": .flag,
    ]

    /// A configuration error when `value` (read from `node`) is not what option `name` of rule
    /// `rule` must hold; positioned at the value.
    static func problem(rule: String, name: String, value: OptionValue, node: YAMLTree, default fallback: OptionValue?) -> Finding? {
        guard let kind = kinds[name] else { return nil }
        let written = node.scalar?.text ?? value.description
        func refuse(_ expected: String, _ help: String) -> Finding {
            RuleSet.configProblem("rule `\(rule)`, option `\(name)`: `\(written)` is not \(expected)", help: help, at: node.location)
        }
        func grouped(_ n: Int) -> String {
            let digits = String(n)
            var out = ""
            for (k, c) in digits.enumerated() {
                if k > 0, (digits.count - k) % 3 == 0 { out.append(",") }
                out.append(c)
            }
            return out
        }
        switch kind {
        case .integer(let range, let unit):
            if case .number(let number) = value, let n = integer(number), range.contains(n) { return nil }
            let example = fallback?.number.flatMap(integer).map(String.init) ?? String(range.lowerBound)
            return refuse("a whole number of \(unit) from \(grouped(range.lowerBound)) to \(grouped(range.upperBound))",
                          "write a whole number in that range, e.g. `\(name): \(example)`")
        case .hours(let range):
            if case .number(let number) = value, range.contains(number) { return nil }
            let example = fallback?.text ?? "1"
            return refuse("a number of hours from \(Int(range.lowerBound)) to \(grouped(Int(range.upperBound))) (a year)",
                          "write a number of hours in that range, e.g. `\(name): \(example)`")
        case .flag:
            if case .flag = value { return nil }
            return refuse("`true` or `false`", "write `\(name): true` or `\(name): false`")
        case .pattern:
            guard let text = value.text, value.number != nil || value.isText else {
                return refuse("a pattern", "write the pattern as quoted text, e.g. `\(name): '[A-Za-z0-9._-]+'`")
            }
            do throws(LinearPattern.Problem) {
                _ = try LinearPattern.shared(text)
                return nil
            } catch {
                return RuleSet.patternProblem(rule, text, error, at: node.location)
            }
        }
    }

    init(_ tree: YAMLTree) throws(YAMLProblem) {
        switch tree {
        case .scalar(let scalar):
            // Only finite numbers are numbers: `inf`, `nan` and `1e999` stay text (and a numeric
            // option refuses them), so no conversion of an option can trap.
            if !scalar.isQuoted, let number = Double(scalar.text), number.isFinite {
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

/// How settled a rule is: a preview rule's messages, severity or id may change in a minor release.
public enum RuleStatus: String, Sendable {
    case stable, preview
}

public enum RuleInput: String, Sendable {
    /// The descriptor and the files it points at.
    case descriptor
    /// Bulk product XML (App Store Package metadata.xml).
    case catalog
    /// StoreKit configuration files (.storekit) checked as catalogs.
    case storekit
    /// An App Store Connect snapshot (`--asc`, `app_store_connect.snapshot`) beside the descriptor.
    case asc
    /// A built app: an `.xcarchive` or `.app` on the command line.
    case build
}

/// What `rules.yaml` says about one rule. The single source of rule metadata: the Swift code of a
/// rule holds only its logic.
public struct RuleMetadata: Sendable {
    public var id: String
    public var checklist: String?
    /// The severity in force (a configuration may have changed it).
    public var severity: Severity
    /// The severity the rule's own entry gives, whatever a configuration says.
    public var defaultSeverity: Severity
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
    /// For rules on `.storekit` files (`store_limit: true`): the rule judges a limit of App Store
    /// Connect, not of Xcode. A file the app's Run uses decides nothing there (a synced file's
    /// metadata is App Store Connect's own, judged in the snapshot; a local one Xcode serves
    /// anyway), so only files checked on their own are judged.
    public var judgesStoreLimit = false
    /// Options the examples run with (a limit of 1,000 items cannot be shown in an example).
    public var exampleOptions: [(name: String, value: OptionValue)] = []
    /// The iapdoctor version that introduced the rule.
    public var since: String?
    /// `preview`: its findings or its id may still change; `stable`: they will not.
    public var status: RuleStatus = .stable
    /// Its findings are context for its checklist item, not an answer to the item's question (a
    /// secret in a file, a call site whose IDs are not spelled out, two sources that disagree
    /// where the other rules judge the value that wins): the item and the verdicts stay as the
    /// other rules answer them. A rule without it answers "no" with every finding.
    public var contextOnly = false
    /// What `check --fix` does for its findings, and when it is safe (`fix:` in rules.yaml); nil
    /// when its findings carry no fix.
    public var fix: String?

    public func option(_ name: String) -> OptionValue? {
        options.first { $0.name == name }?.value
    }

    public func applies(in environment: Environment) -> Bool {
        environments.isEmpty || environments.contains(environment)
    }
}

/// The rules a run knows: `rules.yaml`'s, with a configuration's changes and custom rules.
public struct RuleSet: Sendable {
    public var rules: [RuleMetadata]

    public init(rules: [RuleMetadata]) {
        self.rules = rules
    }

    public func rule(_ id: String) -> RuleMetadata? { rules.first { $0.id == id } }

    /// The text of the `rules.yaml` copy built into the binary.
    public static var builtinSource: String { BuiltinRulesYAML.text }

    /// The rule set that ships inside the binary (a copy of `rules.yaml`; a test keeps them equal).
    public static let builtin: RuleSet = {
        do {
            guard let tree = builtinTree else { fatalError("the embedded rules.yaml tree does not decode; run scripts/generate.sh") }
            return try RuleSet.parse(tree: tree, file: "rules.yaml")
        } catch {
            fatalError("the built-in rules.yaml does not parse: \(error)")
        }
    }()

    /// The built-in rules.yaml as composed by scripts/embed-rules.py (what the YAML reader would
    /// make of `builtinSource`, without composing it at every start).
    public static var builtinTree: YAMLTree? { BuiltinRulesTree.decode(BuiltinRulesYAML.tree, file: "rules.yaml") }

    /// Parses a `rules.yaml`-shaped list of rule entries.
    public static func parse(bytes: [UInt8], file: String) throws(ConfigurationError) -> RuleSet {
        let tree: YAMLTree?
        do {
            tree = try YAMLTreeReader.read(bytes: bytes, file: file).tree
        } catch {
            throw ConfigurationError(problems: [configProblem(error.message, help: error.help, at: error.location)])
        }
        return try parse(tree: tree, file: file)
    }

    /// Interprets a composed `rules.yaml`-shaped document.
    public static func parse(tree: YAMLTree?, file: String) throws(ConfigurationError) -> RuleSet {
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
        return RuleSet(rules: rules)
    }

    static let entryKeys = [
        "id", "checklist", "severity", "title", "rationale", "help", "input", "options", "environments",
        "not_applicable", "check", "message", "notes", "examples", "example_options", "store_limit", "since", "status",
        "context_only", "fix",
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
                    let option = try OptionValue(value)
                    if let problem = OptionValue.problem(rule: id, name: key.text, value: option, node: value, default: nil) {
                        problems.append(problem)
                        continue
                    }
                    options.append((key.text, option))
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
                problems.append(configProblem("rule `\(id)`: input `\(value)` is not `descriptor`, `catalog`, `storekit` or `asc`",
                                              help: "set `input: catalog` for rules on bulk product XML", at: node["input"]!.location))
            }
        }
        var metadata = RuleMetadata(
            id: id, checklist: checklist, severity: severity, defaultSeverity: severity, title: text("title") ?? id,
            rationale: text("rationale") ?? "", help: text("help") ?? "", options: options,
            environments: environments, notApplicableReason: text("not_applicable"), check: check,
            messageTemplate: text("message"), helpTemplate: text("help"), notes: notes,
            triggering: examples("triggering"), passing: examples("passing"), location: location)
        metadata.input = input
        if let value = text("store_limit") {
            if let flag = DescriptorReader.boolean(value) {
                metadata.judgesStoreLimit = flag
            } else {
                problems.append(configProblem("rule `\(id)`: store_limit `\(value)` is not `true` or `false`",
                                              help: "set `store_limit: true` for a rule that judges App Store Connect's limits in a .storekit file", at: node["store_limit"]!.location))
            }
        }
        if let value = text("context_only") {
            if let flag = DescriptorReader.boolean(value) {
                metadata.contextOnly = flag
            } else {
                problems.append(configProblem("rule `\(id)`: context_only `\(value)` is not `true` or `false`",
                                              help: "set `context_only: true` for a rule whose findings do not answer its item's question", at: node["context_only"]!.location))
            }
        }
        metadata.fix = text("fix")
        metadata.exampleOptions = optionList("example_options")
        metadata.since = text("since")
        if let value = text("status") {
            if let parsed = RuleStatus(rawValue: value) {
                metadata.status = parsed
            } else {
                problems.append(configProblem("rule `\(id)`: status `\(value)` is not `stable` or `preview`",
                                              help: "set `status: preview` for a rule whose findings may still change", at: node["status"]!.location))
            }
        }
        return metadata
    }

    static func configProblem(_ message: String, help: String, at location: SourceLocation) -> Finding {
        Finding(rule: RuleID.configInvalid.rawValue, severity: .error, checklist: nil, message: message, help: help, location: location)
    }
}

/// Problems with a rules file or configuration: reported together, exit code 2.
public struct ConfigurationError: Error, Sendable {
    public var problems: [Finding]

    public init(problems: [Finding]) {
        self.problems = problems
    }
}
