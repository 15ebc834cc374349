import StoreKit
enum StoreIDs {
    static let subscriptionIDs: Set<String> = ["com.acme.sub.month", "com.acme.sub.year"]
    static let lifetimeID = "com.acme.lifetime"
    static var everything: Set<String> {
        var ids = subscriptionIDs
        ids.insert(lifetimeID)
        return ids
    }
    static let tips: [String] = {
        var list = [String]()
        list.append("com.acme.tip.1")
        list += ["com.acme.tip.2"]
        return list
    }()
    static func consumables() -> [String] { ["com.acme.coins"] + tips }
}
func load() async throws {
    _ = try await Product.products(for: StoreIDs.everything)
    _ = try await Product.products(for: StoreIDs.consumables())
}
