import Formats
import Model
import Loaders
import RuleEngine

/// Xcode lists the `.storekit` files of the app's Swift packages beside the app's own in the
/// scheme's StoreKit Configuration menu; a package's testing file chosen there serves that
/// package's products, not the app's.
struct StoreKitConfigurationFromPackageRule: Rule {
    let id = RuleID.storekitConfigurationFromPackage.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let evidence = context.project.evidence
        guard evidence.schemeUsesStoreKit != nil else {
            return [context.notApplicable("the scheme runs no StoreKit configuration file")]
        }
        guard let (reference, package) = evidence.storeKitFromPackage else { return [context.pass()] }
        let name = Paths.fileName(of: reference.value)
        let scheme = evidence.scheme.map(StoreKitConfigurationRule.schemeName) ?? "the scheme"
        return [context.fail(context.finding(
            "the scheme `\(scheme)` runs with `\(name)` from the Swift package `\(package)`, so Xcode serves that package's test products, not the app's",
            at: reference.location,
            help: "in Xcode, Edit Scheme → Run → Options → StoreKit Configuration: choose the app's own .storekit file (or None to use the sandbox)",
            notes: ["the file is in the package's checkout under DerivedData (`SourcePackages/checkouts/\(package)`), outside the repository: it was not read"]))]
    }
}
