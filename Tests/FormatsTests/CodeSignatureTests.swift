import Foundation
@testable import Formats
import Testing

/// Mach-O images written byte by byte, as the linker and `codesign` lay them out: a header, load
/// commands, and at `LC_CODE_SIGNATURE`'s offset a big-endian superblob of blobs.
struct MachOImage {
    var cpuType: UInt32 = 0x0100_000C
    var entitlements: String? = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>application-identifier</key><string>ABCDE12345.com.acme.coins</string></dict></plist>\n"
    var der = true
    var signed = true

    static func le(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }
    static func be(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    func superblob() -> [UInt8] {
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

    /// A thin 64-bit little-endian image: a `LC_UUID`, then (when signed) `LC_CODE_SIGNATURE`.
    func bytes() -> [UInt8] {
        let uuid = Self.le(0x1B) + Self.le(24) + [UInt8](repeating: 7, count: 16)
        let signature = superblob()
        var commands = uuid
        let headerSize = 32
        let commandsSize = uuid.count + (signed ? 16 : 0)
        let dataOffset = (headerSize + commandsSize + 15) / 16 * 16
        if signed { commands += Self.le(0x1D) + Self.le(16) + Self.le(UInt32(dataOffset)) + Self.le(UInt32(signature.count)) }
        var image = Self.le(0xFEED_FACF) + Self.le(cpuType) + Self.le(0) + Self.le(2)
            + Self.le(signed ? 2 : 1) + Self.le(UInt32(commandsSize)) + Self.le(0) + Self.le(0) + commands
        image += [UInt8](repeating: 0, count: dataOffset - image.count)
        return signed ? image + signature : image
    }

    /// A universal binary of `images`, each aligned to 16 KB as `lipo` aligns arm64.
    static func fat(_ images: [[UInt8]]) -> [UInt8] {
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

@Suite("Code signatures of Mach-O executables")
struct CodeSignatureTests {
    @Test func aThinImageGivesItsEntitlements() throws {
        let slices = try CodeSignature.read(CodeSignature.Bytes(MachOImage().bytes()), file: "App")
        #expect(slices.count == 1)
        #expect(slices[0].isSigned && slices[0].hasDEREntitlements)
        #expect(slices[0].cpuType == 0x0100_000C)
        let xml = String(decoding: try #require(slices[0].entitlementsXML), as: UTF8.self)
        #expect(xml.contains("<string>ABCDE12345.com.acme.coins</string>"))
    }

    @Test func aUniversalBinaryGivesEachArchitecture() throws {
        var intel = MachOImage()
        intel.cpuType = 0x0100_0007
        intel.entitlements = "<plist version=\"1.0\"><dict/></plist>"
        intel.der = false
        let slices = try CodeSignature.read(CodeSignature.Bytes(MachOImage.fat([MachOImage().bytes(), intel.bytes()])), file: "App")
        #expect(slices.map(\.cpuType) == [0x0100_000C, 0x0100_0007])
        #expect(slices.map(\.hasDEREntitlements) == [true, false])
        #expect(slices[1].entitlementsXML.map { String(decoding: $0, as: UTF8.self) } == "<plist version=\"1.0\"><dict/></plist>")
    }

    @Test func unsignedAndEntitlementFreeImagesSaySo() throws {
        var unsigned = MachOImage()
        unsigned.signed = false
        #expect(try CodeSignature.read(CodeSignature.Bytes(unsigned.bytes()), file: "App")
            == [CodeSignature.Slice(cpuType: 0x0100_000C, entitlementsXML: nil, hasDEREntitlements: false, isSigned: false)])
        var bare = MachOImage()
        bare.entitlements = nil
        bare.der = false
        #expect(try CodeSignature.read(CodeSignature.Bytes(bare.bytes()), file: "App")
            == [CodeSignature.Slice(cpuType: 0x0100_000C, entitlementsXML: nil, hasDEREntitlements: false, isSigned: true)])
    }

    /// Every cut of a signed image, and offsets and counts pointing past the end, are refused
    /// with a problem, never a trap or a read outside the file.
    @Test func damagedImagesAreRefused() throws {
        let image = MachOImage().bytes()
        for length in stride(from: 0, to: image.count, by: 7) {
            let cut = Array(image.prefix(length))
            #expect(throws: CodeSignature.Problem.self, "cut at \(length)") { try CodeSignature.read(CodeSignature.Bytes(cut), file: "App") }
        }
        var pastEnd = image
        let commandAt = 32 + 24
        pastEnd.replaceSubrange(commandAt + 8..<commandAt + 12, with: MachOImage.le(UInt32(image.count - 4)))
        #expect(throws: CodeSignature.Problem.self) { try CodeSignature.read(CodeSignature.Bytes(pastEnd), file: "App") }
        var manyCommands = image
        manyCommands.replaceSubrange(16..<20, with: MachOImage.le(1_000_000))
        #expect(throws: CodeSignature.Problem.self) { try CodeSignature.read(CodeSignature.Bytes(manyCommands), file: "App") }
        var manyArchitectures = MachOImage.fat([image])
        manyArchitectures.replaceSubrange(4..<8, with: MachOImage.be(0xFFFF_FFFF))
        #expect(throws: CodeSignature.Problem.self) { try CodeSignature.read(CodeSignature.Bytes(manyArchitectures), file: "App") }
        let script = Array("#!/bin/sh\necho hi\n".utf8)
        let problem = try #require(throws: CodeSignature.Problem.self) { try CodeSignature.read(CodeSignature.Bytes(script), file: "App") }
        #expect(problem.message.contains("is not a Mach-O executable"))
    }

    @Test func aFileIsReadInPieces() throws {
        let path = NSTemporaryDirectory() + "iapdoctor-macho-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(MachOImage.fat([MachOImage().bytes()])).write(to: URL(fileURLWithPath: path))
        let slices = try CodeSignature.read(path: path)
        #expect(slices.count == 1 && slices[0].entitlementsXML != nil)
    }
}
