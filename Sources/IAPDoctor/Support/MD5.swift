/// MD5 (RFC 1321), for the checksums bulk XML packages carry and for stable fingerprints. Not for
/// security: Transporter uses MD5 to detect changed files, and so does iapdoctor.
///
/// Whole blocks are compressed straight from the caller's bytes (a review screenshot is up to a
/// few megabytes, and a package references hundreds of them).
public struct MD5 {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476)
    /// A partial block waiting for more bytes.
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    public init() {
        pending.reserveCapacity(64)
    }

    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// Which message word each of the 64 steps adds.
    private static let wordIndexes: [Int] = (0..<64).map { i in
        switch i {
        case 0..<16: return i
        case 16..<32: return (5 * i + 1) % 16
        case 32..<48: return (3 * i + 5) % 16
        default: return (7 * i) % 16
        }
    }

    private static let constants: [UInt32] = (0..<64).map { i in
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double(i + 1))) * 4_294_967_296.0))
    }

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update($0) }
        }
    }

    public mutating func update(_ chunk: UnsafeRawBufferPointer) {
        guard let base = chunk.baseAddress, chunk.count > 0 else { return }
        length &+= UInt64(chunk.count)
        var index = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, chunk.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            index = take
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBytes { compress($0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        while chunk.count - index >= 64 {
            compress(base + index)
            index += 64
        }
        if index < chunk.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + index, count: chunk.count - index))
        }
    }

    public mutating func finalize() -> String {
        let bitLength = length &* 8
        var padding: [UInt8] = [0x80]
        while (pending.count + padding.count) % 64 != 56 { padding.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        padding.withUnsafeBytes { update($0) }
        let hexDigits = Array("0123456789abcdef".utf8)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) {
                let byte = UInt8(truncatingIfNeeded: word >> UInt32(shift))
                digest.append(hexDigits[Int(byte >> 4)])
                digest.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: digest, as: UTF8.self)
    }

    /// One 64-byte block.
    private mutating func compress(_ block: UnsafeRawPointer) {
        var words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                     UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var (a, b, c, d) = state
        withUnsafeMutableBytes(of: &words) { raw in
            let word = raw.bindMemory(to: UInt32.self)
            for i in 0..<16 { word[i] = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
            MD5.shifts.withUnsafeBufferPointer { shifts in
                MD5.constants.withUnsafeBufferPointer { constants in
                    MD5.wordIndexes.withUnsafeBufferPointer { indexes in
                        for i in 0..<64 {
                            var f: UInt32
                            switch i {
                            case 0..<16: f = (b & c) | (~b & d)
                            case 16..<32: f = (d & b) | (~d & c)
                            case 32..<48: f = b ^ c ^ d
                            default: f = c ^ (b | ~d)
                            }
                            f = f &+ a &+ constants[i] &+ word[indexes[i]]
                            a = d
                            d = c
                            c = b
                            b = b &+ ((f << shifts[i]) | (f >> (32 - shifts[i])))
                        }
                    }
                }
            }
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }

    /// The lowercase hex MD5 of `bytes`.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var md5 = MD5()
        md5.update(bytes)
        return md5.finalize()
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
