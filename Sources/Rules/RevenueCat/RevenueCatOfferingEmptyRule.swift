import Formats
import Model
import Loaders
import RuleEngine

/// An offering the app shows holds no product of this build's App Store app: its packages are
/// empty, or hold only other stores' products. The SDK drops it.
struct RevenueCatOfferingEmptyRule: Rule {
    let id = RuleID.revenuecatOfferingEmpty.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let (snapshot, app): (RevenueCatSnapshot, RevenueCatSnapshot.App)
        switch context.revenueCatApp() {
        case .settled(let outcomes): return outcomes
        case .judged(let s, let a): (snapshot, app) = (s, a)
        }
        let shown = context.revenueCat.shown
        guard !shown.isEmpty else {
            return [context.notApplicable("no offering the app shows is known (`revenuecat-no-current-offering` and `revenuecat-offering-missing` say why)")]
        }
        return shown.map { offering in
            let attached = offering.offering.packages.flatMap(\.products).map { snapshot.resolved($0) }
            guard !attached.contains(where: { $0.appID == app.id.value }) else { return context.pass() }
            let others = Set(attached.compactMap(\.appID)).sorted().map { id in snapshot.apps.first { $0.id.value == id }?.shown ?? "`\(id)`" }
            let what = offering.offering.packages.isEmpty ? "has no package"
                : "has \(offering.offering.packages.count) package\(offering.offering.packages.count == 1 ? "" : "s") and none holds a product of this build's app \(app.shown)"
            return context.fail(context.finding(
                "\(context.shown(offering)) \(what)",
                at: offering.offering.lookupKey.location,
                help: "attach \(app.shown)'s App Store product to each package of the offering in RevenueCat (Product catalog → Offerings → \(offering.offering.lookupKey.value))",
                notes: (others.isEmpty ? [] : ["its packages hold products of \(others.joined(separator: ", "))"])
                    + ["the SDK logs \"No packages could be found for offering with identifier \(offering.offering.lookupKey.value)\" and leaves the offering out"]))
        }
    }
}
