import Foundation

/// The entitlements a Mach-O executable was signed with, read from its code signature: the
/// `LC_CODE_SIGNATURE` load command points at the embedded signature (a superblob), whose
/// entitlements blob holds them as an XML property list (and, since iOS 15, as DER too). A
/// universal (fat) binary has one signature per architecture. The signature itself is not
/// checked: iapdoctor reads what it says.
///
/// Only the headers, the load commands and the signature are read, never the whole executable;
/// every count and offset is checked against the file before it is followed.
public enum CodeSignature {
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public var help: String
    }

    /// One architecture's signature.
    public struct Slice: Sendable, Equatable {
        /// `cputype` of the slice's Mach-O header (`0x0100000C`: arm64, `0x01000007`: x86_64).
        public var cpuType: UInt32
        /// The XML entitlements blob's property list, when the slice is signed with entitlements.
        public var entitlementsXML: [UInt8]?
        /// Whether the slice carries DER-encoded entitlements (signed by Xcode 13 or later).
        public var hasDEREntitlements: Bool
        /// Whether the slice has a code signature at all.
        public var isSigned: Bool
        /// The string constants of `__TEXT,__cstring` shaped like product IDs (nil when the
        /// slice has no such section, or it is past the size read, or an earlier slice's were read).
        public var identifierStrings: Set<String>? = nil
    }

    /// Random access to the executable's bytes.
    public protocol Source {
        var count: Int { get }
        /// `count` bytes at `offset`, or nil when they are not all in the file.
        func bytes(at offset: Int, count: Int) -> [UInt8]?
    }

    /// Bytes in memory (tests, and executables read whole).
    public struct Bytes: Source {
        public let data: [UInt8]
        public init(_ data: [UInt8]) { self.data = data }
        public var count: Int { data.count }
        public func bytes(at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset <= data.count, count <= data.count - offset else { return nil }
            return Array(data[offset..<offset + count])
        }
    }

    /// Bounds that keep a hostile file from costing more than a real one.
    static let maxArchitectures = 16
    static let maxLoadCommands = 4_096
    static let maxLoadCommandBytes = 4 << 20
    static let maxBlobs = 64
    static let maxEntitlementsBytes = 1 << 20

    /// The signature of every architecture in `source`, in file order. The string constants are
    /// read for the first image that has them, once: only those are used, and architectures may
    /// share (or overlap) one range.
    public static func read(_ source: some Source, file: String) throws(Problem) -> [Slice] {
        var slices: [Slice] = []
        var stringsRead = false
        for image in try images(source, file: file) {
            let layout = try layout(source, at: image.lowerBound, size: image.count, file: file)
            slices.append(try slice(source, layout, readStrings: !stringsRead, file: file))
            stringsRead = stringsRead || layout.strings != nil
        }
        return slices
    }

    /// Every file range that `read` asks for: the headers, each image's load commands, the
    /// pieces of its signature that are read (the index, the entitlements blobs) and the string
    /// constants read (a partial source holding only these reads the same).
    public static func regions(_ source: some Source, file: String) throws(Problem) -> [Range<Int>] {
        _ = try images(source, file: file)
        return ReadPlan().ranges(source, file: file)
    }

    /// The thin images of `source`: one, or each architecture of a universal binary.
    static func images(_ source: some Source, file: String) throws(Problem) -> [Range<Int>] {
        guard let magic = source.bytes(at: 0, count: 4) else { throw truncated(file, "its header") }
        let bigEndian = UInt32(magic[0]) << 24 | UInt32(magic[1]) << 16 | UInt32(magic[2]) << 8 | UInt32(magic[3])
        switch bigEndian {
        case 0xCAFE_BABE, 0xCAFE_BABF:
            let wide = bigEndian == 0xCAFE_BABF
            guard let header = source.bytes(at: 4, count: 4) else { throw truncated(file, "its universal header") }
            let count = Int(readUInt32(header, 0, bigEndian: true))
            guard count > 0, count <= maxArchitectures else {
                throw Problem(
                    message: "`\(Paths.shown(file))` claims \(count) architectures; a universal binary holds 1 to \(maxArchitectures)",
                    help: "build the app again; the executable is damaged")
            }
            let entry = wide ? 32 : 20
            var images: [Range<Int>] = []
            for index in 0..<count {
                guard let record = source.bytes(at: 8 + index * entry, count: entry) else { throw truncated(file, "its architecture table") }
                let offset = wide ? Int(clamping: readUInt64(record, 8)) : Int(readUInt32(record, 8, bigEndian: true))
                let size = wide ? Int(clamping: readUInt64(record, 16)) : Int(readUInt32(record, 12, bigEndian: true))
                guard offset >= 0, size > 0, offset <= source.count, size <= source.count - offset else {
                    throw truncated(file, "architecture \(index + 1)")
                }
                images.append(offset..<offset + size)
            }
            return images
        default:
            return [0..<source.count]
        }
    }

    /// Reads the signature of the file at `path` (opened once, read in pieces).
    public static func read(path: String) throws(Problem) -> [Slice] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Problem(message: "cannot read `\(Paths.shown(path))`", help: "check that the app bundle is complete")
        }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()).map { Int($0) } ?? 0
        return try read(FileSource(handle: handle, count: size), file: path)
    }

    private struct FileSource: Source {
        let handle: FileHandle
        let count: Int
        func bytes(at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset <= self.count, count <= self.count - offset else { return nil }
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil, let data = try? handle.read(upToCount: count), data.count == count
            else { return nil }
            return [UInt8](data)
        }
    }

    /// Where a thin image keeps what is read, from its load commands: file ranges (from the
    /// file's start) of its signature and its `__TEXT,__cstring`.
    struct Layout {
        var cpuType: UInt32
        var signature: Range<Int>?
        var strings: Range<Int>?
    }

    /// One thin Mach-O image, from its layout; its string constants only when `readStrings`.
    private static func slice(_ source: some Source, _ layout: Layout, readStrings: Bool, file: String) throws(Problem) -> Slice {
        var slice = Slice(cpuType: layout.cpuType, entitlementsXML: nil, hasDEREntitlements: false, isSigned: false)
        if let range = layout.signature {
            slice = try signature(source, at: range.lowerBound, size: range.count, cpuType: layout.cpuType, file: file)
        }
        if readStrings, let strings = layout.strings, let bytes = source.bytes(at: strings.lowerBound, count: strings.count) {
            slice.identifierStrings = identifierStrings(bytes)
        }
        return slice
    }

    /// The header and load commands of the thin image at `base`.
    static func layout(_ source: some Source, at base: Int, size: Int, file: String) throws(Problem) -> Layout {
        guard let first = source.bytes(at: base, count: 4) else { throw truncated(file, "its Mach-O header") }
        let magic = readUInt32(first, 0, bigEndian: false)
        let is64: Bool
        let bigEndian: Bool
        switch magic {
        case 0xFEED_FACF: (is64, bigEndian) = (true, false)
        case 0xFEED_FACE: (is64, bigEndian) = (false, false)
        case 0xCFFA_EDFE: (is64, bigEndian) = (true, true)
        case 0xCEFA_EDFE: (is64, bigEndian) = (false, true)
        default:
            throw Problem(
                message: "`\(Paths.shown(file))` is not a Mach-O executable (its first bytes are \(String(format: "%08x", magic)))",
                help: "name the app bundle, whose executable Xcode built; it is not a script or a stub")
        }
        guard let header = source.bytes(at: base, count: 28) else { throw truncated(file, "its Mach-O header") }
        var layout = Layout(cpuType: readUInt32(header, 4, bigEndian: bigEndian))
        let commandCount = Int(readUInt32(header, 16, bigEndian: bigEndian))
        let commandBytes = Int(readUInt32(header, 20, bigEndian: bigEndian))
        guard commandCount <= maxLoadCommands, commandBytes <= maxLoadCommandBytes else {
            throw Problem(
                message: "`\(Paths.shown(file))` claims \(commandCount) load commands in \(commandBytes) bytes, more than any app has",
                help: "build the app again; the executable is damaged")
        }
        let headerSize = is64 ? 32 : 28
        guard headerSize + commandBytes <= size, let commands = source.bytes(at: base + headerSize, count: commandBytes) else {
            throw truncated(file, "its load commands")
        }
        var offset = 0
        for _ in 0..<commandCount {
            guard offset + 8 <= commands.count else { throw truncated(file, "its load commands") }
            let command = readUInt32(commands, offset, bigEndian: bigEndian)
            let commandSize = Int(readUInt32(commands, offset + 4, bigEndian: bigEndian))
            guard commandSize >= 8, commandSize <= commands.count - offset else { throw truncated(file, "a load command") }
            // LC_CODE_SIGNATURE: a linkedit_data_command (dataoff, datasize), from the image's start.
            if command == 0x1D, layout.signature == nil {
                guard commandSize >= 16 else { throw truncated(file, "its code signature command") }
                let dataOffset = Int(readUInt32(commands, offset + 8, bigEndian: bigEndian))
                let dataSize = Int(readUInt32(commands, offset + 12, bigEndian: bigEndian))
                guard dataOffset <= size, dataSize <= size - dataOffset else { throw truncated(file, "its code signature") }
                layout.signature = base + dataOffset..<base + dataOffset + dataSize
            }
            // LC_SEGMENT_64 and LC_SEGMENT: `__TEXT` holds the C string constants.
            if command == 0x19 || command == 0x1, layout.strings == nil,
               let strings = stringSection(Array(commands[offset..<offset + commandSize]), is64: command == 0x19, bigEndian: bigEndian, size: size) {
                layout.strings = base + strings.lowerBound..<base + strings.upperBound
            }
            offset += commandSize
        }
        return layout
    }

    /// The embedded signature superblob (big-endian, whatever the image's byte order).
    private static func signature(_ source: some Source, at start: Int, size: Int, cpuType: UInt32, file: String) throws(Problem) -> Slice {
        guard size >= 12, let header = source.bytes(at: start, count: 12) else { throw truncated(file, "its code signature") }
        guard readUInt32(header, 0, bigEndian: true) == 0xFADE_0CC0 else {
            throw Problem(
                message: "`\(Paths.shown(file))`'s code signature is not an embedded signature (magic \(String(format: "%08x", readUInt32(header, 0, bigEndian: true))))",
                help: "sign the app again (Xcode → Product → Archive)")
        }
        let length = min(Int(readUInt32(header, 4, bigEndian: true)), size)
        let count = Int(readUInt32(header, 8, bigEndian: true))
        guard count <= maxBlobs, 12 + count * 8 <= length, let index = source.bytes(at: start + 12, count: count * 8) else {
            throw truncated(file, "its code signature's index")
        }
        var slice = Slice(cpuType: cpuType, entitlementsXML: nil, hasDEREntitlements: false, isSigned: true)
        for entry in 0..<count {
            let type = readUInt32(index, entry * 8, bigEndian: true)
            let offset = Int(readUInt32(index, entry * 8 + 4, bigEndian: true))
            guard type == 5 || type == 7 else { continue }
            guard offset >= 12 + count * 8, offset + 8 <= length, let blob = source.bytes(at: start + offset, count: 8) else {
                throw truncated(file, "its entitlements")
            }
            let magic = readUInt32(blob, 0, bigEndian: true)
            let blobLength = Int(readUInt32(blob, 4, bigEndian: true))
            guard blobLength >= 8, blobLength <= length - offset else { throw truncated(file, "its entitlements") }
            if type == 7, magic == 0xFADE_7172 {
                slice.hasDEREntitlements = true
            } else if type == 5, magic == 0xFADE_7171 {
                guard blobLength - 8 <= maxEntitlementsBytes else {
                    throw Problem(
                        message: "`\(Paths.shown(file))`'s entitlements take \(blobLength - 8) bytes, more than \(maxEntitlementsBytes)",
                        help: "build the app again; the signature is damaged")
                }
                guard let xml = source.bytes(at: start + offset + 8, count: blobLength - 8) else { throw truncated(file, "its entitlements") }
                slice.entitlementsXML = xml
            }
        }
        return slice
    }

    private static func truncated(_ file: String, _ part: String) -> Problem {
        Problem(
            message: "`\(Paths.shown(file))` ends before \(part): the executable is cut short or damaged",
            help: "build and archive the app again, or copy the whole bundle")
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt32 {
        let b = (UInt32(bytes[offset]), UInt32(bytes[offset + 1]), UInt32(bytes[offset + 2]), UInt32(bytes[offset + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }

    static func readUInt64(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool = true) -> UInt64 {
        bigEndian
            ? UInt64(readUInt32(bytes, offset, bigEndian: true)) << 32 | UInt64(readUInt32(bytes, offset + 4, bigEndian: true))
            : UInt64(readUInt32(bytes, offset + 4, bigEndian: false)) << 32 | UInt64(readUInt32(bytes, offset, bigEndian: false))
    }
}
