import StoreKit
enum ProductID: String, CaseIterable { case pro = "com.x.pro", gold = "com.x.gold" }
let prefix = "com.x."
let ids = [prefix + "a", "\(prefix)b"] + ProductID.allCases.map(\.rawValue)
let d1 = [ids, "com.x.c"]
func load() async throws {
    _ = try await Product.products(for: d1)
    _ = try await Product.products(for: Set(ids))
    _ = try await Product.products(for: [ProductID.pro.rawValue])
}
