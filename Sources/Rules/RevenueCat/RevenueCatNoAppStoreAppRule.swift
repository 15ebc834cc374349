import Formats
import Model
import Loaders
import RuleEngine

/// The RevenueCat project has no App Store app (or `revenuecat.app_id` names another store's):
/// an iOS build's key and offerings need one, with the App Store products attached to it.
struct RevenueCatNoAppStoreAppRule: Rule {
    let id = RuleID.revenuecatNoAppStoreApp.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let evidence = context.revenueCat
        guard let snapshot = evidence.snapshot else {
            return evidence.inCode ? [context.unknown(RuleContext.revenueCatQuestion, key: .revenuecatSnapshot)] : []
        }
        if let app = evidence.app {
            guard !app.isApple else { return [context.pass()] }
            return [context.fail(context.finding(
                "this build's RevenueCat app \(app.shown) is no App Store app: its products are not StoreKit's",
                at: context.project.revenueCat.appID?.location ?? app.type.location,
                help: "set `revenuecat.app_id` to the project's App Store app, or add one in RevenueCat (Project settings → Apps → New → App Store)"))]
        }
        if let question = evidence.appQuestion { return [context.unknown(question, key: .revenuecatAppID)] }
        let bundle = (context.project.evidence.storeBundleID ?? context.project.app.bundleID).map { " with the bundle ID `\($0.value)`" } ?? ""
        let apps = snapshot.apps.map(\.shown).joined(separator: ", ")
        return [context.fail(context.finding(
            "the RevenueCat project `\(snapshot.projectName ?? snapshot.projectID?.value ?? "?")` has no App Store app" + (apps.isEmpty ? "" : "; its apps are \(apps)"),
            at: snapshot.appsLocation,
            help: "add an App Store app\(bundle) in RevenueCat (Project settings → Apps → New → App Store), attach the App Store products to it, and configure the iOS build with its public key",
            notes: ["the SDK logs \"there are no App Store products registered in the RevenueCat dashboard for your offerings\", and offerings come back empty"]))]
    }
}
