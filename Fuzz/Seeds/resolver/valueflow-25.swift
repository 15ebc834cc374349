import StoreKit
enum Supporter: String, CaseIterable {
    case yearly
    var identifier: String {
        guard let prefix = Bundle.main.rootIdentifier else { return "com.acme.app.supporter" }
        return prefix + ".supporter"
    }
}
func load() async throws {
    _ = try await Product.products(for: Supporter.allCases.map(\.identifier))
}
