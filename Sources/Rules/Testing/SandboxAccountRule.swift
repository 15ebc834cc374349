import Formats
import Model
import Loaders
import RuleEngine

/// A Sandbox Apple Account works only for apps of the developer account that created it. It is
/// needed to purchase, not to fetch products, so its absence is a question, not a failure.
struct SandboxAccountRule: Rule {
    let id = RuleID.sandboxAccountOtherTeam.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let testing = context.project.testing
        guard testing.sandboxAccountLocation != nil else {
            return [context.unknown(
                "Which Sandbox Apple Account (created in this team's App Store Connect → Users and Access → Sandbox) tests purchases?",
                key: .testingSandboxAccount)]
        }
        guard let accountTeam = testing.sandboxAccount.teamID else {
            return [context.unknown(
                "Which team's App Store Connect created the sandbox account?", key: .testingSandboxAccountTeamID)]
        }
        guard let team = context.project.expectedTeamID else {
            return [context.unknown("What is the developer account's Team ID?", key: .developerAccountTeamID)]
        }
        guard accountTeam.value != team else { return [context.pass()] }
        let who = testing.sandboxAccount.email.map { " `\($0.value)`" } ?? ""
        return [context.fail(context.finding(
            "the sandbox account\(who) was created by team `\(accountTeam.value)`, but the app belongs to team `\(team)`",
            at: accountTeam.location,
            help: "create a Sandbox Apple Account in App Store Connect → Users and Access → Sandbox of team `\(team)`, sign in with it on the device (Settings → Developer → Sandbox Apple Account), and update `testing.sandbox_account`",
            notes: ["a sandbox account only works for the apps of the developer account that created it"]))]
    }
}
