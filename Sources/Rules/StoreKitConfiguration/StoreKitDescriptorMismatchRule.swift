import Formats
import Model
import Loaders
import RuleEngine

/// A StoreKit configuration file meant to mirror App Store Connect, compared with the products the
/// descriptor says App Store Connect has: a product in one and not the other is worth a look (a
/// hint, not a fault: a local file may hold products still to be created, or test-only ones).
struct StoreKitDescriptorMismatchRule: Rule {
    let id = RuleID.storekitDescriptorMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard let configuration = project.evidence.storeKit else { return [] }
        let stated = project.products.compactMap(\.productID)
        guard !stated.isEmpty, !configuration.products.isEmpty else { return [] }
        let name = Paths.fileName(of: configuration.file)
        let inFile = Set(configuration.productIDs)
        let inStore = Set(stated.map(\.value))
        var findings: [Finding] = []
        for product in stated where !inFile.contains(product.value) {
            findings.append(context.finding(
                "`\(product.value)` is in App Store Connect (the descriptor's `products`) but not in `\(name)`",
                at: product.location,
                help: "add it to `\(name)` in Xcode, or sync the file with App Store Connect (Xcode 14+: the file's Sync button)",
                product: product.value))
        }
        for product in configuration.products {
            guard let id = product.productID, !inStore.contains(id.value) else { continue }
            findings.append(context.finding(
                "`\(id.value)` is in `\(name)` but not among the descriptor's App Store Connect products",
                at: id.location,
                help: "create it in App Store Connect before testing outside Xcode, or add it to `products` if it exists",
                product: id.value))
        }
        return findings.isEmpty ? [context.pass()] : [context.passWithNotes(findings)]
    }
}
