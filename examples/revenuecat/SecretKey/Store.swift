import RevenueCat

final class Store {
    func start() {
        // Copied from Project settings → API keys, the wrong row.
        Purchases.configure(withAPIKey: "sk_PocketGardenSecretValue0042")
    }

    func packages() async throws -> [Package] {
        try await Purchases.shared.offerings().current?.availablePackages ?? []
    }
}
