import Formats
import Model
import Loaders
import RuleEngine

/// A subscription group in a StoreKit configuration file checked on its own has a localized
/// display name, as App Store Connect requires before its subscriptions can be submitted. A file
/// the app's Run uses is not judged: Xcode serves an unnamed group, and a synced file's groups
/// carry empty localizations even when App Store Connect has them.
struct StoreKitGroupLocalizationRule: Rule {
    let id = RuleID.storekitGroupNotLocalized.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        if let notApplicable = context.storeLimitNotApplicable { return [notApplicable] }
        var findings: [Finding] = []
        for configuration in context.judgedStoreKitFiles {
            for group in configuration.groups {
                let name = group.name?.value ?? "the group at line \(group.location.line)"
                if !group.localizations.contains(where: { !($0.displayName?.value.isEmpty ?? true) }) {
                    findings.append(context.finding(
                        "subscription group `\(name)` has no localized display name",
                        at: group.name?.location ?? group.location,
                        help: "in Xcode, select the group in the StoreKit configuration and add a localization with a display name (and the same in App Store Connect)",
                        notes: ["App Store Connect does not let subscriptions of an unlocalized group reach Ready to Submit"]))
                }
            }
        }
        return context.outcomes(findings)
    }
}
