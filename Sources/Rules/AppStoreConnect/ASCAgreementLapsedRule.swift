import Formats
import Model
import Loaders
import RuleEngine

/// When a required agreement (the Program License Agreement) lapses, App Store Connect refuses
/// every request with one error, and StoreKit returns no product at all: the refusal is the answer.
struct ASCAgreementLapsedRule: Rule {
    let id = RuleID.ascAgreementLapsed.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot else { return [] }
        guard let lapse = facts.agreementLapse else { return [context.pass()] }
        return [context.fail(context.finding(
            "App Store Connect refused \(lapse.shownRequest) with `FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED`: a required agreement is missing or has expired, so no In-App Purchase of this team loads",
            at: lapse.location,
            help: "the Account Holder signs in to App Store Connect → Business (or developer.apple.com → Account) and accepts the updated agreement; then pull the snapshot again",
            notes: ["every request of the team fails until then, so the snapshot holds no other facts"]))]
    }
}
