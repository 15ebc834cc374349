import RevenueCat

final class Store {
    func start() {
        Purchases.configure(withAPIKey: "test_PocketGardenTestKey03")
    }

    func packages() async throws -> [Package] {
        try await Purchases.shared.offerings().current?.availablePackages ?? []
    }
}
