import Formats
import Model
import Loaders
import RuleEngine

/// Documentation generated from a rule's own metadata and examples (ShellCheck's Problematic /
/// Correct pages): `docs/rules/<id>.md` and `iapdoctor explain <id>`.
public enum RuleDocs {
    public static func page(for rule: RuleMetadata) -> String {
        var out = "# `\(rule.id)`: \(rule.title)\n\n"
        var facts = ["Severity: `\(rule.severity.rawValue)`"]
        if let item = rule.checklist, let entry = Checklist.item(item) {
            facts.append("Checklist item \(entry.number): `\(item)` (\(entry.question))")
            facts.append(answerFact(rule, advice: entry.isAdvice))
        } else {
            facts.append("Reports a problem with an input or the configuration (exit code 2 when it is an error)")
        }
        if !rule.environments.isEmpty {
            facts.append("Environments: \(rule.environments.map { "`\($0.rawValue)`" }.joined(separator: ", "))")
        }
        if rule.input == .catalog { facts.append("Reads: bulk product XML (`metadata.xml`, `.itmsp`)") }
        if rule.input == .storekit { facts.append("Reads: StoreKit configuration files (`.storekit`)") }
        if rule.input == .asc { facts.append("Reads: an App Store Connect snapshot (`--asc`, `app_store_connect.snapshot`; `iapdoctor asc pull` writes one)") }
        if rule.input == .build { facts.append("Reads: a built app (an `.xcarchive`, `.app` or `.ipa`, on the command line or as `app.build`)") }
        if rule.check != nil { facts.append("Declarative: interpreted from `rules.yaml`") }
        if let since = rule.since { facts.append("Since: iapdoctor \(since)") }
        if rule.status == .preview { facts.append("Status: preview (its messages, severity or id may still change)") }
        out += facts.map { "- \($0)" }.joined(separator: "\n") + "\n\n"
        out += "## Rationale\n\n\(rule.rationale)\n\n"
        if let reason = rule.notApplicableReason, !rule.environments.isEmpty {
            out += "Elsewhere it is `not_applicable`: \(reason).\n\n"
        }
        if rule.input == .storekit { out += whereItApplies(rule) }
        let language = rule.input == .catalog ? "xml" : (rule.input == .storekit || rule.input == .asc ? "json" : "yaml")
        if !rule.triggering.isEmpty {
            out += "## Problematic\n\n"
            if rule.input == .catalog {
                out += "Each snippet sits in the `<in_app_purchases>` of a software5.12 package (unless it is a whole document).\n\n"
            } else if rule.input == .storekit {
                out += "Each snippet is the `products` array of a .storekit file (unless it is a whole file).\n\n"
            } else if rule.input == .build {
                out += "Each snippet describes a built app, which the example writes as an `.xcarchive` (or, with `export: ipa`, an exported `.ipa`): the bundle ID and minimum OS its Info.plist has, how it is signed (`development` or `app_store`: the embedded profile and the signed entitlements), the string constants of its executable (`strings`), files copied into it, and product ID lists it ships (`lists`) beside the repository's lists of the same names (`repository_lists`). It is checked beside [`examples/healthy/project.yaml`](../../examples/healthy/project.yaml) (with the descriptor changes shown first, where there are some).\n\n"
            } else if rule.input == .asc {
                out += "Each snippet is an App Store Connect snapshot read beside [`examples/healthy/project.yaml`](../../examples/healthy/project.yaml) (with the descriptor changes shown first, where there are some).\n\n"
            } else {
                out += "Each snippet is applied on top of [`examples/healthy/project.yaml`](../../examples/healthy/project.yaml).\n\n"
            }
            if !rule.exampleOptions.isEmpty {
                out += "These examples run with \(rule.exampleOptions.map { "`\($0.name): \($0.value)`" }.joined(separator: ", ")).\n\n"
            }
            for example in rule.triggering { out += block(example, language: language) }
        }
        if !rule.passing.isEmpty {
            out += "## Correct\n\n"
            for example in rule.passing { out += block(example, language: language) }
        }
        let help = DeclarativeRule.fill(rule.help, fields: [:], metadata: rule)
        out += "## How to fix\n\n\(help.isEmpty ? "See the finding's `help`." : help)\n\n"
        if !rule.options.isEmpty {
            out += "## Options\n\n| option | default |\n| --- | --- |\n"
            for option in rule.options { out += "| `\(option.name)` | `\(option.value)` |\n" }
            out += "\n"
        }
        if let fix = rule.fix {
            out += "## Automatic fix\n\n`iapdoctor check --fix` applies it (`--fix --diff` shows it first): \(fix)\n\n"
        }
        out += "## How to suppress\n\n"
        out += "In `.iapdoctor.yml` beside the descriptor (or the file given with `--rules`):\n\n"
        out += "```yaml\nrules:\n  \(rule.id): off        # or note, warning, error\n```\n"
        return out
    }

    /// The three kinds of `.storekit` file a check meets, and what the rule does with each.
    static func storeKitUses(_ rule: RuleMetadata) -> [(file: String, judged: String)] {
        let severity = "`\(rule.severity.rawValue)`"
        let notJudged = "not judged"
        return [
            ("synced with App Store Connect, used by the app's Run", rule.judgesStoreLimit ? "\(notJudged): its metadata is App Store Connect's, judged in the snapshot" : severity),
            ("local (not synced), used by the app's Run", rule.judgesStoreLimit ? "\(notJudged): Xcode serves its products whatever the store would accept" : severity),
            ("checked on its own (on the command line, or the descriptor's when the scheme uses another)", severity),
        ]
    }

    /// A `.storekit` rule's table: which files it judges. The environment does not change it.
    static func whereItApplies(_ rule: RuleMetadata) -> String {
        var out = "## Where it applies\n\n| the .storekit file is | this rule |\n| --- | --- |\n"
        for use in storeKitUses(rule) { out += "| \(use.file) | \(use.judged) |\n" }
        out += "\nThe same in every environment: the file the scheme names is what Xcode serves when it runs the app, whatever the descriptor's `environment`.\n\n"
        return out
    }

    /// What a finding of the rule does to its item and to the products it names.
    static func answerFact(_ rule: RuleMetadata, advice: Bool) -> String {
        if rule.contextOnly {
            return "A finding is context for the item, not an answer: the item and the verdicts stay as the other rules answer them"
        }
        let item = rule.severity == .error ? "`fail`" : "`warn`"
        let verdict: String
        switch rule.severity {
        case _ where advice: verdict = "; community advice, so no product's verdict changes"
        case .error: verdict = "; the product it names (or every product, for the whole app) is `invalid`"
        case .warning: verdict = "; the product it names (or every product) is `at_risk`"
        case .note: verdict = "; a note leaves the verdicts alone"
        }
        return "A finding answers the item \"no\": it is \(item)\(verdict)"
    }

    /// One checklist item's page (`iapdoctor explain 10`, `explain bank-details`): its question
    /// and the rules that answer it, each with its severity and what it finds.
    public static func page(for item: ChecklistItem, in ruleSet: RuleSet) -> String {
        var out = "# \(item.number). \(item.id)\n\n\(item.question)\n\n"
        let rules = ruleSet.rules.filter { $0.checklist == item.id }
        if rules.isEmpty {
            out += "No rule answers this item from the files: it is asked as a question.\n"
            return out
        }
        out += "Answered by \(rules.count) rule\(rules.count == 1 ? "" : "s"); `iapdoctor explain RULE` prints one's page.\n\n"
        out += "| rule | severity | what it finds |\n| --- | --- | --- |\n"
        for rule in rules { out += "| `\(rule.id)` | \(rule.severity.rawValue) | \(rule.title) |\n" }
        return out
    }

    /// The index page: every rule with its checklist item and severity.
    public static func index(for ruleSet: RuleSet) -> String {
        var out = "# iapdoctor rules\n\nGenerated from `rules.yaml` by `scripts/generate.sh`; do not edit.\n\n"
        out += "| rule | checklist item | severity | what it finds |\n| --- | --- | --- | --- |\n"
        for rule in ruleSet.rules {
            out += "| [`\(rule.id)`](\(rule.id).md) | \(rule.checklist.map { "`\($0)`" } ?? "(inputs)") | \(rule.severity.rawValue) | \(rule.title) |\n"
        }
        let storeKitRules = ruleSet.rules.filter { $0.input == .storekit }
        if !storeKitRules.isEmpty {
            out += "\n## StoreKit configuration files: what is judged where\n\n"
            out += "A `.storekit` file decides what Xcode serves when it runs the app; App Store Connect's limits are judged where App Store Connect's data is (the snapshot), and in a file checked on its own. The environment does not change the table.\n\n"
            out += "| rule | synced, used by the Run | local, used by the Run | checked on its own |\n| --- | --- | --- | --- |\n"
            for rule in storeKitRules {
                let cells = storeKitUses(rule).map { $0.judged.hasPrefix("not judged") ? "—" : $0.judged }
                out += "| [`\(rule.id)`](\(rule.id).md) | \(cells.joined(separator: " | ")) |\n"
            }
        }
        return out
    }

    /// An example as a fenced block; an App Store Connect example's descriptor overlay (before a
    /// `---` line) gets a YAML block of its own.
    static func block(_ example: String, language: String) -> String {
        if let (overlay, snapshot) = ascExampleParts(example) {
            return "```yaml\n\(strip(overlay))```\n\n```\(language)\n\(strip(snapshot))```\n\n"
        }
        return "```\(language)\n\(strip(example))```\n\n"
    }

    /// An `input: asc` example's descriptor overlay and snapshot, when it has an overlay.
    public static func ascExampleParts(_ example: String) -> (overlay: String, snapshot: String)? {
        guard let range = example.range(of: "\n---\n") else { return nil }
        return (String(example[..<range.lowerBound]) + "\n", String(example[range.upperBound...]))
    }

    /// An example without its `# <-` position marker.
    static func strip(_ example: String) -> String {
        example.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let range = line.range(of: "   # <-") ?? line.range(of: " # <-") ?? line.range(of: "   <!-- <- -->")
                ?? line.range(of: " <!-- <- -->") ?? line.range(of: "   // <-")
            else { return String(line) }
            return String(line[..<range.lowerBound])
        }.joined(separator: "\n")
    }
}
