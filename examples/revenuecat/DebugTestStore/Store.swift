import RevenueCat

final class Store {
    func start() {
        // RevenueCat's suggestion: the Test Store in Debug, the App Store app's key in Release.
        #if DEBUG
        Purchases.configure(withAPIKey: "test_PocketGardenTestKey03")
        #else
        Purchases.configure(withAPIKey: "appl_PocketGardenPublicKey01")
        #endif
    }

    func packages() async throws -> [Package] {
        try await Purchases.shared.offerings().current?.availablePackages ?? []
    }
}
