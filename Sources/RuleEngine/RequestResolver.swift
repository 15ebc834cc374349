import Foundation
import Formats
import Model
import Loaders

/// Every product ID iapdoctor knows to exist, indexed for the near-miss lookups: exact, by
/// lower-cased form, by last dot-separated component (for short IDs), and by similarity (typos).
/// Built once per run; only the exact set is built up front, the other tables the first time a
/// request needs them (a catalog-only run has no requests, and most requests are exact).
public struct ProductIndex: Sendable {
    /// The IDs, and everything made from them, when first needed.
    private let tables: LazyNearMissIndex

    public init(ids: [String]) {
        tables = LazyNearMissIndex { ids }
    }

    /// `ids` gathered when first needed (duplicates included): a run without requests to match,
    /// as a catalog check, never gathers them (gathering walks every catalog item).
    public init(gathering ids: @escaping @Sendable () -> [String]) {
        tables = LazyNearMissIndex(ids)
    }

    /// Every known ID once, in the order first given.
    public var ids: [String] { tables.unique().ids }

    public func contains(_ id: String) -> Bool { tables.unique().exact.contains(id) }

    /// What `requested` most likely meant, if it is not exact.
    public func match(_ requested: String, bundleIDs: [String]) -> RequestMatch {
        let (ids, exact) = tables.unique()
        if exact.contains(requested) { return .exact(requested) }
        let trimmed = String(requested.trimmingXMLSpace())
        if trimmed != requested, exact.contains(trimmed) { return .whitespace(trimmed) }
        let index = tables.get(ids)
        if let id = index.byLowercase[trimmed.lowercased()] { return .caseMismatch(id) }
        if bundleIDs.contains(trimmed) || bundleIDs.contains(where: { $0.lowercased() == trimmed.lowercased() }) {
            let owned = index.withPrefix(trimmed + ".", in: ids)
            return .bundleID(candidates: owned)
        }
        // The bundle ID put in front of a real ID (`"\\(bundleID).\\(id)"`): StoreKit adds nothing,
        // and the request names no product.
        for bundleID in bundleIDs where trimmed.count > bundleID.count + 1 && trimmed.hasPrefix(bundleID + ".") {
            let rest = String(trimmed.dropFirst(bundleID.count + 1))
            if exact.contains(rest) { return .prefixed(rest, bundleID: bundleID) }
        }
        // A short ID: the request is the tail of a real ID, after a dot.
        let candidates = index.byLastComponent[NearMissIndex.lastComponent(trimmed)] ?? []
        let longer = candidates.filter { $0.count > trimmed.count && $0.hasSuffix("." + trimmed) }
        if let first = longer.first { return .shortForm(first, others: Array(longer.dropFirst())) }
        // The same ignoring case: only IDs whose lower-cased last component is the request's can end in it.
        let lowered = trimmed.lowercased()
        let lowerCandidates = (index.byLowerLastComponent[NearMissIndex.lastComponent(lowered)] ?? []).map { ids[$0] }.filter {
            $0.count > trimmed.count && $0.lowercased().hasSuffix("." + lowered)
        }
        if let first = lowerCandidates.first { return .shortForm(first, others: Array(lowerCandidates.dropFirst())) }
        // A near-miss typo: bounded edit distance against IDs of similar length only. App Store
        // Connect takes no product ID longer than 100 characters, so a longer request is no near
        // miss of a real product (and comparing it would cost its length times the IDs').
        let length = trimmed.count
        guard length <= Self.maxTypoSearchLength else { return .missing }
        let limit = max(1, min(3, length / 8))
        if let best = index.closest(to: trimmed, limit: limit, in: ids) { return .typo(best.id, distance: best.distance) }
        return .missing
    }

    /// The longest request that gets a typo search: App Store Connect's limit on product IDs.
    public static let maxTypoSearchLength = 100

    /// Table cells the typo search computed for `requested` (a test's measure of its cost: linear
    /// in the IDs, whatever their lengths).
    func typoSearchWork(_ requested: String) -> Int {
        let (ids, _) = tables.unique()
        let length = requested.count
        guard length <= Self.maxTypoSearchLength else { return 0 }
        var work = 0
        _ = tables.get(ids).closest(to: requested, limit: max(1, min(3, length / 8)), in: ids, work: &work)
        return work
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
    /// The request is the bundle ID, a dot, and a full product ID.
    case prefixed(String, bundleID: String)
    case typo(String, distance: Int)
    case missing

    /// The product the request most likely refers to.
    public var productID: String? {
        switch self {
        case .exact(let id), .whitespace(let id), .caseMismatch(let id), .shortForm(let id, _), .typo(let id, _), .prefixed(let id, _):
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
        for built in [project.evidence.runningBundleID, project.evidence.archiveBundleID].compactMap({ $0?.value }) where !bundleIDs.contains(built) {
            bundleIDs.append(built)
        }
        return project.requests.map { ResolvedRequest(request: $0, match: index.match($0.value, bundleIDs: bundleIDs)) }
    }

    /// The product IDs the project states: the descriptor's products, then the catalogs'.
    public static func knownProductIDs(_ project: Project) -> [String] {
        var ids = project.products.compactMap { $0.productID?.value }
        // A closure, not a key path: `\.productIDText` costs more an item.
        for package in project.catalogPackages { ids += package.items.compactMap { $0.productIDText } }
        return ids + project.storeKitFiles.flatMap(\.productIDs)
    }
}
