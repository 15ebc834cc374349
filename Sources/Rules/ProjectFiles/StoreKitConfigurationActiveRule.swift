import Formats
import Model
import Loaders
import RuleEngine

/// When the scheme's Run action uses a StoreKit configuration file, an app run from Xcode gets the
/// file's products, never the sandbox's: worth knowing when you think you are testing the sandbox.
/// TestFlight, review and App Store builds never use the scheme, so the rule is the sandbox's.
struct StoreKitConfigurationActiveRule: Rule {
    let id = RuleID.storekitConfigurationActive.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let evidence = context.project.evidence
        guard let scheme = evidence.scheme else { return [] }
        guard let reference = evidence.schemeUsesStoreKit else { return [context.pass()] }
        let schemeName = scheme.file.split(separator: "/").last.map { String($0.dropLast(".xcscheme".count)) } ?? scheme.file
        // Only the sandbox is tested with a run from Xcode; other environments' builds ignore the scheme.
        return [context.fail(context.finding(
            "the scheme `\(schemeName)` runs the app with the StoreKit configuration `\(Paths.fileName(of: reference.value))`, so a run from Xcode gets that file's products, not the sandbox's",
            at: reference.location,
            help: "to test the sandbox, set Edit Scheme → Run → Options → StoreKit Configuration to None; to test the file, set `environment: xcode`",
            notes: ["builds installed another way (TestFlight, `xcodebuild`, devicectl) ignore the scheme's StoreKit configuration"]))]
    }
}
