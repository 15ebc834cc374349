/// Mach-O images written byte by byte, as the linker and `codesign` lay them out: a header, load
/// commands, and at `LC_CODE_SIGNATURE`'s offset a big-endian superblob of blobs.
package struct MachOImage {
    package init() {}

    package var cpuType: UInt32 = 0x0100_000C
    package var entitlements: String? = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>application-identifier</key><string>ABCDE12345.com.acme.coins</string></dict></plist>\n"
    package var der = true
    package var signed = true
    /// Bytes of code between the load commands and the signature (a real executable's size).
    package var padding = 0
    /// C string constants, in `__TEXT,__cstring` after the load commands (no segment when empty).
    package var strings: [String] = []

    package static func le(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }
    package static func be(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    package func superblob() -> [UInt8] {
        var blobs: [(UInt32, [UInt8])] = [(0, Self.be(0xFADE_0C02) + Self.be(16) + [0, 0, 0, 0, 0, 0, 0, 0])]
        if let entitlements {
            let xml = Array(entitlements.utf8)
            blobs.append((5, Self.be(0xFADE_7171) + Self.be(UInt32(8 + xml.count)) + xml))
        }
        if der { blobs.append((7, Self.be(0xFADE_7172) + Self.be(12) + [0x70, 0x02, 0x00, 0x00])) }
        var offset = 12 + blobs.count * 8
        var index: [UInt8] = [], body: [UInt8] = []
        for (type, blob) in blobs {
            index += Self.be(type) + Self.be(UInt32(offset))
            body += blob
            offset += blob.count
        }
        return Self.be(0xFADE_0CC0) + Self.be(UInt32(offset)) + Self.be(UInt32(blobs.count)) + index + body
    }

    static func le64(_ value: Int) -> [UInt8] { le(UInt32(value & 0xFFFF_FFFF)) + le(UInt32(value >> 32)) }
    static func name(_ text: String) -> [UInt8] { Array(text.utf8) + [UInt8](repeating: 0, count: 16 - text.utf8.count) }

    /// A thin 64-bit little-endian image: a `LC_UUID`, a `__TEXT` segment when it has strings,
    /// then (when signed) `LC_CODE_SIGNATURE`.
    package func bytes() -> [UInt8] {
        let uuid = Self.le(0x1B) + Self.le(24) + [UInt8](repeating: 7, count: 16)
        let signature = superblob()
        let cstrings: [UInt8] = strings.flatMap { Array($0.utf8) + [UInt8(0)] }
        var commands = uuid
        let headerSize = 32
        let segmentSize = cstrings.isEmpty ? 0 : 72 + 80
        let commandsSize = uuid.count + segmentSize + (signed ? 16 : 0)
        let stringsOffset = headerSize + commandsSize
        if !cstrings.isEmpty {
            let end = stringsOffset + cstrings.count
            var segment: [UInt8] = Self.le(0x19) + Self.le(UInt32(segmentSize)) + Self.name("__TEXT")
            segment += Self.le64(0) + Self.le64(end) + Self.le64(0) + Self.le64(end)
            segment += Self.le(5) + Self.le(5) + Self.le(1) + Self.le(0)
            var section: [UInt8] = Self.name("__cstring") + Self.name("__TEXT")
            section += Self.le64(stringsOffset) + Self.le64(cstrings.count) + Self.le(UInt32(stringsOffset))
            for field: UInt32 in [0, 0, 0, 2, 0, 0, 0] { section += Self.le(field) }
            commands += segment + section
        }
        let dataOffset = (stringsOffset + cstrings.count + padding + 15) / 16 * 16
        if signed { commands += Self.le(0x1D) + Self.le(16) + Self.le(UInt32(dataOffset)) + Self.le(UInt32(signature.count)) }
        let count = 1 + (cstrings.isEmpty ? 0 : 1) + (signed ? 1 : 0)
        var image: [UInt8] = Self.le(0xFEED_FACF) + Self.le(cpuType) + Self.le(0) + Self.le(2)
        image += Self.le(UInt32(count)) + Self.le(UInt32(commandsSize)) + Self.le(0) + Self.le(0)
        image += commands + cstrings
        image += [UInt8](repeating: 0, count: dataOffset - image.count)
        return signed ? image + signature : image
    }

    /// A universal binary of `images`, each aligned to 16 KB as `lipo` aligns arm64.
    package static func fat(_ images: [[UInt8]]) -> [UInt8] {
        var header = be(0xCAFE_BABE) + be(UInt32(images.count))
        var body: [UInt8] = []
        var offset = 1 << 14
        for image in images {
            header += be(0x0100_000C) + be(0) + be(UInt32(offset)) + be(UInt32(image.count)) + be(14)
            body += [UInt8](repeating: 0, count: offset - (1 << 14) - body.count) + image
            offset = (1 << 14) + (body.count + (1 << 14) - 1) / (1 << 14) * (1 << 14)
        }
        return header + [UInt8](repeating: 0, count: (1 << 14) - header.count) + body
    }
}
