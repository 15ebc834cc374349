import Crypto

/// MD5 (RFC 1321), for the checksums bulk XML packages carry and for stable fingerprints. Not for
/// security: Transporter uses MD5 to detect changed files, and so does iapdoctor.
///
/// swift-crypto's `Insecure.MD5` (BoringSSL elsewhere, CryptoKit on Apple platforms), which hashes
/// a 20 MB file about twice as fast as the hand-written Swift it replaced (BENCHMARKS.md,
/// "MD5"). Bytes are handed over where they lie (a review screenshot is up to a few megabytes,
/// and a package references hundreds of them).
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
        let hexDigits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for byte in hasher.finalize() {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The lowercase hex MD5 of `bytes`.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var md5 = MD5()
        md5.update(bytes)
        return md5.finalize()
    }
}
