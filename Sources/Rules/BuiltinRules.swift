import Formats
import Model
import Loaders
import RuleEngine

/// The built-in rules. `all` (in `Generated/BuiltinRuleList.swift`) is written by
/// scripts/embed-rules.py from the rule files under Sources/Rules, so adding a rule's file and its
/// rules.yaml entry registers it.
public enum BuiltinRules {
    /// The engine with the built-in rule set and rules.
    public static func engine(ruleSet: RuleSet = .builtin) -> Engine {
        Engine(ruleSet: ruleSet, rules: all)
    }
}
