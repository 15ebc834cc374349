import RevenueCat

final class Store {
    func start() {
        Purchases.configure(withAPIKey: "goog_PocketGardenPublicKey02")
    }

    func packages() async throws -> [Package] {
        try await Purchases.shared.offerings().current?.availablePackages ?? []
    }
}
