import Foundation

/// The string constants of a Mach-O image, for one hint: a product ID among them says the build
/// still holds it. Swift keeps strings of up to 15 bytes inside the code, so an ID missing here
/// proves nothing.
extension CodeSignature {
    /// The most `__cstring` bytes read (an app's are a few MB).
    static let maxStringBytes = 32 << 20
    /// The most strings kept, in section order (an app has tens of thousands shaped like IDs):
    /// the set is a hint whose absences prove nothing, so the rest may be left out.
    public static let maxIdentifierStrings = 250_000

    /// The file range of `__TEXT,__cstring` in a segment load command (`command`, whole), from the
    /// image's start; nil when the segment is not `__TEXT`, has no such section, or points past
    /// the image.
    static func stringSection(_ command: [UInt8], is64: Bool, bigEndian: Bool, size: Int) -> Range<Int>? {
        let header = is64 ? 72 : 56
        guard command.count >= header, name(command, at: 8) == "__TEXT" else { return nil }
        let count = Int(readUInt32(command, is64 ? 64 : 48, bigEndian: bigEndian))
        let entry = is64 ? 80 : 68
        for index in 0..<min(count, 256) {
            let start = header + index * entry
            guard start + entry <= command.count else { return nil }
            guard name(command, at: start) == "__cstring", name(command, at: start + 16) == "__TEXT" else { continue }
            let length = is64 ? Int(clamping: readUInt64(command, start + 40, bigEndian: bigEndian)) : Int(readUInt32(command, start + 36, bigEndian: bigEndian))
            let offset = Int(readUInt32(command, start + (is64 ? 48 : 40), bigEndian: bigEndian))
            guard length > 0, length <= maxStringBytes, offset <= size, length <= size - offset else { return nil }
            return offset..<offset + length
        }
        return nil
    }

    /// A fixed 16-byte name, up to its first NUL.
    private static func name(_ bytes: [UInt8], at offset: Int) -> String {
        let field = bytes[offset..<offset + 16]
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The NUL-terminated strings of `bytes` made only of the characters a product ID has
    /// (letters, digits, `.`, `_`, `-`), 3 to 255 bytes long, the first `limit` of them. Each
    /// string is found with `memchr` and measured with `strspn` (a section holds hundreds of
    /// thousands of strings).
    public static func identifierStrings(_ bytes: [UInt8], limit: Int = maxIdentifierStrings) -> Set<String> {
        var found = Set<String>(minimumCapacity: min(limit, bytes.count / 32))
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count, found.count < limit, let nul = memchr(base + start, 0, buffer.count - start) {
                let end = base.distance(to: nul.assumingMemoryBound(to: UInt8.self))
                let length = end - start
                if length >= 3, length <= 255,
                   UnsafeRawPointer(base + start).withMemoryRebound(to: CChar.self, capacity: length + 1, { strspn($0, identifierCharacters) }) == length {
                    found.insert(String(decoding: UnsafeBufferPointer(start: base + start, count: length), as: UTF8.self))
                }
                start = end + 1
            }
        }
        return found
    }

    private static let identifierCharacters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"
}

extension CodeSignature {
    /// `identifierStrings`, byte by byte: the readable twin a test holds it equal to.
    static func identifierStringsByteByByte(_ bytes: [UInt8], limit: Int = maxIdentifierStrings) -> Set<String> {
        var found = Set<String>()
        var start = 0
        var shaped = true
        for (index, byte) in bytes.enumerated() where found.count < limit {
            if byte == 0 {
                let length = index - start
                if shaped, length >= 3, length <= 255 { found.insert(String(decoding: bytes[start..<index], as: UTF8.self)) }
                start = index + 1
                shaped = true
            } else if shaped {
                shaped = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
        }
        return found
    }
}
