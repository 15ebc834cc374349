import Formats
import Model
import Loaders
import RuleEngine

/// Banking information must be active in App Store Connect before paid products load.
struct BankingRule: Rule {
    let id = RuleID.bankingInactive.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let banking = context.project.account.banking else {
            return [context.unknown("Is the bank account in App Store Connect → Business active?", key: .developerAccountBanking)]
        }
        guard banking.value != .active else { return [context.pass()] }
        let help = banking.value == .processing
            ? "wait until App Store Connect → Business shows the bank account as active (community reports 1 to 24 hours), then set `banking: active`"
            : "add a bank account in App Store Connect → Business → Paid Apps Agreement, then set `banking: active` once it shows active"
        return [context.fail(context.finding(
            "banking is `\(banking.value.rawValue)`, not `active`, so StoreKit returns no paid products",
            at: banking.location, help: help))]
    }
}
