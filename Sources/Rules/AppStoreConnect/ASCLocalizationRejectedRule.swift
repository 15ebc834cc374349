import Formats
import Model
import Loaders
import RuleEngine

/// App Review rejects a product's localization on its own (a misleading name, a description that
/// does not match): the product cannot be approved until it is edited and resubmitted.
struct ASCLocalizationRejectedRule: Rule {
    let id = RuleID.ascLocalizationRejected.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard context.project.ascSnapshot != nil else { return [] }
        return context.project.products.compactMap { product -> Outcome? in
            guard let record = product.store, let localizations = record.localizations else { return nil }
            let id = product.productID?.value
            let rejected = localizations.filter { $0.state?.value == "REJECTED" }
            guard !rejected.isEmpty else { return context.pass(product: id) }
            let findings = rejected.map { localization in
                context.finding(
                    "the `\(localization.locale.value)` localization of `\(product.name)` was rejected by App Review",
                    at: localization.state?.location ?? localization.locale.location,
                    help: "read App Review's message in App Store Connect (the product's page, or the app's Resolution Center), edit the display name or description, and submit the product again",
                    product: id)
            }
            return Outcome(item: context.item, productID: id, status: .fail(findings), rule: self.id)
        }
    }
}
