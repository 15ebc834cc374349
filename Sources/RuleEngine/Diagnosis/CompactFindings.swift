import Formats
import Model
import Loaders

/// Findings past the per-rule listing limit, kept for the reports that list every finding (JSON,
/// SARIF) at a fraction of a ``Finding``'s cost: one fixed-size record each, with the texts as
/// UTF-8 in one byte arena.
///
/// Rule, checklist and file names are interned (a scan has a handful); a product ID is stored
/// once for a run of findings about the same product, and a help text once for a run of the same
/// rule's identical helps (a rule's help rarely changes from item to item). A finding with
/// related spans or a secret is kept whole (rare, and never from a catalog scan).
public final class CompactFindings: @unchecked Sendable {
    /// One finding. 60 bytes; the texts are spans of ``arena``.
    package struct Record {
        package var rule: UInt16
        /// Index into ``names`` + 1; 0 for none.
        package var checklist: UInt16
        package var severity: Severity
        package var file: UInt32
        package var line: Int32, column: Int32, endLine: Int32, endColumn: Int32
        package var product: Span
        package var message: Span
        package var help: Span
        /// The notes, each as a 4-byte length and its bytes.
        package var notes: Span
        /// An index into ``whole`` for a finding kept whole, else -1.
        var wholeIndex: Int32
    }

    /// Bytes of ``arena``; a length of `UInt32.max` is "none".
    package struct Span: Equatable {
        var offset: UInt32
        package var length: UInt32
        static let none = Span(offset: 0, length: .max)
        static let empty = Span(offset: 0, length: 0)
        package var isNone: Bool { length == .max }
    }

    private(set) var records: [Record] = []
    private var arena: [UInt8] = []
    private var names: [String] = []
    private var nameIndex: [String: Int] = [:]
    private var whole: [Finding] = []
    /// The last product stored (its span is reused while findings stay on it).
    private var lastProduct: (id: String, span: Span)?
    /// The last help stored for each rule, by its name index.
    private var lastHelp: [Span] = []

    public init() {}

    /// A store with room reserved for what a catalog of `sourceBytes` may produce (a finding's
    /// texts are about as long as its item's XML): growing by doubling copied the arena and the
    /// records over and over. Room never written is never touched, so it costs no memory.
    public init(reservingFor sourceBytes: Int) {
        let bytes = min(max(sourceBytes, 0), 1 << 30)
        arena.reserveCapacity(bytes / 2)
        records.reserveCapacity(bytes / 256)
    }

    public var count: Int { records.count }
    public var isEmpty: Bool { records.isEmpty }

    /// Keeps `finding`. Returns false (and keeps nothing) when the store is full: its arena is
    /// addressed with 32 bits, 4 GB of text, far beyond any run's memory.
    @discardableResult
    public func append(_ finding: Finding) -> Bool {
        if !finding.related.isEmpty || finding.secret != nil || finding.isElided { return appendWhole(finding) }
        return append(
            rule: finding.rule, severity: finding.severity, checklist: finding.checklist, message: finding.message, help: finding.help,
            notes: finding.notes, location: finding.location, product: finding.productID)
    }

    /// Keeps `finding` as it is; the record holds only its place (for sorting) and its index.
    private func appendWhole(_ finding: Finding) -> Bool {
        guard hasRoom else { return false }
        let location = finding.location
        records.append(Record(
            rule: 0, checklist: 0, severity: finding.severity, file: UInt32(location.map { intern($0.file) + 1 } ?? 0),
            line: Int32(clamping: location?.line ?? 0), column: Int32(clamping: location?.column ?? 0),
            endLine: Int32(clamping: location?.endLine ?? 0), endColumn: Int32(clamping: location?.endColumn ?? 0),
            product: .none, message: .empty, help: .none, notes: .empty, wholeIndex: Int32(whole.count)))
        whole.append(finding)
        return true
    }

    /// Keeps a finding given by its parts (no related spans, no secret), without making it.
    @discardableResult
    public func append(
        rule: String, severity: Severity, checklist: String?, message: String, help: String?, notes: [String], location: SourceLocation?,
        product: String?
    ) -> Bool {
        append(
            rule: rule, severity: severity, checklist: checklist, writingMessage: { Self.append(message, to: &$0) },
            hasHelp: help != nil, writingHelp: { if let help { Self.append(help, to: &$0) } }, notes: notes, location: location,
            product: product)
    }

    /// Keeps a finding whose message and help are written straight into the store as UTF-8 (a
    /// template filled in place: no string made for either). `writingHelp` is called only when
    /// `hasHelp` (a flag, not an optional closure: that would be allocated for every finding).
    @discardableResult
    public func append(
        rule: String, severity: Severity, checklist: String?, writingMessage: (inout [UInt8]) -> Void,
        hasHelp: Bool, writingHelp: (inout [UInt8]) -> Void, notes: [String], location: SourceLocation?, product: String?
    ) -> Bool {
        guard hasRoom else { return false }
        let (ruleIndex, checklistIndex) = indexes(rule: rule, checklist: checklist)
        guard ruleIndex < Int(UInt16.max), checklistIndex < Int(UInt16.max) else {
            // More names than 16 bits tell apart (files count too): kept whole.
            var message: [UInt8] = [], help: [UInt8] = []
            writingMessage(&message)
            if hasHelp { writingHelp(&help) }
            return appendWhole(Finding(
                rule: rule, severity: severity, checklist: checklist, message: String(decoding: message, as: UTF8.self),
                help: hasHelp ? String(decoding: help, as: UTF8.self) : nil, notes: notes, location: location,
                productID: product))
        }
        var record = Record(
            rule: UInt16(ruleIndex), checklist: UInt16(checklistIndex),
            severity: severity, file: UInt32(location.map { internFile($0.file) + 1 } ?? 0),
            line: Int32(clamping: location?.line ?? 0), column: Int32(clamping: location?.column ?? 0),
            endLine: Int32(clamping: location?.endLine ?? 0), endColumn: Int32(clamping: location?.endColumn ?? 0),
            product: .none, message: .empty, help: .none, notes: .empty, wholeIndex: -1)
        if let product {
            if let last = lastProduct, last.id == product {
                record.product = last.span
            } else {
                record.product = store(product)
                lastProduct = (product, record.product)
            }
        }
        var start = arena.count
        writingMessage(&arena)
        record.message = Span(offset: UInt32(start), length: UInt32(arena.count - start))
        if hasHelp {
            start = arena.count
            writingHelp(&arena)
            let help = Span(offset: UInt32(start), length: UInt32(arena.count - start))
            // The rule's last help again (the usual case): kept once.
            while lastHelp.count <= ruleIndex { lastHelp.append(.none) }
            if !lastHelp[ruleIndex].isNone, compare(lastHelp[ruleIndex], help) == 0 {
                arena.removeLast(arena.count - start)
                record.help = lastHelp[ruleIndex]
            } else {
                record.help = help
                lastHelp[ruleIndex] = help
            }
        }
        if !notes.isEmpty {
            start = arena.count
            for note in notes {
                var note = note
                let length = UInt32(note.utf8.count)
                withUnsafeBytes(of: length.littleEndian) { arena.append(contentsOf: $0) }
                note.withUTF8 { arena.append(contentsOf: $0) }
            }
            record.notes = Span(offset: UInt32(start), length: UInt32(arena.count - start))
        }
        records.append(record)
        return true
    }

    /// `text`'s UTF-8 appended to `bytes`.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// The name indexes of a rule and its checklist item (+ 1; 0 for none), through the last few
    /// asked for: a scan runs a handful of rules over and over, and comparing a string with
    /// itself is cheaper than hashing it.
    private func indexes(rule: String, checklist: String?) -> (rule: Int, checklist: Int) {
        // Lengths first: unequal strings of the same kind still cost a comparison call each.
        let length = rule.utf8.count
        for recent in recentRules where recent.rule.utf8.count == length && recent.rule == rule && recent.checklist == checklist {
            return (recent.ruleIndex, recent.checklistIndex)
        }
        let found = (intern(rule), checklist.map { intern($0) + 1 } ?? 0)
        if recentRules.count == 8 { recentRules.removeFirst() }
        recentRules.append((rule, checklist, found.0, found.1))
        return found
    }

    /// Room for another record: the arena is addressed with 32 bits (4 GB of text, far beyond any
    /// run's memory); a full store keeps nothing more.
    private var hasRoom: Bool { arena.count < Int(UInt32.max) - (1 << 24) && records.count < Int(Int32.max) }

    /// The names of the last finding kept and the file of the last place: a scan keeps finding
    /// after finding of one rule in one file, and comparing with the last is cheaper than hashing.
    private var recentRules: [(rule: String, checklist: String?, ruleIndex: Int, checklistIndex: Int)] = []
    private var lastFile: (name: String, index: Int)?

    private func internFile(_ file: String) -> Int {
        if let lastFile, lastFile.name == file { return lastFile.index }
        let index = intern(file)
        lastFile = (file, index)
        return index
    }

    private func intern(_ name: String) -> Int {
        if let index = nameIndex[name] { return index }
        // Records name rules and checklist items in 16 bits, files in 32: a rule or item past
        // 65,535 names (files count too) makes its finding kept whole (see `append`).
        let index = names.count
        names.append(name)
        nameIndex[name] = index
        return index
    }

    private func store(_ text: String) -> Span {
        var text = text
        let start = arena.count
        text.withUTF8 { arena.append(contentsOf: $0) }
        return Span(offset: UInt32(start), length: UInt32(arena.count - start))
    }

    // MARK: Reading

    func rule(of index: Int) -> String {
        let record = records[index]
        return record.wholeIndex >= 0 ? whole[Int(record.wholeIndex)].rule : names[Int(record.rule)]
    }

    func checklist(of index: Int) -> String? {
        let record = records[index]
        if record.wholeIndex >= 0 { return whole[Int(record.wholeIndex)].checklist }
        return record.checklist == 0 ? nil : names[Int(record.checklist) - 1]
    }

    func file(of index: Int) -> String {
        let file = records[index].file
        return file == 0 ? "" : names[Int(file) - 1]
    }

    func severity(of index: Int) -> Severity { records[index].severity }

    /// The record is a finding kept whole (read it with the subscript).
    func isWhole(_ index: Int) -> Bool { records[index].wholeIndex >= 0 }

    /// The record's fields, for writing it without making the finding (not for whole ones).
    package func fields(of index: Int) -> Record { records[index] }

    /// A name interned by this store (a record's rule, checklist - 1, file - 1).
    package func name(_ index: Int) -> String { names[index] }

    /// Each note of a record's ``Record/notes`` span, as bytes.
    package func forEachNote(_ span: Span, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard span.length > 0, !span.isNone else { return }
        withBytes(span) { bytes in
            var offset = 0
            while offset + 4 <= bytes.count {
                let count = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
                body(UnsafeBufferPointer(rebasing: bytes[offset + 4..<offset + 4 + count]))
                offset += 4 + count
            }
        }
    }

    /// The bytes of a span, for comparing without making strings.
    package func withBytes<R>(_ span: Span, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if span.isNone || span.length == 0 { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(span.offset)..<Int(span.offset) + Int(span.length)])) }
    }

    private func string(_ span: Span) -> String? {
        span.isNone ? nil : withBytes(span) { String(decoding: $0, as: UTF8.self) }
    }

    /// The finding at `index`, made anew (the reports format one at a time).
    public subscript(index: Int) -> Finding {
        let record = records[index]
        if record.wholeIndex >= 0 { return whole[Int(record.wholeIndex)] }
        let location: SourceLocation? = record.file == 0
            ? nil
            : SourceLocation(file: names[Int(record.file) - 1], line: Int(record.line), column: Int(record.column),
                             endLine: Int(record.endLine), endColumn: Int(record.endColumn))
        var notes: [String] = []
        forEachNote(record.notes) { notes.append(String(decoding: $0, as: UTF8.self)) }
        return Finding(
            rule: names[Int(record.rule)], severity: record.severity, checklist: record.checklist == 0 ? nil : names[Int(record.checklist) - 1],
            message: string(record.message) ?? "", help: string(record.help), notes: notes, location: location,
            productID: string(record.product))
    }

    /// Report order between two records of this store (``Finding/reportOrder(_:_:)``), with the
    /// files already ranked (`fileRank`, indexed by ``Record/file``).
    func precedes(_ a: Int, _ b: Int, fileRank: [Int]) -> Bool {
        let x = records[a], y = records[b]
        if x.file != y.file { return fileRank[Int(x.file)] < fileRank[Int(y.file)] }
        if x.line != y.line { return x.line < y.line }
        if x.column != y.column { return x.column < y.column }
        if x.wholeIndex >= 0 || y.wholeIndex >= 0 { return Finding.reportOrder(self[a], self[b]) }
        if x.rule != y.rule { return names[Int(x.rule)] < names[Int(y.rule)] }
        let messages = compare(x.message, y.message)
        if messages != 0 { return messages < 0 }
        return compare(x.product, y.product) < 0
    }

    /// Where the record is: its file's rank (`fileRank`, indexed by ``Record/file``), line, column.
    func position(of index: Int, fileRank: [Int]) -> (file: Int, line: Int, column: Int) {
        let record = records[index]
        return (fileRank[Int(record.file)], Int(record.line), Int(record.column))
    }

    /// Whether the records say the same thing (a rule that reports one problem twice).
    func same(_ a: Int, _ b: Int) -> Bool {
        let x = records[a], y = records[b]
        guard x.wholeIndex < 0, y.wholeIndex < 0 else { return x.wholeIndex >= 0 && y.wholeIndex >= 0 && whole[Int(x.wholeIndex)] == whole[Int(y.wholeIndex)] }
        return x.rule == y.rule && x.severity == y.severity && x.checklist == y.checklist && x.file == y.file && x.line == y.line
            && x.column == y.column && x.endLine == y.endLine && x.endColumn == y.endColumn
            && compare(x.message, y.message) == 0 && compare(x.product, y.product) == 0 && compare(x.help, y.help) == 0
            && compare(x.notes, y.notes) == 0
    }

    /// The store's names indexed as ``Record/file`` indexes them (0: no file; the others include
    /// the rules' and items' names, which share the table).
    var namesByFileIndex: [String?] {
        var files: [String?] = [nil]
        files += names.indices.map { names[$0] }
        return files
    }

    private func compare(_ a: Span, _ b: Span) -> Int {
        if a == b { return 0 }
        if a.isNone || b.isNone { return a.isNone ? (b.isNone ? 0 : -1) : 1 }
        return withBytes(a) { x in
            withBytes(b) { y in
                let shared = min(x.count, y.count)
                if shared > 0, let xs = x.baseAddress, let ys = y.baseAddress {
                    let order = memcmp(xs, ys, shared)
                    if order != 0 { return order < 0 ? -1 : 1 }
                }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
