import Formats
import Model
import Loaders
import RuleEngine

/// A requested ID that matches no known product, not even approximately. Only App Store Connect's
/// products (the descriptor's `products`, bulk XML) prove a product exists outside Xcode; a local
/// StoreKit configuration file proves it only for a Run from Xcode, where
/// `storekit-configuration-incomplete` compares the requests with the file instead.
struct RequestedProductMissingRule: Rule {
    let id = RuleID.requestedProductMissing.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        if context.environment == .xcode, project.evidence.storeKit != nil {
            return [context.notApplicable("Xcode serves the StoreKit configuration file's products; `storekit-configuration-incomplete` compares the requests with it")]
        }
        guard let requests = context.knownRequests else {
            return [context.unknownRequests()]
        }
        let storeIDs = Set(project.products.compactMap { $0.productID?.value }
            + project.catalogPackages.flatMap { $0.items.compactMap { $0.productIDText } })
        let local = project.storeKitFiles
        guard !storeIDs.isEmpty else {
            let known = local.isEmpty ? "" : " A local StoreKit configuration file does not count: App Store Connect never sees it."
            return [context.unknown(
                "Which In-App Purchases exist for this app in App Store Connect (product IDs, types, statuses)?" + known,
                key: .products)]
        }
        return requests.compactMap { request -> Outcome? in
            switch request.match {
            case .missing where RequestedIDFormatRule.problem(request.request.value, maxLength: Int.max) != nil:
                // One cause, one error: `requested-id-format` says why no product can have this ID.
                return nil
            case .missing:
                return context.fail(context.finding(
                    "no product has the ID `\(request.request.value)`: it is not among the \(storeIDs.count) products known in App Store Connect",
                    at: request.request.location,
                    help: request.request.source == .revenueCat
                        ? "create `\(request.request.value)` under In-App Purchases for this app in App Store Connect, or give the RevenueCat product the store identifier of an existing one"
                        : "create `\(request.request.value)` under In-App Purchases for this app in App Store Connect and add it to `products`, or request an existing product ID",
                    notes: ["product IDs belong to one app: a product of another app (or of the iOS record when this is the macOS one) is invalid here"],
                    product: request.request.value))
            case .bundleID:
                // One cause, one finding: `bundle-id-as-product-id` reports it.
                return nil
            default:
                let id = request.verdictID
                if !storeIDs.contains(id), let file = local.first(where: { $0.productIDs.contains(id) }) {
                    let name = Paths.fileName(of: file.file)
                    return context.unknown(
                        "`\(id)` is known only from the local StoreKit configuration file `\(name)`: does it exist for this app in App Store Connect?",
                        key: .products, product: id)
                }
                return context.pass(product: id)
            }
        }
    }
}
