import Formats
import Model
import Loaders
import RuleEngine

/// Community advice: delete and reinstall the app after setting products up. Never an error.
struct AppReinstalledRule: Rule {
    let id = RuleID.appNotReinstalled.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let reinstalled = context.project.testing.appReinstalled else {
            return [context.unknown("Have you deleted the app from the device and reinstalled it?", key: .testingAppReinstalled)]
        }
        guard !reinstalled.value else { return [context.pass()] }
        return [context.fail(context.finding(
            "the app was not deleted and reinstalled since the products were set up",
            at: reinstalled.location,
            help: "delete the app from the device, build and run it again, then set `app_reinstalled: true`",
            notes: ["community advice with no Apple source: harmless, and it clears cached StoreKit state"]))]
    }
}
