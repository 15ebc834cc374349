import RevenueCat

final class Store {
    func start() {
        Purchases.configure(withAPIKey: "appl_PocketGardenPublicKey01")
    }

    func salePackages() async throws -> [Package] {
        let offerings = try await Purchases.shared.offerings()
        return offerings.offering(identifier: "spring_sale")?.availablePackages ?? []
    }
}
