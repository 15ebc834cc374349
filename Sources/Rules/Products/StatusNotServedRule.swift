import Formats
import Model
import Loaders
import RuleEngine

/// Each environment serves products in some statuses only: production serves `approved` ones;
/// the sandbox needs no review but does not serve products Apple flagged.
struct StatusNotServedRule: Rule {
    let id = RuleID.statusNotServed.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        return project.products.map { product in
            let id = product.productID?.value
            guard let status = product.status else {
                if let state = product.store?.state {
                    return context.unknown(
                        "App Store Connect says `\(product.name)` is `\(state.value)` (\(state.location)), a state this version of iapdoctor does not know: does the \(context.environment.rawValue) environment serve it?",
                        key: project.keyPath(.status, of: product), product: id)
                }
                return context.unknown(
                    "What is the App Store Connect status of `\(product.name)`?",
                    key: project.keyPath(.status, of: product), product: id)
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
                case .waitingForUpload, .processingContent:
                    return context.fail(context.finding(
                        "product `\(product.name)` is `\(status.value.rawValue)`: its hosted content is \(status.value == .waitingForUpload ? "not uploaded" : "still processing"), so it cannot go to App Review with the app",
                        at: status.location,
                        help: status.value == .waitingForUpload
                            ? "upload the product's hosted content package (Xcode → Organizer, or Transporter), wait until it has processed, then submit the product"
                            : "wait until App Store Connect has processed the hosted content (Ready to Submit), then submit the product",
                        product: id))
                case .missingMetadata, .rejected, .developerActionNeeded:
                    return context.fail(context.finding(
                        "product `\(product.name)` is `\(status.value.rawValue)`, so it cannot go to App Review with the app",
                        at: status.location,
                        help: status.value != .missingMetadata && status.source == .appStoreConnect
                            ? Self.whereToLook(product)
                            : "complete or fix the product in App Store Connect until it is Ready to Submit, and attach it to the app version",
                        product: id))
                default: return context.pass(product: id)
                }
            default:
                switch status.value {
                case .rejected, .developerActionNeeded:
                    return context.fail(context.finding(
                        "product `\(product.name)` is `\(status.value.rawValue)`: Apple flagged it, and flagged products are not reliably served, even in the sandbox",
                        at: status.location,
                        help: status.source == .appStoreConnect
                            ? Self.whereToLook(product)
                            : "read the feedback in App Store Connect, edit the product and resubmit it; then update `status`",
                        product: id))
                default: return context.pass(product: id)
                }
            }
        }
    }

    /// Where App Review's message about a flagged product is.
    static func whereToLook(_ product: Product) -> String {
        let section = product.type?.value == .autoRenewable ? "Subscriptions" : "In-App Purchases"
        let name = product.referenceName?.value ?? product.name
        return "open App Store Connect → the app → Monetization → \(section) → `\(name)`: App Review's message is at the top of the page (and in the app's Resolution Center); fix what it names, save, and submit the product again"
    }
}
