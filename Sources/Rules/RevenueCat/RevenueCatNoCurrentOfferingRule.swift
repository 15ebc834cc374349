import Formats
import Model
import Loaders
import RuleEngine

/// No offering is current: `offerings.current` is nil, so a paywall that shows the current
/// offering shows nothing. Code that names its offerings by identifier does not need one.
struct RevenueCatNoCurrentOfferingRule: Rule {
    let id = RuleID.revenuecatNoCurrentOffering.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let snapshot: RevenueCatSnapshot
        switch context.revenueCatApp() {
        case .settled(let outcomes): return outcomes
        case .judged(let s, _): snapshot = s
        }
        guard snapshot.offeringsComplete else {
            return [context.unknown("The snapshot lists the project's offerings as unavailable: which one is current? Read them with a key that has `project_configuration:offerings:read`", key: .revenuecatSnapshot)]
        }
        guard !snapshot.offerings.contains(where: { $0.isCurrent?.value == true }) else { return [context.pass()] }
        let named = context.revenueCat.offeringIDs
        guard named.isEmpty else {
            return [context.notApplicable("the code asks for its offerings by identifier (at \(named[0].location)), not for the current one")]
        }
        let listed = snapshot.offerings.prefix(5).map { "`\($0.lookupKey.value)`" }.joined(separator: ", ")
        return [context.fail(context.finding(
            snapshot.offerings.isEmpty ? "the RevenueCat project has no offering" : "no offering of the RevenueCat project is current (its offerings: \(listed))",
            at: snapshot.offeringsLocation,
            help: snapshot.offerings.isEmpty
                ? "create an offering with a package for each product in RevenueCat (Product catalog → Offerings) and make it the default"
                : "make one of them the default in RevenueCat (Product catalog → Offerings → Make default), or ask for it by identifier in the code",
            notes: ["`offerings.current` is nil, so a paywall that shows the current offering shows no product"]
                + (context.revenueCat.fetches.first.map { ["the code fetches offerings at \($0)"] } ?? [])))]
    }
}
