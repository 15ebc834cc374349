import Foundation
import Formats
import Model
import Loaders

// The ID search behind `ProductIndex` (RequestResolver.swift): lookup tables and a banded
// edit-distance search over a sorted byte trie. It knows nothing of products or requests, only of
// a list of ID strings, so it lives here, apart from the matching rules that use it.

/// A `NearMissIndex` made on first use, and the IDs without repeats: thread-safe behind one lock,
/// because the `ProductIndex` that owns it is shared by every rule of a run.
final class LazyNearMissIndex: @unchecked Sendable {
    private let lock = NSLock()
    private let gather: @Sendable () -> [String]
    private var tables: NearMissIndex?
    private var uniqueIDs: (ids: [String], exact: Set<String>)?

    /// `gather`: the IDs as given, duplicates included.
    init(_ gather: @escaping @Sendable () -> [String]) {
        self.gather = gather
    }

    /// The IDs without repeats, and as a set (a catalog-only run never needs them).
    func unique() -> (ids: [String], exact: Set<String>) {
        lock.lock()
        defer { lock.unlock() }
        if let uniqueIDs { return uniqueIDs }
        let given = gather()
        var ids: [String] = []
        var exact = Set<String>()
        ids.reserveCapacity(given.count)
        for id in given where exact.insert(id).inserted { ids.append(id) }
        uniqueIDs = (ids, exact)
        return (ids, exact)
    }

    func get(_ ids: [String]) -> NearMissIndex {
        lock.lock()
        defer { lock.unlock() }
        if let tables { return tables }
        let made = NearMissIndex(ids)
        tables = made
        return made
    }
}

/// Lookup tables over a list of IDs for the near misses of a request: by lower-cased form, by last
/// dot-separated component, by length, and (ASCII IDs) sorted by bytes for prefix and typo searches.
/// Written only in `init`, so sharing it across threads is safe.
final class NearMissIndex: @unchecked Sendable {
    var byLowercase: [String: String] = [:]
    var byLastComponent: [String: [String]] = [:]
    /// Indexes into `ids` by lower-cased last component, in `ids` order.
    var byLowerLastComponent: [String: [Int]] = [:]
    /// Indexes into `ids` by length in characters, in `ids` order.
    var byLength: [Int: [Int]] = [:]
    /// Every ID is ASCII without carriage returns: then characters, scalars and bytes coincide,
    /// and the sorted index below answers as the scans over `ids` would.
    let allASCII: Bool

    static func isSimple(_ text: String) -> Bool {
        if let simple = text.utf8.withContiguousStorageIfAvailable({ bytes in bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D } }) {
            return simple
        }
        return text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }

    /// The text after the last dot (all of it without one): the key short IDs are found by.
    static func lastComponent(_ id: String) -> String {
        // In ASCII a byte is a character: find the dot in the bytes.
        let ascii: String?? = id.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            var dot = -1
            for (index, byte) in bytes.enumerated() {
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: ".") { dot = index }
            }
            return dot < 0 ? id : String(decoding: UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]), as: UTF8.self)
        }
        if case .some(.some(let component)) = ascii { return component }
        guard let dot = id.lastIndex(of: ".") else { return id }
        return String(id[id.index(after: dot)...])
    }

    // The IDs sorted by their bytes, as a trie in arrays (ASCII IDs only): every ID's bytes back
    // to back in `flat`, and by sorted rank its start, length and index in `ids`.
    private var flat: [UInt8] = []
    private var starts: [Int32] = []
    private var lengths: [Int32] = []
    private var positions: [Int32] = []

    init(_ ids: [String]) {
        var allASCII = true
        byLowercase.reserveCapacity(ids.count)
        byLastComponent.reserveCapacity(ids.count)
        byLowerLastComponent.reserveCapacity(ids.count)
        for (position, id) in ids.enumerated() {
            let lower = id.lowercased()
            if byLowercase[lower] == nil { byLowercase[lower] = id }
            byLastComponent[Self.lastComponent(id), default: []].append(id)
            byLowerLastComponent[Self.lastComponent(lower), default: []].append(position)
            let simple = Self.isSimple(id)
            byLength[simple ? id.utf8.count : id.count, default: []].append(position)
            if !simple { allASCII = false }
        }
        self.allASCII = allASCII
        guard allASCII else { return }
        var offsets = [Int32](repeating: 0, count: ids.count)
        var counts = [Int32](repeating: 0, count: ids.count)
        for (position, id) in ids.enumerated() {
            offsets[position] = Int32(flat.count)
            counts[position] = Int32(id.utf8.count)
            flat.append(contentsOf: id.utf8)
        }
        var order = Array(0..<Int32(ids.count))
        flat.withUnsafeBufferPointer { bytes in
            order.sort { a, b in
                let (sa, la, sb, lb) = (Int(offsets[Int(a)]), Int(counts[Int(a)]), Int(offsets[Int(b)]), Int(counts[Int(b)]))
                let common = memcmp(bytes.baseAddress! + sa, bytes.baseAddress! + sb, min(la, lb))
                return common != 0 ? common < 0 : la < lb
            }
        }
        positions = order
        starts = order.map { offsets[Int($0)] }
        lengths = order.map { counts[Int($0)] }
    }

    /// `ids.filter { $0.hasPrefix(prefix) }`.
    func withPrefix(_ prefix: String, in ids: [String]) -> [String] {
        // No bytes at all (the only ID is empty): nothing to point into.
        guard allASCII, !flat.isEmpty, Self.isSimple(prefix) else { return ids.filter { $0.hasPrefix(prefix) } }
        let key = Array(prefix.utf8)
        return flat.withUnsafeBufferPointer { bytes -> [String] in
            func compare(_ rank: Int) -> Int32 {
                // <0: the ID sorts before the prefix; 0: it starts with it; >0: after.
                let start = Int(starts[rank]), count = Int(lengths[rank])
                let common = memcmp(bytes.baseAddress! + start, key, min(count, key.count))
                if common != 0 { return common }
                return count < key.count ? -1 : 0
            }
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if compare(middle) < 0 { low = middle + 1 } else { high = middle }
            }
            var found: [Int] = []
            while low < starts.count, compare(low) == 0 {
                found.append(Int(positions[low]))
                low += 1
            }
            return found.sorted().map { ids[$0] }
        }
    }

    /// The ID closest to `request` within `limit` edits, among IDs whose length in characters is
    /// within `limit` of the request's; ties go to the shorter ID, then the earlier one (the
    /// order of a scan by length, then `ids` order).
    func closest(to request: String, limit: Int, in ids: [String]) -> (id: String, distance: Int)? {
        var work = 0
        return closest(to: request, limit: limit, in: ids, work: &work)
    }

    /// `work` counts the distance-table cells computed.
    func closest(to request: String, limit: Int, in ids: [String], work: inout Int) -> (id: String, distance: Int)? {
        let length = request.count
        guard allASCII, Self.isSimple(request) else {
            // Banded distance on scalars: O(limit · length) per ID of a length within `limit`.
            let scalars = Array(request.unicodeScalars)
            var best: (id: String, distance: Int)?
            withUnsafeMutablePointer(to: &work) { work in
                for candidate in max(0, length - limit)...(length + limit) {
                    for position in byLength[candidate] ?? [] {
                        let bound = best.map { $0.distance - 1 } ?? limit
                        guard bound >= 1 else { break }
                        if let distance = boundedEditDistance(scalars, Array(ids[position].unicodeScalars), limit: bound, work: work) {
                            best = (ids[position], distance)
                        }
                    }
                }
            }
            return best
        }
        let query = Array(request.utf8)
        let found: (rank: Int, distance: Int)? = flat.withUnsafeBufferPointer { flat in
            starts.withUnsafeBufferPointer { starts in
                lengths.withUnsafeBufferPointer { lengths in
                    positions.withUnsafeBufferPointer { positions in
                        var search = TrieSearch(
                            flat: flat, starts: starts, lengths: lengths, positions: positions, query: query,
                            limit: limit
                        )
                        let found = search.run()
                        work += search.work
                        return found
                    }
                }
            }
        }
        return found.map { (ids[Int(positions[$0.rank])], $0.distance) }
    }
}

/// A bounded edit-distance search over IDs sorted by their bytes, walked as a trie: one row of the
/// distance table per depth (rows of shared prefixes are computed once). An alignment within
/// `limit` edits never strays more than `limit` from the diagonal, so only that band of each row is
/// computed, and a branch ends as soon as its band has nothing within the limit.
struct TrieSearch {
    let flat: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<Int32>
    let lengths: UnsafeBufferPointer<Int32>
    let positions: UnsafeBufferPointer<Int32>
    let query: [UInt8]
    let limit: Int
    /// Table cells computed (the cost, for tests).
    var work = 0

    /// The sorted rank of the best ID and its distance: the smallest distance, then the shortest
    /// ID, then the earliest in `ids`.
    mutating func run() -> (rank: Int, distance: Int)? {
        let width = query.count + 1
        // A branch ends once its band leaves the table (depth > query + limit), so rows beyond
        // that are never written: the table is (query + limit + 2) rows, not the longest ID's
        // length (a very long ID would make every request allocate and clear a row per byte of it).
        var longest = 0
        for length in lengths { longest = max(longest, Int(length)) }
        let depth = min(longest, query.count + limit)
        let unreachable = limit + 1
        var rows = [Int](repeating: unreachable, count: (depth + 2) * width)
        for j in 0..<min(width, limit + 1) { rows[j] = j }
        var best: (rank: Int, distance: Int)?
        rows.withUnsafeMutableBufferPointer { rows in
            query.withUnsafeBufferPointer { query in
                walk(0, starts.count, 0, rows, query, width, &best)
            }
        }
        return best
    }

    private func byte(_ rank: Int, _ depth: Int) -> UInt8 { flat[Int(starts[rank]) + depth] }

    private mutating func walk(
        _ low: Int, _ high: Int, _ depth: Int, _ rows: UnsafeMutableBufferPointer<Int>, _ query: UnsafeBufferPointer<UInt8>,
        _ width: Int, _ best: inout (rank: Int, distance: Int)?
    ) {
        let row = depth * width
        let unreachable = limit + 1
        var start = low
        // Sorted order puts an ID before the IDs it is a prefix of.
        while start < high, Int(lengths[start]) == depth {
            let distance = rows[row + query.count]
            if distance <= limit, abs(depth - query.count) <= limit {
                if let current = best {
                    let (a, b) = (Int(lengths[start]), Int(lengths[current.rank]))
                    if distance < current.distance || (distance == current.distance && (a < b || (a == b && positions[start] < positions[current.rank]))) {
                        best = (start, distance)
                    }
                } else {
                    best = (start, distance)
                }
            }
            start += 1
        }
        let from = max(0, depth - limit), to = min(query.count, depth + limit)
        var minimum = Int.max
        if from <= to { for j in from...to { minimum = min(minimum, rows[row + j]) } }
        guard minimum <= limit else { return }
        let next = row + width
        let nextFrom = max(0, depth + 1 - limit), nextTo = min(query.count, depth + 1 + limit)
        var cursor = start
        while cursor < high {
            let value = byte(cursor, depth)
            // The run of IDs with this byte here: a galloping search, then a binary one.
            var step = 1
            var lo = cursor + 1
            while lo < high, byte(lo, depth) == value {
                lo = cursor + 1 + step
                step *= 2
            }
            var hi = min(lo, high)
            lo = cursor + 1 + step / 4
            if lo > hi { lo = hi }
            while lo < hi {
                let middle = (lo + hi) / 2
                if byte(middle, depth) == value { lo = middle + 1 } else { hi = middle }
            }
            // Cells just outside the band stay unreachable for the next row's neighbours.
            if nextFrom > 0 { rows[next + nextFrom - 1] = unreachable }
            if nextTo < query.count { rows[next + nextTo + 1] = unreachable }
            if nextFrom <= nextTo {
                work += nextTo - nextFrom + 1
                for j in nextFrom...nextTo {
                    if j == 0 {
                        rows[next] = min(rows[row] + 1, unreachable)
                        continue
                    }
                    let cost = query[j - 1] == value ? 0 : 1
                    rows[next + j] = min(rows[row + j] + 1, rows[next + j - 1] + 1, rows[row + j - 1] + cost, unreachable)
                }
            }
            walk(cursor, lo, depth + 1, rows, query, width, &best)
            cursor = lo
        }
    }
}
