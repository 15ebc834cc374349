import StoreKit
func loadPlans() async throws {
    _ = try await Product.products(for: Set(Plan.allIdentifiers))
    _ = try await Product.products(for: Plan.allCases.map { plan in plan.identifier })
}
func buyAnnual() async throws {
    _ = try await Product.products(for: [Plan.annual.identifier])
}
