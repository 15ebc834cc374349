import Formats
import Model
import Loaders

/// Every finding of a diagnosis in report order, for the reports that list them all (JSON, SARIF):
/// the listed ones (``Diagnosis/findings``) without the notes that count the rest, merged with the
/// findings past the listing limit (``Diagnosis/unlisted``), numbered anew, with each checklist
/// item's findings by those numbers.
///
/// When nothing was left unlisted it is the diagnosis's own list, numbers and all.
public struct FindingListing {
    private enum Entry {
        case listed(Int)
        case unlisted(store: Int, record: Int)
    }

    private let diagnosis: Diagnosis
    /// The diagnosis's stores that hold records (``Entry/unlisted`` indexes them).
    private let stores: [CompactFindings]
    private let entries: [Entry]
    /// For each checklist entry of the diagnosis, its findings' numbers in this listing.
    public let checklistFindings: [[Int]]

    public init(_ diagnosis: Diagnosis) {
        self.diagnosis = diagnosis
        let stores = diagnosis.unlisted.filter { !$0.isEmpty }
        self.stores = stores
        guard diagnosis.keepsUnlisted, !stores.isEmpty || diagnosis.findings.contains(where: \.summarizesUnlisted) else {
            entries = diagnosis.findings.indices.map { .listed($0) }
            checklistFindings = diagnosis.checklist.map(\.findings)
            return
        }
        // Files ranked by name over everything listed, as the engine ranks them.
        var files = Set<String>([""])
        for finding in diagnosis.findings { files.insert(finding.location?.file ?? "") }
        for store in stores { for name in store.namesByFileIndex { files.insert(name ?? "") } }
        var rankOf: [String: Int] = [:]
        for (rank, file) in files.sorted().enumerated() { rankOf[file] = rank }
        let fileRanks = stores.map { store in store.namesByFileIndex.map { rankOf[$0 ?? ""]! } }

        // Each store's records sorted, a rule's repeated finding listed once; then merged.
        var unlisted: [(store: Int, record: Int)] = []
        unlisted.reserveCapacity(stores.reduce(0) { $0 + $1.count })
        for (storeIndex, store) in stores.enumerated() {
            let ranks = fileRanks[storeIndex]
            // Sorted on one number per record (file rank, line and column, each clamped, which
            // keeps their order); only equal numbers compare the records.
            let keys = (0..<store.count).map { record -> UInt64 in
                let (file, line, column) = store.position(of: record, fileRank: ranks)
                return UInt64(min(file, 0xFFFF)) << 48 | UInt64(min(max(line, 0), 0xFFFF_FFFF)) << 16 | UInt64(min(max(column, 0), 0xFFFF))
            }
            var order = Array(0..<store.count)
            order.sort { a, b in keys[a] != keys[b] ? keys[a] < keys[b] : store.precedes(a, b, fileRank: ranks) }
            var previous: Int?
            for record in order where diagnosis.unlistedRules.contains(store.rule(of: record)) {
                if let previous, store.same(previous, record) { continue }
                previous = record
                unlisted.append((storeIndex, record))
            }
        }
        if stores.count > 1 {
            unlisted.sort { a, b in
                let ka = stores[a.store].position(of: a.record, fileRank: fileRanks[a.store])
                let kb = stores[b.store].position(of: b.record, fileRank: fileRanks[b.store])
                if ka != kb { return ka < kb }
                return Finding.reportOrder(stores[a.store][a.record], stores[b.store][b.record])
            }
        }
        var entries: [Entry] = []
        entries.reserveCapacity(diagnosis.findings.count + unlisted.count)
        var newNumber = [Int](repeating: -1, count: diagnosis.findings.count)
        var next = 0
        func appendListed(_ index: Int) {
            newNumber[index] = entries.count
            entries.append(.listed(index))
        }
        for (index, finding) in diagnosis.findings.enumerated() where !finding.summarizesUnlisted {
            let position = (file: rankOf[finding.location?.file ?? ""]!, line: finding.location?.line ?? 0, column: finding.location?.column ?? 0)
            while next < unlisted.count {
                let (store, record) = unlisted[next]
                // Positions decide; only a tie makes the record a finding to compare.
                let key = stores[store].position(of: record, fileRank: fileRanks[store])
                guard key < position || (key == position && Finding.reportOrder(stores[store][record], finding)) else { break }
                entries.append(.unlisted(store: store, record: record))
                next += 1
            }
            appendListed(index)
        }
        while next < unlisted.count {
            entries.append(.unlisted(store: unlisted[next].store, record: unlisted[next].record))
            next += 1
        }
        var byItem: [String: [Int]] = [:]
        for (number, entry) in entries.enumerated() {
            guard case .unlisted(let store, let record) = entry, let item = stores[store].checklist(of: record) else { continue }
            byItem[item, default: []].append(number)
        }
        checklistFindings = diagnosis.checklist.map { entry in
            let listed = entry.findings.compactMap { newNumber[$0] >= 0 ? newNumber[$0] : nil }
            guard let more = byItem[entry.item.id] else { return listed }
            return (listed + more).sorted()
        }
        self.entries = entries
    }

    public var count: Int { entries.count }

    /// The finding numbered `number` (made anew when it was kept compact).
    public subscript(number: Int) -> Finding {
        switch entries[number] {
        case .listed(let index): return diagnosis.findings[index]
        case .unlisted(let store, let record): return stores[store][record]
        }
    }

    /// A finding as it is kept: whole, or as a record of a compact store (which a report can write
    /// from its bytes without making the finding).
    public enum Kept {
        case finding(Finding)
        case record(CompactFindings, Int)
    }

    /// The finding numbered `number` as it is kept.
    public func kept(_ number: Int) -> Kept {
        switch entries[number] {
        case .listed(let index): return .finding(diagnosis.findings[index])
        case .unlisted(let store, let record):
            return stores[store].isWhole(record) ? .finding(stores[store][record]) : .record(stores[store], record)
        }
    }

    /// The rules of the findings listed, once each.
    public var ruleIDs: Set<String> {
        var rules = Set(diagnosis.findings.lazy.filter { !$0.summarizesUnlisted }.map(\.rule))
        for case .unlisted(let store, let record) in entries { rules.insert(stores[store].rule(of: record)) }
        return rules
    }

    /// How many findings of `severity` the run found: the diagnosis's count, less the notes that
    /// count findings this listing shows.
    public func totalCount(_ severity: Severity) -> Int {
        let total = diagnosis.count(severity)
        guard diagnosis.keepsUnlisted else { return total }
        return total - diagnosis.findings.reduce(0) { $0 + ($1.summarizesUnlisted && $1.severity == severity ? 1 : 0) }
    }
}
