import StoreKit
enum Perk: CaseIterable {
    case supporter
    var id: String { Bundle.main.bundleIdentifier! + ".supporter" }
}
func loadPerks() async throws {
    _ = try await Product.products(for: Perk.allCases.map { $0.id })
}
