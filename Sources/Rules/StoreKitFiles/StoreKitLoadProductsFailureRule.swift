import Formats
import Model
import Loaders
import RuleEngine

/// A StoreKit configuration file can simulate a "Load Products" failure; committed with it on,
/// every Run from Xcode with that file gets no products.
struct StoreKitLoadProductsFailureRule: Rule {
    let id = RuleID.storekitLoadProductsFailure.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for configuration in context.project.storeKitFiles {
            guard let failure = configuration.loadProductsFailure else { continue }
            let name = Paths.fileName(of: configuration.file)
            let requested = context.requests.isEmpty ? "" : " (\(context.requests.count) requested)"
            findings.append(context.finding(
                "`\(name)` simulates a \"Load Products\" failure, so StoreKit returns no products\(requested) while it is on",
                at: failure,
                help: "in Xcode, open `\(name)` → Editor → Simulated StoreKit Failures (Configuration Settings) and turn off Load Products, or set `\"enabled\" : false` for it under `_storeKitErrors`"))
        }
        return context.outcomes(findings)
    }
}
