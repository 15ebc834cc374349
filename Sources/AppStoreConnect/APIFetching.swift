import Foundation

/// The building blocks of the pull: one resource, or every page of a list, with what `include=`
/// said about each resource's relationships. Answers go into the store; failures are recorded as
/// unavailable (with the role a 403 needs), except where the caller says what a 404 means.
struct APIFetcher: Sendable {
    let client: APIClient
    let store: SnapshotStore

    /// What an `include=`d relationship of a fetched resource turned out to be.
    enum IncludedLinkage: Sendable, Equatable {
        /// All of it came, and is recorded.
        case complete(Linkage)
        /// `data` was cut off at `limit[…]` (its `meta.paging.total` is larger).
        case incomplete
        /// No `data` at all (the server did not say).
        case absent
    }

    struct Item: Sendable {
        let key: ResourceKey
        let resource: JSONValue
        let included: [String: IncludedLinkage]
    }

    /// How a 404 is read.
    enum NotFound: Sendable {
        /// A failure, recorded.
        case failure
        /// "There is none": a to-one relationship's related endpoint (a review screenshot).
        case none
        /// Handled by the caller, which is told (`.notFound`) and records nothing.
        case report
    }

    enum One: Sendable {
        case resource(Item)
        case none
        case notFound
        case unknown
    }

    enum List: Sendable {
        case complete([Item])
        case notFound
        case unknown
    }

    /// `limit[relationship]` for every `include=`: the API's maximum.
    static let includeLimit = 50

    /// Pages are capped so a server that keeps sending `links.next` cannot keep the pull going:
    /// 100 pages of the API's 200 are twice the 10,000 In-App Purchases an app may have.
    static let maximumPages = 100

    /// A page's address as far as repeats go: its query's items in order, no fragment.
    static func pageIdentity(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.fragment = nil
        components.queryItems = components.queryItems?.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        return components.url?.absoluteString ?? url.absoluteString
    }

    func url(_ path: String, _ query: [(String, String)]) -> URL {
        var components = URLComponents(url: client.configuration.baseURL, resolvingAgainstBaseURL: false)!
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + path
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components.url!
    }

    /// `GET /v1/apps?filter[bundleId]=com.acme.coins`: the path under the base URL and the
    /// query, percent-decoded so brackets read as the API documents them.
    func describe(_ url: URL) -> String {
        let basePath = client.configuration.baseURL.path
        var path = url.path
        if basePath.count > 1, path.hasPrefix(basePath) { path = String(path.dropFirst(basePath.count - (basePath.hasSuffix("/") ? 1 : 0))) }
        var text = "GET " + (path.isEmpty ? "/" : path)
        if let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery, !query.isEmpty {
            text += "?" + (query.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? query)
        }
        return text
    }

    /// The key role that is allowed to read `path` (for a 403).
    /// (The same roles `asc-request-failed` names for these paths.)
    static func roleNeeded(forPath path: String) -> String {
        if path.hasPrefix("/v1/bundleIds") || path.hasPrefix("/v1/profiles") {
            return "Admin, or Developer with access to Certificates, Identifiers & Profiles"
        }
        if path.hasPrefix("/v2/sandboxTesters") { return "Admin or App Manager" }
        if path == "/v1/apps" { return "App Manager, Admin, Developer, Marketing or Finance" }
        return "App Manager or Admin"
    }

    /// One resource: `GET path` answered with a single-resource document.
    func one(_ path: String, _ query: [(String, String)] = [], include: [String] = [], notFound: NotFound = .failure) async throws(PullFailure) -> One {
        let url = url(path, include.isEmpty ? query : query + [("include", include.joined(separator: ","))])
        let origin = describe(url)
        switch try await answer(url, origin: origin, notFound: notFound) {
        case .none: return .none
        case .notFound: return .notFound
        case .unknown: return .unknown
        case .document(let document):
            await client.countPage()
            guard let data = document["data"], ResourceKey(data) != nil else {
                // `"data": null` is the API's "there is none" for a to-one related endpoint.
                return document["data"]?.isNull == true ? .none : .unknown
            }
            guard let items = await keep([data], included: document["included"]?.arrayValue ?? [], origin: origin, include: include) else {
                return .unknown
            }
            return .resource(items[0])
        }
    }

    /// Every page of a list, following the document's `links.next` to the end. `keep` filters the
    /// resources (the API's filters are not exact); included resources are kept when a kept one
    /// refers to them. `.unknown` when a page failed: what earlier pages brought is still stored,
    /// but the list is not known to be complete.
    func list(_ path: String, _ query: [(String, String)] = [], include: [String] = [], notFound: NotFound = .failure,
              keep: (@Sendable (JSONValue) -> Bool)? = nil) async throws(PullFailure) -> List {
        var next: URL? = url(path, include.isEmpty ? query : query + [("include", include.joined(separator: ","))])
        var seen: Set<String> = []
        var keys: Set<ResourceKey> = []
        var items: [Item] = []
        func loop(_ page: URL, _ title: String) async -> List {
            await store.recordUnavailable(UnavailableRequest(
                request: describe(page), error: APIError(status: 200, code: "IAPDOCTOR.PAGING_LOOP", title: title, detail: nil), roleNeeded: nil))
            return .unknown
        }
        while let page = next {
            guard seen.insert(APIFetcher.pageIdentity(page)).inserted else {
                return await loop(page, "The list's links.next repeats a page")
            }
            guard seen.count <= APIFetcher.maximumPages else {
                return await loop(page, "The list's links.next runs past \(APIFetcher.maximumPages) pages")
            }
            let origin = describe(page)
            switch try await answer(page, origin: origin, notFound: seen.count == 1 ? notFound : .failure) {
            case .none, .unknown: return .unknown
            case .notFound: return .notFound
            case .document(let document):
                await client.countPage()
                let data = (document["data"]?.arrayValue ?? []).filter { keep?($0) ?? true }
                guard let kept = await self.keep(data, included: document["included"]?.arrayValue ?? [], origin: origin, include: include) else {
                    return .unknown
                }
                // Resources a page repeats are kept once.
                items += kept.filter { !keys.contains($0.key) }
                var fresh = false
                for resource in document["data"]?.arrayValue ?? [] {
                    if let key = ResourceKey(resource), keys.insert(key).inserted { fresh = true }
                }
                next = document["links"]?["next"]?.stringValue.flatMap { URL(string: $0) }
                // A later page that brings nothing new and points on would point on for ever.
                if let following = next, !fresh, seen.count > 1 {
                    return await loop(following, "The list's links.next leads to pages that repeat what came before")
                }
            }
        }
        return .complete(items)
    }

    private enum Answer {
        case document(JSONValue)
        case none
        case notFound
        case unknown
    }

    private func answer(_ url: URL, origin: String, notFound: NotFound) async throws(PullFailure) -> Answer {
        switch try await client.get(url) {
        case .document(let document): return .document(document)
        case .notSent(let reason):
            await store.recordUnavailable(UnavailableRequest(request: origin, notSentBecause: reason))
            return .unknown
        case .failed(let error):
            if error.status == 404 {
                switch notFound {
                case .none: return .none
                case .report: return .notFound
                case .failure: break
                }
            }
            let role = error.status == 403 && error.code != APIError.agreementsCode ? APIFetcher.roleNeeded(forPath: url.path) : nil
            await store.recordUnavailable(UnavailableRequest(request: origin, error: error, roleNeeded: role))
            return .unknown
        }
    }

    /// Stores `data` and the included resources they refer to, and records each `include=`d
    /// relationship that came whole. Nil, and the request recorded as unavailable, when the
    /// snapshot was full: what the answer said is not kept.
    private func keep(_ data: [JSONValue], included: [JSONValue], origin: String, include: [String]) async -> [Item]? {
        var items: [Item] = []
        var referenced: Set<ResourceKey> = []
        for (position, resource) in data.enumerated() {
            guard let key = ResourceKey(resource) else { continue }
            await store.add(resource, origin: origin, position: position)
            var states: [String: IncludedLinkage] = [:]
            for relationship in include {
                let state = APIFetcher.includedLinkage(resource["relationships"]?[relationship])
                states[relationship] = state
                if case .complete(let linkage) = state {
                    await store.link(key, relationship, linkage, rank: SnapshotStore.includedRank, origin: origin)
                }
            }
            for relationship in (resource["relationships"]?.objectValue ?? [:]).values {
                switch relationship["data"] {
                case .object(let target)?: if let key = ResourceKey(.object(target)) { referenced.insert(key) }
                case .array(let targets)?: referenced.formUnion(targets.compactMap(ResourceKey.init))
                default: break
                }
            }
            items.append(Item(key: key, resource: resource, included: states))
        }
        for (position, resource) in included.enumerated() {
            guard let key = ResourceKey(resource), referenced.contains(key) else { continue }
            await store.add(resource, origin: origin, position: data.count + position)
        }
        guard await stopIfFull(origin) else { return nil }
        return items
    }

    static let snapshotSizeCode = "IAPDOCTOR.SNAPSHOT_SIZE"

    /// An attribute of a resource the store holds.
    func attribute(_ key: ResourceKey, _ name: String) async -> JSONValue? {
        await store.attribute(key, name)
    }

    /// A relationship a resumed pull already holds whole (see ``SnapshotStore/held(_:_:)``).
    func held(_ owner: ResourceKey, _ relationship: String) async -> Linkage? {
        await store.held(owner, relationship)
    }

    /// A list a resumed pull already holds whole, as items whose `included` says what the store
    /// holds of the named relationships.
    func heldItems(_ owner: ResourceKey, _ relationship: String, included: [String] = []) async -> [Item]? {
        guard case .many(let keys)? = await store.held(owner, relationship) else { return nil }
        var items: [Item] = []
        for key in keys {
            var states: [String: IncludedLinkage] = [:]
            for name in included {
                if let linkage = await store.held(key, name) { states[name] = .complete(linkage) }
            }
            items.append(Item(key: key, resource: .null, included: states))
        }
        return items
    }

    /// Records what a fetch of a whole relationship found.
    func link(_ owner: ResourceKey, _ relationship: String, _ linkage: Linkage, origin: String) async {
        await store.link(owner, relationship, linkage, rank: SnapshotStore.fetchedRank, origin: origin)
        _ = await stopIfFull(origin)
    }

    /// What did not fit the snapshot is not kept: the request's facts are unknown, and nothing
    /// more is sent. False when the store is full.
    private func stopIfFull(_ origin: String) async -> Bool {
        guard await store.isFull else { return true }
        // A link drawn from an answer already read has no request of its own to record.
        if !origin.isEmpty { await store.recordUnavailable(UnavailableRequest(request: origin, error: APIError(
            status: 200, code: APIFetcher.snapshotSizeCode,
            title: "The answer came when the snapshot had reached the size `iapdoctor check` reads, and was not kept whole", detail: nil),
            roleNeeded: nil)) }
        await client.stop(StopReason(
            code: APIFetcher.snapshotSizeCode, title: "Not sent: the snapshot reached the size `iapdoctor check` reads",
            detail: "the resources already fetched fill about \(store.maximumBytes >> 20) MiB or \(store.maximumValues) JSON values, and `iapdoctor check` reads snapshots of up to \(SnapshotPull.checkedBytes >> 20) MiB and \(SnapshotPull.checkedValues) values; the facts the rest would bring are unknown."))
        return false
    }

    static func includedLinkage(_ relationship: JSONValue?) -> IncludedLinkage {
        guard let relationship, let data = relationship["data"] else { return .absent }
        switch data {
        case .null: return .complete(.one(nil))
        case .object: return ResourceKey(data).map { .complete(.one($0)) } ?? .absent
        case .array(let targets):
            let keys = targets.compactMap(ResourceKey.init)
            if let total = relationship["meta"]?["paging"]?["total"]?.integerValue {
                return total > keys.count ? .incomplete : .complete(.many(keys))
            }
            // Without a total, a full `limit[…]` may have been cut off.
            return keys.count >= includeLimit ? .incomplete : .complete(.many(keys))
        default: return .absent
        }
    }
}
