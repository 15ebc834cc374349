import Foundation

extension CatalogPackage {
    /// A field ``repeats(of:)-swift.method`` compares straight from the item table.
    public enum RepeatableField: Sendable {
        case productID
        case referenceName
    }

    /// ``repeats(of:)-swift.method`` for a field of the item table, without making a fact (and
    /// a string) per item to hash and compare: facts are made for the repeats only (the
    /// duplicate rules spent ~2,400 instructions an item, 60 ms of a 100,000-item check, after
    /// the scan). Values are compared as strings, as there: ASCII values by their bytes (the
    /// same answer), others by the string.
    public func repeats(of field: RepeatableField) -> [(item: Item, repeated: Fact<String>, first: Fact<String>)] {
        var capacity = 16
        while capacity < items.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        var result: [(item: Item, repeated: Fact<String>, first: Fact<String>)] = []
        for (index, item) in items.enumerated() {
            guard let key = RepeatKey(item, field), !key.isEmpty else { continue }
            var slot = Int(truncatingIfNeeded: key.hash) & (capacity - 1)
            while true {
                let earlier = slots[slot]
                if earlier < 0 {
                    slots[slot] = Int32(index)
                    break
                }
                let first = items[Int(earlier)]
                if let firstKey = RepeatKey(first, field), firstKey.hash == key.hash, firstKey.equals(key) {
                    let fact = { (item: Item) in field == .productID ? item.productID! : item.referenceName! }
                    result.append((item, fact(item), fact(first)))
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
        }
        return result
    }
}

/// One item's value of a ``CatalogPackage/RepeatableField``, as bytes in the item table (or in the
/// product ID's string), with a hash that equal strings share.
private struct RepeatKey {
    let item: CatalogPackage.Item
    let field: CatalogPackage.RepeatableField
    let isASCII: Bool
    let count: Int
    let hash: UInt64

    init?(_ item: CatalogPackage.Item, _ field: CatalogPackage.RepeatableField) {
        self.item = item
        self.field = field
        var ascii = true
        var count = 0
        guard let hash = Self.withBytes(item, field, { bytes -> UInt64 in
            count = bytes.count
            // FNV-1a over the bytes; a non-ASCII value hashes its NFC form's bytes, so values
            // equal as strings (`é` composed or not, the Kelvin sign and `K`) land together.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                if byte >= 0x80 {
                    ascii = false
                    break
                }
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return hash
        }) else { return nil }
        isASCII = ascii
        self.count = count
        if ascii {
            self.hash = hash
        } else {
            var nfc = String(decoding: Self.withBytes(item, field) { Array($0) } ?? [], as: UTF8.self).precomposedStringWithCanonicalMapping
            self.hash = nfc.withUTF8 { bytes in
                bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            }
        }
    }

    var isEmpty: Bool { count == 0 }

    func equals(_ other: RepeatKey) -> Bool {
        if isASCII, other.isASCII {
            guard count == other.count else { return false }
            return Self.withBytes(item, field) { mine in
                Self.withBytes(other.item, other.field) { theirs in
                    memcmp(mine.baseAddress!, theirs.baseAddress!, count) == 0
                } ?? false
            } ?? false
        }
        return Self.string(item, field) == Self.string(other.item, other.field)
    }

    /// Calls `body` with the value's UTF-8 bytes (nil when the item has no such element).
    private static func withBytes<T>(
        _ item: CatalogPackage.Item, _ field: CatalogPackage.RepeatableField, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) -> T? {
        switch field {
        case .productID:
            guard var value = item.table.productIDs[item.row] else { return nil }
            return value.withUTF8(body)
        case .referenceName:
            let record = item.table.records[item.row]
            guard record.referenceNameStart >= 0 else { return nil }
            return item.table.bytes.withUnsafeBufferPointer {
                body(UnsafeBufferPointer(rebasing: $0[Int(record.referenceNameStart)..<Int(record.referenceNameStart + record.referenceNameCount)]))
            }
        }
    }

    private static func string(_ item: CatalogPackage.Item, _ field: CatalogPackage.RepeatableField) -> String? {
        field == .productID ? item.table.productIDs[item.row] : item.referenceName?.value
    }
}
