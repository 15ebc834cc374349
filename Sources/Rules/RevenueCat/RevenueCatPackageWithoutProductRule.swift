import Formats
import Model
import Loaders
import RuleEngine

/// A package of an offering the app shows has no product of this build's App Store app, while
/// others do: the SDK drops that package on iOS (the Android product alone is not enough).
struct RevenueCatPackageWithoutProductRule: Rule {
    let id = RuleID.revenuecatPackageWithoutProduct.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let (snapshot, app): (RevenueCatSnapshot, RevenueCatSnapshot.App)
        switch context.revenueCatApp() {
        case .settled(let outcomes): return outcomes
        case .judged(let s, let a): (snapshot, app) = (s, a)
        }
        var outcomes: [Outcome] = []
        for offering in context.revenueCat.shown {
            let packages = offering.offering.packages
            let ours = packages.map { $0.products.contains { snapshot.resolved($0).appID == app.id.value } }
            // An offering with none is `revenuecat-offering-empty`'s.
            guard ours.contains(true) else { continue }
            for (package, has) in zip(packages, ours) where !has {
                outcomes.append(context.fail(context.finding(
                    "package `\(package.lookupKey.value)` of \(context.shown(offering)) has no product of this build's app \(app.shown)",
                    at: package.lookupKey.location,
                    help: "attach \(app.shown)'s App Store product to the package `\(package.lookupKey.value)` in RevenueCat (Product catalog → Offerings → \(offering.offering.lookupKey.value))",
                    notes: ["the SDK leaves the package out on iOS: the paywall shows the offering without it"])))
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }
}
