import Formats
import Model
import Loaders
import RuleEngine

/// Auto-renewables sit in a `family` before software5.7 and in a `subscription_group` from 5.7.
struct CatalogGroupVersionRule: Rule {
    let id = RuleID.catalogGroupElementVersion.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            guard let number = package.versionNumber, let version = package.version?.value else { continue }
            let groupsAllowed = number.minor >= CatalogSchema.firstGroupMinor
            for group in package.groups {
                switch (group.kind, groupsAllowed) {
                case (.family, true):
                    findings.append(context.finding(
                        "`<family>` is not allowed in `\(version)`; from software5.7 auto-renewable subscriptions go in a `<subscription_group>`",
                        at: group.location,
                        help: "rename `<family name=…>` to `<subscription_group name=…>` and give each subscription its own `cleared_for_sale` and prices",
                        notes: ["Transporter 1.9 rejected this with ITMS-3000: element \"family\" not allowed anywhere"]))
                case (.subscriptionGroup, false):
                    findings.append(context.finding(
                        "`<subscription_group>` does not exist in `\(version)`; before software5.7 auto-renewable subscriptions go in a `<family>`",
                        at: group.location,
                        help: "set the package version to `software5.7` or later, or use `<family>`"))
                default:
                    continue
                }
            }
        }
        return context.outcomes(findings)
    }
}
