import IAPDoctor

/// Template values left in a package: `{SKU}`, `{team_id}`, `xxxxx`, `YOUR_…`.
struct CatalogPlaceholderRule: Rule {
    let id = "catalog-placeholder"

    /// The placeholder in `text`, if it has one.
    static func placeholder(in text: String) -> String? {
        if let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}"),
            text.distance(from: open, to: close) > 1
        {
            let inner = text[text.index(after: open)..<close]
            if inner.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) {
                return String(text[open...close])
            }
        }
        let lower = text.lowercased()
        if lower.contains("xxxxx") { return "xxxxx" }
        for marker in ["your_", "your-", "todo:", "changeme", "replace_me", "lorem ipsum"] where lower.contains(marker) {
            return marker
        }
        return nil
    }

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            package.root.forEachDescendant { node in
                // The metadata token has its own rule.
                guard node.children.isEmpty, node.name != "metadata_token" else { return }
                var texts = [(node.text, node.name)]
                texts += node.attributes.map { ($0.value, "\(node.name)@\($0.name)") }
                for (text, place) in texts {
                    guard let marker = Self.placeholder(in: text) else { continue }
                    let whole = text == marker ? "" : " (`\(text)`)"
                    findings.append(context.finding(
                        "`<\(place)>` still holds the placeholder `\(marker)`\(whole)",
                        at: package.location(of: node), help: "replace the template value with the real one"))
                    break
                }
            }
        }
        return context.outcomes(findings)
    }
}
