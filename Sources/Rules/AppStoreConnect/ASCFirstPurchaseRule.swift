import Formats
import Model
import Loaders
import RuleEngine

/// The first In-App Purchase (and the first subscription) must be submitted with an app version:
/// with none of them approved or in review yet, a product that is only Ready to Submit never
/// reaches App Review on its own.
struct ASCFirstPurchaseRule: Rule {
    let id = RuleID.ascFirstPurchaseWithVersion.rawValue

    static let throughReview: Set<String> = [
        "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL", "APPROVED", "DEVELOPER_REMOVED_FROM_SALE", "REMOVED_FROM_SALE",
    ]

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot, facts.inAppPurchasesFetched || facts.subscriptionsFetched else { return [] }
        let stored = context.project.products.filter { $0.store != nil }
        var outcomes: [Outcome] = []
        for kind in [StoreRecord.Kind.inAppPurchase, .subscription] {
            // "None went through review" is known only of a list App Store Connect gave whole.
            guard kind == .inAppPurchase ? facts.inAppPurchasesFetched : facts.subscriptionsFetched else { continue }
            let ofKind = stored.filter { $0.store?.kind == kind }
            // Some product of the kind went through review: the "first" rule no longer applies.
            guard !ofKind.contains(where: { Self.throughReview.contains($0.store?.state?.value ?? "") }) else {
                outcomes += ofKind.map { context.pass(product: $0.productID?.value) }
                continue
            }
            for product in ofKind where product.store?.state?.value == "READY_TO_SUBMIT" {
                let id = product.productID?.value
                let what = kind == .subscription ? "subscription" : "In-App Purchase"
                outcomes.append(context.fail(context.finding(
                    "`\(product.name)` is Ready to Submit and no \(what) of this app has been reviewed yet: the first \(what) must be submitted with a new app version",
                    at: product.store?.state?.location ?? product.anchor,
                    help: "on the app version's page in App Store Connect, add `\(product.referenceName?.value ?? product.name)` under In-App Purchases and Subscriptions, then submit the version for review",
                    notes: ["submitted alone, it waits for a binary that App Review can test it with"],
                    product: id), product: id))
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }
}
