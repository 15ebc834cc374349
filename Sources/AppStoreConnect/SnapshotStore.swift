import Foundation

/// A JSON:API resource's identity.
public struct ResourceKey: Hashable, Comparable, Sendable {
    public let type: String
    public let id: String

    public init(type: String, id: String) {
        self.type = type
        self.id = id
    }

    init?(_ value: JSONValue) {
        guard let type = value["type"]?.stringValue, let id = value["id"]?.stringValue, !type.isEmpty, !id.isEmpty else { return nil }
        self.init(type: type, id: id)
    }

    var json: JSONValue { .object(["type": .string(type), "id": .string(id)]) }

    public static func < (left: ResourceKey, right: ResourceKey) -> Bool {
        if left.type != right.type { return left.type.utf8.lexicographicallyPrecedes(right.type.utf8) }
        return left.id.utf8.lexicographicallyPrecedes(right.id.utf8)
    }
}

/// What a relationship is known to hold.
public enum Linkage: Sendable, Equatable {
    /// A to-one relationship: the resource, or none (`"data": null`).
    case one(ResourceKey?)
    /// A to-many relationship, complete (`"data": []` when empty).
    case many([ResourceKey])

    var json: JSONValue {
        switch self {
        case .one(let key): return key?.json ?? .null
        case .many(let keys): return .array(keys.map(\.json))
        }
    }
}

/// A request that failed, or was not sent, as the snapshot records it
/// (`meta.iapdoctor.unavailable`): the facts behind it are unknown.
public struct UnavailableRequest: Sendable, Equatable {
    /// `GET /v1/bundleIds?filter[identifier]=com.acme.coins`
    public let request: String
    /// The HTTP status; nil for a request that was not sent.
    public let status: Int?
    public let code: String
    public let title: String
    public let detail: String?
    /// For a 403: the key role that may make this request.
    public let roleNeeded: String?

    init(request: String, error: APIError, roleNeeded: String?) {
        self.request = request
        self.status = error.status
        self.code = error.code
        self.title = error.title
        self.detail = error.detail
        self.roleNeeded = roleNeeded
    }

    init(request: String, notSentBecause reason: StopReason) {
        self.request = request
        self.status = nil
        self.code = reason.code
        self.title = reason.title
        self.detail = reason.detail
        self.roleNeeded = nil
    }

    public var wasSent: Bool { status != nil }

    var json: JSONValue {
        var members: [String: JSONValue] = ["request": .string(request), "code": .string(code), "title": .string(title)]
        if let status { members["status"] = .integer(Int64(status)) }
        if let detail { members["detail"] = .string(detail) }
        if let roleNeeded { members["needs_role"] = .string(roleNeeded) }
        return .object(members)
    }
}

/// Collects the pull's resources and what is known of their relationships, and writes the
/// snapshot document.
///
/// Relationships are written only from what the pull recorded as known (`link`): the API's own
/// relationship objects are not copied, because an API relationship without `include=` has no
/// `data`, and one with `include=` may be cut off at `limit[…]`. So a relationship in the snapshot
/// has `data` exactly when the pull fetched all of it, and `"data": []`/`null` means "fetched,
/// none", as the snapshot format says.
///
/// The same resource seen in several answers is merged attribute by attribute, in the order of the
/// requests' text (not of arrival, which varies with concurrency), so the same answers always make
/// the same bytes.
actor SnapshotStore {
    private struct Sighting {
        let origin: String
        let position: Int
        let attributes: [String: JSONValue]
    }

    private struct RecordedLinkage {
        let linkage: Linkage
        /// A full fetch of the relationship outranks linkage from an `include=`.
        let rank: Int
        let origin: String
    }

    private var sightings: [ResourceKey: [Sighting]] = [:]
    private var linkages: [ResourceKey: [String: RecordedLinkage]] = [:]
    private var unavailable: [UnavailableRequest] = []

    static let includedRank = 0
    static let fetchedRank = 1

    func add(_ resource: JSONValue, origin: String, position: Int) {
        guard let key = ResourceKey(resource) else { return }
        sightings[key, default: []].append(Sighting(origin: origin, position: position, attributes: resource["attributes"]?.objectValue ?? [:]))
    }

    func link(_ owner: ResourceKey, _ relationship: String, _ linkage: Linkage, rank: Int, origin: String) {
        if let existing = linkages[owner]?[relationship] {
            let wins = rank > existing.rank || (rank == existing.rank && origin.utf8.lexicographicallyPrecedes(existing.origin.utf8) == false)
            guard wins else { return }
        }
        linkages[owner, default: [:]][relationship] = RecordedLinkage(linkage: linkage, rank: rank, origin: origin)
    }

    func linkage(_ owner: ResourceKey, _ relationship: String) -> Linkage? {
        linkages[owner]?[relationship]?.linkage
    }

    func recordUnavailable(_ entry: UnavailableRequest) {
        unavailable.append(entry)
    }

    var unavailableRequests: [UnavailableRequest] {
        unavailable.sorted { ($0.request, $0.status ?? 0, $0.code) < ($1.request, $1.status ?? 0, $1.code) }
    }

    var resourceCount: Int { Set(sightings.keys).union(linkages.keys).count }

    /// The snapshot: `data` sorted by type and id, `meta.iapdoctor` with the format, the time,
    /// the bundle ID and the failed requests.
    func document(fetchedAt: Date, bundleID: String) -> JSONValue {
        var data: [JSONValue] = []
        // A resource known only as the owner of fetched linkage (its own answer failed) is still
        // written, with no attributes, so the linkage is not lost.
        for key in Set(sightings.keys).union(linkages.keys).sorted() {
            let ordered = (sightings[key] ?? []).sorted {
                $0.origin == $1.origin ? $0.position < $1.position : $0.origin.utf8.lexicographicallyPrecedes($1.origin.utf8)
            }
            var attributes: [String: JSONValue] = [:]
            for sighting in ordered {
                attributes.merge(sighting.attributes) { _, later in later }
            }
            var resource: [String: JSONValue] = ["type": .string(key.type), "id": .string(key.id)]
            if !attributes.isEmpty { resource["attributes"] = .object(attributes) }
            if let known = linkages[key], !known.isEmpty {
                resource["relationships"] = .object(known.mapValues { .object(["data": $0.linkage.json]) })
            }
            data.append(.object(resource))
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let meta: JSONValue = .object([
            "format": .string(SnapshotFormat.identifier),
            "fetched_at": .string(formatter.string(from: fetchedAt)),
            "bundle_id": .string(bundleID),
            "unavailable": .array(unavailableRequests.map(\.json)),
        ])
        return .object(["data": .array(data), "meta": .object(["iapdoctor": meta])])
    }
}

public enum SnapshotFormat {
    public static let identifier = "iapdoctor-asc-snapshot/1"
}
