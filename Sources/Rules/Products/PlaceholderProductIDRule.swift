import Formats
import Model
import Loaders
import RuleEngine

/// Template IDs (`com.example.…`, `YOUR_PRODUCT_ID`) that were never replaced.
struct PlaceholderProductIDRule: Rule {
    let id = RuleID.placeholderProductId.rawValue

    /// Markers no real product ID contains (compared in lower case).
    static let markers = [
        "com.example.", "com.yourcompany.", "com.mycompany.", "your_product", "your_app", "your_bundle",
        "yourproductid", "product_id_here", "xxxxx", "{sku}", "changeme", "replace_me",
    ]

    static func placeholderMarker(in text: String) -> String? {
        let lower = text.lowercased()
        return markers.first { lower.contains($0) }
    }

    func check(_ context: RuleContext) -> [Outcome] {
        var facts: [(Fact<String>, String?)] = context.project.products.compactMap { product in
            product.productID.map { ($0, $0.value) }
        }
        facts += context.requests.map { ($0.request, $0.verdictID) }
        var findings: [Finding] = []
        for (fact, product) in facts {
            guard let marker = Self.placeholderMarker(in: fact.value) else { continue }
            findings.append(context.finding(
                "`\(fact.value)` looks like a placeholder product ID (it contains `\(marker)`)",
                at: fact.location,
                help: "replace it with the product ID you created in App Store Connect",
                notes: ["sample and template IDs belong to no app, so StoreKit returns them as invalid"], product: product))
        }
        return context.outcomes(findings)
    }
}
