import Formats
import Model
import Loaders
import RuleEngine

/// The iOS build configures the SDK with another store's public key (`goog_`, `amzn_`, `rcb_`):
/// RevenueCat answers with that store's product IDs, which StoreKit does not know.
struct RevenueCatKeyPlatformRule: Rule {
    let id = RuleID.revenuecatKeyPlatform.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let keys = context.revenueCat.keys
        guard !keys.isEmpty else { return [] }
        // A call that can get an Apple key chooses by platform where iapdoctor could not tell.
        let apple = Set(keys.filter { $0.value.map(RevenueCatKeyKind.init).map { $0 == .apple || $0 == .legacy } ?? false }.map(\.call))
        var outcomes: [Outcome] = []
        for use in keys where !apple.contains(use.call) {
            guard let value = use.value, case .otherStore(let store) = RevenueCatKeyKind(value) else { continue }
            let prefix = value.prefix { $0 != "_" } + "_"
            outcomes.append(context.fail(context.finding(
                "`\(use.api)` is given `\(value)`, a \(store) key (`\(prefix)`), where the iOS build needs the App Store app's key (`appl_`)",
                at: use.location,
                notes: [
                    "RevenueCat answers a \(store) key with that store's product IDs; StoreKit knows none of them, and the offerings come back empty",
                ] + (use.location == use.call ? [] : ["the SDK is configured at \(use.call)"]))))
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }
}
