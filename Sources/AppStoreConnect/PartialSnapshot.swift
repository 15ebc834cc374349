import Foundation
import JSONReader

/// A snapshot an earlier pull wrote, read back so `asc pull --resume` continues it: the resources
/// and the relationships it fetched whole. A relationship with `data` was fetched whole (the
/// store writes nothing else), so the resumed pull asks again only for what has none; the
/// earlier pull's failed and unsent requests are not carried over, because they are exactly the
/// ones asked again.
public struct PartialSnapshot: Sendable {
    public struct Resource: Sendable {
        let key: ResourceKey
        let attributes: [String: JSONValue]
        let relationships: [String: Linkage]
    }

    public let bundleID: String
    /// `meta.iapdoctor.fetched_at`: the resumed snapshot keeps the earlier time, since its oldest
    /// facts are that old.
    public let fetchedAt: Date
    let resources: [Resource]

    /// Reads a snapshot `asc pull` wrote; anything else is refused with what to do.
    public init(bytes: [UInt8], file: String) throws(PullFailure) {
        let help = "give --resume the file an earlier `iapdoctor asc pull -o FILE` wrote, or pull again without --resume"
        let root: JSONNode
        do {
            // Resources are folded and read one at a time, as `check` reads them.
            root = try JSONDocument.parse(bytes: bytes, file: file, maxValues: SnapshotPull.checkedValues, foldingDepth: 3).root
        } catch {
            throw PullFailure(message: "`\(file)`:\(error.line):\(error.column): \(error.message)", help: help)
        }
        let meta = try root["meta"]?["iapdoctor"].map { node throws(PullFailure) in try PartialSnapshot.alone(node, file: file, help: help) }
        guard meta?["format"]?.string == SnapshotFormat.identifier else {
            throw PullFailure(message: "`\(file)` is not a snapshot `iapdoctor asc pull` wrote (no `meta.iapdoctor.format` \(SnapshotFormat.identifier))", help: help)
        }
        guard let bundleID = meta?["bundle_id"]?.string, !bundleID.isEmpty else {
            throw PullFailure(message: "`\(file)` does not say which app it was pulled for (no `meta.iapdoctor.bundle_id`)", help: help)
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let text = meta?["fetched_at"]?.string, let fetchedAt = formatter.date(from: text) else {
            throw PullFailure(message: "`\(file)` has no `meta.iapdoctor.fetched_at` time", help: help)
        }
        self.bundleID = bundleID
        self.fetchedAt = fetchedAt
        var resources: [Resource] = []
        for folded in root["data"]?.elements ?? [] {
            let node = try PartialSnapshot.alone(folded, file: file, help: help)
            guard let type = node["type"]?.string, let id = node["id"]?.string, !type.isEmpty, !id.isEmpty else { continue }
            try PartialSnapshot.requirePathSegment(id, of: type, in: folded, file: file, help: help)
            var attributes: [String: JSONValue] = [:]
            for member in node["attributes"]?.members ?? [] where attributes[member.key] == nil {
                attributes[member.key] = JSONValue(member.value)
            }
            var relationships: [String: Linkage] = [:]
            for member in node["relationships"]?.members ?? [] where relationships[member.key] == nil {
                guard let data = member.value["data"] else { continue }
                switch data.kind {
                case .null: relationships[member.key] = .one(nil)
                case .object:
                    if let id = data["id"]?.string { try PartialSnapshot.requirePathSegment(id, of: data["type"]?.string ?? "", in: data, file: file, help: help) }
                    if let key = PartialSnapshot.key(data) { relationships[member.key] = .one(key) }
                case .array:
                    for element in data.elements {
                        if let id = element["id"]?.string { try PartialSnapshot.requirePathSegment(id, of: element["type"]?.string ?? "", in: element, file: file, help: help) }
                    }
                    let keys = data.elements.compactMap(PartialSnapshot.key)
                    if keys.count == data.elements.count { relationships[member.key] = .many(keys) }
                default: break
                }
            }
            resources.append(Resource(key: ResourceKey(type: type, id: id), attributes: attributes, relationships: relationships))
        }
        self.resources = resources
    }

    /// The resumed pull puts the snapshot's ids into request paths: one that is not an App Store
    /// Connect id refuses the file, at its place.
    private static func requirePathSegment(_ id: String, of type: String, in node: JSONNode, file: String, help: String) throws(PullFailure) {
        guard !ResourceKey.isPathSegment(id) else { return }
        throw PullFailure(
            message: "`\(file)`:\(node.span.line):\(node.span.column): the \(type.debugDescription) resource's id \(String(id.prefix(120)).debugDescription) is not an App Store Connect id (letters, digits and `-._~=+`, one path segment)",
            help: "this file was not written by `iapdoctor asc pull`, or was edited; pull again without --resume")
    }

    private static func alone(_ node: JSONNode, file: String, help: String) throws(PullFailure) -> JSONNode {
        guard node.isFolded else { return node }
        do {
            return try node.standalone()
        } catch {
            throw PullFailure(message: "`\(file)`:\(error.line):\(error.column): \(error.message)", help: help)
        }
    }

    private static func key(_ node: JSONNode) -> ResourceKey? {
        guard let type = node["type"]?.string, let id = node["id"]?.string, !type.isEmpty, !id.isEmpty else { return nil }
        return ResourceKey(type: type, id: id)
    }
}
