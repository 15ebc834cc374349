import Formats
import Model
import Loaders
import RuleEngine

/// In production, new product IDs activate only once the app version is released.
struct AppNotReleasedRule: Rule {
    let id = RuleID.appNotReleased.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let asc = context.project.appStoreConnect
        guard let state = asc.versionState else {
            return [context.unknown("What is the state of the app version in App Store Connect?", key: .appStoreConnectVersionState)]
        }
        if state.value == .readyForSale {
            if asc.releasedAt == nil {
                return [context.unknown("When was the app first released on the App Store?", key: .appStoreConnectReleasedAt)]
            }
            return [context.pass()]
        }
        return [context.fail(context.finding(
            "the app version is `\(state.value.rawValue)`, not released, and new In-App Purchases activate in the App Store only once the app is released",
            at: state.location,
            help: state.value == .pendingDeveloperRelease
                ? "release the version in App Store Connect, then allow up to 24–48 hours"
                : "get the version with its In-App Purchases approved and released; then set `version_state: ready_for_sale` and `released_at`"))]
    }
}
