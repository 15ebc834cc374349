import Formats
import Model
import Loaders
import RuleEngine

/// Wildcard App IDs cannot have the In-App Purchase capability: every product comes back invalid.
/// Answers `app-id-iap-enabled` and, with the same finding, `explicit-app-id`.
struct WildcardAppIDRule: Rule {
    let id = RuleID.wildcardAppId.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let identifier = context.project.appID.identifier else {
            // No App ID stated, but the build is signed for one: the profile's.
            if let profileAppID = context.project.evidence.profile?.applicationIdentifier {
                guard profileAppID.value.contains("*") else { return [context.pass()] }
                let team = String(profileAppID.value.prefix { $0 != "." })
                let explicit = context.project.evidence.runningBundleID.map { "`\(team).\($0.value)`" } ?? "one equal to the bundle ID"
                // `wildcard-profile` answers `explicit-app-id` for the same profile.
                return [context.fail(context.finding(
                    "the build is signed for the wildcard App ID `\(profileAppID.value)` (from its provisioning profile), and wildcard App IDs cannot use In-App Purchase",
                    at: profileAppID.location,
                    help: "register the explicit App ID \(explicit), enable In-App Purchase on it, and sign with a profile for it",
                    notes: ["the In-App Purchase capability is only available to explicit App IDs"]))]
            }
            let question = "What is the App ID's identifier in Certificates, Identifiers & Profiles (`TEAMID.bundle.id`)?"
            return [
                context.unknown(question, key: .appIDIdentifier),
                context.unknown(question, key: .appIDIdentifier, item: ChecklistID.explicitAppId.rawValue),
            ]
        }
        guard identifier.value.contains("*") else {
            return [context.pass(), context.pass(item: ChecklistID.explicitAppId.rawValue)]
        }
        let team = context.project.appID.teamPrefix ?? context.project.expectedTeamID ?? "TEAMID"
        let explicit = context.project.expectedBundleID.map { "\(team).\($0)" }
        let help = explicit.map {
            "register the explicit App ID `\($0)`, enable In-App Purchase on it, and set `app_id.identifier` to it"
        } ?? "register an explicit App ID equal to the bundle ID (`\(team).your.bundle.id`), enable In-App Purchase on it, and set `app_id.identifier` to it"
        let finding = context.finding(
            "App ID `\(identifier.value)` is a wildcard, and wildcard App IDs cannot use In-App Purchase",
            at: identifier.location, help: help,
            notes: ["the In-App Purchase capability is only available to explicit App IDs; sign with a profile made for the explicit one"])
        return [context.fail(finding), context.fail(finding, item: ChecklistID.explicitAppId.rawValue)]
    }
}
