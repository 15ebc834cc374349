import Foundation
import ZIPReader

/// ZIP archives written by the tests, byte by byte: what Xcode's export writes (deflated files,
/// Unix modes), and what it never does (a stream cut short, a CRC or a size that lies, a link).
struct TestZIP {
    struct Entry {
        var name: String
        /// The entry's data as stored (deflated already when `method` is 8).
        var stored: [UInt8]
        var method: UInt16 = 8
        var crc32: UInt32
        var uncompressedSize: UInt64
        /// What the central directory states; `stored.count` unless a test lies.
        var statedCompressedSize: UInt64
        /// The Unix mode (file type and permissions).
        var mode: UInt32 = 0o100644
        var flags: UInt16 = 0

        /// A regular file, deflated (or stored).
        static func file(_ name: String, _ data: [UInt8], deflated: Bool = true) -> Entry {
            let stored = deflated ? TestZIP.deflate(data) : data
            return Entry(
                name: name, stored: stored, method: deflated ? 8 : 0, crc32: TestZIP.crc32(data), uncompressedSize: UInt64(data.count),
                statedCompressedSize: UInt64(stored.count))
        }

        /// A symbolic link to `target` (its data is the target's path).
        static func link(_ name: String, to target: String) -> Entry {
            var entry = file(name, Array(target.utf8), deflated: false)
            entry.mode = 0o120755
            return entry
        }
    }

    static func deflate(_ data: [UInt8]) -> [UInt8] { ZIPDeflate.deflate(data) }

    static func crc32(_ data: [UInt8]) -> UInt32 { ZIPDeflate.crc32(data) }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: UInt64) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

    /// The archive's bytes: local headers and data, the central directory, its end record.
    static func bytes(_ entries: [Entry]) -> [UInt8] {
        var body: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let offset = UInt64(body.count)
            let common = le16(20) + le16(Int(entry.flags)) + le16(Int(entry.method)) + le16(0) + le16(0x21)
                + le32(UInt64(entry.crc32)) + le32(entry.statedCompressedSize) + le32(entry.uncompressedSize) + le16(name.count) + le16(0)
            body += [0x50, 0x4B, 0x03, 0x04] + common + name + entry.stored
            directory += [0x50, 0x4B, 0x01, 0x02] + le16(0x031E) + common + le16(0) + le16(0) + le16(0)
                + le32(UInt64(entry.mode) << 16) + le32(offset) + name
        }
        let end = [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
            + le32(UInt64(directory.count)) + le32(UInt64(body.count)) + le16(0)
        return body + directory + end
    }

    /// Writes the archive at `path`; returns `path`.
    @discardableResult
    static func write(_ entries: [Entry], to path: String) throws -> String {
        try Data(bytes(entries)).write(to: URL(fileURLWithPath: path))
        return path
    }
}
