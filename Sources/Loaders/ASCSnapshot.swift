import Foundation
import JSONReader
import Formats
import Model

/// An App Store Connect snapshot (`iapdoctor-asc-snapshot/1`, `../shared/spec/asc-snapshot.md`):
/// the API's own JSON:API resources, each remembering where it is in the file, merged by
/// `(type, id)`, plus the requests that failed. A folder of separately saved API responses reads
/// the same way. It only holds what the files say; ``ASCFacts`` turns it into project facts.
public struct ASCSnapshot: Sendable {
    public static let format = "iapdoctor-asc-snapshot/1"
    /// Per file, and for a whole folder: what `iapdoctor asc pull` writes for 10,000 products
    /// (each available in every territory) fits, with room to spare; the JSON reader's own
    /// limit is the ceiling. `SnapshotPull` stops below both.
    public static let maxFileBytes = JSONDocument.maxBytes
    public static let maxFolderBytes = JSONDocument.maxBytes
    /// Values per file: a subscription priced in 175 territories takes about 8,000.
    public static let maxValues = 1 << 25
    public static let maxFolderFiles = 2_000

    public struct Reference: Hashable, Sendable, Comparable, CustomStringConvertible {
        public var type: String
        public var id: String

        public init(type: String, id: String) {
            self.type = type
            self.id = id
        }

        public static func < (a: Reference, b: Reference) -> Bool { (a.type, a.id) < (b.type, b.id) }
        public var description: String { "\(type) \(id)" }
    }

    /// A relationship's `data`: absent means "not fetched" (unknown), `null`/`[]` "fetched, none".
    public enum Linkage: Sendable {
        case one(Reference?)
        case many([Reference])

        public var references: [Reference] {
            switch self {
            case .one(let reference): return reference.map { [$0] } ?? []
            case .many(let references): return references
            }
        }
    }

    /// A resource's relationships by name: a few at most, kept in a small array (a dictionary per
    /// resource costs more than the links of a price or a localization).
    public struct Relationships: Sendable, Sequence {
        public typealias Entry = (linkage: Linkage, location: SourceLocation)
        private var entries: [(name: String, entry: Entry)] = []

        public init() {}

        public subscript(name: String) -> Entry? {
            get { entries.first { $0.name == name }?.entry }
            set {
                let index = entries.firstIndex { $0.name == name }
                switch (index, newValue) {
                case (let index?, let value?): entries[index].entry = value
                case (let index?, nil): entries.remove(at: index)
                case (nil, let value?): entries.append((name, value))
                case (nil, nil): break
                }
            }
        }

        public var isEmpty: Bool { entries.isEmpty }

        public func makeIterator() -> some IteratorProtocol<(key: String, value: Entry)> {
            entries.lazy.map { (key: $0.name, value: $0.entry) }.makeIterator()
        }
    }

    public struct Resource: Sendable {
        public var reference: Reference
        /// The resource object's `{`.
        public var location: SourceLocation
        /// The resource's `attributes` object, read in place when the resource came once.
        private var attributeObject: JSONNode?
        /// Its attributes, gathered when the resource came more than once (a page and an `included`).
        private var mergedAttributes: [String: JSONNode]?
        /// Relationships that carry `data`, with the position of their `data` value.
        public var relationships = Relationships()
        /// Linkages a relationship lists more than once (App Store Connect lists each once): kept
        /// once, and reported, since a snapshot that repeats them was not written by the API.
        public var repeatedLinks: [(relationship: String, reference: Reference, count: Int, location: SourceLocation)] = []

        public var type: String { reference.type }
        public var id: String { reference.id }

        /// An attribute other than `null` (which means absent). Of keys repeated in one object the
        /// first counts; of resources repeated, the later one's attributes win.
        public func attribute(_ name: String) -> JSONNode? {
            if let mergedAttributes { return mergedAttributes[name] }
            guard let value = attributeObject?[name], !value.isNull else { return nil }
            return value
        }

        init(reference: Reference, location: SourceLocation, attributeObject: JSONNode? = nil) {
            self.reference = reference
            self.location = location
            self.attributeObject = attributeObject
        }

        /// Adds the attributes of the same resource read again.
        mutating func mergeAttributes(of other: Resource) {
            func gathered(_ resource: Resource) -> [String: JSONNode] {
                if let merged = resource.mergedAttributes { return merged }
                var attributes: [String: JSONNode] = [:]
                for member in resource.attributeObject?.members ?? [] where !member.value.isNull && attributes[member.key] == nil {
                    attributes[member.key] = member.value
                }
                return attributes
            }
            mergedAttributes = gathered(self).merging(gathered(other)) { _, later in later }
            attributeObject = nil
        }

        public func string(_ attribute: String) -> Fact<String>? {
            guard let value = self.attribute(attribute) else { return nil }
            switch value.kind {
            case .string: return value.stringFact(.appStoreConnect)
            case .number:
                guard let number = value.number else { return nil }
                let text = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
                return Fact(text, at: value.location, source: .appStoreConnect)
            default: return nil
            }
        }

        public func number(_ name: String) -> Double? {
            attribute(name)?.number
        }

        public func bool(_ attribute: String) -> Fact<Bool>? {
            guard let value = self.attribute(attribute), let flag = value.bool else { return nil }
            return Fact(flag, at: value.location, source: .appStoreConnect)
        }

        /// `nil` when the relationship was not fetched.
        public func linkage(_ relationship: String) -> Linkage? { relationships[relationship]?.linkage }
    }

    /// A request the snapshot's maker could not complete (`meta.iapdoctor.unavailable`), or an
    /// error response saved in a folder.
    public struct FailedRequest: Sendable {
        /// The request as sent (`GET /v1/apps?…`), or where its answer was saved ("the request
        /// saved as `errors.json`", with `isSavedResponse`): ``shownRequest`` is how a message
        /// writes it.
        public var request: String
        public var isSavedResponse = false
        public var status: Int?
        public var code: String?
        public var title: String?
        public var detail: String?
        /// The entry, or its `code` when it has one.
        public var location: SourceLocation

        /// The request in a message: code when it is the request itself, else as described.
        public var shownRequest: String { isSavedResponse ? request : "`\(request)`" }

        public var isAgreementLapse: Bool { code == "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED" }

        /// "403 FORBIDDEN_ERROR: The API key in use does not allow this request".
        public var summary: String {
            var text = [status.map(String.init), code].compactMap { $0 }.joined(separator: " ")
            if let reason = detail ?? title { text += text.isEmpty ? reason : ": \(reason)" }
            return text.isEmpty ? "failed" : text
        }
    }

    /// The file or folder as named.
    public var path: String
    public var files: [String] = []

    /// Every relationship that lists a linkage more than once, in file order.
    public var repeatedLinks: [(owner: Reference, relationship: String, reference: Reference, count: Int, location: SourceLocation)] {
        resources.values.flatMap { resource in resource.repeatedLinks.map { (resource.reference, $0.relationship, $0.reference, $0.count, $0.location) } }
            .sorted { ($0.location.file, $0.location.line, $0.location.column, $0.reference) < ($1.location.file, $1.location.line, $1.location.column, $1.reference) }
    }
    public var format: Fact<String>?
    public var fetchedAt: Fact<String>?
    /// The bundle ID the snapshot was pulled for (`meta.iapdoctor.bundle_id`).
    public var bundleID: Fact<String>?
    public var unavailable: [FailedRequest] = []

    /// The failed requests by each segment of their path (`/v2/inAppPurchases/11/…` under `11`):
    /// made once, so a product's failures are found without a scan of every failure.
    public func failuresBySegment() -> [String: [FailedRequest]] {
        var index: [String: [FailedRequest]] = [:]
        for failed in unavailable {
            let path = failed.request.split(separator: " ").last.map { $0.split(separator: "?").first ?? $0 } ?? ""
            for segment in Set(path.split(separator: "/")) { index[String(segment), default: []].append(failed) }
        }
        return index
    }
    public private(set) var resources: [Reference: Resource] = [:]
    /// Long linkage lists read so far, each kept once (see ``resource(_:lists:)``).
    private var lists: [[Reference]: [Reference]] = [:]

    public init(path: String) { self.path = path }

    public func resource(_ reference: Reference) -> Resource? { resources[reference] }

    /// The resources of one type, by id (a stable order for findings).
    public func resources(ofType type: String) -> [Resource] {
        resources.values.filter { $0.type == type }.sorted { $0.reference < $1.reference }
    }

    /// The resources a relationship links to; `nil` when it was not fetched, or when the snapshot
    /// does not hold every one of them (a pull cut short, responses saved in part): what is
    /// missing may be what a rule looks for, so the relationship is unknown.
    public func related(_ resource: Resource, _ relationship: String) -> [Resource]? {
        guard let held = relatedHeld(resource, relationship), held.count == resource.linkage(relationship)?.references.count else { return nil }
        return held
    }

    /// The resources a relationship links to that the snapshot holds, however many it misses;
    /// `nil` when it was not fetched.
    public func relatedHeld(_ resource: Resource, _ relationship: String) -> [Resource]? {
        guard let linkage = resource.linkage(relationship) else { return nil }
        return linkage.references.compactMap { resources[$0] }
    }

    /// Written by `iapdoctor asc pull` (or a tool following the spec): every request it did not
    /// list as failed was made, so a resource it does not hold does not exist.
    public var isCompletePull: Bool { format?.value == ASCSnapshot.format }

    /// The failed requests whose path starts with one of `prefixes` (`/v1/bundleIds`).
    public func failures(matching prefixes: [String]) -> [FailedRequest] {
        unavailable.filter { failed in
            let path = failed.request.split(separator: " ").last.map(String.init) ?? failed.request
            return prefixes.contains { path.hasPrefix($0) }
        }
    }

    mutating func merge(_ resource: Resource) {
        guard var existing = resources[resource.reference] else {
            resources[resource.reference] = resource
            return
        }
        // The same resource twice (a page and an `included`): later attributes win.
        existing.mergeAttributes(of: resource)
        for (key, value) in resource.relationships { existing.relationships[key] = value }
        existing.repeatedLinks += resource.repeatedLinks
        resources[resource.reference] = existing
    }
}

// MARK: Loading

extension ASCSnapshot {
    /// Reads a snapshot file, or every `*.json` in a folder (sorted by name, so merging is stable).
    public static func load(path: String) throws(InputProblem) -> ASCSnapshot {
        var snapshot = ASCSnapshot(path: path)
        if FileSystem.isDirectory(path) {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
                    .filter { $0.lowercased().hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            } catch {
                throw unreadable("cannot list the App Store Connect snapshot folder `\(Paths.shown(path))`: \(FileSystem.describeFileError(error))", path)
            }
            guard !names.isEmpty else {
                throw unreadable("the App Store Connect snapshot folder `\(Paths.shown(path))` holds no `.json` file",
                                 path, help: "save the API responses there as `.json` files, or run `iapdoctor asc pull -o asc-snapshot.json`")
            }
            guard names.count <= maxFolderFiles else {
                throw unreadable("the App Store Connect snapshot folder `\(Paths.shown(path))` holds \(names.count) `.json` files, more than the \(maxFolderFiles) iapdoctor reads", path)
            }
            var total = 0
            for name in names {
                let file = path.hasSuffix("/") ? path + name : path + "/" + name
                let bytes = try read(file, limit: min(maxFileBytes, maxFolderBytes - total))
                total += bytes.count
                try snapshot.add(document: parse(bytes, file: file), file: file)
            }
        } else {
            try snapshot.add(document: parse(try read(path, limit: maxFileBytes), file: path), file: path)
        }
        return snapshot
    }

    /// Reads one document given as text (tests, rule examples).
    public static func load(text: String, file: String) throws(InputProblem) -> ASCSnapshot {
        var snapshot = ASCSnapshot(path: file)
        try snapshot.add(document: parse(Array(text.utf8), file: file), file: file)
        return snapshot
    }

    private static func read(_ file: String, limit: Int) throws(InputProblem) -> [UInt8] {
        do {
            return try FileSystem.readBytes(file, maxBytes: max(limit, 0))
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: file), hint: "write the snapshot with `iapdoctor asc pull -o asc-snapshot.json`")
        }
    }

    private static func parse(_ bytes: [UInt8], file: String) throws(InputProblem) -> JSONNode {
        do {
            // Resources and `meta.iapdoctor` are folded, and read one at a time: the whole snapshot's
            // records never exist at once, and a resource keeps only what it needs.
            return try JSONNode.parse(bytes: bytes, file: file, maxValues: maxValues, foldingDepth: 3)
        } catch {
            throw malformed("the App Store Connect snapshot is not valid JSON: \(error.message)", at: error.location,
                            help: "fix the JSON at this position (a truncated download?), or pull the snapshot again with `iapdoctor asc pull`")
        }
    }

    static func malformed(_ message: String, at location: SourceLocation, help: String? = nil) -> InputProblem {
        PropertyList.malformed(
            message, help: help ?? "write it as the App Store Connect API returns it (see `iapdoctor explain input-malformed`), or pull it again with `iapdoctor asc pull`",
            at: location)
    }

    private static func unreadable(_ message: String, _ path: String, help: String = "check the path; `--asc` and `app_store_connect.snapshot` name a snapshot file or a folder of API responses") -> InputProblem {
        InputProblem(Finding(rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil, message: message, help: help, location: SourceLocation(file: path)))
    }

    /// One JSON:API document: its `data` and `included` resources, its `meta.iapdoctor`, or its
    /// `errors` (a saved error response).
    mutating func add(document: JSONNode, file: String) throws(InputProblem) {
        files.append(file)
        guard document.kind == .object else {
            throw Self.malformed("an App Store Connect snapshot is a JSON object with a `data` array, not \(Self.kind(document))", at: document.location)
        }
        let data = document["data"], errors = document["errors"], included = document["included"]
        guard data != nil || errors != nil else {
            let keys = document.members.prefix(5).map { "`\($0.key)`" }.joined(separator: ", ")
            throw Self.malformed(
                "this is not a JSON:API document from the App Store Connect API: it has no `data` (or `errors`)" + (keys.isEmpty ? "" : "; its keys are \(keys)"),
                at: document.location)
        }
        for section in [data, included].compactMap({ $0 }) {
            switch section.kind {
            case .array:
                let values = section.elements
                resources.reserveCapacity(resources.count + values.count)
                for value in values { merge(try Self.resource(try Self.alone(value), lists: &lists)) }
            case .object: merge(try Self.resource(try Self.alone(section), lists: &lists))
            case .null: break
            default:
                throw Self.malformed("`data` must be an array of resource objects (or one resource), not \(Self.kind(section))", at: section.location)
            }
        }
        if let errors { unavailable += try Self.failedRequests(fromErrors: errors, file: file) }
        if let meta = document["meta"]?["iapdoctor"] { try readMeta(try Self.alone(meta)) }
    }

    private mutating func readMeta(_ meta: JSONNode) throws(InputProblem) {
        guard meta.kind == .object else { throw Self.malformed("`meta.iapdoctor` must be an object, not \(Self.kind(meta))", at: meta.location) }
        if let value = meta["format"] {
            guard let text = value.string else { throw Self.malformed("`meta.iapdoctor.format` must be a string", at: value.location) }
            guard text == Self.format || !text.hasPrefix("iapdoctor-asc-snapshot/") else {
                throw Self.malformed(
                    "the snapshot's format is `\(Escaping.controlCharacters(text))`; this iapdoctor reads `\(Self.format)`", at: value.location,
                    help: "update iapdoctor, or pull the snapshot again with this version's `iapdoctor asc pull`")
            }
            format = Fact(text, at: value.location, source: .appStoreConnect)
        }
        if let value = meta["fetched_at"], let text = value.string { fetchedAt = Fact(text, at: value.location, source: .appStoreConnect) }
        if let value = meta["bundle_id"] {
            guard let text = value.string else { throw Self.malformed("`meta.iapdoctor.bundle_id` must be a string", at: value.location) }
            bundleID = Fact(text, at: value.location, source: .appStoreConnect)
        }
        if let list = meta["unavailable"] {
            guard list.kind == .array else {
                throw Self.malformed("`meta.iapdoctor.unavailable` must be an array of failed requests, not \(Self.kind(list))", at: list.location)
            }
            for entry in list.elements {
                guard entry.kind == .object, let request = entry["request"]?.string else {
                    throw Self.malformed("each entry of `meta.iapdoctor.unavailable` needs `request` (\"GET /v1/…\"), `status` and the API's error `code`", at: entry.location)
                }
                unavailable.append(FailedRequest(
                    request: request, status: Self.status(entry["status"]), code: entry["code"]?.string, title: entry["title"]?.string,
                    detail: entry["detail"]?.string, location: entry["code"]?.location ?? entry.location))
            }
        }
    }

    private static func failedRequests(fromErrors errors: JSONNode, file: String) throws(InputProblem) -> [FailedRequest] {
        guard errors.kind == .array else {
            throw malformed("`errors` must be an array of error objects, not \(kind(errors))", at: errors.location)
        }
        let name = Paths.fileName(of: file)
        var entries: [JSONNode] = []
        for entry in errors.elements { entries.append(try alone(entry)) }
        return entries.map { entry in
            FailedRequest(
                request: "the request saved as `\(name)`", isSavedResponse: true, status: status(entry["status"]), code: entry["code"]?.string,
                title: entry["title"]?.string, detail: entry["detail"]?.string, location: entry["code"]?.location ?? entry.location)
        }
    }

    /// The API writes `status` as a string ("403"); a hand-written snapshot may use a number.
    private static func status(_ value: JSONNode?) -> Int? {
        if let text = value?.string { return Int(text) }
        if let number = value?.number, number == number.rounded(), abs(number) < 1000 { return Int(number) }
        return nil
    }

    /// A part of a snapshot read on its own, whole (its folded parts included).
    static func alone(_ value: JSONNode) throws(InputProblem) -> JSONNode {
        guard value.isFolded || value.kind == .object || value.kind == .array else { return value }
        do {
            return try value.readAlone()
        } catch {
            throw malformed("the App Store Connect snapshot is not readable: \(error.message)", at: error.location)
        }
    }

    static func resource(_ value: JSONNode) throws(InputProblem) -> Resource {
        var lists: [[Reference]: [Reference]] = [:]
        return try resource(value, lists: &lists)
    }

    /// `lists`: the long linkage lists read so far, so that a list repeated (most products are
    /// available in the same ~175 territories) is kept once.
    static func resource(_ value: JSONNode, lists: inout [[Reference]: [Reference]]) throws(InputProblem) -> Resource {
        guard value.kind == .object else {
            throw malformed("a resource must be an object with `type` and `id`, not \(kind(value))", at: value.location)
        }
        let identity = try reference(value, what: "a resource")
        let attributes = value["attributes"]
        if let attributes, attributes.kind != .object {
            throw malformed("`attributes` of \(identity) must be an object, not \(kind(attributes))", at: attributes.location)
        }
        let relationships = value["relationships"]
        // A resource with relationships keeps its attributes apart from them: a copy of a few
        // hundred bytes, where keeping the resource's own text would keep ~175 territory links.
        let kept = relationships == nil ? attributes : try attributes.map { node throws(InputProblem) in try alone(node) }
        var resource = Resource(reference: identity, location: value.location, attributeObject: kept)
        if let relationships {
            guard relationships.kind == .object else {
                throw malformed("`relationships` of \(resource.reference) must be an object, not \(kind(relationships))", at: relationships.location)
            }
            for member in relationships.members {
                guard member.value.kind == .object else {
                    throw malformed("relationship `\(member.key)` of \(resource.reference) must be an object, not \(kind(member.value))", at: member.value.location)
                }
                // Without `data` the relationship was not fetched (only its `links`): unknown.
                guard let data = member.value["data"] else { continue }
                switch data.kind {
                case .null: resource.relationships[member.key] = (.one(nil), data.location)
                case .object: resource.relationships[member.key] = (.one(try reference(data, what: "a linkage")), data.location)
                case .array:
                    let items = data.elements
                    var references: [Reference] = []
                    references.reserveCapacity(items.count)
                    var counts: [Reference: Int] = [:]
                    for item in items {
                        let linked = try reference(item, what: "a linkage")
                        counts[linked, default: 0] += 1
                        if counts[linked] == 1 { references.append(linked) }
                    }
                    for linked in references where counts[linked]! > 1 {
                        resource.repeatedLinks.append((member.key, linked, counts[linked]!, data.location))
                    }
                    if references.count >= 8 {
                        if let kept = lists[references] { references = kept } else { lists[references] = references }
                    }
                    resource.relationships[member.key] = (.many(references), data.location)
                default:
                    throw malformed("`data` of relationship `\(member.key)` must be `null`, a `{type, id}` object or an array of them, not \(kind(data))", at: data.location)
                }
            }
        }
        return resource
    }

    private static func reference(_ value: JSONNode, what: String) throws(InputProblem) -> Reference {
        guard value.kind == .object else { throw malformed("\(what) must be a `{type, id}` object, not \(kind(value))", at: value.location) }
        guard let type = value["type"]?.string, !type.isEmpty else {
            throw malformed("\(what) needs a string `type` (such as `inAppPurchases`)", at: value["type"]?.location ?? value.location)
        }
        // The API writes ids as strings; a hand-written snapshot may write a number.
        let number = value["id"]?.number.flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int64($0)) : nil }
        guard let id = value["id"]?.string ?? number, !id.isEmpty else {
            throw malformed("\(what) of type `\(Escaping.controlCharacters(type))` needs a string `id`", at: value["id"]?.location ?? value.location)
        }
        return Reference(type: type, id: id)
    }

    static func kind(_ value: JSONNode) -> String {
        switch value.kind {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "`null`"
        }
    }
}
