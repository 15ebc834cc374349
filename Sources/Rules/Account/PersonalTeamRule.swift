import Formats
import Model
import Loaders
import RuleEngine

/// Free personal teams cannot use the In-App Purchase capability.
struct PersonalTeamRule: Rule {
    let id = RuleID.personalTeam.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let teamType = context.project.account.teamType else {
            return [context.unknown(
                "Is the team a paid Apple Developer Program team (individual, organization or enterprise), not a free personal team?",
                key: .developerAccountTeamType)]
        }
        guard teamType.value == .personal else { return [context.pass()] }
        return [context.fail(context.finding(
            "the team is a free personal team, and personal teams cannot use the In-App Purchase capability",
            at: teamType.location,
            help: "enrol in the Apple Developer Program and sign with that team; then set `team_type` to `individual` or `organization`",
            notes: ["Xcode says \"Your development team … does not support the In-App Purchase capability\" for such teams"]))]
    }
}
