import RevenueCat

final class Store {
    func start() {
        // Copied from the quick start, never filled in.
        Purchases.configure(withAPIKey: "appl_YOUR_PUBLIC_API_KEY")
    }

    func packages() async throws -> [Package] {
        try await Purchases.shared.offerings().current?.availablePackages ?? []
    }
}
