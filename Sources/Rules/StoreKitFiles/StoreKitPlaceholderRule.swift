import Formats
import Model
import Loaders
import RuleEngine

/// Template product IDs or names left in a StoreKit configuration file.
struct StoreKitPlaceholderRule: Rule {
    let id = RuleID.storekitPlaceholder.rawValue

    static let markers = ["com.example.", "com.yourcompany.", "your_product", "yourproductid", "product_id_here", "xxxxx", "changeme", "replace_me"]

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for configuration in context.project.storeKitFiles {
            for product in configuration.products {
                for fact in [product.productID, product.referenceName].compactMap({ $0 }) {
                    let lower = fact.value.lowercased()
                    guard let marker = Self.markers.first(where: { lower.contains($0) }) else { continue }
                    findings.append(context.finding(
                        "`\(fact.value)` looks like a placeholder (it contains `\(marker)`)",
                        at: fact.location, help: "replace it with the product's real value from App Store Connect",
                        product: product.productID?.value))
                }
            }
        }
        return context.outcomes(findings)
    }
}
