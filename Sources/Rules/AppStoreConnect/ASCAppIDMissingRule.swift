import Formats
import Model
import Loaders
import RuleEngine

/// In-App Purchase needs an explicit App ID registered for the bundle ID; the pull looked for it
/// and found none.
struct ASCAppIDMissingRule: Rule {
    let id = RuleID.ascAppIdMissing.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot else { return [] }
        guard let location = facts.appIDMissing, let bundle = facts.bundleID else { return [context.pass()] }
        return [context.fail(context.finding(
            "no App ID `\(bundle)` is registered for this team, so no provisioning profile can carry In-App Purchase for it",
            at: location,
            help: "register the explicit App ID `\(bundle)` in Certificates, Identifiers & Profiles → Identifiers (In-App Purchase is on by default), then make the profile again"))]
    }
}
