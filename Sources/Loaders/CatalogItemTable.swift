import XMLReader
import Formats
import Model

/// The facts a package keeps of its items, in columns (written while the package loads, then
/// only read).
final class ItemTable: @unchecked Sendable {
    /// A span in 32-bit numbers (16 bytes, not a location's 32: the file is the table's).
    struct Span {
        var line: Int32 = 0
        var column: Int32 = 0
        var endLine: Int32 = 0
        var endColumn: Int32 = 0

        init() {}

        init(_ position: XMLPosition) {
            line = Int32(truncatingIfNeeded: position.line)
            column = Int32(truncatingIfNeeded: position.column)
            endLine = Int32(truncatingIfNeeded: position.endLine)
            endColumn = Int32(truncatingIfNeeded: position.endColumn)
        }
    }

    struct Record {
        static let existsFlag: UInt8 = 1
        static let screenshotFlag: UInt8 = 2

        /// The `<in_app_purchase>` start tag.
        var span: Span
        var group: Int32
        var flags: UInt8
        /// The values' spans (their texts).
        var productIDSpan = Span()
        /// Into `bytes`; -1: no `<reference_name>`.
        var referenceNameStart: Int32 = -1
        var referenceNameCount: Int32 = 0
        var referenceNameSpan = Span()
        /// Into `values`; -1: no such element.
        var type: Int32 = -1
        var typeSpan = Span()
        var clearedForSale: Int32 = -1
        var clearedForSaleSpan = Span()
    }

    let file: String
    @exclusivity(unchecked) var records: [Record] = []
    /// Product IDs are kept as strings: the request index shares them.
    @exclusivity(unchecked) var productIDs: [String?] = []
    /// Reference names, back to back.
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Types and `cleared_for_sale` values, each distinct value once.
    @exclusivity(unchecked) var values: [String] = []
    @exclusivity(unchecked) private var valueIDs: [String: Int32] = [:]
    /// Rows whose product ID or reference name an earlier row has (see ``findRepeats(ofRow:)``).
    @exclusivity(unchecked) var productIDRepeats = RepeatFinder()
    @exclusivity(unchecked) var referenceNameRepeats = RepeatFinder()

    init(file: String) { self.file = file }

    func location(_ span: Span) -> SourceLocation {
        SourceLocation(
            file: file, line: Int(span.line), column: Int(span.column), endLine: Int(span.endLine), endColumn: Int(span.endColumn))
    }

    func fact(_ value: String, _ span: Span) -> Fact<String> {
        Fact(value, at: location(span), source: .catalog)
    }

    func text(_ start: Int32, _ count: Int32) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(start + count)]), as: UTF8.self) }
    }

    /// The last few values looked up by their bytes (a catalog repeats a handful: its types,
    /// `true`), so most items make no string for them.
    @exclusivity(unchecked) private var recentValues = RecentByBytes<Int32>()

    /// ``value(_:)`` of the text these UTF-8 bytes decode to.
    func value(bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        if let id = recentValues.value(for: bytes) { return id }
        let id = value(String(decoding: bytes, as: UTF8.self))
        recentValues.remember(bytes, id)
        return id
    }

    func value(_ text: String) -> Int32 {
        if let known = valueIDs[text] { return known }
        let id = Int32(values.count)
        values.append(text)
        valueIDs[text] = id
        return id
    }
}
