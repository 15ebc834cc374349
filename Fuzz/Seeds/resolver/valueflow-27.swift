import StoreKit
enum Zone { case home, abroad }
enum Suffix { static let trial = "trial" }
struct Plan { var name: String; var idsByZone: [Zone: [String]] }
final class Catalog {
    private let plans: [Plan] = [
        Plan(name: "prod", idsByZone: [.home: ["com.acme.m.home", "com.acme.m.home.\(Suffix.trial)"],
                                       .abroad: ["com.acme.m.abroad"]]),
        Plan(name: "beta", idsByZone: [.home: ["beta.m"], .abroad: ["beta.m.abroad"]]),
    ]
    func ids(for zone: Zone) -> [String] { plans.reduce([]) { $0 + ($1.idsByZone[zone] ?? []) } }
}
protocol Fetching { func fetch(_ ids: [String]) async throws -> [Product] }
struct LiveFetching: Fetching {
    func fetch(_ ids: [String]) async throws -> [Product] { try await Product.products(for: ids) }
}
final class Shop {
    let catalog = Catalog()
    let fetcher: Fetching = LiveFetching()
    func load(zone: Zone) async { _ = try? await fetcher.fetch(catalog.ids(for: zone)) }
}
