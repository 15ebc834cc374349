import IAPDoctor

/// Locale names are language codes with an optional region or script: `en-US`, `fi`, `zh-Hans`.
struct CatalogLocaleCodeRule: Rule {
    let id = "catalog-locale-code"

    static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...4).contains(part.count)
                && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        }
    }

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            let nodes = package.items.map(\.node) + package.groups.map(\.node)
            for node in nodes {
                for locale in node["locales"]?.children(named: "locale") ?? [] {
                    guard let name = locale.attribute("name"), !Self.isLocale(name) else { continue }
                    let fixed = name.replacingOccurrences(of: "_", with: "-")
                    findings.append(context.finding(
                        "locale `\(name)` is not a language code such as `en-US`, `fi` or `zh-Hans`",
                        at: package.location(of: locale),
                        help: Self.isLocale(fixed) ? "write it with a hyphen: `name=\"\(fixed)\"`" : "use the language code App Store Connect lists for this language",
                        product: node.child("product_id")?.text))
                }
            }
        }
        return context.outcomes(findings)
    }
}
