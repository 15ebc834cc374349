#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether two runs of UTF-8 (or any) bytes are byte for byte the same: a `memcmp`, with no
/// string made and no decoding. Equal bytes are equal text; unequal bytes may still be
/// canonically equivalent text, which callers that care decide apart.
public func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
}

/// The last few values looked up by a run of bytes (a name, a short text), found again by
/// ``sameBytes(_:_:)`` before the caller makes a string to look them up for real: catalogs
/// repeat a handful of such texts item after item. Holds at most `capacity`, the oldest leaving first.
public struct RecentByBytes<Value> {
    // Inlinable, so that a rule module's use is specialized for its value type.
    @usableFromInline var entries: [(bytes: [UInt8], value: Value)] = []
    @usableFromInline let capacity: Int

    public init(capacity: Int = 8) { self.capacity = capacity }

    @inlinable
    public func value(for bytes: UnsafeBufferPointer<UInt8>) -> Value? {
        for entry in entries where entry.bytes.withUnsafeBufferPointer({ sameBytes($0, bytes) }) { return entry.value }
        return nil
    }

    @inlinable
    public mutating func remember(_ bytes: some Sequence<UInt8>, _ value: Value) {
        if entries.count == capacity { entries.removeFirst() }
        entries.append((Array(bytes), value))
    }
}
