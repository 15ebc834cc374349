import Formats
import Model
import Loaders
import RuleEngine

/// Reference names are unique in an app.
struct CatalogDuplicateReferenceNameRule: Rule {
    let id = RuleID.catalogDuplicateReferenceName.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { package in
            package.repeats(of: .referenceName).map { item, name, earlier in
                let note = "first used at \(earlier.location)"
                return context.finding(
                    "reference name `\(name.value)` of `\(item.name)` is already used in the package",
                    at: name.location, help: "give each in-app purchase its own reference name",
                    notes: [note], related: [RelatedSpan(earlier.location, label: "first used here", note: note)], product: item.productID?.value)
            }
        })
    }
}
