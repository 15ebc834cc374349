import Formats
import Model
import Loaders
import RuleEngine

/// A `.storekit` file copied into the built app: Xcode's local catalog, shipped.
struct BuildStoreKitFileRule: Rule {
    let id = RuleID.buildStorekitFileShipped.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for built in context.project.builtApps {
            for file in built.bundledStoreKitFiles {
                let name = Paths.fileName(of: file)
                findings.append(context.finding(
                    "`\(name)` is copied into the built app; a StoreKit configuration serves products to Xcode's Run only, and a shipped build never reads it",
                    at: SourceLocation(file: file), notes: ["found in `\(Paths.shown(built.appBundle))`"]))
            }
        }
        return context.outcomes(findings)
    }
}
