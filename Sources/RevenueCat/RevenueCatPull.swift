import AppStoreConnect
import Foundation

/// What `iapdoctor revenuecat pull` made: the snapshot and how the pull went.
public struct RevenueCatPullResult: Sendable {
    /// The snapshot document (`iapdoctor-revenuecat-snapshot/1`).
    public let snapshot: JSONValue
    /// Its text: pretty-printed, keys sorted, lists in the API's order.
    public var text: String { snapshot.serialized(pretty: true) + "\n" }
    public let projectID: String
    public let projectName: String?
    public let apps: Int
    public let products: Int
    public let offerings: Int
    public let entitlements: Int
    public let unavailable: [RevenueCatPull.Unavailable]
    public let statistics: PullStatistics
}

/// Reads one RevenueCat project's configuration through REST API v2, GET requests only: the
/// projects (to choose one), the apps, each app's public SDK keys, the products, the offerings
/// with their packages and the packages' products (one request, `expand`), and the
/// entitlements. Lists are read to their last page. A list the key may not read is recorded as
/// unavailable and the pull goes on; a refused key or an unreachable server ends it.
///
/// Cost: 5 requests plus one per app, plus one per further page of 100 (a project with 3 apps,
/// 50 products and 10 offerings takes 8).
public struct RevenueCatPull: Sendable {
    /// A list that could not be read: its path (no query), the status, why.
    public struct Unavailable: Sendable, Equatable {
        public let path: String
        public let status: Int?
        public let message: String

        var json: JSONValue {
            var members: [String: JSONValue] = ["path": .string(path), "message": .string(message)]
            if let status { members["status"] = .integer(Int64(status)) }
            return .object(members)
        }
    }

    /// Pages read of one list at most: 100 items each.
    public static let maximumPages = 500

    let client: RevenueCatClient
    let clock: @Sendable () -> Date

    public init(client: RevenueCatClient, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.clock = clock
    }

    public func run(projectID: String?) async throws(PullFailure) -> RevenueCatPullResult {
        let fetchedAt = clock()
        var unavailable: [Unavailable] = []
        let project = try await chooseProject(projectID)
        let base = "/projects/" + RevenueCatPull.pathSegment(project.id)

        var apps: [JSONValue] = []
        if let items = try await list(base + "/apps", [("limit", "100")], permission: "project_configuration:apps:read", unavailable: &unavailable) {
            for item in items {
                guard let id = item["id"]?.stringValue, let type = item["type"]?.stringValue else { continue }
                var app: [String: JSONValue] = ["id": .string(id), "type": .string(type)]
                if let name = item["name"]?.stringValue { app["name"] = .string(name) }
                if let bundleID = item["app_store"]?["bundle_id"]?.stringValue ?? item["mac_app_store"]?["bundle_id"]?.stringValue {
                    app["bundle_id"] = .string(bundleID)
                }
                if let packageName = item["play_store"]?["package_name"]?.stringValue { app["package_name"] = .string(packageName) }
                if let keys = try await list(base + "/apps/" + RevenueCatPull.pathSegment(id) + "/public_api_keys", [],
                                             permission: "project_configuration:apps:read", unavailable: &unavailable) {
                    app["public_api_keys"] = .array(keys.compactMap { key in
                        guard let value = key["key"]?.stringValue else { return nil }
                        var entry: [String: JSONValue] = ["key": .string(value)]
                        if let environment = key["environment"]?.stringValue { entry["environment"] = .string(environment) }
                        return .object(entry)
                    })
                }
                apps.append(.object(app))
            }
        }

        var products: [JSONValue] = []
        if let items = try await list(base + "/products", [("limit", "100")], permission: "project_configuration:products:read", unavailable: &unavailable) {
            products = items.compactMap(RevenueCatPull.product)
        }

        var offerings: [JSONValue] = []
        if let items = try await list(base + "/offerings", [("expand", "items.package.product"), ("limit", "100")],
                                      permission: "project_configuration:offerings:read, packages:read and products:read", unavailable: &unavailable) {
            for item in items {
                guard let id = item["id"]?.stringValue, let lookupKey = item["lookup_key"]?.stringValue else { continue }
                var offering: [String: JSONValue] = ["id": .string(id), "lookup_key": .string(lookupKey)]
                if let name = item["display_name"]?.stringValue { offering["display_name"] = .string(name) }
                if case .bool(let current)? = item["is_current"] { offering["is_current"] = .bool(current) }
                let packageItems = try await nested(item["packages"], base + "/offerings/" + RevenueCatPull.pathSegment(id) + "/packages",
                                                    expand: "items.product", permission: "project_configuration:packages:read", unavailable: &unavailable)
                var packages: [JSONValue] = []
                for package in packageItems {
                    guard let packageID = package["id"]?.stringValue, let packageKey = package["lookup_key"]?.stringValue else { continue }
                    var entry: [String: JSONValue] = ["id": .string(packageID), "lookup_key": .string(packageKey)]
                    if let name = package["display_name"]?.stringValue { entry["display_name"] = .string(name) }
                    if let position = package["position"]?.integerValue { entry["position"] = .integer(position) }
                    let attached = try await nested(package["products"], base + "/packages/" + RevenueCatPull.pathSegment(packageID) + "/products",
                                                    expand: nil, permission: "project_configuration:packages:read", unavailable: &unavailable)
                    entry["products"] = .array(attached.compactMap(RevenueCatPull.packageProduct))
                    packages.append(.object(entry))
                }
                offering["packages"] = .array(packages)
                offerings.append(.object(offering))
            }
        }

        var entitlements: [JSONValue] = []
        if let items = try await list(base + "/entitlements", [("expand", "items.product"), ("limit", "100")],
                                      permission: "project_configuration:entitlements:read", unavailable: &unavailable) {
            for item in items {
                guard let id = item["id"]?.stringValue, let lookupKey = item["lookup_key"]?.stringValue else { continue }
                let attached = try await nested(item["products"], base + "/entitlements/" + RevenueCatPull.pathSegment(id) + "/products",
                                                expand: nil, permission: "project_configuration:entitlements:read", unavailable: &unavailable)
                entitlements.append(.object([
                    "id": .string(id), "lookup_key": .string(lookupKey),
                    "product_ids": .array(attached.compactMap { ($0["id"]?.stringValue ?? $0["product"]?["id"]?.stringValue).map(JSONValue.string) }),
                ]))
            }
        }

        var projectValue: [String: JSONValue] = ["id": .string(project.id)]
        if let name = project.name { projectValue["name"] = .string(name) }
        let snapshot: JSONValue = .object([
            "format": "iapdoctor-revenuecat-snapshot/1",
            "fetched_at": .string(RevenueCatPull.timestamp(fetchedAt)),
            "project": .object(projectValue),
            "apps": .array(apps), "products": .array(products), "offerings": .array(offerings), "entitlements": .array(entitlements),
            "unavailable": .array(unavailable.map(\.json)),
        ])
        return RevenueCatPullResult(
            snapshot: snapshot, projectID: project.id, projectName: project.name, apps: apps.count, products: products.count,
            offerings: offerings.count, entitlements: entitlements.count, unavailable: unavailable, statistics: await client.statistics)
    }

    /// `--project`, else the key's only project. A v2 secret key belongs to one project, so the
    /// list has one; a token that sees several needs `--project`.
    /// With `--project`, a list the key may not read costs only the project's name.
    func chooseProject(_ given: String?) async throws(PullFailure) -> (id: String, name: String?) {
        var refused: [Unavailable] = []
        let items = try await list("/projects", [("limit", "100")], permission: "project_configuration:projects:read", unavailable: &refused)
        let projects: [(id: String, name: String?)] = (items ?? []).compactMap { item in
            item["id"]?.stringValue.map { ($0, item["name"]?.stringValue) }
        }
        if let given {
            return projects.first { $0.id == given } ?? (given, nil)
        }
        if let reason = refused.first {
            throw PullFailure(message: "cannot list the key's projects (\(reason.path): \(reason.status.map(String.init) ?? "") \(reason.message))",
                              help: "give the project's ID with --project (Project settings → General, `proj…`)")
        }
        switch projects.count {
        case 1: return projects[0]
        case 0: throw PullFailure(message: "the key sees no RevenueCat project", help: SecretAPIKey.whereToMakeOne)
        default:
            let listed = projects.map { "\($0.id)" + ($0.name.map { " (\($0))" } ?? "") }.joined(separator: ", ")
            throw PullFailure(message: "the key sees \(projects.count) projects: \(listed)", help: "choose one with --project ID")
        }
    }

    /// Every item of a list, page by page; nil (and an entry in `unavailable`) when a page could
    /// not be read, since a part of a list would pass for the whole.
    func list(_ path: String, _ query: [(String, String)], permission: String, unavailable: inout [Unavailable]) async throws(PullFailure) -> [JSONValue]? {
        try await pages(client.url(path, query), path: path, permission: permission, unavailable: &unavailable)
    }

    /// The items of a list expanded inside another answer (an offering's packages, a package's
    /// products), and its further pages through `endpoint` when the answer says there are more.
    func nested(_ value: JSONValue?, _ endpoint: String, expand: String?, permission: String, unavailable: inout [Unavailable]) async throws(PullFailure) -> [JSONValue] {
        guard let value, !value.isNull else {
            // Not expanded: asked for on its own.
            return try await list(endpoint, (expand.map { [("expand", $0)] } ?? []) + [("limit", "100")], permission: permission, unavailable: &unavailable) ?? []
        }
        var items = value["items"]?.arrayValue ?? value.arrayValue ?? []
        if let link = value["next_page"]?.stringValue, !link.isEmpty {
            var next = try client.nextPage(link)
            // The link keeps the page size of the answer it came in; the rest is read 100 at a time.
            next = RevenueCatPull.setting(("limit", "100"), in: next)
            if let expand { next = RevenueCatPull.setting(("expand", expand), in: next) }
            guard let rest = try await pages(next, path: endpoint, permission: permission, unavailable: &unavailable) else { return items }
            items += rest
        }
        return items
    }

    func pages(_ first: URL, path: String, permission: String, unavailable: inout [Unavailable]) async throws(PullFailure) -> [JSONValue]? {
        var items: [JSONValue] = []
        var next: URL? = first
        var seen: Set<String> = []
        while let url = next {
            guard seen.insert(url.absoluteString).inserted, seen.count <= RevenueCatPull.maximumPages else {
                unavailable.append(Unavailable(path: path, status: nil, message: seen.count > RevenueCatPull.maximumPages
                    ? "more than \(RevenueCatPull.maximumPages) pages; the list was not read to its end"
                    : "the API gave the same page link twice; the list was not read to its end"))
                return nil
            }
            switch try await client.get(url) {
            case .failed(let error):
                var message = error.message
                if error.status == 403 { message += " (needs a key with \(permission))" }
                unavailable.append(Unavailable(path: path, status: error.status, message: message))
                return nil
            case .document(let page):
                await client.countPage()
                guard let pageItems = page["items"]?.arrayValue else {
                    unavailable.append(Unavailable(path: path, status: 200, message: "the answer is not a list (no `items`)"))
                    return nil
                }
                items += pageItems
                next = nil
                if let link = page["next_page"]?.stringValue, !link.isEmpty { next = try client.nextPage(link) }
            }
        }
        return items
    }

    static func product(_ item: JSONValue) -> JSONValue? {
        guard let id = item["id"]?.stringValue, let storeIdentifier = item["store_identifier"]?.stringValue else { return nil }
        var product: [String: JSONValue] = ["id": .string(id), "store_identifier": .string(storeIdentifier)]
        for key in ["type", "app_id", "display_name"] {
            if let value = item[key]?.stringValue { product[key] = .string(value) }
        }
        return .object(product)
    }

    /// A package's product association: `{eligibility_criteria, product: {…}}`.
    static func packageProduct(_ item: JSONValue) -> JSONValue? {
        let product = item["product"] ?? item
        guard let id = product["id"]?.stringValue ?? item["product_id"]?.stringValue else { return nil }
        var entry: [String: JSONValue] = ["product_id": .string(id)]
        if let storeIdentifier = product["store_identifier"]?.stringValue { entry["store_identifier"] = .string(storeIdentifier) }
        if let appID = product["app_id"]?.stringValue { entry["app_id"] = .string(appID) }
        if let eligibility = item["eligibility_criteria"]?.stringValue { entry["eligibility_criteria"] = .string(eligibility) }
        return .object(entry)
    }

    /// An ID as one path segment: RevenueCat's IDs are letters and digits; anything else is
    /// percent-encoded, so an ID from an answer cannot climb the path.
    static func pathSegment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")) ?? ""
    }

    /// `url` with the query parameter `item.0` set to `item.1`.
    static func setting(_ item: (String, String), in url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != item.0 }
        items.append(URLQueryItem(name: item.0, value: item.1))
        components.queryItems = items
        return components.url ?? url
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
