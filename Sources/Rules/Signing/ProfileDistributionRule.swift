import Formats
import Model
import Loaders
import RuleEngine

/// In-App Purchase is sold through the App Store only: a build signed with a Developer ID profile
/// (macOS, distributed outside the Mac App Store) or an in-house (enterprise) profile cannot use it;
/// its product requests come back invalid.
struct ProfileDistributionRule: Rule {
    let id = RuleID.profileCannotUseIap.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let profile = context.project.signing.profile
        guard let type = profile.type else {
            // Without any profile fact, the item's other rules ask for the profile.
            return profile.isStated ? [context.unknown(
                "What kind of profile is `signing.profile`: development, ad hoc, App Store, or in-house / Developer ID (`enterprise`)?",
                key: .signingProfileType)] : []
        }
        guard type.value == .enterprise else { return [context.pass()] }
        let macOS = context.project.evidence.profile?.platforms.contains("OSX") == true || context.project.app.platform?.value == .macos
        let kind = macOS ? "a Developer ID profile (it provisions all devices)" : "an in-house (enterprise) profile"
        let name = profile.name.map { "`\($0.value)` " } ?? ""
        return [context.fail(context.finding(
            "the build is signed with \(name)which is \(kind), and apps distributed outside the App Store cannot use In-App Purchase",
            at: type.location,
            help: macOS
                ? "to test, sign with a Mac development profile (Signing & Capabilities → Provisioning Profile: Mac Development); to ship, use a Mac App Store profile"
                : "to test, sign with a development profile; to ship, use an App Store profile",
            notes: ["StoreKit answers every product request of such a build with invalid product identifiers"]))]
    }
}
