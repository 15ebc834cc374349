import Foundation

extension CatalogPackage {
    /// A field ``repeats(of:)-swift.method`` compares straight from the item table.
    public enum RepeatableField: Sendable {
        case productID
        case referenceName
    }

    /// ``repeats(of:)-swift.method`` for a field of the item table: when the items are the
    /// table's rows in order (as loading makes them), values are hashed and compared where the
    /// table keeps them and facts are made for the repeats only (a fact per item made the
    /// duplicate rules ~2,400 instructions an item, 60 ms of a 100,000-item check, after the
    /// scan). Values are compared as strings, as there: equal bytes are equal strings, and
    /// values that are not both ASCII are compared as strings, hashed by their NFC bytes.
    public func repeats(of field: RepeatableField) -> [(item: Item, repeated: Fact<String>, first: Fact<String>)] {
        let fact = { (item: Item) -> Fact<String>? in field == .productID ? item.productID : item.referenceName }
        guard let table = items.first?.table,
            items.withUnsafeBufferPointer({ buffer in buffer.indices.allSatisfy { buffer[$0].row == $0 && buffer[$0].table === table } })
        else { return repeats(of: fact) }
        var finder = RepeatFinder(count: items.count)
        switch field {
        case .productID:
            table.productIDs.withUnsafeBufferPointer { ids in
                for row in 0..<min(ids.count, items.count) {
                    guard let id = ids[row], !id.isEmpty else { continue }
                    finder.add(row, hash: RepeatFinder.hash(id)) { ids[$0] == id }
                }
            }
        case .referenceName:
            table.records.withUnsafeBufferPointer { records in
                table.bytes.withUnsafeBufferPointer { bytes in
                    func name(_ row: Int) -> UnsafeBufferPointer<UInt8>? {
                        let record = records[row]
                        guard record.referenceNameStart >= 0 else { return nil }
                        let start = Int(record.referenceNameStart)
                        return UnsafeBufferPointer(rebasing: bytes[start..<start + Int(record.referenceNameCount)])
                    }
                    for row in 0..<min(records.count, items.count) {
                        guard let value = name(row), !value.isEmpty else { continue }
                        finder.add(row, hash: RepeatFinder.hash(value)) { RepeatFinder.equal(name($0)!, value) }
                    }
                }
            }
        }
        return finder.repeats.map { (items[$0.row], fact(items[$0.row])!, fact(items[$0.first])!) }
    }
}

/// The open-addressing table of ``CatalogPackage/repeats(of:)-swift.method`` (item indexes, 4
/// bytes a slot, half full at most) and the repeats found, in item order.
private struct RepeatFinder {
    private var slots: [Int32]
    private let mask: Int
    private(set) var repeats: [(row: Int, first: Int)] = []

    init(count: Int) {
        var capacity = 16
        while capacity < count * 2 { capacity *= 2 }
        slots = [Int32](repeating: -1, count: capacity)
        mask = capacity - 1
    }

    /// Takes `row` with its value's hash; `isEqual(earlier)` compares an earlier row's value.
    mutating func add(_ row: Int, hash: UInt64, isEqual: (Int) -> Bool) {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let earlier = slots[slot]
            if earlier < 0 {
                slots[slot] = Int32(row)
                return
            }
            if isEqual(Int(earlier)) {
                repeats.append((row, Int(earlier)))
                return
            }
            slot = (slot + 1) & mask
        }
    }

    /// FNV-1a of the bytes; of the NFC form's bytes when they are not all ASCII, so values equal
    /// as strings (`é` composed or not, the Kelvin sign and `K`) hash alike.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            if byte >= 0x80 {
                var nfc = String(decoding: bytes, as: UTF8.self).precomposedStringWithCanonicalMapping
                return nfc.withUTF8 { $0.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 } }
            }
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }

    static func hash(_ text: String) -> UInt64 {
        text.utf8.withContiguousStorageIfAvailable(hash) ?? hash(Array(text.utf8))
    }

    static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBufferPointer(hash) }

    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        if a.count == b.count, a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 { return true }
        // Different bytes are different strings, unless canonical equivalence is at play.
        if a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) { return false }
        return String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self)
    }
}
