import Formats
import Model
import Loaders
import RuleEngine

/// A Test Store key (`test_`): the SDK serves RevenueCat's simulated products, never App Store
/// Connect's, and a release build with it stops at launch.
struct RevenueCatTestStoreKeyRule: Rule {
    let id = RuleID.revenuecatTestStoreKey.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let keys = context.revenueCat.keys
        guard !keys.isEmpty else { return [] }
        let test = keys.filter { $0.value.map(RevenueCatKeyKind.init) == .testStore }
        guard !test.isEmpty else { return [context.pass()] }
        return test.map { use in
            context.fail(context.finding(
                "`\(use.api)` is given `\(use.value ?? "")`, a RevenueCat Test Store key: products come from the Test Store, not from App Store Connect or a StoreKit configuration file",
                at: use.location,
                notes: [
                    "a release build configured with a Test Store key logs an error and stops (the SDK calls `fatalError`); App Review rejects Test Store apps",
                ] + (use.location == use.call ? [] : ["the SDK is configured at \(use.call)"])))
        }
    }
}
