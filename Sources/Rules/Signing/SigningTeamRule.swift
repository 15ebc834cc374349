import Formats
import Model
import Loaders
import RuleEngine

/// The build must be signed by the team that owns the App ID and the products.
struct SigningTeamRule: Rule {
    let id = RuleID.signingTeamMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard let signingTeam = project.signing.teamID else {
            // The build that runs in this environment says which team signed it.
            if let built = project.runningBuild, let team = built.signature?.teamIdentifier ?? built.profile?.teamIdentifier {
                guard let account = project.account.teamID else {
                    return [context.unknown(
                        "The build `\(Paths.shown(built.path))` is signed by the team `\(team.value)`: is that the team of the developer account that owns the products?",
                        key: .developerAccountTeamID)]
                }
                guard account.value == team.value else {
                    // The embedded profile's team: build-profile-mismatch says so.
                    if built.profile?.teamIdentifier?.value == team.value { return [] }
                    let note = "`developer_account.team_id` is at \(account.location)"
                    return [context.fail(context.finding(
                        "the build `\(Paths.shown(built.path))` is signed by the team `\(team.value)`, but the developer account that owns the products is `\(account.value)`",
                        at: team.location, help: "sign with the team `\(account.value)` (`DEVELOPMENT_TEAM`), or create the products in the team `\(team.value)`",
                        notes: [note], related: [RelatedSpan(account.location, label: "the developer account's team", note: note)]))]
                }
                var note = context.finding(
                    "the build `\(Paths.shown(built.path))` is signed by the team `\(team.value)`, the developer account's; the source tree does not say which team signs",
                    at: team.location, help: "nothing to change")
                note.severity = .note
                return [context.passWithNotes([note])]
            }
            let reason = project.evidence.unresolvedReason("DEVELOPMENT_TEAM").map { " \($0)." } ?? ""
            return [context.unknown("Which team does the build sign with (`DEVELOPMENT_TEAM`)?" + reason, key: .signingTeamID)]
        }
        // Xcode signs nothing for a device without a team; only the Simulator runs unsigned.
        if signingTeam.value.isEmpty {
            return [context.fail(context.finding(
                "the build has no signing team: `DEVELOPMENT_TEAM` is empty, so it cannot be signed for a device and StoreKit cannot reach the sandbox",
                at: signingTeam.location,
                help: "choose the team in Xcode → target → Signing & Capabilities → Team (it writes `DEVELOPMENT_TEAM = <Team ID>;`)",
                notes: ["only the Simulator runs an unsigned build, and there StoreKit needs a StoreKit configuration file"]
                    + (project.evidence.undefinedReferences["DEVELOPMENT_TEAM"] == nil ? [] : project.evidence.settingNotes("DEVELOPMENT_TEAM"))))]
        }
        let settingNotes = project.evidence.undefinedReferences["DEVELOPMENT_TEAM"] == nil ? [] : project.evidence.settingNotes("DEVELOPMENT_TEAM")
        var findings: [Finding] = []
        if let account = project.account.teamID, account.value != signingTeam.value {
            let note = "`developer_account.team_id` is at \(account.location)"
            findings.append(context.finding(
                "the build signs with team `\(signingTeam.value)`, but the developer account that owns the products is `\(account.value)`",
                at: signingTeam.location,
                help: "set the target's Team to `\(account.value)` in Xcode → Signing & Capabilities (`DEVELOPMENT_TEAM`), and `signing.team_id` to match",
                notes: [note] + settingNotes, related: [RelatedSpan(account.location, label: "the account's team", note: note)]))
        }
        if let prefix = project.appID.teamPrefix, let identifier = project.appID.identifier, prefix != signingTeam.value,
            project.account.teamID?.value != prefix
        {
            findings.append(context.finding(
                "the App ID `\(identifier.value)` belongs to team `\(prefix)`, but the build signs with team `\(signingTeam.value)`",
                at: identifier.location,
                help: "sign with team `\(prefix)`, or register the App ID under team `\(signingTeam.value)` and set `app_id.identifier` to it"))
        }
        if let profileAppID = project.signing.profile.appID {
            let prefix = String(profileAppID.value.prefix { $0 != "." })
            if AppID.looksLikeTeamID(prefix), prefix != signingTeam.value {
                findings.append(context.finding(
                    "the provisioning profile belongs to team `\(prefix)` (`\(profileAppID.value)`), but the build signs with team `\(signingTeam.value)`",
                    at: profileAppID.location,
                    help: "sign with a profile of team `\(signingTeam.value)`, or switch the signing team to `\(prefix)`"))
            }
        }
        if let style = project.signing.style, style.value == .manual, !project.signing.profile.isStated {
            return findings.isEmpty
                ? [context.unknown("Manual signing names a profile: which one (`PROVISIONING_PROFILE_SPECIFIER`)?", key: .signingProfileName)]
                : context.outcomes(findings)
        }
        return context.outcomes(findings)
    }
}
