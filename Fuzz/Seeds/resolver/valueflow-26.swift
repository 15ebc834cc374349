import StoreKit
struct Tip { let id: String; let title: String; let price: Int }
enum TipJar {
    static let all = [
        Tip(id: "com.acme.tip.coffee", title: "Coffee", price: 3),
        Tip(id: "com.acme.tip.lunch", title: "Lunch", price: 10),
    ]
}
func load() async throws {
    _ = try await Product.products(for: TipJar.all.map(\.id))
}
