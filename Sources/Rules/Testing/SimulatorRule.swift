import Formats
import Model
import Loaders
import RuleEngine

/// Several simulator runtimes do not load sandbox products without a StoreKit configuration file.
struct SimulatorRule: Rule {
    let id = RuleID.simulatorWithoutStorekitFile.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let device = context.project.testing.device else {
            return [context.unknown("Does the test run on a physical device or in the Simulator?", key: .testingDevice)]
        }
        guard device.value == .simulator else { return [context.pass()] }
        return [context.fail(context.finding(
            "the test runs in the Simulator, and several Simulator runtimes do not load sandbox products (iOS 14.0, iOS 18.4–18.5, Xcode 26.4 and later)",
            at: device.location,
            help: "test on a physical device signed in with a sandbox account, or use a StoreKit configuration file in the scheme (`environment: xcode`)"))]
    }
}
