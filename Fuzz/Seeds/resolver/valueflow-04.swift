import StoreKit
enum Tier: CaseIterable {
    case basic, plus, family
    var productID: String {
        switch self {
        case .basic: "com.acme.basic"
        default: "com.acme.premium"
        }
    }
}
func load() async throws {
    _ = try await Product.products(for: [Tier.plus.productID, Tier.basic.productID])
}
