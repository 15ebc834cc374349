import StoreKit

// The product IDs live in the StoreKitShared submodule (`ProductCatalog.ids`).
func loadShop() async throws -> [Product] {
    try await Product.products(for: ProductCatalog.ids)
}
