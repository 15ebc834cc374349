/// The facts a package keeps of its items, in columns (written while the package loads, then
/// only read).
final class ItemTable: @unchecked Sendable {
    struct Record {
        static let existsFlag: UInt8 = 1
        static let screenshotFlag: UInt8 = 2

        var line: Int32
        var column: Int32
        var group: Int32
        var flags: UInt8
        var productIDLine: Int32 = 0
        var productIDColumn: Int32 = 0
        /// Into `bytes`; -1: no `<reference_name>`.
        var referenceNameStart: Int32 = -1
        var referenceNameCount: Int32 = 0
        var referenceNameLine: Int32 = 0
        var referenceNameColumn: Int32 = 0
        /// Into `values`; -1: no such element.
        var type: Int32 = -1
        var typeLine: Int32 = 0
        var typeColumn: Int32 = 0
        var clearedForSale: Int32 = -1
        var clearedForSaleLine: Int32 = 0
        var clearedForSaleColumn: Int32 = 0
    }

    let file: String
    var records: [Record] = []
    /// Product IDs are kept as strings: the request index shares them.
    var productIDs: [String?] = []
    /// Reference names, back to back.
    var bytes: [UInt8] = []
    /// Types and `cleared_for_sale` values, each distinct value once.
    var values: [String] = []
    private var valueIDs: [String: Int32] = [:]

    init(file: String) { self.file = file }

    func location(_ line: Int32, _ column: Int32) -> SourceLocation {
        SourceLocation(file: file, line: Int(line), column: Int(column))
    }

    func fact(_ value: String, _ line: Int32, _ column: Int32) -> Fact<String> {
        Fact(value, at: location(line, column), source: .catalog)
    }

    func text(_ start: Int32, _ count: Int32) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(start + count)]), as: UTF8.self) }
    }

    func value(_ text: String) -> Int32 {
        if let known = valueIDs[text] { return known }
        let id = Int32(values.count)
        values.append(text)
        valueIDs[text] = id
        return id
    }
}
