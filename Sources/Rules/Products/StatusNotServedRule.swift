import IAPDoctor

/// Each environment serves products in some statuses only: production serves `approved` ones;
/// the sandbox needs no review but does not serve products Apple flagged.
struct StatusNotServedRule: Rule {
    let id = "status-not-served"

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        return project.products.map { product in
            let id = product.productID?.value
            guard let status = product.status else {
                return context.unknown(
                    "What is the App Store Connect status of `\(product.name)`?",
                    key: "\(project.productPath(product)).status", product: id)
            }
            // Removed from sale is `not-cleared-for-sale`'s finding.
            if status.value == .developerRemovedFromSale || status.value == .removedFromSale { return context.pass(product: id) }
            switch context.environment {
            case .production:
                guard status.value != .approved else { return context.pass(product: id) }
                return context.fail(context.finding(
                    "product `\(product.name)` is `\(status.value.rawValue)`, and the App Store serves only `approved` products",
                    at: status.location,
                    help: status.value == .readyToSubmit || status.value == .missingMetadata
                        ? "complete the product's metadata and submit it with an app version for review"
                        : "wait for App Review to approve the product (or address its feedback), then update `status`",
                    product: id))
            case .review:
                switch status.value {
                case .missingMetadata, .rejected, .developerActionNeeded:
                    return context.fail(context.finding(
                        "product `\(product.name)` is `\(status.value.rawValue)`, so it cannot go to App Review with the app",
                        at: status.location,
                        help: "complete or fix the product in App Store Connect until it is Ready to Submit, and attach it to the app version",
                        product: id))
                default: return context.pass(product: id)
                }
            default:
                switch status.value {
                case .rejected, .developerActionNeeded:
                    return context.fail(context.finding(
                        "product `\(product.name)` is `\(status.value.rawValue)`: Apple flagged it, and flagged products are not reliably served, even in the sandbox",
                        at: status.location,
                        help: "read the feedback in App Store Connect, edit the product and resubmit it; then update `status`",
                        product: id))
                default: return context.pass(product: id)
                }
            }
        }
    }
}
