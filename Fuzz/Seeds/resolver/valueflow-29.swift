import StoreKit
final class Store {
    private let configuration: Configuration
    init() {
        self.configuration = DefaultConfiguration()
    }
    func load(region: Region) async throws {
        let ids = configuration.identifiers(for: region)
        _ = try await Product.products(for: ids)
    }
}
