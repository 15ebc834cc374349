import CInflate

extension ZIPArchive {
    /// The most bytes read from the archive, and handed out inflated, at a time.
    static let pieceBytes = 64 << 10

    /// Streams `entry`'s bytes to `body` in pieces, with the number of stored bytes consumed so
    /// far (a bomb is measured against what was read, not what the entry states). Stored (0) and
    /// deflated (8) entries only; encrypted ones are refused. Reads stay within the entry's
    /// stored bytes: a deflate stream that has not ended when they run out is damaged, as is one
    /// whose length or CRC-32 differs from what the central directory states. Stops when `body`
    /// throws, rethrowing its error.
    public func inflate(_ entry: Entry, _ body: (_ piece: [UInt8], _ consumed: Int) throws -> Void) throws {
        guard !entry.isEncrypted else { throw Problem("it is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw Problem("it uses compression method \(entry.method); only stored (0) and deflated (8) entries are read")
        }
        let range = try dataRange(of: entry)
        var crc: UInt = 0
        var produced: UInt64 = 0
        if entry.method == 0 {
            var offset = range.lowerBound
            while offset < range.upperBound {
                guard let piece = storage.read(at: offset, count: min(Self.pieceBytes, range.upperBound - offset)) else {
                    throw Problem("its stored bytes cannot be read")
                }
                offset += piece.count
                crc = Self.crc32(crc, piece)
                produced += UInt64(piece.count)
                try body(piece, offset - range.lowerBound)
            }
        } else if range.isEmpty, entry.uncompressedSize == 0 {
            // An empty file some writers store as "deflated" with no bytes at all.
        } else {
            let inflater = try Inflater()
            var fed = range.lowerBound
            var input: [UInt8] = []
            var position = 0
            var stalled = 0
            var needsInput = true
            var output = [UInt8](repeating: 0, count: Self.pieceBytes)
            while true {
                if position == input.count, needsInput {
                    guard fed < range.upperBound else {
                        throw Problem("its deflate stream has not ended when its \(range.count) stored bytes do")
                    }
                    guard let piece = storage.read(at: fed, count: min(Self.pieceBytes, range.upperBound - fed)) else {
                        throw Problem("its stored bytes cannot be read")
                    }
                    fed += piece.count
                    input = piece
                    position = 0
                }
                let step = inflater.step(input, from: position, into: &output)
                position = step.position
                if step.produced > 0 {
                    let piece = Array(output[0..<step.produced])
                    crc = Self.crc32(crc, piece)
                    produced += UInt64(piece.count)
                    try body(piece, fed - range.lowerBound - (input.count - position))
                }
                if step.result == IAP_Z_STREAM_END { break }
                guard step.result == IAP_Z_OK || step.result == IAP_Z_BUF_ERROR else {
                    throw Problem("its deflate stream is not valid (zlib error \(step.result))")
                }
                // zlib moves forward whenever it has input and room; twice without: it never will.
                stalled = step.produced == 0 && step.consumed == 0 ? stalled + 1 : 0
                guard stalled < 2 || (position == input.count && fed < range.upperBound) else {
                    throw Problem("its deflate stream stops moving before it ends")
                }
                needsInput = step.produced < output.count
            }
        }
        guard produced == entry.uncompressedSize else {
            throw Problem("it inflates to \(produced) bytes where its central directory states \(entry.uncompressedSize)")
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
            throw Problem(
                "its CRC-32 is \(Self.hex(UInt32(truncatingIfNeeded: crc))) where its central directory states \(Self.hex(entry.crc32))")
        }
    }

    static func crc32(_ crc: UInt, _ bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { buffer in UInt(iap_crc32(UInt32(truncatingIfNeeded: crc), buffer.baseAddress, buffer.count)) }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// One raw deflate stream through zlib (`CInflate`, which keeps zlib's stream in place).
    private final class Inflater {
        private let inflater: OpaquePointer

        init() throws(Problem) {
            guard let inflater = iap_inflater_create() else { throw Problem("zlib could not start inflating it") }
            self.inflater = inflater
        }

        deinit { iap_inflater_free(inflater) }

        /// One call of zlib's `inflate` on `input` from `position`, into `output`.
        func step(_ input: [UInt8], from position: Int, into output: inout [UInt8])
            -> (result: Int32, position: Int, consumed: Int, produced: Int) {
            let available = input.count - position
            var consumed = 0, produced = 0
            let inflater = self.inflater
            let result = input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    iap_inflate_step(inflater, available > 0 ? source.baseAddress! + position : nil, available, &consumed,
                                     target.baseAddress, target.count, &produced)
                }
            }
            return (result, position + consumed, consumed, produced)
        }
    }
}

/// zlib's raw deflate and CRC-32, for code that writes archives (the tests' `.ipa` files), so that
/// zlib's module stays inside this one.
public enum ZIPDeflate {
    public static func deflate(_ data: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: iap_deflate_bound(data.count))
        let produced = data.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { iap_deflate_raw(source.baseAddress, source.count, $0.baseAddress, $0.count) }
        }
        precondition(produced > 0, "zlib could not deflate")
        return Array(output[0..<produced])
    }

    public static func crc32(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { iap_crc32(0, $0.baseAddress, $0.count) }
    }
}
