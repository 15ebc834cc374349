final class Paywall {
    let store = Store()
    func appear() async throws {
        _ = try await store.fetch([.pro, .lifetime])
    }
}
