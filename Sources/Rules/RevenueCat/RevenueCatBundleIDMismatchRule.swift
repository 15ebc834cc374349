import Formats
import Model
import Loaders
import RuleEngine

/// The RevenueCat App Store app's bundle ID is not the build's: StoreKit answers only for the
/// running bundle's products, and RevenueCat's own health check calls this blocking.
struct RevenueCatBundleIDMismatchRule: Rule {
    let id = RuleID.revenuecatBundleIdMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let app: RevenueCatSnapshot.App
        switch context.revenueCatApp() {
        case .settled(let outcomes): return outcomes
        case .judged(_, let a): app = a
        }
        guard app.isApple else {
            return [context.notApplicable("this build's RevenueCat app \(app.shown) is no App Store app; `revenuecat-no-app-store-app` judges that")]
        }
        guard let theirs = app.bundleID else {
            return [context.unknown("RevenueCat's App Store app \(app.shown) has no bundle ID in the snapshot: which one is set in RevenueCat (Project settings → Apps)?", key: .revenuecatSnapshot)]
        }
        let project = context.project
        guard let built = project.evidence.storeBundleID ?? project.app.bundleID else {
            return [context.unknown("Which bundle ID does the build use? RevenueCat's App Store app has `\(theirs.value)`", key: .appBundleID)]
        }
        guard theirs.value != built.value else { return [context.pass()] }
        let caseOnly = theirs.value.lowercased() == built.value.lowercased()
        return [context.fail(context.finding(
            "RevenueCat's App Store app \(app.shown) has the bundle ID `\(theirs.value)`, and the build's is `\(built.value)`" + (caseOnly ? " (they differ only in letter case)" : ""),
            at: theirs.location,
            help: "set the bundle ID of \(app.shown) in RevenueCat (Project settings → Apps) to `\(built.value)`, or build the app that `\(theirs.value)` is",
            notes: ["StoreKit answers only for the products of the running app's bundle ID, exactly and case-sensitively; RevenueCat's health check reports this as blocking"],
            related: [RelatedSpan(built.location, label: "the build's bundle ID")]))]
    }
}
