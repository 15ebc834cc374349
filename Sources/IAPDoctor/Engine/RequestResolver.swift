/// Every product ID iapdoctor knows to exist, indexed for the near-miss lookups: exact, by
/// lower-cased form, and by last dot-separated component (for short IDs). Built once per run.
public struct ProductIndex: Sendable {
    public private(set) var ids: [String] = []
    private var exact: Set<String> = []
    private var byLowercase: [String: String] = [:]
    private var byLastComponent: [String: [String]] = [:]
    private var byLength: [Int: [String]] = [:]

    public init(ids: [String]) {
        for id in ids where !exact.contains(id) {
            self.ids.append(id)
            exact.insert(id)
            byLowercase[id.lowercased()] = byLowercase[id.lowercased()] ?? id
            byLastComponent[Self.lastComponent(id), default: []].append(id)
            byLength[id.count, default: []].append(id)
        }
    }

    public func contains(_ id: String) -> Bool { exact.contains(id) }

    static func lastComponent(_ id: String) -> String {
        id.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? id
    }

    /// What `requested` most likely meant, if it is not exact.
    public func match(_ requested: String, bundleIDs: [String]) -> RequestMatch {
        if exact.contains(requested) { return .exact(requested) }
        let trimmed = String(requested.trimmingXMLSpace())
        if trimmed != requested, exact.contains(trimmed) { return .whitespace(trimmed) }
        if let id = byLowercase[trimmed.lowercased()] { return .caseMismatch(id) }
        if bundleIDs.contains(trimmed) || bundleIDs.contains(where: { $0.lowercased() == trimmed.lowercased() }) {
            let owned = ids.filter { $0.hasPrefix(trimmed + ".") }
            return .bundleID(candidates: owned)
        }
        // A short ID: the request is the tail of a real ID, after a dot.
        let candidates = byLastComponent[Self.lastComponent(trimmed)] ?? []
        let longer = candidates.filter { $0.count > trimmed.count && $0.hasSuffix("." + trimmed) }
        if let first = longer.first { return .shortForm(first, others: Array(longer.dropFirst())) }
        let lowerCandidates = ids.filter {
            $0.count > trimmed.count && $0.lowercased().hasSuffix("." + trimmed.lowercased())
        }
        if let first = lowerCandidates.first { return .shortForm(first, others: Array(lowerCandidates.dropFirst())) }
        // A near-miss typo: bounded edit distance against IDs of similar length only.
        let limit = max(1, min(3, trimmed.count / 8))
        var best: (id: String, distance: Int)?
        for length in (trimmed.count - limit)...(trimmed.count + limit) {
            for id in byLength[length] ?? [] {
                let bound = best.map { $0.distance - 1 } ?? limit
                guard bound >= 1 else { break }
                if let distance = boundedEditDistance(trimmed, id, limit: bound) {
                    best = (id, distance)
                }
            }
        }
        if let best { return .typo(best.id, distance: best.distance) }
        return .missing
    }
}

public enum RequestMatch: Sendable, Hashable {
    case exact(String)
    /// Equal after removing leading or trailing white space.
    case whitespace(String)
    /// Equal ignoring case.
    case caseMismatch(String)
    /// The app's bundle ID was passed as a product ID.
    case bundleID(candidates: [String])
    /// The request is the tail of a full product ID.
    case shortForm(String, others: [String])
    case typo(String, distance: Int)
    case missing

    /// The product the request most likely refers to.
    public var productID: String? {
        switch self {
        case .exact(let id), .whitespace(let id), .caseMismatch(let id), .shortForm(let id, _), .typo(let id, _):
            return id
        case .bundleID, .missing: return nil
        }
    }
}

/// One requested ID and what it matched.
public struct ResolvedRequest: Sendable {
    public var request: Fact<String>
    public var match: RequestMatch

    /// The real product this request is about, or `nil` when none is known.
    public var productID: String? { match.productID }

    /// The ID a product verdict is filed under: the real product, else the requested text.
    public var verdictID: String { match.productID ?? request.value }
}

public enum RequestResolver {
    /// Matches every requested ID against the known products, in request order.
    public static func resolve(_ project: Project, index: ProductIndex) -> [ResolvedRequest] {
        var bundleIDs: [String] = []
        if let bundle = project.app.bundleID?.value { bundleIDs.append(bundle) }
        if let appID = project.appID.bundlePart?.value, !appID.hasSuffix("*"), !bundleIDs.contains(appID) {
            bundleIDs.append(appID)
        }
        return project.requests.map { ResolvedRequest(request: $0, match: index.match($0.value, bundleIDs: bundleIDs)) }
    }

    /// The product IDs the project states: the descriptor's products, then the catalogs'.
    public static func knownProductIDs(_ project: Project) -> [String] {
        project.products.compactMap { $0.productID?.value }
            + project.catalogPackages.flatMap { $0.items.compactMap { $0.productID?.value } }
            + project.storeKitCatalogs.flatMap(\.productIDs)
    }
}
