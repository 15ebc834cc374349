@testable import Formats
import Testing

@Suite("MD5")
struct MD5Tests {
    @Test func rfc1321TestSuite() {
        #expect(MD5.hex(Array("".utf8)) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex(Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex(Array("message digest".utf8)) == "f96b697d7cb7938d525a2f31aaf161d0")
        #expect(MD5.hex(Array("abcdefghijklmnopqrstuvwxyz".utf8)) == "c3fcd3d76192e4007dfb496cca67e13b")
        let digits = String(repeating: "1234567890", count: 8)
        #expect(MD5.hex(Array(digits.utf8)) == "57edf4a22be3c955ac49da2e2107b67a")
        // Many whole blocks taken straight from the input (a megabyte, like a review screenshot).
        #expect(MD5.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)) == "7707d6ae4e027c70eea2a935c2296f21")
    }

    @Test func chunkedUpdatesGiveTheSameDigest() {
        let bytes = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var md5 = MD5()
        bytes.withUnsafeBytes { all in
            var offset = 0
            for size in [1, 63, 64, 65, 1000, 4096] {
                md5.update(UnsafeRawBufferPointer(rebasing: all[offset..<offset + size]))
                offset += size
            }
            md5.update(UnsafeRawBufferPointer(rebasing: all[offset...]))
        }
        #expect(md5.finalize() == MD5.hex(bytes))
    }

    /// The digest's halves are its bytes in order, and their hex is the digest's hex.
    @Test func theDigestHalvesAreTheDigest() {
        var md5 = MD5()
        md5.update(Array("abc".utf8))
        let digest = md5.digest()
        #expect(digest.high == 0x9001_5098_3cd2_4fb0 && digest.low == 0xd696_3f7d_28e1_7f72)
        #expect(MD5.hex(digest) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex((high: 0, low: 0x0F)) == "0000000000000000000000000000000f")
    }
}
