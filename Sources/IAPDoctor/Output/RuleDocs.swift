/// Documentation generated from a rule's own metadata and examples (ShellCheck's Problematic /
/// Correct pages): `docs/rules/<id>.md` and `iapdoctor explain <id>`.
public enum RuleDocs {
    public static func page(for rule: RuleMetadata) -> String {
        var out = "# `\(rule.id)`: \(rule.title)\n\n"
        var facts = ["Severity: `\(rule.severity.rawValue)`"]
        if let item = rule.checklist, let entry = Checklist.item(item) {
            facts.append("Checklist item \(entry.number): `\(item)` (\(entry.question))")
        } else {
            facts.append("Reports a problem with an input or the configuration (exit code 2 when it is an error)")
        }
        if !rule.environments.isEmpty {
            facts.append("Environments: \(rule.environments.map { "`\($0.rawValue)`" }.joined(separator: ", "))")
        }
        if rule.input == .catalog { facts.append("Reads: bulk product XML (`metadata.xml`, `.itmsp`)") }
        if rule.input == .storekit { facts.append("Reads: StoreKit configuration files (`.storekit`)") }
        if rule.check != nil { facts.append("Declarative: interpreted from `rules.yaml`") }
        out += facts.map { "- \($0)" }.joined(separator: "\n") + "\n\n"
        out += "## Rationale\n\n\(rule.rationale)\n\n"
        if let reason = rule.notApplicableReason, !rule.environments.isEmpty {
            out += "Elsewhere it is `not_applicable`: \(reason).\n\n"
        }
        let language = rule.input == .catalog ? "xml" : (rule.input == .storekit ? "json" : "yaml")
        if !rule.triggering.isEmpty {
            out += "## Problematic\n\n"
            if rule.input == .catalog {
                out += "Each snippet sits in the `<in_app_purchases>` of a software5.12 package (unless it is a whole document).\n\n"
            } else if rule.input == .storekit {
                out += "Each snippet is the `products` array of a .storekit file (unless it is a whole file).\n\n"
            } else {
                out += "Each snippet is applied on top of [`examples/healthy/project.yaml`](../../examples/healthy/project.yaml).\n\n"
            }
            if !rule.exampleOptions.isEmpty {
                out += "These examples run with \(rule.exampleOptions.map { "`\($0.name): \($0.value)`" }.joined(separator: ", ")).\n\n"
            }
            for example in rule.triggering { out += "```\(language)\n\(strip(example))```\n\n" }
        }
        if !rule.passing.isEmpty {
            out += "## Correct\n\n"
            for example in rule.passing { out += "```\(language)\n\(strip(example))```\n\n" }
        }
        let help = DeclarativeRule.fill(rule.help, fields: [:], metadata: rule)
        out += "## How to fix\n\n\(help.isEmpty ? "See the finding's `help`." : help)\n\n"
        if !rule.options.isEmpty {
            out += "## Options\n\n| option | default |\n| --- | --- |\n"
            for option in rule.options { out += "| `\(option.name)` | `\(option.value)` |\n" }
            out += "\n"
        }
        out += "## How to suppress\n\n"
        out += "In `.iapdoctor.yml` beside the descriptor (or the file given with `--rules`):\n\n"
        out += "```yaml\nrules:\n  \(rule.id): off        # or note, warning, error\n```\n"
        return out
    }

    /// The index page: every rule with its checklist item and severity.
    public static func index(for catalog: RuleCatalog) -> String {
        var out = "# iapdoctor rules\n\nGenerated from `rules.yaml` by `scripts/generate.sh`; do not edit.\n\n"
        out += "| rule | checklist item | severity | what it finds |\n| --- | --- | --- | --- |\n"
        for rule in catalog.rules {
            out += "| [`\(rule.id)`](\(rule.id).md) | \(rule.checklist.map { "`\($0)`" } ?? "(inputs)") | \(rule.severity.rawValue) | \(rule.title) |\n"
        }
        return out
    }

    /// An example without its `# <-` position marker.
    static func strip(_ example: String) -> String {
        example.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let range = line.range(of: "   # <-") ?? line.range(of: " # <-") ?? line.range(of: "   <!-- <- -->")
                ?? line.range(of: " <!-- <- -->")
            else { return String(line) }
            return String(line[..<range.lowerBound])
        }.joined(separator: "\n")
    }
}
