import StoreKit
enum Pack: String, CaseIterable {
    case small = "com.acme.pack.small"
    case large = "com.acme.pack.large"
    var productID: String { rawValue }
}
let extras: Set<String> = ["com.acme.extra"]
func load() async throws {
    let packs = Pack.allCases.reduce(into: Set<String>()) { $0.insert($1.rawValue) }
    _ = try await Product.products(for: packs.union(extras))
}
func loadInLoop() async throws {
    var ids: [String] = []
    for pack in Pack.allCases where pack != .small {
        ids.append(pack.productID)
    }
    _ = try await Product.products(for: ids)
}
