import Formats
import Model
import Loaders
import RuleEngine

/// A descriptor's catalogs and its `products` describe the same products: IDs, types and whether
/// they are cleared for sale agree.
struct CatalogDescriptorMismatchRule: Rule {
    let id = RuleID.catalogDescriptorMismatch.rawValue

    static let typeNames: [String: ProductType] = [
        "consumable": .consumable, "non-consumable": .nonConsumable, "auto-renewable": .autoRenewable,
        "subscription": .nonRenewing,
    ]

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard project.hasDescriptor, !project.products.isEmpty else {
            return [context.notApplicable("there are no descriptor `products` to compare the catalogs with")]
        }
        // `project.product(withID:)` for every item, in one pass: the first product with an ID wins.
        var products: [String: Product] = [:]
        for product in project.products {
            guard let id = product.productID?.value, products[id] == nil else { continue }
            products[id] = product
        }
        var findings: [Finding] = []
        var catalogIDs = Set<String>()
        for package in context.catalogPackages {
            for item in package.items {
                guard let id = item.productID else { continue }
                catalogIDs.insert(id.value)
                guard let product = products[id.value] else {
                    findings.append(context.finding(
                        "`\(id.value)` is in the catalog but not among the descriptor's `products`",
                        at: id.location,
                        help: "add it to `products` in the descriptor (with its status and availability), or remove it from the catalog",
                        product: id.value))
                    continue
                }
                if let xmlType = item.type, let catalogType = Self.typeNames[xmlType.value], let type = product.type,
                    type.value != catalogType
                {
                    let note = "the descriptor says `\(type.value.rawValue)` at \(type.location)"
                    findings.append(context.finding(
                        "`\(id.value)` is a `\(xmlType.value)` in the catalog but `\(type.value.rawValue)` in the descriptor",
                        at: xmlType.location, help: "make the two agree with App Store Connect", notes: [note],
                        related: [RelatedSpan(type.location, label: "the descriptor says `\(type.value.rawValue)`", note: note)],
                        product: id.value))
                }
                if let cleared = item.clearedForSale, let stated = product.clearedForSale,
                    let catalogValue = parseBoolean(cleared.value), catalogValue != stated.value
                {
                    let note = "the descriptor says it at \(stated.location)"
                    findings.append(context.finding(
                        "`\(id.value)` is \(catalogValue ? "" : "not ")cleared for sale in the catalog, but the descriptor says `cleared_for_sale: \(stated.value)`",
                        at: cleared.location, help: "make the two agree with App Store Connect", notes: [note],
                        related: [RelatedSpan(stated.location, label: "the descriptor says `\(stated.value)`", note: note)], product: id.value))
                }
            }
        }
        for product in project.products {
            guard let id = product.productID, !catalogIDs.contains(id.value) else { continue }
            findings.append(context.finding(
                "`\(id.value)` is in the descriptor's `products` but in none of its catalogs",
                at: id.location, help: "add it to the catalog, or list the catalog that has it under `catalogs`",
                product: id.value))
        }
        return context.outcomes(findings)
    }
}
