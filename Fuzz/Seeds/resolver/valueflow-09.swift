import StoreKit
final class Store {
    func fetch(_ identifiers: [StoreID]) async throws -> [Product] {
        try await Product.products(for: Set(identifiers.map { $0.rawValue }))
    }
}
