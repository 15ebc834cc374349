/// MD5 (RFC 1321), for the checksums bulk XML packages carry and for stable fingerprints. Not for
/// security: Transporter uses MD5 to detect changed files, and so does iapdoctor.
public struct MD5 {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    public init() {
        buffer.reserveCapacity(64)
    }

    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    private static let constants: [UInt32] = (0..<64).map { i in
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double(i + 1))) * 4_294_967_296.0))
    }

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            buffer.append(byte)
            length &+= 1
            if buffer.count == 64 {
                process(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    public mutating func update(_ chunk: UnsafeRawBufferPointer) {
        var index = 0
        // Fill a partial block first, then take whole blocks straight from the chunk.
        while index < chunk.count, !buffer.isEmpty {
            buffer.append(chunk[index])
            index += 1
            length &+= 1
            if buffer.count == 64 {
                process(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        while chunk.count - index >= 64 {
            process(Array(chunk[index..<index + 64]))
            index += 64
            length &+= 64
        }
        if index < chunk.count { update(chunk[index...]) }
    }

    public mutating func finalize() -> String {
        let bitLength = length &* 8
        var padding: [UInt8] = [0x80]
        while (buffer.count + padding.count) % 64 != 56 { padding.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let savedLength = length
        update(padding)
        length = savedLength
        var digest = ""
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) {
                let byte = UInt8(truncatingIfNeeded: word >> UInt32(shift))
                digest += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
            }
        }
        return digest
    }

    private mutating func process(_ block: [UInt8]) {
        var words = [UInt32](repeating: 0, count: 16)
        for i in 0..<16 {
            words[i] = UInt32(block[i * 4]) | UInt32(block[i * 4 + 1]) << 8 | UInt32(block[i * 4 + 2]) << 16
                | UInt32(block[i * 4 + 3]) << 24
        }
        var (a, b, c, d) = state
        for i in 0..<64 {
            var f: UInt32
            var g: Int
            switch i {
            case 0..<16: f = (b & c) | (~b & d); g = i
            case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * i) % 16
            }
            f = f &+ a &+ MD5.constants[i] &+ words[g]
            a = d
            d = c
            c = b
            b = b &+ ((f << MD5.shifts[i]) | (f >> (32 - MD5.shifts[i])))
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
