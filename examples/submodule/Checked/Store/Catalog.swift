import StoreKit

enum Catalog {
    static let ids = ["com.greenthumb.pocketgarden.seeds50"]
}

func loadCatalog() async throws -> [Product] {
    try await Product.products(for: Catalog.ids)
}
