import Formats
import Model
import Loaders
import RuleEngine

/// Community advice: test on a device without a jailbreak. Never an error.
struct JailbreakRule: Rule {
    let id = RuleID.jailbrokenDevice.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        // A Mac has no jailbreak; nor does the Simulator, which runs on one.
        if context.project.app.platform?.value == .macos {
            return [context.notApplicable("a Mac app runs on a Mac, which has no jailbreak")]
        }
        if context.project.testing.device?.value == .simulator {
            return [context.notApplicable("the Simulator runs on the Mac, which has no jailbreak")]
        }
        guard let jailbroken = context.project.testing.jailbroken else {
            return [context.unknown("Is the test device free of a jailbreak?", key: .testingJailbroken)]
        }
        guard jailbroken.value else { return [context.pass()] }
        return [context.fail(context.finding(
            "the test device is jailbroken, and jailbreak tweaks are known to interfere with StoreKit",
            at: jailbroken.location, help: "test on a device that is not jailbroken",
            notes: ["community advice with no current Apple source"]))]
    }
}
