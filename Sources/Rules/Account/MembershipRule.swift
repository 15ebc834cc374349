import Formats
import Model
import Loaders
import RuleEngine

/// An expired Apple Developer Program membership stops In-App Purchase.
struct MembershipRule: Rule {
    let id = RuleID.membershipExpired.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let membership = context.project.account.membership else {
            return [context.unknown("Is the Apple Developer Program membership active?", key: .developerAccountMembership)]
        }
        guard membership.value == .expired else { return [context.pass()] }
        return [context.fail(context.finding(
            "the Apple Developer Program membership is `expired`; In-App Purchase needs an active membership",
            at: membership.location,
            help: "renew the membership, then accept the Paid Apps Agreement again, check banking and tax, and re-sign with new certificates and profiles; set `membership: active`"))]
    }
}
