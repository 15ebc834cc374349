import Formats
import Model
import Loaders
import RuleEngine

/// An expired provisioning profile no longer signs a build that can reach the store.
struct ProfileExpiredRule: Rule {
    let id = RuleID.profileExpired.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let profile = context.project.signing.profile
        guard profile.isStated else { return [] }
        guard let expires = profile.expiresAt else {
            return [context.unknown("When does the provisioning profile expire (`ExpirationDate`)?", key: .signingProfileExpiresAt)]
        }
        guard expires.value <= context.now else { return [context.pass()] }
        let name = profile.name.map { " `\($0.value)`" } ?? ""
        return [context.fail(context.finding(
            "the provisioning profile\(name) expired on \(expires.value), \(describeDuration(seconds: context.now - expires.value)) before this check",
            at: expires.location,
            help: "regenerate the profile in Certificates, Identifiers & Profiles (or let automatic signing do it), reinstall it, and update `signing.profile.expires_at`"))]
    }
}
