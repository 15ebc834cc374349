import Formats
import Model
import Loaders
import RuleEngine

/// Reference names are unique within an app.
struct DuplicateReferenceNameRule: Rule {
    let id = RuleID.duplicateReferenceName.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(repeats(in: context.project.products) { $0.referenceName }.map { product, name, earlier in
            let note = "first used at \(earlier.location)"
            return context.finding(
                "reference name `\(name.value)` of `\(product.name)` is already used by another product; reference names are unique within an app",
                at: name.location, help: "give `\(product.name)` a distinct reference name",
                notes: [note], related: [RelatedSpan(earlier.location, label: "first used here", note: note)], product: product.productID?.value)
        })
    }
}
