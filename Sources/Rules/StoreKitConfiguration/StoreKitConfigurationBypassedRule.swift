import Formats
import Model
import Loaders
import RuleEngine

/// A Flutter, React Native or Expo app launched with its framework's command (`flutter run`,
/// `npx react-native run-ios`) is installed without Xcode's Run action, so the scheme's StoreKit
/// configuration is not applied: the app asks the sandbox, and what the file serves is not tested.
struct StoreKitConfigurationBypassedRule: Rule {
    let id = RuleID.storekitConfigurationBypassed.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard let reference = project.evidence.schemeUsesStoreKit else {
            return [context.notApplicable("the scheme runs no StoreKit configuration file")]
        }
        let commands = project.evidence.sources.launchCommands
        guard !commands.isEmpty else { return [context.pass()] }
        let name = Paths.fileName(of: project.evidence.storeKit?.file ?? reference.value)
        let launched = commands.joined(separator: " or ")
        return [context.fail(context.finding(
            "if the app is launched with \(launched), it does not use the scheme's StoreKit configuration `\(name)`: it asks the sandbox, and what `\(name)` serves is not what it gets",
            at: reference.location,
            help: "to test with `\(name)`, open the Xcode workspace under ios/ and run the app with Product → Run; to test the sandbox, set `environment: sandbox` and sign in with a sandbox account",
            notes: ["only Xcode's Run action applies a scheme's StoreKit configuration; \(launched) builds and installs the app without it", "the files cannot say which way the app is launched: the findings about `\(name)` hold for a run from Xcode"]))]
    }
}
