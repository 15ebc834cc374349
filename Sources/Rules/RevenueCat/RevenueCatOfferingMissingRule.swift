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
            let near = keys.first { $0.lowercased() == value.lowercased() } ?? keys.min { Self.distance($0, value) < Self.distance($1, value) }.flatMap { Self.distance($0, value) <= 2 ? $0 : nil }
            let listed = keys.prefix(8).map { "`\($0)`" }.joined(separator: ", ")
            return context.fail(context.finding(
                "`\(use.api)` asks for the offering `\(value)`, and the RevenueCat project has none with that identifier" + (near.map { "; did you mean `\($0)`?" } ?? ""),
                at: use.location,
                help: near.map { "ask for `\($0)`" } ?? "create the offering `\(value)` in RevenueCat (Product catalog → Offerings), or ask for one of \(listed.isEmpty ? "the project's offerings" : listed)",
                notes: ["the SDK returns nil for an identifier no offering has; offering identifiers are case-sensitive"]))
        }
    }

    /// Edit distance, for a near match among a project's few offering identifiers.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        guard a.count < 200, b.count < 200 else { return Int.max }
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let saved = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = saved
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}
