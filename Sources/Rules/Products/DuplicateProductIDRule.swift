import Formats
import Model
import Loaders
import RuleEngine

/// Product IDs are unique within an app.
struct DuplicateProductIDRule: Rule {
    let id = RuleID.duplicateProductId.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(repeats(in: context.project.products) { $0.productID }.map { _, id, earlier in
            let note = "first listed at \(earlier.location)"
            return context.finding(
                "product ID `\(id.value)` is listed twice; product IDs are unique within an app",
                at: id.location, help: "remove this entry or give it a new, never-used product ID",
                notes: [note], related: [RelatedSpan(earlier.location, label: "first listed here", note: note)], product: id.value)
        })
    }
}
