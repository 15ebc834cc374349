import Crypto

/// MD5 (RFC 1321), for the checksums bulk XML packages carry and for stable fingerprints. Not for
/// security: Transporter uses MD5 to detect changed files, and so does iapdoctor.
///
/// swift-crypto's `Insecure.MD5` (BoringSSL elsewhere, CryptoKit on Apple platforms), which hashes
/// faster than hand-written Swift. Bytes are handed over where they lie (a review screenshot is
/// up to a few megabytes, and a package references hundreds of them).
public struct MD5 {
    private var hasher = Insecure.MD5()

    public init() {}

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        if handled == nil {
            hasher.update(data: Array(bytes))
        }
    }

    public mutating func update(_ chunk: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: chunk)
    }

    /// The lowercase hex digest of everything given so far.
    public mutating func finalize() -> String {
        Self.hex(digest())
    }

    /// The digest of everything given so far, as two big-endian halves (its first eight bytes
    /// are `high`): a key to compare and hash without making its hex.
    public mutating func digest() -> (high: UInt64, low: UInt64) {
        hasher.finalize().withUnsafeBytes { bytes in
            (UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }

    /// The lowercase hex of a digest given as its halves.
    public static func hex(_ digest: (high: UInt64, low: UInt64)) -> String {
        String(unsafeUninitializedCapacity: 32) { text in
            for (offset, half) in [digest.high, digest.low].enumerated() {
                for index in 0..<16 {
                    let nibble = UInt8(truncatingIfNeeded: half >> UInt64(60 - 4 * index)) & 0x0F
                    text[offset * 16 + index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
                }
            }
            return 32
        }
    }

    /// The lowercase hex MD5 of `bytes`.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var md5 = MD5()
        md5.update(bytes)
        return md5.finalize()
    }
}
