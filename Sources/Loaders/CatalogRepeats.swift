import Foundation
import Formats
import Model

extension CatalogPackage {
    /// A field ``repeats(of:)-swift.method`` compares straight from the item table.
    public enum RepeatableField: Sendable {
        case productID
        case referenceName
    }

    /// ``repeats(of:)-swift.method`` for a field of the item table: when the items are the
    /// table's rows in order (as loading makes them), values are hashed and compared where the
    /// table keeps them and facts are made for the repeats only (not a fact per item, which
    /// every item would pay for after the scan). Values are compared as strings, as there: equal
    /// bytes are equal strings, and values that are not both ASCII are compared as strings, hashed
    /// by their NFC bytes.
    public func repeats(of field: RepeatableField) -> [(item: Item, repeated: Fact<String>, first: Fact<String>)] {
        let fact = { (item: Item) -> Fact<String>? in field == .productID ? item.productID : item.referenceName }
        guard let table = items.first?.table, table.records.count == items.count,
            items.withUnsafeBufferPointer({ buffer in buffer.indices.allSatisfy { buffer[$0].row == $0 && buffer[$0].table === table } })
        else { return repeats(of: fact) }
        let found = field == .productID ? table.productIDRepeats.repeats : table.referenceNameRepeats.repeats
        return found.map { (items[$0.row], fact(items[$0.row])!, fact(items[$0.first])!) }
    }
}

extension ItemTable {
    /// Looks for the values of the row just added among the earlier rows'. Called as each item is
    /// read, on the thread that handles the items while the parse goes on, not after the scan,
    /// where nothing would run beside it.
    func findRepeats(ofRow row: Int) {
        if let id = productIDs[row], !id.isEmpty {
            productIDs.withUnsafeBufferPointer { ids in
                productIDRepeats.add(row, hash: RepeatFinder.hash(id)) { ids[$0] == id }
            }
        }
        let record = records[row]
        guard record.referenceNameStart >= 0, record.referenceNameCount > 0 else { return }
        records.withUnsafeBufferPointer { records in
            bytes.withUnsafeBufferPointer { bytes in
                func name(_ record: Record) -> UnsafeBufferPointer<UInt8> {
                    let start = Int(record.referenceNameStart)
                    return UnsafeBufferPointer(rebasing: bytes[start..<start + Int(record.referenceNameCount)])
                }
                let value = name(record)
                referenceNameRepeats.add(row, hash: RepeatFinder.hash(value)) { earlier in
                    records[earlier].referenceNameStart >= 0 && RepeatFinder.equal(name(records[earlier]), value)
                }
            }
        }
    }
}

/// The open-addressing table of ``CatalogPackage/repeats(of:)-swift.method``: rows by their
/// values' hashes (a row and 32 bits of its hash a slot, half full at most, doubled as rows come),
/// and the repeats found, in row order.
struct RepeatFinder {
    private var slots: [(row: Int32, hash: UInt32)] = Array(repeating: (-1, 0), count: 16)
    private var used = 0
    private(set) var repeats: [(row: Int, first: Int)] = []

    /// Takes `row` with its value's hash; `isEqual(earlier)` compares an earlier row's value.
    mutating func add(_ row: Int, hash: UInt64, isEqual: (Int) -> Bool) {
        if (used + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let earlier = slots[slot].row
            if earlier < 0 {
                slots[slot] = (Int32(row), UInt32(truncatingIfNeeded: hash))
                used += 1
                return
            }
            if slots[slot].hash == UInt32(truncatingIfNeeded: hash), isEqual(Int(earlier)) {
                repeats.append((row, Int(earlier)))
                return
            }
            slot = (slot + 1) & mask
        }
    }

    /// Doubles the table, placing every row again by its hash (they are all different values).
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: (-1, 0), count: old.count * 2)
        let mask = slots.count - 1
        for entry in old where entry.row >= 0 {
            var slot = Int(entry.hash) & mask
            while slots[slot].row >= 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
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
        if sameBytes(a, b) { return true }
        // Different bytes are different strings, unless canonical equivalence is at play.
        if a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) { return false }
        return String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self)
    }
}
