import Formats
import Model
import Loaders
import RuleEngine

/// A device older than StoreKit 2 cannot run `Product.products(for:)`.
struct TestOSVersionRule: Rule {
    let id = RuleID.testOsTooOld.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard project.app.storeKitAPI?.value == .storekit2 else { return [] }
        guard let os = project.testing.osVersion else {
            return [context.unknown("Which OS version does the test device run?", key: .testingOSVersion)]
        }
        let platform = project.app.platform?.value ?? .ios
        let minimum = platform.storeKit2Minimum
        guard compareVersions(os.value, minimum) < 0 else { return [context.pass()] }
        return [context.fail(context.finding(
            "the test device runs \(platform.displayName) \(os.value), but the app uses only StoreKit 2, which needs \(platform.displayName) \(minimum)",
            at: os.location,
            help: "test on a device with \(platform.displayName) \(minimum) or later, or add a StoreKit 1 path"))]
    }
}
