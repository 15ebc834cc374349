import Formats
import Model
import Loaders

/// A project's rule configuration (`--rules FILE`, or `.iapdoctor.yml` beside the descriptor):
///
/// ```yaml
/// rules:
///   product-id-typo: warning              # error | warning | note | off
///   display-name-length:
///     severity: error
///     options: { max_length: 35 }
/// ignore:                                 # findings accepted by rule and/or path (see Suppressions)
///   - { rule: short-product-id, path: "Legacy/*", reason: the old store, retired in 3.0 }
/// custom_rules:                           # declarative rules, same shape as rules.yaml entries
///   - id: product-id-prefix
///     checklist: product-metadata
///     severity: error
///     title: product IDs start with the bundle ID
///     check: { each: products, field: product_id }
///     options: { pattern: '^com\.acme\.' }
///     message: "product ID `{value}` does not start with `com.acme.`"
///     help: "rename the product ID to start with `com.acme.`"
/// ```
public struct Configuration: Sendable {
    public struct Override: Sendable {
        /// `nil` keeps the rule's default; `.some(nil)` turns it off.
        public var severity: Severity??
        public var options: [(name: String, value: OptionValue)]
        public var location: SourceLocation
    }

    public var file: String?
    public var overrides: [String: Override] = [:]
    public var customRules: [RuleMetadata] = []
    /// `ignore:` entries, in order.
    public var ignores: [Suppressions.Ignore] = []

    public init() {}

    public static let defaultFileName = ".iapdoctor.yml"

    /// Reads a configuration from the bytes of `file` (``load(path:ruleSet:)``, in IAPDoctor, reads
    /// the file). Every problem is collected; any makes the run stop with exit 2.
    public static func parse(bytes: [UInt8], file: String, ruleSet: RuleSet) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        configuration.file = file
        let tree: YAMLTree?
        do {
            tree = try YAMLTreeReader.read(bytes: bytes, file: file).tree
        } catch {
            throw ConfigurationError(problems: [
                Finding(rule: RuleID.configInvalid.rawValue, severity: .error, checklist: nil, message: error.message, help: error.help, location: error.location)
            ])
        }
        guard let tree else { return configuration }
        var problems: [Finding] = []
        func problem(_ message: String, help: String, at location: SourceLocation) {
            problems.append(RuleSet.configProblem(message, help: help, at: location))
        }
        guard case .mapping(let pairs, _) = tree else {
            throw ConfigurationError(problems: [
                RuleSet.configProblem("the configuration must be a mapping with `rules:` and `custom_rules:`",
                                          help: "start with `rules:`", at: tree.location)
            ])
        }
        let knownIDs = ruleSet.rules.map(\.id)
        for (key, value) in pairs {
            switch key.text {
            case "rules":
                guard case .mapping(let rulePairs, _) = value else {
                    problem("`rules` must be a mapping from rule id to a severity or `{ severity, options }`",
                            help: "write `rules:` then `  rule-id: warning`", at: value.location)
                    continue
                }
                for (ruleKey, setting) in rulePairs {
                    guard let metadata = ruleSet.rule(ruleKey.text) else {
                        let suggestion = closestMatch(to: ruleKey.text, in: knownIDs).map { "; did you mean `\($0)`?" } ?? ""
                        problem("unknown rule `\(ruleKey.text)`\(suggestion)",
                                help: "`iapdoctor rules` lists every rule id", at: ruleKey.location)
                        continue
                    }
                    var override = Override(severity: nil, options: [], location: ruleKey.location)
                    var severityNode: YAMLTree? = setting
                    if case .mapping(let settingPairs, _) = setting {
                        severityNode = setting["severity"]
                        for (settingKey, _) in settingPairs where settingKey.text != "severity" && settingKey.text != "options" {
                            problem("unknown key `\(settingKey.text)` for rule `\(ruleKey.text)`",
                                    help: "a rule setting has `severity` and `options`", at: settingKey.location)
                        }
                        if let optionsNode = setting["options"] {
                            if case .mapping(let optionPairs, _) = optionsNode {
                                for (optionKey, optionValue) in optionPairs {
                                    guard metadata.option(optionKey.text) != nil else {
                                        let names = metadata.options.map { "`\($0.name)`" }.joined(separator: ", ")
                                        problem("rule `\(ruleKey.text)` has no option `\(optionKey.text)`",
                                                help: names.isEmpty ? "this rule has no options" : "its options are \(names)",
                                                at: optionKey.location)
                                        continue
                                    }
                                    do {
                                        let option = try OptionValue(optionValue)
                                        if let invalid = OptionValue.problem(
                                            rule: ruleKey.text, name: optionKey.text, value: option, node: optionValue,
                                            default: metadata.option(optionKey.text)) {
                                            problems.append(invalid)
                                            continue
                                        }
                                        override.options.append((optionKey.text, option))
                                    } catch {
                                        problem(error.message, help: error.help, at: error.location)
                                    }
                                }
                            } else {
                                problem("`options` must be a mapping", help: "write `options: { name: value }`", at: optionsNode.location)
                            }
                        }
                    }
                    if let severityNode, let text = severityNode.scalar?.text {
                        if text == "off" || text == "false" {
                            override.severity = .some(nil)
                        } else if let severity = Severity(rawValue: text) {
                            override.severity = .some(severity)
                        } else {
                            problem("`\(text)` is not a severity for rule `\(ruleKey.text)`",
                                    help: "use `error`, `warning`, `note` or `off`", at: severityNode.location)
                        }
                    }
                    configuration.overrides[ruleKey.text] = override
                }
            case "custom_rules":
                guard case .sequence(let items, _) = value else {
                    problem("`custom_rules` must be a list of rule entries", help: "start each with `- id: …`", at: value.location)
                    continue
                }
                for item in items {
                    guard let rule = RuleSet.parseEntry(item, problems: &problems) else { continue }
                    if ruleSet.rule(rule.id) != nil || configuration.customRules.contains(where: { $0.id == rule.id }) {
                        problem("custom rule `\(rule.id)` has the id of an existing rule", help: "choose another id", at: rule.location)
                    } else if rule.check == nil {
                        problem("custom rule `\(rule.id)` has no `check`; custom rules are declarative",
                                help: "add `check: { each: products, field: product_id }` and constraint options (`pattern`, `max_length`, `min_length`, `required`)",
                                at: rule.location)
                    } else if rule.messageTemplate == nil {
                        problem("custom rule `\(rule.id)` has no `message`", help: "add `message: \"…{value}…\"`", at: rule.location)
                    } else {
                        configuration.customRules.append(rule)
                    }
                }
            case "ignore":
                guard case .sequence(let items, _) = value else {
                    problem("`ignore` must be a list of `{ rule, path, reason }` entries", help: "start each with `- rule: …`", at: value.location)
                    continue
                }
                for item in items {
                    guard case .mapping(let entryPairs, _) = item else {
                        problem("an `ignore` entry must be a mapping with `rule` and/or `path`, and `reason`",
                                help: "write `- { rule: short-product-id, path: \"Legacy/*\", reason: … }`", at: item.location)
                        continue
                    }
                    var ignore = Suppressions.Ignore(rule: nil, path: nil, reason: nil, location: item.location)
                    for (entryKey, entryValue) in entryPairs {
                        guard let text = entryValue.scalar?.text, !text.isEmpty else {
                            problem("`\(entryKey.text)` must be a string", help: "write `\(entryKey.text): …`", at: entryValue.location)
                            continue
                        }
                        switch entryKey.text {
                        case "rule":
                            if ruleSet.rule(text) == nil {
                                let suggestion = closestMatch(to: text, in: knownIDs).map { "; did you mean `\($0)`?" } ?? ""
                                problem("unknown rule `\(text)`\(suggestion)", help: "`iapdoctor rules` lists every rule id", at: entryValue.location)
                            }
                            ignore.rule = text
                        case "path": ignore.path = text
                        case "reason": ignore.reason = text
                        default:
                            problem("unknown key `\(entryKey.text)` in an `ignore` entry",
                                    help: "an entry has `rule`, `path` and `reason`", at: entryKey.location)
                        }
                    }
                    if ignore.rule == nil && ignore.path == nil {
                        problem("an `ignore` entry needs a `rule`, a `path`, or both", help: "add `rule: RULE-ID` or `path: \"folder/*\"`", at: item.location)
                        continue
                    }
                    configuration.ignores.append(ignore)
                }
            default:
                let suggestion = closestMatch(to: key.text, in: ["rules", "custom_rules", "ignore"]).map { "; did you mean `\($0)`?" } ?? ""
                problem("unknown key `\(key.text)` in the configuration\(suggestion)",
                        help: "the configuration has `rules`, `custom_rules` and `ignore`", at: key.location)
            }
        }
        if !problems.isEmpty { throw ConfigurationError(problems: problems) }
        return configuration
    }

    /// The catalog with this configuration applied: overridden severities and options, rules turned
    /// off removed, custom rules added.
    public func apply(to ruleSet: RuleSet) -> (ruleSet: RuleSet, disabled: [String]) {
        var rules: [RuleMetadata] = []
        var disabled: [String] = []
        for var rule in ruleSet.rules + customRules {
            if let override = overrides[rule.id] {
                if let severity = override.severity {
                    guard let severity else {
                        disabled.append(rule.id)
                        continue
                    }
                    rule.severity = severity
                }
                for (name, value) in override.options {
                    if let index = rule.options.firstIndex(where: { $0.name == name }) {
                        rule.options[index].value = value
                    }
                }
            }
            rules.append(rule)
        }
        return (RuleSet(rules: rules), disabled)
    }
}
