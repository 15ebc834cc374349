import Formats
import Model
import Loaders
import RuleEngine

/// Before iOS 12, sandbox purchases needed the production App Store account signed out.
struct StoreSignOutRule: Rule {
    let id = RuleID.signedIntoProductionStore.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let testing = context.project.testing
        guard let os = testing.osVersion, compareVersions(os.value, "12.0") < 0 else { return [context.pass()] }
        guard let signedOut = testing.signedOutOfStore else {
            return [context.unknown(
                "Did you sign out of the App Store in Settings on the test device (needed before iOS 12)?",
                key: .testingSignedOutOfStore)]
        }
        guard !signedOut.value else { return [context.pass()] }
        return [context.fail(context.finding(
            "the test device runs iOS \(os.value) and is still signed in to the production App Store; before iOS 12 the sandbox account is used only after signing out",
            at: signedOut.location,
            help: "sign out in Settings → iTunes & App Store on the device, then sign in with the sandbox account when the purchase asks; set `signed_out_of_store: true`"))]
    }
}
