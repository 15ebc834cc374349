import Formats
import Model
import Loaders
import RuleEngine

/// The sandbox account must be a sandbox tester of the app's own team; App Store Connect lists
/// them, so an email that is not among them is a tester of another team (or a typo).
struct ASCSandboxTesterRule: Rule {
    let id = RuleID.ascSandboxTesterMissing.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot, let count = facts.sandboxTesterCount else { return [] }
        guard let email = facts.sandboxTesterMissing else { return [context.pass()] }
        return [context.fail(context.finding(
            "`\(email.value)` is not one of this team's \(count) sandbox tester\(count == 1 ? "" : "s") in App Store Connect",
            at: email.location,
            help: "add it under Users and Access → Sandbox → Test Accounts, or sign in on the device with one of the team's testers and set `testing.sandbox_account.email` to it",
            notes: ["a sandbox account made by another team cannot buy this app's products"]))]
    }
}
