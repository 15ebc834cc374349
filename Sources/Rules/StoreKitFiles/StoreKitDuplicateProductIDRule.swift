import Formats
import Model
import Loaders
import RuleEngine

/// A product ID appears once per StoreKit configuration file (products, non-renewing
/// subscriptions and every group's subscriptions together).
struct StoreKitDuplicateProductIDRule: Rule {
    let id = RuleID.storekitDuplicateProductId.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.project.storeKitFiles.flatMap { configuration in
            repeats(in: configuration.products) { $0.productID }.map { _, id, earlier in
                let note = "first used at \(earlier.location)"
                return context.finding(
                    "product ID `\(id.value)` appears twice in the StoreKit configuration",
                    at: id.location, help: "remove one of the two products, or give this one its own product ID",
                    notes: [note], related: [RelatedSpan(earlier.location, label: "first used here", note: note)], product: id.value)
            }
        })
    }
}
