import Foundation
@testable import Formats
import Testing
import TestSupport

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

    /// `__TEXT,__cstring` gives the strings shaped like product IDs, in a thin or a universal
    /// binary; a section pointing past the image gives none, and is no problem.
    @Test func theStringConstantsShapedLikeIDs() throws {
        var image = MachOImage()
        image.strings = ["com.acme.coins.gold100", "Hello, world", "ok", "pro_monthly", "%@ failed: %d"]
        let thin = try CodeSignature.read(CodeSignature.Bytes(image.bytes()), file: "App")
        #expect(thin[0].identifierStrings == ["com.acme.coins.gold100", "pro_monthly"])
        #expect(thin[0].isSigned && thin[0].entitlementsXML != nil)
        let fat = try CodeSignature.read(CodeSignature.Bytes(MachOImage.fat([image.bytes(), MachOImage().bytes()])), file: "App")
        #expect(fat.map(\.identifierStrings) == [["com.acme.coins.gold100", "pro_monthly"], nil])

        var pastEnd = image.bytes()
        // The section's `offset`: header 32, LC_UUID 24, segment command 72, then 48 into the section.
        let offsetAt = 32 + 24 + 72 + 48
        pastEnd.replaceSubrange(offsetAt..<offsetAt + 4, with: MachOImage.le(UInt32(pastEnd.count)))
        let slices = try CodeSignature.read(CodeSignature.Bytes(pastEnd), file: "App")
        #expect(slices[0].identifierStrings == nil && slices[0].isSigned)
    }

    /// `regions` names every range `read` asks for: the headers and load commands, the
    /// signature's index and entitlements (never the signature whole), and the strings read.
    /// Reading only those gives what reading everything gives.
    @Test func theRegionsAreWhatReadAsksFor() throws {
        var image = MachOImage()
        image.strings = ["com.acme.coins.gold100"]
        image.padding = 100_000
        let bytes = image.bytes()
        let regions = try CodeSignature.regions(CodeSignature.Bytes(bytes), file: "App")
        let stringsStart = 32 + 24 + 152 + 16
        #expect(regions.contains(stringsStart..<stringsStart + 23))
        #expect(regions.allSatisfy { $0.upperBound <= bytes.count })
        #expect(regions.reduce(0) { $0 + $1.count } < 2_000, "\(regions)")

        struct Only: CodeSignature.Source {
            let data: [UInt8], ranges: [Range<Int>]
            var count: Int { data.count }
            func bytes(at offset: Int, count: Int) -> [UInt8]? {
                guard ranges.contains(where: { $0.lowerBound <= offset && offset + count <= $0.upperBound }) else { return nil }
                return Array(data[offset..<offset + count])
            }
        }
        #expect(try CodeSignature.read(Only(data: bytes, ranges: regions), file: "App") == CodeSignature.read(CodeSignature.Bytes(bytes), file: "App"))
        let fat = MachOImage.fat([bytes, MachOImage().bytes()])
        let fatRegions = try CodeSignature.regions(CodeSignature.Bytes(fat), file: "App")
        #expect(try CodeSignature.read(Only(data: fat, ranges: fatRegions), file: "App") == CodeSignature.read(CodeSignature.Bytes(fat), file: "App"))
    }

    /// Architectures that share one `__cstring` (or each have their own): the strings are read
    /// once, for the first that has them, which is the one used.
    @Test func sharedStringConstantsAreReadOnce() throws {
        var image = MachOImage()
        image.strings = (0..<100_000).map { "com.acme.coins.item\($0)" }
        let thin = image.bytes()
        // Four architectures at one offset: the same image, the same strings.
        var fat = MachOImage.be(0xCAFE_BABE) + MachOImage.be(4)
        for cpu: UInt32 in [0, 1, 2, 3] {
            fat += MachOImage.be(0x0100_000C) + MachOImage.be(cpu) + MachOImage.be(16_384) + MachOImage.be(UInt32(thin.count)) + MachOImage.be(14)
        }
        fat += [UInt8](repeating: 0, count: 16_384 - fat.count) + thin
        final class Counting: CodeSignature.Source {
            let data: [UInt8]
            var read = 0
            init(_ data: [UInt8]) { self.data = data }
            var count: Int { data.count }
            func bytes(at offset: Int, count: Int) -> [UInt8]? {
                read += count
                return CodeSignature.Bytes(data).bytes(at: offset, count: count)
            }
        }
        let source = Counting(fat)
        let slices = try CodeSignature.read(source, file: "App")
        #expect(slices.count == 4)
        #expect(slices[0].identifierStrings?.count == 100_000)
        #expect(slices.dropFirst().allSatisfy { $0.identifierStrings == nil && $0.isSigned })
        let strings = image.strings.reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(source.read < strings + 8_192, "read \(source.read) bytes for \(strings) of strings")
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

    /// The string scan (`memchr` and `strspn`) finds what the byte-by-byte twin finds, on
    /// sections of IDs, other text, bytes past 0x7F, long runs and a last string without its NUL.
    @Test func theStringScanEqualsItsTwin() {
        var state: UInt64 = 7
        let alphabet = Array("ab.Z9_-\u{0} %é".utf8) + [0x00, 0x00, 0xFF, 0x80]
        for length in [0, 1, 2, 3, 4, 17, 300, 4_096, 70_000] {
            let bytes = (0..<length).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return alphabet[Int(state >> 33) % alphabet.count]
            }
            #expect(CodeSignature.identifierStrings(bytes) == CodeSignature.identifierStringsByteByByte(bytes), "length \(length)")
        }
        let section = Array("com.acme.gold\0a\0abc\0\(String(repeating: "x", count: 255))\0\(String(repeating: "y", count: 256))\0tail".utf8)
        #expect(CodeSignature.identifierStrings(section) == ["com.acme.gold", "abc", String(repeating: "x", count: 255)])
        #expect(CodeSignature.identifierStrings(section) == CodeSignature.identifierStringsByteByByte(section))
        // Past the limit, the first strings in section order.
        #expect(CodeSignature.identifierStrings(section, limit: 2) == ["com.acme.gold", "abc"])
        #expect(CodeSignature.identifierStringsByteByByte(section, limit: 2) == ["com.acme.gold", "abc"])
    }

    @Test func aFileIsReadInPieces() throws {
        let path = NSTemporaryDirectory() + "iapdoctor-macho-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(MachOImage.fat([MachOImage().bytes()])).write(to: URL(fileURLWithPath: path))
        let slices = try CodeSignature.read(path: path)
        #expect(slices.count == 1 && slices[0].entitlementsXML != nil)
    }
}
