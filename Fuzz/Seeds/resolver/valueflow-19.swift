import StoreKit
func ids(_ n: Int) -> [String] { n == 0 ? ["com.acme.base"] : ids(n - 1) + ["com.acme.more"] }
var all: [String] { var list = all; list.append("com.acme.self"); return list }
func load() async throws {
    _ = try await Product.products(for: ids(3))
    _ = try await Product.products(for: all)
}
