import StoreKit
func loadRemote() async throws {
    let ids = UserDefaults.standard.stringArray(forKey: "ids") ?? []
    _ = try await Product.products(for: ids)
}
func loadMixed(extra: String) async throws {
    _ = try await Product.products(for: ["com.acme.known", extra])
}
func fetch(_ ids: [String]) async throws -> [Product] {
    try await Product.products(for: ids)
}
