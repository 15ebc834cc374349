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
