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
        guard let type = value["type"]?.stringValue, let id = value["id"]?.stringValue, !type.isEmpty, Self.isPathSegment(id) else { return nil }
        self.init(type: type, id: id)
    }

    /// Whether `id` can be put into a request's path as it is: one segment of letters, digits and
    /// `-._~=+` (App Store Connect's ids are numbers, UUIDs and base64 text), not `.` or `..`. A
    /// pull puts ids into paths, so an id such as `../../v1/users` from a file or an answer must
    /// never reach another endpoint with the token.
    public static func isPathSegment(_ id: String) -> Bool {
        let bytes = id.utf8
        guard !bytes.isEmpty, bytes.count <= 1024, bytes.contains(where: { $0 != UInt8(ascii: ".") }) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "="), UInt8(ascii: "+"): true
            default: false
            }
        }
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
    /// An attribute's value and the answer it came from: of two sightings, the one whose request
    /// text sorts later (then the later position in that answer) wins.
    struct Sighting: Sendable {
        let origin: String
        let position: Int
        let value: JSONValue

        func isOutranked(byOrigin origin: String, position: Int) -> Bool {
            self.origin == origin ? position > self.position : self.origin.utf8.lexicographicallyPrecedes(origin.utf8)
        }
    }

    struct RecordedLinkage: Sendable {
        let linkage: Linkage
        /// A full fetch of the relationship outranks linkage from an `include=`.
        let rank: Int
        let origin: String
    }

    /// Each resource's attributes, merged as they arrive (so a resource seen in many answers costs
    /// its attributes once).
    private var attributes: [ResourceKey: [String: Sighting]] = [:]
    private var linkages: [ResourceKey: [String: RecordedLinkage]] = [:]
    private var unavailable: [UnavailableRequest] = []
    /// Requests not sent, sorted by their text, at most ``maximumNotSentListed``.
    private var notSent: [UnavailableRequest] = []
    private var notSentUnlisted = 0
    /// About how many bytes the snapshot will take, written, and how many JSON values it holds
    /// (keys included: what `iapdoctor check`'s reader counts).
    private(set) var estimatedBytes = 0
    private(set) var estimatedValues = 0
    /// Past these the store keeps nothing more: a snapshot larger than `iapdoctor check` reads is
    /// of no use. Room is left for `meta`.
    let maximumBytes: Int
    let maximumValues: Int

    /// Linkage read from the snapshot a pull resumes: complete, but outranked by anything fetched.
    static let seededRank = -1
    static let includedRank = 0
    static let fetchedRank = 1

    init(maximumBytes: Int = SnapshotPull.defaultMaximumBytes, maximumValues: Int = SnapshotPull.defaultMaximumValues) {
        self.maximumBytes = maximumBytes
        self.maximumValues = maximumValues
    }

    /// Whether something did not fit: the store has stopped keeping anything new.
    private(set) var isFull = false

    /// Whether `bytes` and `values` more still fit; once something does not, nothing more is kept.
    private func fits(_ bytes: Int, _ values: Int) -> Bool {
        if !isFull, estimatedBytes + bytes > maximumBytes || estimatedValues + values > maximumValues { isFull = true }
        if !isFull {
            estimatedBytes += bytes
            estimatedValues += values
        }
        return !isFull
    }

    func add(_ resource: JSONValue, origin: String, position: Int) {
        guard let key = ResourceKey(resource) else { return }
        let known = attributes[key]
        var winners: [(name: String, sighting: Sighting)] = []
        let isNew = known == nil && linkages[key] == nil
        var growth = isNew ? SnapshotStore.resourceBytes(key) : 0
        var values = isNew ? SnapshotStore.resourceValues : 0
        for (name, value) in resource["attributes"]?.objectValue ?? [:] {
            let existing = known?[name]
            if let existing, !existing.isOutranked(byOrigin: origin, position: position) { continue }
            growth += SnapshotStore.memberBytes(name, value) - (existing.map { SnapshotStore.memberBytes(name, $0.value) } ?? 0)
            values += 1 + value.valueCount - (existing.map { 1 + $0.value.valueCount } ?? 0)
            winners.append((name, Sighting(origin: origin, position: position, value: value)))
        }
        guard fits(growth, values) else { return }
        var merged = known ?? [:]
        for winner in winners { merged[winner.name] = winner.sighting }
        attributes[key] = merged
    }

    func link(_ owner: ResourceKey, _ relationship: String, _ linkage: Linkage, rank: Int, origin: String) {
        let existing = linkages[owner]?[relationship]
        if let existing {
            let wins = rank > existing.rank || (rank == existing.rank && origin.utf8.lexicographicallyPrecedes(existing.origin.utf8) == false)
            guard wins else { return }
        }
        let isNew = linkages[owner] == nil && attributes[owner] == nil
        let growth = (isNew ? SnapshotStore.resourceBytes(owner) : 0)
            + SnapshotStore.linkageBytes(relationship, linkage) - (existing.map { SnapshotStore.linkageBytes(relationship, $0.linkage) } ?? 0)
        let values = (isNew ? SnapshotStore.resourceValues : 0)
            + SnapshotStore.linkageValues(linkage) - (existing.map { SnapshotStore.linkageValues($0.linkage) } ?? 0)
        guard fits(growth, values) else { return }
        linkages[owner, default: [:]][relationship] = RecordedLinkage(linkage: linkage, rank: rank, origin: origin)
    }

    /// A resource's own lines, pretty-printed: its braces, `type`, `id`, `attributes` and
    /// `relationships`.
    private static func resourceBytes(_ key: ResourceKey) -> Int {
        96 + key.type.utf8.count + key.id.utf8.count
    }

    /// A resource's own values: the object, `type` and `id` with their keys, and the
    /// `attributes` and `relationships` keys and objects.
    private static let resourceValues = 9

    /// A relationship's values: its key, `{ "data": … }` and the linkage.
    private static func linkageValues(_ linkage: Linkage) -> Int {
        switch linkage {
        case .one(let key): return 3 + (key == nil ? 1 : 5)
        case .many(let keys): return 4 + 5 * keys.count
        }
    }

    /// A relationship: `"name": { "data": linkage }`, pretty-printed at its depth.
    private static func linkageBytes(_ name: String, _ linkage: Linkage) -> Int {
        memberBytes(name, .object(["data": linkage.json]))
    }

    /// One member of `attributes` or `relationships`, pretty-printed at its depth.
    private static func memberBytes(_ name: String, _ value: JSONValue) -> Int {
        16 + name.utf8.count + value.serialized(pretty: true, indent: 4).utf8.count
    }

    func linkage(_ owner: ResourceKey, _ relationship: String) -> Linkage? {
        linkages[owner]?[relationship]?.linkage
    }

    func attribute(_ key: ResourceKey, _ name: String) -> JSONValue? {
        attributes[key]?[name]?.value
    }

    /// Whether the store holds the resource (its attributes, or linkage it owns).
    func holds(_ key: ResourceKey) -> Bool {
        attributes[key] != nil || linkages[key] != nil
    }

    /// The relationship's linkage when it is known whole and every resource it names is held: a
    /// resumed pull need not ask for it again.
    func held(_ owner: ResourceKey, _ relationship: String) -> Linkage? {
        guard let linkage = linkages[owner]?[relationship]?.linkage else { return nil }
        switch linkage {
        case .one(let key): return key.map(holds) == false ? nil : linkage
        case .many(let keys): return keys.allSatisfy(holds) ? linkage : nil
        }
    }

    /// Starts from a snapshot an earlier pull wrote: its resources, and its relationships as known
    /// whole (outranked by what this pull fetches).
    func seed(_ snapshot: PartialSnapshot) {
        for resource in snapshot.resources {
            add(.object(["type": .string(resource.key.type), "id": .string(resource.key.id), "attributes": .object(resource.attributes)]),
                origin: "", position: 0)
            for (relationship, linkage) in resource.relationships {
                link(resource.key, relationship, linkage, rank: SnapshotStore.seededRank, origin: "")
            }
        }
    }

    /// Records a failed request, or one not sent. Of the requests not sent after a stop, the
    /// snapshot lists the first ``maximumNotSentListed`` by their text and counts the rest (a
    /// product's facts are unknown either way: their linkage was never fetched).
    func recordUnavailable(_ entry: UnavailableRequest) {
        guard !entry.wasSent else {
            unavailable.append(entry)
            estimatedBytes += SnapshotStore.memberBytes("", entry.json)
            estimatedValues += entry.json.valueCount
            return
        }
        var low = 0, high = notSent.count
        while low < high {
            let middle = (low + high) / 2
            if notSent[middle].request.utf8.lexicographicallyPrecedes(entry.request.utf8) { low = middle + 1 } else { high = middle }
        }
        let position = low
        guard position < SnapshotStore.maximumNotSentListed else {
            notSentUnlisted += 1
            return
        }
        notSent.insert(entry, at: position)
        if notSent.count > SnapshotStore.maximumNotSentListed {
            notSent.removeLast()
            notSentUnlisted += 1
        }
    }

    var unavailableRequests: [UnavailableRequest] {
        var entries = unavailable + notSent
        if notSentUnlisted > 0, let last = notSent.last {
            entries.append(UnavailableRequest(request: "GET (\(notSentUnlisted) more requests)", notSentBecause: StopReason(
                code: last.code, title: last.title + " (\(notSentUnlisted) requests past the first \(SnapshotStore.maximumNotSentListed) are counted, not listed)",
                detail: last.detail)))
        }
        return entries.sorted { ($0.request, $0.status ?? 0, $0.code) < ($1.request, $1.status ?? 0, $1.code) }
    }

    /// Requests not sent, listed or counted.
    var notSentCount: Int { notSent.count + notSentUnlisted }

    /// How many of the requests not sent are listed one by one.
    static let maximumNotSentListed = 1000

    var resourceCount: Int { Set(attributes.keys).union(linkages.keys).count }

    /// What the pull found, handed over once it is over: the store keeps nothing after, so the
    /// resources are held once.
    func takeContents(fetchedAt: Date, bundleID: String) -> SnapshotContents {
        defer {
            attributes = [:]
            linkages = [:]
        }
        return SnapshotContents(attributes: attributes, linkages: linkages, unavailable: unavailableRequests, fetchedAt: fetchedAt, bundleID: bundleID)
    }
}

/// A pull's resources and failed requests, written as the snapshot's text in pieces (one
/// resource at a time), so the pull never holds the snapshot as one string or one tree.
public struct SnapshotContents: Sendable {
    let attributes: [ResourceKey: [String: SnapshotStore.Sighting]]
    let linkages: [ResourceKey: [String: SnapshotStore.RecordedLinkage]]
    let unavailable: [UnavailableRequest]
    let fetchedAt: Date
    let bundleID: String

    /// The snapshot's text, piece by piece: `data` sorted by type and id, `meta.iapdoctor` with
    /// the format, the time, the bundle ID and the failed requests; pretty-printed with keys
    /// sorted, exactly as `JSONValue.serialized(pretty:)` prints the whole document.
    public func write(_ emit: (String) -> Void) {
        // A resource known only as the owner of fetched linkage (its own answer failed) is still
        // written, with no attributes, so the linkage is not lost.
        let keys = Set(attributes.keys).union(linkages.keys).sorted()
        emit(keys.isEmpty ? "{\n  \"data\": []" : "{\n  \"data\": [")
        var piece = ""
        for (index, key) in keys.enumerated() {
            var resource: [String: JSONValue] = ["type": .string(key.type), "id": .string(key.id)]
            if let attributes = attributes[key], !attributes.isEmpty { resource["attributes"] = .object(attributes.mapValues(\.value)) }
            if let known = linkages[key], !known.isEmpty {
                resource["relationships"] = .object(known.mapValues { .object(["data": $0.linkage.json]) })
            }
            piece += index == 0 ? "\n    " : ",\n    "
            JSONValue.object(resource).write(to: &piece, pretty: true, indent: 2)
            if piece.utf8.count >= 1 << 16 {
                emit(piece)
                piece = ""
            }
        }
        if !keys.isEmpty { piece += "\n  ]" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let meta: JSONValue = .object(["iapdoctor": .object([
            "format": .string(SnapshotFormat.identifier),
            "fetched_at": .string(formatter.string(from: fetchedAt)),
            "bundle_id": .string(bundleID),
            "unavailable": .array(unavailable.map(\.json)),
        ])])
        piece += ",\n  \"meta\": "
        meta.write(to: &piece, pretty: true, indent: 1)
        piece += "\n}\n"
        emit(piece)
    }

    /// A snapshot of nothing.
    public static func empty(bundleID: String) -> SnapshotContents {
        SnapshotContents(attributes: [:], linkages: [:], unavailable: [], fetchedAt: Date(timeIntervalSince1970: 0), bundleID: bundleID)
    }

    /// The whole text at once (for a small snapshot, or a test).
    public var text: String {
        var text = ""
        write { text += $0 }
        return text
    }
}

public enum SnapshotFormat {
    public static let identifier = "iapdoctor-asc-snapshot/1"
}
