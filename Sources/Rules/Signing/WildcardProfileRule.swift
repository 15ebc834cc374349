import Formats
import Model
import Loaders
import RuleEngine

/// A profile made for a wildcard App ID cannot carry In-App Purchase: the sandbox refuses it.
/// Answers `explicit-app-id` and, with the same finding, `provisioning-profile`.
struct WildcardProfileRule: Rule {
    let id = RuleID.wildcardProfile.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let profileAppID = context.project.signing.profile.appID else { return [] }
        guard profileAppID.value.hasSuffix("*") else {
            return [context.pass(), context.pass(item: ChecklistID.provisioningProfile.rawValue)]
        }
        let project = context.project
        let target = project.expectedBundleID.map { "`\(project.expectedTeamID ?? "TEAMID").\($0)`" } ?? "the app's explicit App ID"
        let finding = context.finding(
            "the provisioning profile is made for the wildcard App ID `\(profileAppID.value)`, and a wildcard profile cannot carry In-App Purchase",
            at: profileAppID.location,
            help: "sign with a profile made for \(target) with In-App Purchase enabled, and update `signing.profile`",
            notes: ["in the sandbox, In-App Purchase cannot be tested with a profile that contains a wildcard App ID (TN3186)"])
        return [context.fail(finding), context.fail(finding, item: ChecklistID.provisioningProfile.rawValue)]
    }
}
