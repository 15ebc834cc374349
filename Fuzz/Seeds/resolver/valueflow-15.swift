import StoreKit
final class Tipper {
    enum Tip: String, CaseIterable { case small = "tip.small"; case big = "tip.big" }
    var isPremiumEdition = false
    func productID(_ tip: Tip) -> String {
        return isPremiumEdition ? "premium." + tip.rawValue : tip.rawValue
    }
    func load() async throws {
        let ids = Tip.allCases.map { productID($0) }
        _ = try await Product.products(for: Set(ids))
    }
}
