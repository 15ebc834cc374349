import Formats
import Model
import Loaders
import RuleEngine

/// The Paid Apps Agreement must be active, or StoreKit returns no paid products at all.
struct PaidAppsAgreementRule: Rule {
    let id = RuleID.paidAppsAgreementInactive.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let agreement = context.project.account.paidAppsAgreement else {
            return [context.unknown(
                "Is the Paid Apps Agreement active in App Store Connect → Business?",
                key: .developerAccountAgreementsPaidApps)]
        }
        let help: String
        switch agreement.value {
        case .active: return [context.pass()]
        case .pending:
            help = "the Account Holder must finish the Paid Apps Agreement in App Store Connect → Business (banking and tax are part of it); then set `paid_apps: active`"
        case .newVersionPending:
            help = "the Account Holder must accept the new version of the Paid Apps Agreement in App Store Connect → Business; then set `paid_apps: active`"
        case .expired:
            help = "the Account Holder must renew the Paid Apps Agreement in App Store Connect → Business (renewing the membership requires accepting it again); then set `paid_apps: active`"
        case .missing:
            help = "the Account Holder must request and sign the Paid Apps Agreement in App Store Connect → Business; then set `paid_apps: active`"
        }
        return [context.fail(context.finding(
            "the Paid Apps Agreement is `\(agreement.value.rawValue)`, not `active`, so StoreKit returns no paid products in the sandbox or the App Store",
            at: agreement.location, help: help,
            notes: ["StoreKit does not report this as an error: the products simply come back invalid"]))]
    }
}
