import Formats
import Model
import Loaders
import RuleEngine

/// Product IDs are unique in an app, so also in a package.
struct CatalogDuplicateProductIDRule: Rule {
    let id = RuleID.catalogDuplicateProductId.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { package in
            package.repeats(of: .productID).map { _, id, earlier in
                let note = "first used at \(earlier.location)"
                return context.finding(
                    "product ID `\(id.value)` appears twice in the package",
                    at: id.location, help: "remove one of the two `<in_app_purchase>` entries, or give this one a new product ID",
                    notes: [note], related: [RelatedSpan(earlier.location, label: "first used here", note: note)], product: id.value)
            }
        })
    }
}
