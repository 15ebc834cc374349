import TestSupport
import AppStoreConnect
import Crypto
import Foundation

/// SYNTHETIC: answers App Store Connect API requests from `SyntheticASCWorld` the way the API
/// does (JSON:API documents, `include=` with capped linkage, `links.next` paging, `fields[…]`,
/// error bodies, `X-Rate-Limit`), and checks every request it gets:
/// - the bearer token: an ES256 JWT signed by the test's key (verified with its public key),
///   header `kid`/`alg`/`typ`, claims `aud`, `iss`, and `exp − iat` at most 1200 s;
/// - the path: one of the subset's GET operations; the query: only parameters that operation
///   declares, include values it allows, limits within its maxima;
/// - its own answers: valid against the operation's response schema in the subset (so the
///   synthetic fixtures are the API's shape, not a guess).
/// Every problem is recorded in `problems`; the tests expect none.
final class SyntheticAppStoreConnect: @unchecked Sendable {
    /// What the server does besides answering.
    struct Scenario: Sendable {
        /// Paths under these prefixes answer 403 FORBIDDEN_ERROR (the key's role may not).
        var forbiddenPathPrefixes: [String] = []
        /// The first request for this path answers 429 with this Retry-After.
        var rateLimitedOnce: (path: String, retryAfter: String)?
        /// The first request for this path answers 503 without Retry-After.
        var unavailableOnce: String?
        /// Every request answers 403 FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED.
        var agreementsLapsed = false
        /// Every request answers 401 NOT_AUTHORIZED.
        var refusesKey = false
        /// The first request answers 401 NOT_AUTHORIZED, as App Store Connect now and then does.
        var refusesOnce = false
        /// The key is an individual key: tokens must say `sub: user` and carry no `iss`.
        var individualKey = false
        /// The request with this number (from 1) answers 401 NOT_AUTHORIZED, once: mid-pull.
        var refusesRequest: Int?
        /// With `refusesKey`: the `Date` header of the 401, as a server whose clock differs would send.
        var dateHeader: String?
        /// `user-hour-rem` before the first request (one less after each).
        var rateLimitRemaining = 3600
        /// Lists answer at most this many per page, and included to-many linkage holds at most
        /// this many, whatever `limit` asks: small by default, so paging and cut-off linkage
        /// happen with few resources; the API's own maxima (200, 50) for a catalog at scale.
        var pageSize = 2
        var includedLinkageCap = 2
        /// Whether each answer is checked against the subset's response schema (slow for a
        /// catalog at scale, whose answers are the same shapes as the small world's).
        var validatesAnswers = true
        /// Answers to paths under this prefix are dripped, a byte every half second.
        var dripsPathPrefix: String?
        /// Lists point `links.next` at a page that repeats the first, under a new cursor each time.
        var pagesRepeat = false
    }

    struct Recorded: Sendable {
        let path: String
        let query: [(name: String, value: String)]
        let status: Int
    }

    let keyID: String
    let issuerID: String
    let publicKey: P256.Signing.PublicKey
    let subset: OpenAPISubset
    let scenario: Scenario
    let world: [ResourceKey: SyntheticASCWorld.Node]
    var baseURL = ""

    private let lock = NSLock()
    private var recorded: [Recorded] = []
    private var foundProblems: [String] = []
    private var tokens: Set<String> = []
    private var answeredOnce: Set<String> = []
    private var received = 0
    private var remaining: Int

    init(keyID: String, issuerID: String, publicKey: P256.Signing.PublicKey, subset: OpenAPISubset, scenario: Scenario = Scenario(),
         world: [ResourceKey: SyntheticASCWorld.Node] = SyntheticASCWorld.nodes) {
        self.world = world
        self.keyID = keyID
        self.issuerID = issuerID
        self.publicKey = publicKey
        self.subset = subset
        self.scenario = scenario
        self.remaining = scenario.rateLimitRemaining
    }

    var requests: [Recorded] { lock.withLock { recorded } }
    var problems: [String] { lock.withLock { foundProblems } }
    /// The distinct bearer tokens seen.
    var tokenCount: Int { lock.withLock { tokens.count } }

    private func problem(_ text: String) {
        lock.withLock { foundProblems.append(text) }
    }

    func handle(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        let (status, body, extraHeaders) = answer(request)
        let left = lock.withLock { () -> Int in
            recorded.append(Recorded(path: request.path, query: request.query, status: status))
            remaining = max(0, remaining - 1)
            return remaining
        }
        var headers = [("Content-Type", "application/json"), ("X-Rate-Limit", "user-hour-lim:3600;user-hour-rem:\(left);")]
        headers += extraHeaders
        var response = LoopbackHTTPServer.Response(status: status, headers: headers, body: Data(body.serialized().utf8))
        if let prefix = scenario.dripsPathPrefix, request.path.hasPrefix(prefix) { response.drip = 0.5 }
        return response
    }

    private func answer(_ request: LoopbackHTTPServer.Request) -> (Int, JSONValue, [(String, String)]) {
        checkToken(request.headers["authorization"])
        guard request.method == "GET" else {
            problem("\(request.method) \(request.path): the pull sends GETs only")
            return (405, error(405, "METHOD_NOT_ALLOWED", "Method not allowed"), [])
        }
        guard let template = subset.template(matching: request.path) else {
            problem("GET \(request.path) is not a GET operation of the API subset")
            return (404, error(404, "NOT_FOUND", "The specified resource does not exist"), [])
        }
        for found in subset.queryProblems(template, request.query) { problem(found) }
        let (status, body, headers) = route(request, template: template)
        if status == 503 {
            // Not an answer the API documents (a load balancer's); nothing to validate.
        } else if !scenario.validatesAnswers {
            // Checked in the small world's tests.
        } else if let schema = subset.responseSchema(template, status: status) {
            for found in subset.validate(body, against: schema) { problem("answer to GET \(request.target) (\(status)): \(found)") }
        } else {
            problem("\(template) declares no \(status) answer")
        }
        return (status, body, headers)
    }

    private func route(_ request: LoopbackHTTPServer.Request, template: String) -> (Int, JSONValue, [(String, String)]) {
        let number = lock.withLock { () -> Int in
            received += 1
            return received
        }
        if scenario.refusesKey || (scenario.refusesOnce && firstTime("401")) || scenario.refusesRequest == number {
            return (401, error(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                               detail: "Provide a properly configured and signed bearer token, and make sure that it has not expired."),
                    scenario.dateHeader.map { [("Date", $0)] } ?? [])
        }
        if scenario.agreementsLapsed {
            return (403, error(403, APIError.agreementsCode, "A required agreement is missing or has expired.",
                               detail: "This request requires an in-effect agreement that has not been signed or has expired.",
                               links: ["see": "/business"]), [])
        }
        if scenario.forbiddenPathPrefixes.contains(where: { request.path.hasPrefix($0) }) {
            return (403, error(403, "FORBIDDEN_ERROR", "This request is forbidden for security reasons",
                               detail: "The API key in use does not allow this request"), [])
        }
        if let once = scenario.rateLimitedOnce, once.path == request.path, firstTime("429 " + request.path) {
            return (429, error(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.",
                               detail: "We've received too many requests for this API. Please wait and try again or slow down your request rate."),
                    [("Retry-After", once.retryAfter)])
        }
        if scenario.unavailableOnce == request.path, firstTime("503 " + request.path) {
            // No 503 in the subset's responses: a bare body, as a load balancer would send.
            return (503, .object([:]), [])
        }
        let segments = request.path.split(separator: "/").map(String.init)
        let includes = request.parameter("include")?.split(separator: ",").map(String.init) ?? []
        if segments.count == 2 {
            return (200, topLevelList(segments[1], request, includes: includes), [])
        }
        guard segments.count == 4, let owner = world[SyntheticASCWorld.key(segments[1], segments[2])],
              let related = owner.relationships[segments[3]] else {
            return (404, error(404, "NOT_FOUND", "The specified resource does not exist"), [])
        }
        switch related {
        case .many(let keys):
            return (200, list(keys, request, includes: includes), [])
        case .one(let key?), .oneUndisclosed(let key?):
            return (200, ["data": resource(key, request, includes: includes), "included": .array(included([key], request, includes: includes)),
                          "links": ["self": .string(baseURL + request.target)]], [])
        case .one(nil), .oneUndisclosed(nil), .notFound:
            return (404, error(404, "NOT_FOUND", "The specified resource does not exist",
                               detail: "There is no resource of type '\(segments[3])' for id '\(segments[2])'"), [])
        }
    }

    /// `/v1/apps`, `/v1/bundleIds`, `/v2/sandboxTesters`. The bundle ID filters match by prefix,
    /// as loosely as Apple's do.
    private func topLevelList(_ type: String, _ request: LoopbackHTTPServer.Request, includes: [String]) -> JSONValue {
        let filter: (String, String)? = switch type {
        case "apps": request.parameter("filter[bundleId]").map { ("bundleId", $0) }
        case "bundleIds": request.parameter("filter[identifier]").map { ("identifier", $0) }
        default: nil
        }
        let keys = world.filter { key, node in
            guard key.type == type else { return false }
            guard let (attribute, prefix) = filter else { return true }
            return node.attributes[attribute]?.stringValue?.hasPrefix(prefix) == true
        }.keys.sorted()
        return list(keys, request, includes: includes)
    }

    /// One page of `keys`, from the request's `cursor`, with `links.next` while more remain.
    private func list(_ keys: [ResourceKey], _ request: LoopbackHTTPServer.Request, includes: [String]) -> JSONValue {
        let limit = min(Int(request.parameter("limit") ?? "") ?? 50, scenario.pageSize)
        let offset = request.parameter("cursor").flatMap { Data(base64Encoded: $0) }.flatMap { Int(String(decoding: $0, as: UTF8.self).dropFirst("offset:".count)) } ?? 0
        let page = Array(keys.dropFirst(offset).prefix(limit))
        var links: [String: JSONValue] = ["self": .string(baseURL + request.target)]
        if scenario.pagesRepeat {
            var items = URLComponents()
            items.queryItems = [URLQueryItem(name: "cursor", value: Data("offset:0".utf8).base64EncodedString()), URLQueryItem(name: "n", value: "\(lock.withLock { received })")]
                + request.query.filter { $0.name != "cursor" && $0.name != "n" }.map { URLQueryItem(name: $0.name, value: $0.value) }
            links["next"] = .string(baseURL + request.path + "?" + (items.percentEncodedQuery ?? ""))
        } else if offset + page.count < keys.count {
            let cursor = Data("offset:\(offset + page.count)".utf8).base64EncodedString()
            var items = URLComponents()
            items.queryItems = [URLQueryItem(name: "cursor", value: cursor)] + request.query.filter { $0.name != "cursor" }.map { URLQueryItem(name: $0.name, value: $0.value) }
            links["next"] = .string(baseURL + request.path + "?" + (items.percentEncodedQuery ?? ""))
        }
        var document: [String: JSONValue] = [
            "data": .array(page.map { resource($0, request, includes: includes) }),
            "links": .object(links),
            "meta": ["paging": ["total": .integer(Int64(keys.count)), "limit": .integer(Int64(limit))]],
        ]
        if !includes.isEmpty { document["included"] = .array(included(page, request, includes: includes)) }
        return .object(document)
    }

    /// A resource object: attributes (cut to `fields[type]` when given), and every relationship
    /// with links; `data` only for an `include=`d one, to-many cut off at the linkage cap.
    private func resource(_ key: ResourceKey, _ request: LoopbackHTTPServer.Request, includes: [String]) -> JSONValue {
        guard let node = world[key] else { return key.jsonReference }
        let fields = request.parameter("fields[\(key.type)]").map { Set($0.split(separator: ",").map(String.init)) }
        let selfLink = "\(baseURL)/v1/\(key.type)/\(key.id)"
        var relationships: [String: JSONValue] = [:]
        for (name, related) in node.relationships where fields?.contains(name) ?? true {
            var relationship: [String: JSONValue] = ["links": ["self": .string("\(selfLink)/relationships/\(name)"), "related": .string("\(selfLink)/\(name)")]]
            if includes.contains(name) {
                switch related {
                case .many(let keys):
                    let cap = min(Int(request.parameter("limit[\(name)]") ?? "") ?? 10, scenario.includedLinkageCap)
                    relationship["data"] = .array(keys.prefix(cap).map(\.jsonReference))
                    relationship["meta"] = ["paging": ["total": .integer(Int64(keys.count)), "limit": .integer(Int64(cap))]]
                case .one(let target):
                    relationship["data"] = target?.jsonReference ?? .null
                case .oneUndisclosed, .notFound:
                    break
                }
            }
            relationships[name] = .object(relationship)
        }
        var object: [String: JSONValue] = ["type": .string(key.type), "id": .string(key.id), "links": ["self": .string(selfLink)]]
        let attributes = node.attributes.filter { fields?.contains($0.key) ?? true }
        if !attributes.isEmpty || !node.attributes.isEmpty { object["attributes"] = .object(attributes) }
        if !relationships.isEmpty { object["relationships"] = .object(relationships) }
        return .object(object)
    }

    /// The resources the page's `include=`d linkage names, once each.
    private func included(_ page: [ResourceKey], _ request: LoopbackHTTPServer.Request, includes: [String]) -> [JSONValue] {
        var seen: Set<ResourceKey> = []
        var resources: [JSONValue] = []
        for key in page {
            for name in includes {
                guard let related = world[key]?.relationships[name] else { continue }
                let targets: [ResourceKey]
                switch related {
                case .many(let keys):
                    targets = Array(keys.prefix(min(Int(request.parameter("limit[\(name)]") ?? "") ?? 10, scenario.includedLinkageCap)))
                case .one(let target?): targets = [target]
                default: targets = []
                }
                for target in targets where seen.insert(target).inserted {
                    resources.append(resource(target, request, includes: []))
                }
            }
        }
        return resources
    }

    private func firstTime(_ event: String) -> Bool {
        lock.withLock { answeredOnce.insert(event).inserted }
    }

    private func error(_ status: Int, _ code: String, _ title: String, detail: String? = nil, links: [String: JSONValue]? = nil) -> JSONValue {
        var entry: [String: JSONValue] = [
            "id": .string("SYNTHETIC-ERROR-\(status)"), "status": .string(String(status)), "code": .string(code), "title": .string(title),
        ]
        if let detail { entry["detail"] = .string(detail) }
        if let links { entry["links"] = .object(links) }
        return ["errors": [.object(entry)]]
    }

    /// The bearer token: an ES256 JWT from the test's key, with Apple's header and claims.
    private func checkToken(_ authorization: String?) {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return problem("a request without a bearer token") }
        let token = String(authorization.dropFirst("Bearer ".count))
        lock.withLock { _ = tokens.insert(token) }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = SyntheticAppStoreConnect.base64URLDecode(parts[0]),
              let payloadData = SyntheticAppStoreConnect.base64URLDecode(parts[1]),
              let signatureData = SyntheticAppStoreConnect.base64URLDecode(parts[2]),
              let header = try? JSONValue.parse(headerData), let payload = try? JSONValue.parse(payloadData) else {
            return problem("the token is not a JWS compact serialization")
        }
        if header != ["alg": "ES256", "kid": .string(keyID), "typ": "JWT"] { problem("token header \(header.serialized())") }
        if payload["aud"] != "appstoreconnect-v1" { problem("token aud \(payload["aud"]?.serialized() ?? "missing")") }
        if scenario.individualKey {
            if payload["sub"] != "user" || payload["iss"] != nil { problem("individual key token sub \(payload["sub"]?.serialized() ?? "missing"), iss \(payload["iss"]?.serialized() ?? "none")") }
        } else if payload["iss"] != .string(issuerID) || payload["sub"] != nil {
            problem("token iss \(payload["iss"]?.serialized() ?? "missing"), sub \(payload["sub"]?.serialized() ?? "none")")
        }
        if let issued = payload["iat"]?.integerValue, let expiry = payload["exp"]?.integerValue {
            if expiry - issued > 1200 || expiry <= issued { problem("token lifetime exp − iat = \(expiry - issued) s") }
        } else {
            problem("token without integer iat and exp")
        }
        guard signatureData.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
              publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)) else {
            return problem("the token's signature is not a valid raw r‖s ES256 signature by the test key")
        }
    }

    static func base64URLDecode(_ text: String) -> Data? {
        guard !text.contains("="), !text.contains("+"), !text.contains("/") else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}

extension ResourceKey {
    var jsonReference: JSONValue { ["type": .string(type), "id": .string(id)] }
}
