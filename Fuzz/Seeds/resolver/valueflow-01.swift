import StoreKit
let tipNames: [String: String] = [
    "com.acme.tip.small": "Small tip",
    "com.acme.tip.large": "Large tip",
]
func load() async throws {
    _ = try await Product.products(for: Set(tipNames.keys))
}
