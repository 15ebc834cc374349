import Formats
import Model
import Loaders
import RuleEngine

/// App Store Connect marks a profile `INVALID` when its certificate was revoked or its App ID
/// changed (In-App Purchase turned on after it was made): a build signed with it cannot buy.
struct ASCProfileInvalidRule: Rule {
    let id = RuleID.ascProfileInvalid.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot, let state = facts.profileState else { return [] }
        guard state.value == "INVALID" else { return [context.pass()] }
        let name = facts.profileName.map { "`\($0)`" } ?? "the build's profile"
        return [context.fail(context.finding(
            "the provisioning profile \(name) is `INVALID` in App Store Connect",
            at: state.location,
            help: "regenerate the profile (Certificates, Identifiers & Profiles → Profiles → Edit → Save), download it (Xcode → Settings → Accounts → Download Manual Profiles) and build again",
            notes: ["a profile turns invalid when its certificate is revoked or expires, or when its App ID changes, such as enabling In-App Purchase after it was made"]))]
    }
}
