import Formats
import Model
import Loaders
import RuleEngine

/// The code asks for an offering by an identifier that no offering of the project has:
/// `offerings.offering(identifier:)` and `offerings.all[…]` return nil.
struct RevenueCatOfferingMissingRule: Rule {
    let id = RuleID.revenuecatOfferingMissing.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let named = context.revenueCat.offeringIDs
        guard !named.isEmpty else { return [] }
        let snapshot: RevenueCatSnapshot
        switch context.revenueCatApp() {
        case .settled(let outcomes): return outcomes
        case .judged(let s, _): snapshot = s
        }
        guard snapshot.offeringsComplete else {
            return [context.unknown("The snapshot lists the project's offerings as unavailable: does one have the identifier `\(named[0].value ?? named[0].written)`?", key: .revenuecatSnapshot)]
        }
        let keys = snapshot.offerings.map(\.lookupKey.value)
        return named.map { use in
            guard let value = use.value else {
                return context.unknown("Which offering does `\(use.api)` at \(use.location) ask for? The code passes `\(use.written)`", key: .revenuecatSnapshot)
            }
            guard !keys.contains(value) else { return context.pass() }
            let near = keys.first { $0.lowercased() == value.lowercased() }
                ?? keys.compactMap { key in boundedEditDistance(key, value, limit: 2).map { (key, $0) } }.min { $0.1 < $1.1 }?.0
            let listed = keys.prefix(8).map { "`\($0)`" }.joined(separator: ", ")
            return context.fail(context.finding(
                "`\(use.api)` asks for the offering `\(value)`, and the RevenueCat project has none with that identifier" + (near.map { "; did you mean `\($0)`?" } ?? ""),
                at: use.location,
                help: near.map { "ask for `\($0)`" } ?? "create the offering `\(value)` in RevenueCat (Product catalog → Offerings), or ask for one of \(listed.isEmpty ? "the project's offerings" : listed)",
                notes: ["the SDK returns nil for an identifier no offering has; offering identifiers are case-sensitive"]))
        }
    }
}
