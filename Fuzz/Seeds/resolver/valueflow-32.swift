import StoreKit
final class Catalog {
    private let skus: [String]
    init(skus: [String]) { self.skus = skus }
    func load() async throws -> [Product] { try await Product.products(for: skus) }
}
