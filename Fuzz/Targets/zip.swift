// libFuzzer target `zip`: the .ipa reader's ZIP archive and its inflation on arbitrary bytes.
// An odd first byte wraps the rest as the stored bytes of one deflated entry (its stated size and
// CRC-32 from the next 8 bytes), so mutations reach zlib's stream directly; an even one reads the
// rest as a whole archive, entry by entry. Invariants beyond "no crash, no hang": a refusal says
// why, an entry that inflates gives exactly the size its central directory states, and inflation
// never reports consuming more stored bytes than the entry has.
import IAPDoctor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let archive: [UInt8]
    if data[0] & 1 == 1 {
        guard bytes.count >= 8 else { return 0 }
        let stated = Array(bytes[0..<4]), crc = Array(bytes[4..<8]), stored = Array(bytes[8...])
        archive = wrap(stored, uncompressed: stated, crc: crc)
    } else {
        archive = bytes
    }
    let zip: ZIPArchive
    do {
        zip = try ZIPArchive(ZIPArchive.Bytes(archive))
    } catch {
        precondition(!error.reason.isEmpty, "a refusal without words")
        return 0
    }
    var entries: [ZIPArchive.Entry] = []
    do {
        try zip.forEachEntry { entry in
            entries.append(entry)
            if entries.count >= 64 { throw ZIPArchive.Problem("enough") }
        }
    } catch {}
    struct Enough: Error {}
    for entry in entries {
        var produced = 0
        do {
            try zip.inflate(entry) { piece, consumed in
                produced += piece.count
                precondition(UInt64(consumed) <= entry.compressedSize, "consumed more than the entry stores")
                if produced > 4 << 20 { throw Enough() }
            }
            precondition(UInt64(produced) == entry.uncompressedSize, "an entry read to a size other than its stated one")
        } catch let problem as ZIPArchive.Problem {
            precondition(!problem.reason.isEmpty, "a refusal without words")
        } catch {}
    }
    return 0
}

/// One deflated entry holding `stored`, in an archive with its central directory and end record.
func wrap(_ stored: [UInt8], uncompressed: [UInt8], crc: [UInt8]) -> [UInt8] {
    func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    let name = Array("Payload/A.app/Info.plist".utf8)
    let common = le16(20) + le16(0) + le16(8) + le16(0) + le16(0) + crc + le32(stored.count) + uncompressed + le16(name.count) + le16(0)
    let local = [0x50, 0x4B, 0x03, 0x04] + common + name + stored
    let directory = [0x50, 0x4B, 0x01, 0x02] + le16(0x031E) + common + le16(0) + le16(0) + le16(0) + le32(0o100644 << 16) + le32(0) + name
    return local + directory + [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(1) + le16(1) + le32(directory.count) + le32(local.count) + le16(0)
}
