import StoreKit
final class Kettle {
    var task: Task<Void, Never>?
    func begin(_ ids: [String]) {
        task = Task { _ = await self.load(ids) }
    }
    func load(_ ids: [String]) async -> [Product]? {
        let wanted = Set<String>(ids)
        return try? await Product.products(for: wanted)
    }
}
final class Home {
    func start() { Kettle().begin(["com.acme.tip.one", "com.acme.tip.two"]) }
}
