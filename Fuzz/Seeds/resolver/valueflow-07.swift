import StoreKit
final class Paywall {
    var showsLifetime = true
    func load() async throws {
        var ids: Set<String> = ["com.acme.month"]
        if showsLifetime {
            ids.insert("com.acme.lifetime")
        }
        Task {
            ids.formUnion(["com.acme.week"])
            _ = try await Product.products(for: ids)
        }
    }
}
