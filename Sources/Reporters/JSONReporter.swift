import JSONReader
import Formats
import Model
import Loaders
import RuleEngine

/// `--format json`: the report of `shared/spec/json-report.md` (schema `iapdoctor-report/1`),
/// written by hand so key order and bytes are stable.
public struct JSONReporter: ListingReporter {
    public static let identifier = "json"

    public static let listsEveryFinding = true

    /// About 700 bytes a finding (message, help, position, product) and 8 a checklist reference.
    static let bytesPerFinding = 768

    public init() {}

    /// The document: every finding (``FindingListing``), numbered as the checklist refers to them.
    static func write(_ diagnosis: Diagnosis, listing: FindingListing, into json: inout JSONWriter) {
        json.object {
            $0.field("schema", "iapdoctor-report/1")
            $0.field("tool") { $0.object { $0.field("name", "iapdoctor"); $0.field("version", diagnosis.toolVersion) } }
            $0.field("environment", diagnosis.environment.rawValue)
            $0.field("checked_at", diagnosis.checkedAt?.description)
            $0.field("inputs") { json in json.array(diagnosis.inputs) { $0.string($1) } }
            $0.field("checklist") { json in
                json.array(zip(diagnosis.checklist, listing.checklistFindings)) { json, pair in
                    let (entry, findings) = pair
                    json.object {
                        $0.field("id", entry.item.id)
                        $0.field("question", entry.item.question)
                        $0.field("status", entry.status.rawValue)
                        $0.field("findings") { json in json.array(findings) { $0.number($1) } }
                        if !entry.questions.isEmpty {
                            $0.field("questions") { json in
                                json.array(entry.questions) { json, question in
                                    json.object {
                                        $0.field("question", question.question)
                                        $0.field("key", question.key)
                                        $0.field("product_id", question.productID)
                                    }
                                }
                            }
                        }
                        if entry.status == .notApplicable {
                            $0.field("reason", entry.reasons.joined(separator: "; "))
                        }
                    }
                }
            }
            $0.field("products") { json in
                json.array(diagnosis.products) { json, product in
                    json.object {
                        $0.field("product_id", product.productID)
                        $0.field("requested_as") { json in json.array(product.requestedAs) { $0.string($1) } }
                        $0.field("verdict", product.verdict.rawValue)
                        $0.field("failing") { json in json.array(product.failing) { $0.string($1) } }
                        $0.field("at_risk") { json in json.array(product.atRisk) { $0.string($1) } }
                        $0.field("unknown") { json in json.array(product.unknown) { $0.string($1) } }
                    }
                }
            }
            $0.field("next_steps") { json in
                json.array(diagnosis.nextSteps) { json, step in
                    json.object {
                        $0.field("source", step.source.rawValue)
                        $0.field("items") { json in json.array(step.items) { $0.string($1.id) } }
                        $0.field("keys") { json in json.array(step.keys) { $0.string($1) } }
                        $0.field("text", step.sentence)
                    }
                }
            }
            $0.field("findings") { json in
                let template = FindingJSONTemplate(level: json.indentLevel + 1)
                var runs = FindingJSONTemplate.RecordRuns()
                json.array(0..<listing.count) { json, number in
                    switch listing.kept(number) {
                    case .finding(let finding):
                        // A finding with related spans or a fix (rare) takes the general path.
                        guard finding.related.isEmpty, finding.fix == nil else { return writeFinding(finding, into: &json) }
                        template.write(finding, into: &json)
                    case .record(let store, let index):
                        template.write(record: index, of: store, runs: &runs, into: &json)
                    }
                }
            }
            $0.field("summary") {
                $0.object {
                    $0.field("errors", listing.totalCount(.error))
                    $0.field("warnings", listing.totalCount(.warning))
                    $0.field("notes", listing.totalCount(.note))
                    $0.field("exit_code", Int(diagnosis.exitCode))
                    if diagnosis.suppressedCount > 0 { $0.field("suppressed", diagnosis.suppressedCount) }
                }
            }
        }
    }

    /// One finding as an object: the layout ``FindingJSONTemplate`` writes the same bytes of.
    static func writeFinding(_ finding: Finding, into json: inout JSONWriter) {
        json.object {
            $0.field("rule", finding.rule)
            $0.field("severity", finding.severity.rawValue)
            $0.field("checklist", finding.checklist)
            $0.field("message", finding.message)
            $0.field("help", finding.help)
            $0.field("notes") { json in json.array(finding.notes) { $0.string($1) } }
            $0.field("docs", finding.docsPath)
            $0.field("file", finding.location?.file)
            Self.writePosition(finding.location, into: &$0)
            $0.field("product_id", finding.productID)
            $0.field("related") { json in
                json.array(finding.related) { json, related in
                    json.object {
                        $0.field("file", related.location.file)
                        Self.writePosition(related.location, into: &$0)
                        $0.field("label", related.label)
                    }
                }
            }
            // Only where there is one: the other findings keep their layout (and the template's).
            if let fix = finding.fix {
                $0.field("fix") { json in
                    json.object {
                        $0.field("file", fix.location.file)
                        Self.writePosition(fix.location, into: &$0)
                        $0.field("original", fix.original)
                        $0.field("replacement", fix.replacement)
                    }
                }
            }
        }
    }

    /// `line`, `column`, `end_line`, `end_column`: 1-based, the end column exclusive (SARIF's
    /// convention); `null` where unknown.
    static func writePosition(_ location: SourceLocation?, into json: inout JSONWriter) {
        json.field("line", location.flatMap { $0.line > 0 ? $0.line : nil })
        json.field("column", location.flatMap { $0.column > 0 ? $0.column : nil })
        json.field("end_line", location.flatMap { $0.hasEnd ? $0.endLine : nil })
        json.field("end_column", location.flatMap { $0.hasEnd ? $0.endColumn : nil })
    }
}

/// ``JSONReporter/writeFinding(_:into:)`` for a finding without related spans, from its keys
/// and indentation cut into byte fragments once per report: most of writing a finding field by
/// field would be the separators, keys and indentation, not the values (a faulty catalog's
/// JSON lists several findings per item).
struct FindingJSONTemplate {
    private let keys: [[UInt8]]
    private let close: [UInt8]
    /// `"related": []` and the object's end.
    private let tail: [UInt8]
    private let firstNote: [UInt8], nextNote: [UInt8], notesEnd: [UInt8]

    /// `level`: the indentation of the finding objects (their array's level + 1).
    init(level: Int) {
        func newline(_ level: Int) -> [UInt8] { [0x0A] + Array(repeating: 0x20, count: 2 * level) }
        let names = ["rule", "severity", "checklist", "message", "help", "notes", "docs", "file", "line", "column", "end_line",
                     "end_column", "product_id", "related"]
        keys = names.enumerated().map { index, name in
            (index == 0 ? [0x7B] : [0x2C]) + newline(level + 1) + Array("\"\(name)\": ".utf8)
        }
        close = newline(level) + [0x7D]
        tail = keys[13] + [0x5B, 0x5D] + close
        firstNote = [0x5B] + newline(level + 2)
        nextNote = [0x2C] + newline(level + 2)
        notesEnd = newline(level + 1) + [0x5D]
    }

    /// The bytes of a record that depend only on its rule, severity, checklist item and file,
    /// made once for each and reused: most records of a scan share them, and writing them value by
    /// value (quoting, the docs path) was half of writing a record.
    struct RecordRuns {
        fileprivate struct Key: Hashable {
            let store: ObjectIdentifier
            let value: Int
        }

        /// From the object's `{` to `"message": `.
        fileprivate var heads: [Key: [UInt8]] = [:]
        /// From `"docs": ` to `"line": `.
        fileprivate var middles: [Key: [UInt8]] = [:]

        init() {}
    }

    /// A value's JSON bytes (a string quoted, or `null`).
    private static func bytes(of value: String?) -> [UInt8] {
        var json = JSONWriter()
        json.append(value: value)
        return Array(json.output.utf8)
    }

    /// A compact record (``CompactFindings``), written from its bytes: what ``write(_:into:)``
    /// writes for the finding it keeps.
    func write(record index: Int, of store: CompactFindings, runs: inout RecordRuns, into json: inout JSONWriter) {
        let record = store.fields(of: index)
        let id = ObjectIdentifier(store)
        let headKey = RecordRuns.Key(store: id, value: Int(record.rule) << 24 | Int(record.checklist) << 8 | record.severity.rank)
        if let head = runs.heads[headKey] {
            json.append(fragment: head)
        } else {
            let head = keys[0] + Self.bytes(of: store.name(Int(record.rule))) + keys[1] + Self.bytes(of: record.severity.rawValue)
                + keys[2] + Self.bytes(of: record.checklist == 0 ? nil : store.name(Int(record.checklist) - 1)) + keys[3]
            runs.heads[headKey] = head
            json.append(fragment: head)
        }
        store.withBytes(record.message) { json.append(utf8: $0) }
        json.append(fragment: keys[4])
        if record.help.isNone { json.append(value: nil as String?) } else { store.withBytes(record.help) { json.append(utf8: $0) } }
        json.append(fragment: keys[5])
        if record.notes.length == 0 {
            json.append(fragment: [0x5B, 0x5D])
        } else {
            var first = true
            store.forEachNote(record.notes) { note in
                json.append(fragment: first ? firstNote : nextNote)
                json.append(utf8: note)
                first = false
            }
            json.append(fragment: notesEnd)
        }
        let middleKey = RecordRuns.Key(store: id, value: Int(record.rule) << 32 | Int(record.file))
        if let middle = runs.middles[middleKey] {
            json.append(fragment: middle)
        } else {
            var docs = JSONWriter()
            docs.appendDocsPath(rule: store.name(Int(record.rule)))
            let middle = keys[6] + Array(docs.output.utf8) + keys[7]
                + Self.bytes(of: record.file == 0 ? nil : store.name(Int(record.file) - 1)) + keys[8]
            runs.middles[middleKey] = middle
            json.append(fragment: middle)
        }
        let hasFile = record.file != 0, hasEnd = record.endLine > 0 && record.endColumn > 0
        json.append(value: hasFile && record.line > 0 ? Int(record.line) : nil)
        json.append(fragment: keys[9])
        json.append(value: hasFile && record.column > 0 ? Int(record.column) : nil)
        json.append(fragment: keys[10])
        json.append(value: hasFile && hasEnd ? Int(record.endLine) : nil)
        json.append(fragment: keys[11])
        json.append(value: hasFile && hasEnd ? Int(record.endColumn) : nil)
        json.append(fragment: keys[12])
        if record.product.isNone { json.append(value: nil as String?) } else { store.withBytes(record.product) { json.append(utf8: $0) } }
        json.append(fragment: tail)
    }

    func write(_ finding: Finding, into json: inout JSONWriter) {
        json.append(fragment: keys[0])
        json.append(value: finding.rule)
        json.append(fragment: keys[1])
        json.append(value: finding.severity.rawValue)
        json.append(fragment: keys[2])
        json.append(value: finding.checklist)
        json.append(fragment: keys[3])
        json.append(value: finding.message)
        json.append(fragment: keys[4])
        json.append(value: finding.help)
        json.append(fragment: keys[5])
        let notes = finding.notes
        if notes.isEmpty {
            json.append(fragment: [0x5B, 0x5D])
        } else {
            for (index, note) in notes.enumerated() {
                json.append(fragment: index == 0 ? firstNote : nextNote)
                json.append(value: note)
            }
            json.append(fragment: notesEnd)
        }
        json.append(fragment: keys[6])
        json.appendDocsPath(rule: finding.rule)
        let location = finding.location
        json.append(fragment: keys[7])
        json.append(value: location?.file)
        json.append(fragment: keys[8])
        json.append(value: location.flatMap { $0.line > 0 ? $0.line : nil })
        json.append(fragment: keys[9])
        json.append(value: location.flatMap { $0.column > 0 ? $0.column : nil })
        json.append(fragment: keys[10])
        json.append(value: location.flatMap { $0.hasEnd ? $0.endLine : nil })
        json.append(fragment: keys[11])
        json.append(value: location.flatMap { $0.hasEnd ? $0.endColumn : nil })
        json.append(fragment: keys[12])
        json.append(value: finding.productID)
        json.append(fragment: keys[13])
        json.append(fragment: [0x5B, 0x5D])
        json.append(fragment: close)
    }
}

/// A small streaming JSON writer with two-space indentation and deterministic output.
///
/// Writes UTF-8 bytes, and copies a string with nothing to escape (nearly all of them) whole, not
/// scalar by scalar (which would make writing a large report take longer than checking the
/// catalog).
public struct JSONWriter {
    /// The document so far, as UTF-8: appending bytes costs a fraction of appending to a `String`
    /// (whose append re-checks capacity, uniqueness and ASCII-ness each time).
    private var bytes: [UInt8] = []
    private var indent = 0
    private var needsComma: [Bool] = []
    /// Where the document streams, when it does: written out in pieces of about
    /// ``flushThreshold`` bytes between array elements, so only a piece is ever in memory.
    private var sink: ReportOutput?
    private static let flushThreshold = 1 << 16

    public init() {}

    /// A writer that streams the document to `sink` as it goes (finish it with ``finish()``).
    public init(streamingTo sink: ReportOutput) {
        self.sink = sink
        bytes.reserveCapacity(Self.flushThreshold + 16_384)
    }

    /// Ends a streamed document: a final newline, and what is left written out.
    public mutating func finish() {
        bytes.append(0x0A)
        flush()
    }

    private mutating func flush() {
        guard let sink else { return }
        bytes.withUnsafeBufferPointer { sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// A writer with room for about `bytes` bytes. Reserving what a report will roughly need
    /// (pages not written are never touched) spares copying the buffer at each doubling and
    /// faulting in twice its size, a large part of writing a large report.
    public init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The document so far.
    public var output: String { String(decoding: bytes, as: UTF8.self) }

    /// The document and a final newline, as one string (no second copy to append the newline).
    public mutating func outputLine() -> String {
        bytes.append(0x0A)
        defer { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The indentation level of what is written next.
    var indentLevel: Int { indent }

    /// Bytes written as they are (a template's keys and indentation): the caller keeps the
    /// document well-formed.
    mutating func append(fragment: [UInt8]) {
        bytes.append(contentsOf: fragment)
    }

    /// A string value, or `null`.
    mutating func append(value: String?) {
        if let value { appendQuoted(value) } else { raw("null") }
    }

    /// A string value given as its UTF-8 bytes.
    mutating func append(utf8 value: UnsafeBufferPointer<UInt8>) {
        if JSONWriter.mayNeedEscaping(value) {
            raw(JSONWriter.quote(String(decoding: value, as: UTF8.self)))
        } else {
            bytes.append(0x22)
            bytes.append(contentsOf: value)
            bytes.append(0x22)
        }
    }

    /// `"docs/rules/<rule>.md"` (``Finding/docsPath``), without making the string.
    mutating func appendDocsPath(rule: String) {
        var rule = rule
        let plain = rule.withUTF8 { utf8 -> Bool in
            guard !JSONWriter.mayNeedEscaping(utf8) else { return false }
            raw("\"docs/rules/")
            bytes.append(contentsOf: utf8)
            raw(".md\"")
            return true
        }
        if !plain { appendQuoted("docs/rules/\(rule).md") }
    }

    /// A number, or `null`.
    mutating func append(value: Int?) {
        if let value { digits(value) } else { raw("null") }
    }

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func newline(indent level: Int) {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * level))
    }

    private mutating func separator() {
        if let last = needsComma.last {
            if last { bytes.append(0x2C) }
            newline(indent: indent)
            needsComma[needsComma.count - 1] = true
        }
    }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(0x7B)
        indent += 1
        needsComma.append(false)
        body(&self)
        let empty = needsComma.removeLast() == false
        indent -= 1
        if !empty { newline(indent: indent) }
        bytes.append(0x7D)
    }

    public mutating func array<Items: Sequence>(_ items: Items, _ element: (inout JSONWriter, Items.Element) -> Void) {
        bytes.append(0x5B)
        indent += 1
        needsComma.append(false)
        for item in items {
            separator()
            element(&self, item)
            if sink != nil, bytes.count >= Self.flushThreshold { flush() }
        }
        let empty = needsComma.removeLast() == false
        indent -= 1
        if !empty { newline(indent: indent) }
        bytes.append(0x5D)
    }

    public mutating func field(_ key: StaticString, _ body: (inout JSONWriter) -> Void) {
        separator()
        self.key(key)
        body(&self)
    }

    public mutating func field(_ key: StaticString, _ value: String?) {
        separator()
        self.key(key)
        if let value { appendQuoted(value) } else { raw("null") }
    }

    public mutating func field(_ key: StaticString, _ value: Int?) {
        separator()
        self.key(key)
        if let value { digits(value) } else { raw("null") }
    }

    public mutating func string(_ value: String) { appendQuoted(value) }
    public mutating func number(_ value: Int) { digits(value) }

    /// `"key": `. Keys are literals of the reporters, with nothing to escape.
    private mutating func key(_ key: StaticString) {
        bytes.append(0x22)
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
        bytes.append(0x20)
    }

    /// `value` in decimal, without making a string for it.
    private mutating func digits(_ value: Int) {
        if value < 0 { return raw(String(value)) }
        var rest = value, reversed: (UInt64, Int) = (0, 0)
        repeat {
            reversed.0 = reversed.0 << 4 | UInt64(rest % 10)
            reversed.1 += 1
            rest /= 10
        } while rest > 0 && reversed.1 < 16
        if rest > 0 { return raw(String(value)) }
        for _ in 0..<reversed.1 {
            bytes.append(0x30 + UInt8(reversed.0 & 0xF))
            reversed.0 >>= 4
        }
    }

    /// `text` quoted: copied whole when it holds no byte `quote` escapes (`"`, `\\`, a control
    /// character, or 0xE2, the first byte of U+2028/U+2029, where a false alarm only costs the
    /// slow path), else through ``quote(_:)``.
    private mutating func appendQuoted(_ text: String) {
        var plain = text
        let escapes = plain.withUTF8 { utf8 -> Bool in
            if JSONWriter.mayNeedEscaping(utf8) { return true }
            bytes.append(0x22)
            bytes.append(contentsOf: utf8)
            bytes.append(0x22)
            return false
        }
        if escapes { raw(JSONWriter.quote(text)) }
    }

    /// Whether `utf8` holds a byte ``appendQuoted(_:)`` must not copy as it is (below 0x20, `"`,
    /// `\\` or 0xE2), looked at eight bytes at a time: the classic exact "has a zero byte" test on
    /// the word masked, or XORed with each value. A byte loop was most of writing a finding.
    static func mayNeedEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var index = 0
        if let base = utf8.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= utf8.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                // Below 0x20: a byte whose top three bits are all clear.
                if hasZeroByte(word & 0xE0E0_E0E0_E0E0_E0E0) { return true }
                if hasZeroByte(word ^ (0x22 &* ones)) || hasZeroByte(word ^ (0x5C &* ones)) || hasZeroByte(word ^ (0xE2 &* ones)) {
                    return true
                }
                index += 8
            }
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2 { return true }
            index += 1
        }
        return false
    }

    public static func quote(_ text: String) -> String {
        JSONText.quoted(text)
    }
}
