import Formats
import Model
import Loaders
import RuleEngine

/// Where the descriptor and App Store Connect state the same fact differently, App Store Connect
/// is right (it is what StoreKit serves) and the descriptor is out of date: say both, and where.
struct DescriptorASCMismatchRule: Rule {
    let id = RuleID.descriptorAscMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot else { return [] }
        var outcomes: [Outcome] = facts.disagreements.map { disagreement in
            var finding = context.finding(
                "\(disagreement.subject) is `\(disagreement.snapshot.value)` in App Store Connect (\(disagreement.snapshot.location)), but the descriptor says `\(disagreement.descriptor.value)`",
                at: disagreement.descriptor.location,
                help: "set `\(disagreement.key)` to `\(disagreement.snapshot.value)`, or remove it and let the snapshot answer",
                notes: ["iapdoctor uses App Store Connect's value"],
                related: [RelatedSpan(disagreement.snapshot.location, label: "App Store Connect says `\(disagreement.snapshot.value)`")])
            finding.checklist = disagreement.checklistItem
            return context.passWithNotes([finding], item: disagreement.checklistItem)
        }
        for product in facts.productsNotInStore {
            var finding = context.finding(
                "the descriptor lists `\(product.value)`, but App Store Connect has no such product for this app",
                at: product.location,
                help: "create it in App Store Connect (and pull the snapshot again), or remove it from `products`",
                notes: facts.productListLocation.map { ["App Store Connect's product list is at \($0)"] } ?? [],
                related: facts.productListLocation.map { [RelatedSpan($0, label: "App Store Connect's products for this app", note: "App Store Connect's product list is at \($0)")] } ?? [])
            finding.checklist = ChecklistID.productExists.rawValue
            outcomes.append(context.passWithNotes([finding], item: ChecklistID.productExists.rawValue))
        }
        return outcomes
    }
}
