import Foundation

/// A ZIP archive read in place, never extracted and never written: its central directory (ZIP64
/// included), each entry's local header, and each entry's bytes inflated in pieces (`ZIPInflater`).
///
/// Every size and offset the archive states is checked against the file before it is followed,
/// and an entry's data is read only within the compressed size its central directory states:
/// reading never runs past the entry, nor past the file's end.
public struct ZIPArchive: Sendable {
    /// Why the archive or an entry cannot be read, in words that follow "is damaged: ".
    public struct Problem: Error, Sendable, Equatable {
        public var reason: String
        public init(_ reason: String) { self.reason = reason }
    }

    /// Random access to the archive's bytes.
    public protocol Storage: Sendable {
        var count: Int { get }
        /// `count` bytes at `offset`, or nil when they are not all in the archive.
        func read(at offset: Int, count: Int) -> [UInt8]?
    }

    /// An archive in memory (tests, the fuzz target).
    public struct Bytes: Storage {
        public let data: [UInt8]
        public init(_ data: [UInt8]) { self.data = data }
        public var count: Int { data.count }
        public func read(at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset <= data.count, count <= data.count - offset else { return nil }
            return Array(data[offset..<offset + count])
        }
    }

    /// An archive on disk, opened read-only and read with `pread` (never mapped, never written).
    public final class File: Storage {
        private let descriptor: Int32
        public let count: Int

        /// Opens `path` for reading; nil when it cannot be opened.
        public init?(path: String) {
            let descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
            count = Int(info.st_size)
        }

        deinit { close(descriptor) }

        public func read(at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset <= self.count, count <= self.count - offset else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let got = bytes.withUnsafeMutableBytes { buffer in
                    pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                }
                guard got > 0 else { return nil }
                done += got
            }
            return bytes
        }
    }

    /// What an entry is, as its central directory record says (the Unix mode in the external
    /// attributes when the archive was made on Unix or macOS; else a name ending in `/`, or
    /// MS-DOS's directory attribute, makes a directory).
    public enum Kind: Sendable, Equatable {
        case file, directory, symbolicLink
    }

    /// One central directory record.
    public struct Entry: Sendable, Equatable {
        /// The name as stored (UTF-8; bytes that are not are replaced). Compared, never used as a path.
        public var name: String
        public var flags: UInt16
        /// 0: stored, 8: deflated.
        public var method: UInt16
        public var crc32: UInt32
        public var compressedSize: UInt64
        public var uncompressedSize: UInt64
        public var localHeaderOffset: UInt64
        public var versionMadeBy: UInt16
        public var externalAttributes: UInt32

        /// Flag bit 0: the entry's data is encrypted.
        public var isEncrypted: Bool { flags & 1 != 0 }

        public var kind: Kind {
            let isDirectoryName = name.hasSuffix("/")
            switch versionMadeBy >> 8 {
            case 3, 19:
                // Unix and OS X: the file mode in the high 16 bits.
                switch (externalAttributes >> 16) & 0o170000 {
                case 0o100000: return .file
                case 0o040000: return .directory
                case 0o120000: return .symbolicLink
                default: return isDirectoryName ? .directory : .file
                }
            case 0:
                // MS-DOS: the directory attribute.
                return isDirectoryName || externalAttributes >> 4 == 1 ? .directory : .file
            default:
                return isDirectoryName ? .directory : .file
            }
        }
    }

    public let storage: any Storage
    /// Where the central directory starts, its size, and how many records it states.
    let directoryOffset: Int
    let directorySize: Int
    public let statedEntryCount: UInt64

    /// Finds the end of central directory record (and its ZIP64 record when the archive has one).
    public init(_ storage: any Storage) throws(Problem) {
        self.storage = storage
        let size = storage.count
        guard size >= 22 else { throw Problem("it is shorter than a ZIP archive's end record") }
        // The end record is the last 22 bytes, followed by a comment of at most 65,535 bytes.
        let tailLength = min(size, 22 + 0xFFFF)
        guard let tail = storage.read(at: size - tailLength, count: tailLength) else { throw Problem("it cannot be read") }
        var found: Int?
        var index = tail.count - 22
        while index >= 0 {
            if Self.uint32(tail, index) == 0x0605_4B50, index + 22 + Int(Self.uint16(tail, index + 20)) <= tail.count {
                found = index
                break
            }
            index -= 1
        }
        guard let end = found else { throw Problem("it has no end of central directory record, so it is not a ZIP archive") }
        let endOffset = size - tailLength + end
        var count = UInt64(Self.uint16(tail, end + 10))
        var directorySize = UInt64(Self.uint32(tail, end + 12))
        var directoryOffset = UInt64(Self.uint32(tail, end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF, endOffset >= 20,
           let locator = storage.read(at: endOffset - 20, count: 20), Self.uint32(locator, 0) == 0x0706_4B50 {
            let recordOffset = Self.uint64(locator, 8)
            guard recordOffset <= UInt64(endOffset), let record = storage.read(at: Int(recordOffset), count: 56),
                  Self.uint32(record, 0) == 0x0606_4B50 else {
                throw Problem("its ZIP64 end record is missing or points outside the archive")
            }
            count = Self.uint64(record, 32)
            directorySize = Self.uint64(record, 40)
            directoryOffset = Self.uint64(record, 48)
        }
        guard directoryOffset <= UInt64(endOffset), directorySize <= UInt64(endOffset) - directoryOffset else {
            throw Problem("its central directory (\(directorySize) bytes at \(directoryOffset)) lies outside the archive")
        }
        self.directoryOffset = Int(directoryOffset)
        self.directorySize = Int(directorySize)
        statedEntryCount = count
    }

    /// Each central directory record in order, read in windows (the directory is never held
    /// whole); stops when `body` throws.
    public func forEachEntry(_ body: (Entry) throws -> Void) throws {
        var window = Window(storage: storage, end: directoryOffset + directorySize)
        var offset = directoryOffset
        var index: UInt64 = 0
        while index < statedEntryCount {
            index += 1
            guard let fixed = window.bytes(at: offset, count: 46), Self.uint32(fixed, 0) == 0x0201_4B50 else {
                throw Problem("its central directory ends before its \(index)th record, or that record is not one")
            }
            let nameLength = Int(Self.uint16(fixed, 28)), extraLength = Int(Self.uint16(fixed, 30)), commentLength = Int(Self.uint16(fixed, 32))
            guard let variable = window.bytes(at: offset + 46, count: nameLength + extraLength).map(Array.init) else {
                throw Problem("its central directory ends inside its \(index)th record")
            }
            var entry = Entry(
                name: String(decoding: variable[0..<nameLength], as: UTF8.self), flags: Self.uint16(fixed, 8),
                method: Self.uint16(fixed, 10), crc32: Self.uint32(fixed, 16), compressedSize: UInt64(Self.uint32(fixed, 20)),
                uncompressedSize: UInt64(Self.uint32(fixed, 24)), localHeaderOffset: UInt64(Self.uint32(fixed, 42)),
                versionMadeBy: Self.uint16(fixed, 4), externalAttributes: Self.uint32(fixed, 38))
            Self.applyZIP64(Array(variable[nameLength...]), to: &entry)
            offset += 46 + nameLength + extraLength + commentLength
            try body(entry)
        }
    }

    /// The ZIP64 extended information field (0x0001): a 64-bit value for each of the uncompressed
    /// size, the compressed size and the local header offset that the record sets to 0xFFFFFFFF,
    /// in that order.
    static func applyZIP64(_ extra: [UInt8], to entry: inout Entry) {
        var at = 0
        while at + 4 <= extra.count {
            let id = uint16(extra, at), length = Int(uint16(extra, at + 2))
            let start = at + 4
            at = start + length
            guard id == 0x0001, at <= extra.count else { continue }
            var field = start
            func next() -> UInt64? {
                guard field + 8 <= start + length else { return nil }
                defer { field += 8 }
                return uint64(extra, field)
            }
            if entry.uncompressedSize == 0xFFFF_FFFF, let value = next() { entry.uncompressedSize = value }
            if entry.compressedSize == 0xFFFF_FFFF, let value = next() { entry.compressedSize = value }
            if entry.localHeaderOffset == 0xFFFF_FFFF, let value = next() { entry.localHeaderOffset = value }
            return
        }
    }

    /// Where `entry`'s data starts (past its local header), checked so that the compressed size
    /// its central directory states lies inside the archive.
    public func dataRange(of entry: Entry) throws(Problem) -> Range<Int> {
        let size = UInt64(storage.count)
        guard entry.localHeaderOffset <= size, let header = storage.read(at: Int(entry.localHeaderOffset), count: 30),
              Self.uint32(header, 0) == 0x0403_4B50 else {
            throw Problem("its local header is missing or is not one")
        }
        let start = entry.localHeaderOffset + 30 + UInt64(Self.uint16(header, 26)) + UInt64(Self.uint16(header, 28))
        guard start <= size, entry.compressedSize <= size - start else {
            throw Problem("it claims \(entry.compressedSize) stored bytes, which run past the archive's end")
        }
        return Int(start)..<Int(start + entry.compressedSize)
    }

    static func uint16<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> UInt16 where Bytes.Index == Int {
        let base = bytes.startIndex + offset
        return UInt16(bytes[base]) | UInt16(bytes[base + 1]) << 8
    }

    static func uint32<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> UInt32 where Bytes.Index == Int {
        UInt32(uint16(bytes, offset)) | UInt32(uint16(bytes, offset + 2)) << 16
    }

    static func uint64<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> UInt64 where Bytes.Index == Int {
        UInt64(uint32(bytes, offset)) | UInt64(uint32(bytes, offset + 4)) << 32
    }

    /// Reads of the central directory through a window of up to 256 KB, never past `end`.
    private struct Window {
        let storage: any Storage
        let end: Int
        var start = 0
        var held: [UInt8] = []

        mutating func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
            guard offset >= 0, count >= 0, offset <= end, count <= end - offset else { return nil }
            if offset < start || offset + count > start + held.count {
                let length = min(max(count, 256 << 10), end - offset)
                guard let read = storage.read(at: offset, count: length) else { return nil }
                start = offset
                held = read
            }
            return held[(offset - start)..<(offset - start + count)]
        }
    }
}
