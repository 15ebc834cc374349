import StoreKit
@objc final class TipJar: NSObject {
    @objc static let shared = TipJar()
    @objc func start(_ ids: [String], parent: NSObject) {
        Task { _ = try? await Product.products(for: Set(ids)) }
    }
    @objc func load(tiers: [String]) {
        Task { _ = try? await Product.products(for: tiers) }
    }
}
