import Formats
import Model
import Loaders
import RuleEngine

/// Auto-renewable subscriptions belong inside a `family` (before 5.7) or `subscription_group`, and
/// only they do.
struct CatalogSubscriptionGroupRule: Rule {
    let id = RuleID.catalogSubscriptionOutsideGroup.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            let container = (package.versionNumber?.minor ?? 12) >= CatalogSchema.firstGroupMinor ? "subscription_group" : "family"
            for item in package.items {
                guard let type = item.type else { continue }
                let isAutoRenewable = type.value == "auto-renewable"
                if isAutoRenewable, item.group == nil {
                    findings.append(context.finding(
                        "auto-renewable subscription `\(item.name)` is not inside a `<\(container)>`",
                        at: type.location,
                        help: "move this `<in_app_purchase>` into a `<\(container) name=\"…\">` with its localized display name",
                        notes: ["every auto-renewable subscription belongs to exactly one group"], product: item.productID?.value))
                } else if !isAutoRenewable, let group = item.group {
                    findings.append(context.finding(
                        "`\(item.name)` is a `\(type.value)` item inside `<\(package.groups[group].kind.rawValue)>`, which holds auto-renewable subscriptions only",
                        at: type.location,
                        help: "move it directly under `<in_app_purchases>`, or set `<type>auto-renewable</type>` if it is a subscription",
                        product: item.productID?.value))
                }
            }
        }
        return context.outcomes(findings)
    }
}
