import AppStoreConnect
import Foundation
import TestSupport

/// RevenueCat's REST API v2 as its documentation shows it, served from a snapshot document: the
/// answers a pull of that snapshot would have read. Lists are paged (`starting_after`, a
/// `next_page` relative link), expanded lists inside an offering or an entitlement carry their
/// own `next_page`, and faults can be set per path: error answers, a page link to another
/// origin, a link that repeats, a used-up rate window.
final class FakeRevenueCat: @unchecked Sendable {
    struct Faults: Sendable {
        /// Answers given instead, in order, to requests whose path ends with the key.
        var answers: [String: [LoopbackHTTPServer.Response]] = [:]
        /// Paths (suffixes) answered 403 with RevenueCat's permission error, always.
        var forbidden: [String] = []
        /// The list at this path (suffix) links its next page to another origin.
        var offOriginNextPage: String?
        /// The list at this path (suffix) links to its own first page again.
        var repeatingNextPage: String?
        /// Answers carry rate headers saying the window is used up.
        var windowUsedUp = false
    }

    static let secretKey = "sk_FakeSecretKeyForTheLoopbackServer0001"

    let snapshot: JSONValue
    /// Items per page at most, whatever `limit` asks; expanded lists inside answers use `nestedPageSize`.
    let pageSize: Int
    let nestedPageSize: Int
    /// Projects the key sees besides the snapshot's.
    let otherProjects: [(id: String, name: String)]
    private let lock = NSLock()
    private var faults: Faults
    private var served: [LoopbackHTTPServer.Request] = []
    private var problemList: [String] = []

    init(snapshot: JSONValue, pageSize: Int = 100, nestedPageSize: Int = 100, otherProjects: [(id: String, name: String)] = [], faults: Faults = Faults()) {
        self.snapshot = snapshot
        self.pageSize = pageSize
        self.nestedPageSize = nestedPageSize
        self.otherProjects = otherProjects
        self.faults = faults
    }

    var requests: [LoopbackHTTPServer.Request] { lock.withLock { served } }
    /// What the client did that RevenueCat would not accept.
    var problems: [String] { lock.withLock { problemList } }

    var projectID: String { snapshot["project"]?["id"]?.stringValue ?? "" }

    func handle(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        lock.lock()
        served.append(request)
        if request.method != "GET" { problemList.append("\(request.method) \(request.target)") }
        if request.headers["authorization"] != "Bearer " + FakeRevenueCat.secretKey {
            lock.unlock()
            return error(401, "authentication_error", "Invalid API key.")
        }
        if let key = faults.answers.keys.sorted().first(where: { request.path.hasSuffix($0) }), var queue = faults.answers[key], !queue.isEmpty {
            let answer = queue.removeFirst()
            faults.answers[key] = queue
            lock.unlock()
            return answer
        }
        let faults = self.faults
        lock.unlock()
        if faults.forbidden.contains(where: { request.path.hasSuffix($0) }) {
            return error(403, "authorization_error", "This API key does not have permission to perform this action.")
        }
        guard let answer = route(request, faults) else { return error(404, "resource_missing", "The requested resource was not found.") }
        var headers = [("Content-Type", "application/json")]
        if faults.windowUsedUp {
            headers += [("RevenueCat-Rate-Limit-Current-Usage", "60"), ("RevenueCat-Rate-Limit-Current-Limit", "60")]
        }
        return LoopbackHTTPServer.Response(status: 200, headers: headers, body: Data(answer.serialized().utf8))
    }

    func error(_ status: Int, _ type: String, _ message: String) -> LoopbackHTTPServer.Response {
        let body: JSONValue = ["object": "error", "type": .string(type), "message": .string(message), "retryable": .bool(status == 429 || status >= 500),
                               "doc_url": .string("https://errors.rev.cat/\(type)")]
        return LoopbackHTTPServer.Response(status: status, headers: [("Content-Type", "application/json")], body: Data(body.serialized().utf8))
    }

    // MARK: Routes

    func route(_ request: LoopbackHTTPServer.Request, _ faults: Faults) -> JSONValue? {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.first == "v2" else { return nil }
        let rest = Array(parts.dropFirst())
        let expand = request.parameter("expand")
        func list(_ items: [JSONValue]) -> JSONValue { page(items, request, faults) }
        if rest == ["projects"] {
            let ours: JSONValue = ["object": "project", "id": .string(projectID), "name": snapshot["project"]?["name"] ?? .null, "created_at": 1_700_000_000_000]
            return list([ours] + otherProjects.map { ["object": "project", "id": .string($0.id), "name": .string($0.name)] })
        }
        guard rest.count >= 3, rest[0] == "projects", rest[1] == projectID else { return nil }
        let apps = snapshot["apps"]?.arrayValue ?? []
        let products = snapshot["products"]?.arrayValue ?? []
        let offerings = snapshot["offerings"]?.arrayValue ?? []
        let entitlements = snapshot["entitlements"]?.arrayValue ?? []
        switch Array(rest.dropFirst(2)) {
        case ["apps"]:
            return list(apps.map(app))
        case let path where path.count == 3 && path[0] == "apps" && path[2] == "public_api_keys":
            guard let found = apps.first(where: { $0["id"]?.stringValue == path[1] }) else { return nil }
            return list((found["public_api_keys"]?.arrayValue ?? []).enumerated().map { index, key in
                ["object": "public_api_key", "id": .string("key\(path[1])\(index)"), "key": key["key"] ?? .null,
                 "environment": key["environment"] ?? "production", "app_id": .string(path[1])]
            })
        case ["products"]:
            return list(products.map(product))
        case ["offerings"]:
            return list(offerings.map { offering($0, expand: expand == "items.package.product", request: request) })
        case let path where path.count == 3 && path[0] == "offerings" && path[2] == "packages":
            guard let found = offerings.first(where: { $0["id"]?.stringValue == path[1] }) else { return nil }
            return list((found["packages"]?.arrayValue ?? []).map { package($0, expand: expand == "items.product", request: request) })
        case let path where path.count == 3 && path[0] == "packages" && path[2] == "products":
            let packages = offerings.flatMap { $0["packages"]?.arrayValue ?? [] }
            guard let found = packages.first(where: { $0["id"]?.stringValue == path[1] }) else { return nil }
            return list((found["products"]?.arrayValue ?? []).map(association))
        case ["entitlements"]:
            return list(entitlements.map { entitlement($0, expand: expand == "items.product") })
        case let path where path.count == 3 && path[0] == "entitlements" && path[2] == "products":
            guard let found = entitlements.first(where: { $0["id"]?.stringValue == path[1] }) else { return nil }
            return list((found["product_ids"]?.arrayValue ?? []).compactMap { id in products.first { $0["id"] == id }.map(product) })
        default:
            return nil
        }
    }

    /// One page of `items` after `starting_after`, with the link to the next.
    func page(_ items: [JSONValue], _ request: LoopbackHTTPServer.Request, _ faults: Faults) -> JSONValue {
        let size = min(pageSize, request.parameter("limit").flatMap(Int.init).map { max(1, min(100, $0)) } ?? 20)
        var start = 0
        if let after = request.parameter("starting_after") {
            start = (items.firstIndex { FakeRevenueCat.itemID($0) == after } ?? items.count - 1) + 1
        }
        let slice = Array(items[min(start, items.count)..<min(start + size, items.count)])
        var next: JSONValue = .null
        if start + size < items.count, let last = slice.last.map(FakeRevenueCat.itemID) {
            var query = request.query.filter { $0.name != "starting_after" }.map { "\($0.name)=\($0.value)" }
            query.append("starting_after=\(last)")
            next = .string(request.path + "?" + query.joined(separator: "&"))
        }
        if let path = faults.offOriginNextPage, request.path.hasSuffix(path) { next = .string("https://api.example.net" + request.path + "?starting_after=x") }
        if let path = faults.repeatingNextPage, request.path.hasSuffix(path) { next = .string(request.target) }
        return ["object": "list", "items": .array(slice), "next_page": next, "url": .string(request.path)]
    }

    /// An expanded list inside an answer: its first page, and the endpoint's link to the rest.
    func nestedList(_ items: [JSONValue], endpoint: String) -> JSONValue {
        let slice = Array(items.prefix(nestedPageSize))
        var next: JSONValue = .null
        if items.count > nestedPageSize, let last = slice.last.map(FakeRevenueCat.itemID) {
            next = .string("\(endpoint)?starting_after=\(last)&limit=\(nestedPageSize)")
        }
        return ["object": "list", "items": .array(slice), "next_page": next, "url": .string(endpoint)]
    }

    static func itemID(_ item: JSONValue) -> String {
        item["id"]?.stringValue ?? item["product"]?["id"]?.stringValue ?? ""
    }

    // MARK: Resources as the API shows them

    func app(_ app: JSONValue) -> JSONValue {
        var shown: [String: JSONValue] = ["object": "app", "id": app["id"] ?? .null, "name": app["name"] ?? .null, "type": app["type"] ?? .null,
                                          "project_id": .string(projectID), "created_at": 1_700_000_000_000]
        switch app["type"]?.stringValue {
        case "app_store": shown["app_store"] = ["bundle_id": app["bundle_id"] ?? .null]
        case "mac_app_store": shown["mac_app_store"] = ["bundle_id": app["bundle_id"] ?? .null]
        case "play_store": shown["play_store"] = ["package_name": app["package_name"] ?? .null]
        default: break
        }
        return .object(shown)
    }

    func product(_ product: JSONValue) -> JSONValue {
        var shown = product.objectValue ?? [:]
        shown["object"] = "product"
        shown["created_at"] = 1_700_000_000_000
        if shown["type"]?.stringValue == "subscription" { shown["subscription"] = ["duration": "P1M"] }
        return .object(shown)
    }

    func association(_ attached: JSONValue) -> JSONValue {
        let products = snapshot["products"]?.arrayValue ?? []
        let found = products.first { $0["id"] == attached["product_id"] } ?? [
            "id": attached["product_id"] ?? .null, "store_identifier": attached["store_identifier"] ?? .null, "app_id": attached["app_id"] ?? .null,
        ]
        return ["eligibility_criteria": attached["eligibility_criteria"] ?? "all", "product": product(found)]
    }

    func package(_ package: JSONValue, expand: Bool, request: LoopbackHTTPServer.Request) -> JSONValue {
        var shown: [String: JSONValue] = ["object": "package", "id": package["id"] ?? .null, "lookup_key": package["lookup_key"] ?? .null,
                                          "display_name": package["display_name"] ?? .null, "position": package["position"] ?? .null]
        if expand, let id = package["id"]?.stringValue {
            shown["products"] = nestedList((package["products"]?.arrayValue ?? []).map(association), endpoint: "/v2/projects/\(projectID)/packages/\(id)/products")
        }
        return .object(shown)
    }

    func offering(_ offering: JSONValue, expand: Bool, request: LoopbackHTTPServer.Request) -> JSONValue {
        var shown: [String: JSONValue] = ["object": "offering", "id": offering["id"] ?? .null, "lookup_key": offering["lookup_key"] ?? .null,
                                          "display_name": offering["display_name"] ?? .null, "is_current": offering["is_current"] ?? false,
                                          "project_id": .string(projectID), "metadata": .null]
        if expand, let id = offering["id"]?.stringValue {
            shown["packages"] = nestedList((offering["packages"]?.arrayValue ?? []).map { package($0, expand: true, request: request) },
                                           endpoint: "/v2/projects/\(projectID)/offerings/\(id)/packages")
        }
        return .object(shown)
    }

    func entitlement(_ entitlement: JSONValue, expand: Bool) -> JSONValue {
        var shown: [String: JSONValue] = ["object": "entitlement", "id": entitlement["id"] ?? .null, "lookup_key": entitlement["lookup_key"] ?? .null,
                                          "display_name": entitlement["lookup_key"] ?? .null, "project_id": .string(projectID)]
        if expand, let id = entitlement["id"]?.stringValue {
            let products = snapshot["products"]?.arrayValue ?? []
            let attached = (entitlement["product_ids"]?.arrayValue ?? []).compactMap { id in products.first { $0["id"] == id }.map(product) }
            shown["products"] = nestedList(attached, endpoint: "/v2/projects/\(projectID)/entitlements/\(id)/products")
        }
        return .object(shown)
    }
}

/// A project of `apps` apps (the first an App Store app, then Play Store, Stripe…), `products`
/// products spread over them and `offerings` offerings of three packages each, the first current.
func syntheticProject(apps: Int = 3, products: Int = 50, offerings: Int = 10) -> JSONValue {
    let types = ["app_store", "play_store", "stripe", "mac_app_store", "amazon"]
    let appValues: [JSONValue] = (0..<apps).map { index in
        let type = types[index % types.count]
        var app: [String: JSONValue] = ["id": .string(String(format: "app%07d", index)), "name": .string("Synthetic \(type)"), "type": .string(type),
                                        "public_api_keys": [["key": .string("\(type == "app_store" ? "appl" : "goog")_PublicKey\(index)"), "environment": "production"]]]
        if type == "app_store" || type == "mac_app_store" { app["bundle_id"] = .string("com.example.synthetic\(index == 0 ? "" : String(index))") }
        if type == "play_store" { app["package_name"] = "com.example.synthetic" }
        return .object(app)
    }
    let productValues: [JSONValue] = (0..<products).map { index in
        ["id": .string(String(format: "prod%07d", index)), "store_identifier": .string("com.example.synthetic.item\(index)"),
         "type": index % 2 == 0 ? "subscription" : "consumable", "app_id": .string(String(format: "app%07d", index % apps)),
         "display_name": .string("Item \(index)")]
    }
    let offeringValues: [JSONValue] = (0..<offerings).map { index in
        let packages: [JSONValue] = (0..<3).map { slot in
            let product = (index * 3 + slot) % products
            return ["id": .string(String(format: "pkge%05d%02d", index, slot)), "lookup_key": .string(["$rc_monthly", "$rc_annual", "$rc_lifetime"][slot]),
                    "display_name": .string("Package \(slot)"), "position": .integer(Int64(slot + 1)),
                    "products": [["product_id": productValues[product]["id"]!, "store_identifier": productValues[product]["store_identifier"]!,
                                  "app_id": productValues[product]["app_id"]!, "eligibility_criteria": "all"]]]
        }
        return ["id": .string(String(format: "ofrng%05d", index)), "lookup_key": .string(index == 0 ? "default" : "offering\(index)"),
                "display_name": .string("Offering \(index)"), "is_current": .bool(index == 0), "packages": .array(packages)]
    }
    return [
        "format": "iapdoctor-revenuecat-snapshot/1", "fetched_at": "2026-11-22T09:30:00Z",
        "project": ["id": "projsynthetic", "name": "Synthetic"],
        "apps": .array(appValues), "products": .array(productValues), "offerings": .array(offeringValues),
        "entitlements": [["id": "entl0000001", "lookup_key": "pro", "product_ids": .array(productValues.prefix(12).map { $0["id"]! })]],
        "unavailable": [],
    ]
}
