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
        // An archive (TestFlight, App Review, the App Store) is a Release build: a key only Debug
        // builds compile (`#if DEBUG`, as RevenueCat suggests for the Test Store key) is not in it.
        let archive = context.project.environment?.value.isAppStoreBuild == true
        let test = keys.filter { $0.value.map(RevenueCatKeyKind.init) == .testStore && !(archive && $0.debugOnly == true) }
        guard !test.isEmpty else { return [context.pass()] }
        return test.map { use in
            let debug = use.debugOnly == true
            return context.fail(context.finding(
                "`\(use.api)` is given `\(use.value ?? "")`, a RevenueCat Test Store key: products come from the Test Store, not from App Store Connect or a StoreKit configuration file",
                at: use.location,
                help: debug ? "to test the App Store's products in a Debug build, configure it with the App Store app's public key (`appl_…`); the Test Store key under `#if DEBUG` tests only RevenueCat's simulated products" : nil,
                notes: (debug
                    ? ["only Debug builds compile this key (`#if DEBUG`): archives for TestFlight and the App Store use the other branch's"]
                    : ["a release build configured with a Test Store key logs an error and stops (the SDK calls `fatalError`); App Review rejects Test Store apps"])
                    + (use.location == use.call ? [] : ["the SDK is configured at \(use.call)"])))
        }
    }
}
