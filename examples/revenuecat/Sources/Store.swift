import RevenueCat

enum Keys {
    static let revenueCat = "appl_PocketGardenPublicKey01"
}

final class Store {
    func start() {
        Purchases.configure(withAPIKey: Keys.revenueCat)
    }

    func paywallPackages() async throws -> [Package] {
        let offerings = try await Purchases.shared.offerings()
        return offerings.current?.availablePackages ?? []
    }
}
