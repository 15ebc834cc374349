import Foundation
@testable import Formats
@testable import Loaders
@testable import ZIPReader
import Testing
import TestSupport

/// Builds that are not what Xcode writes, made here: ZIP entries cut short, that lie about their
/// sizes or checksum, executables whose architectures overlap or whose headers run long, and
/// links. Each is refused with a finding naming the file, or read at the cost of a real build;
/// beside each, the ordinary input it departs from is read as before.
@Suite("Hostile builds", .timeLimit(.minutes(1)))
struct HostileBuildTests {
    static let info: [UInt8] = Array(
        try! PropertyListSerialization.data(
            fromPropertyList: ["CFBundleIdentifier": "com.acme.coins", "CFBundleExecutable": "Coins"], format: .binary, options: 0))

    /// Bytes that deflate about 2:1 (a real executable's ratio), the same on every run.
    static func code(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 60)
        }
    }

    func refusal(_ path: String) -> String {
        do {
            _ = try BuiltApp.load(path: path)
            return "read"
        } catch {
            return error.finding.message + " | " + (error.finding.location?.file ?? "")
        }
    }

    /// A deflate stream that has not ended when the entry's stored bytes do (a stored block that
    /// claims 65,535 bytes and holds 10) is damaged, and said so at once; so is every cut of a
    /// real entry. The whole entry reads.
    @Test func aDeflateStreamCutShortIsDamaged() throws {
        let folder = try makeScratchFolder("hostile-zip")
        defer { removeScratch(folder) }
        var cut = TestZIP.Entry.file("Payload/Coins.app/Info.plist", Self.info)
        cut.stored = [0x00, 0xFF, 0xFF, 0x00, 0x00] + Array("<?xml vers".utf8)
        cut.statedCompressedSize = UInt64(cut.stored.count)
        cut.uncompressedSize = 65_535
        let ipa = try TestZIP.write([cut], to: folder + "/Cut.ipa")
        let message = refusal(ipa)
        #expect(message.contains("Info.plist` is damaged: its deflate stream has not ended when its 15 stored bytes do"), "\(message)")
        #expect(message.hasSuffix("| " + ipa))

        let whole = TestZIP.Entry.file("Payload/Coins.app/Info.plist", Self.code(100_000))
        let archive = try ZIPArchive(ZIPArchive.Bytes(TestZIP.bytes([whole])))
        var entries: [ZIPArchive.Entry] = []
        try archive.forEachEntry { entries.append($0) }
        var inflated: [UInt8] = []
        try archive.inflate(entries[0]) { piece, _ in inflated += piece }
        #expect(inflated == Self.code(100_000))
        for length in stride(from: 0, to: whole.stored.count, by: 997) {
            var part = whole
            part.stored = Array(whole.stored.prefix(length))
            part.statedCompressedSize = UInt64(length)
            let damaged = try ZIPArchive(ZIPArchive.Bytes(TestZIP.bytes([part])))
            var entry: ZIPArchive.Entry?
            try damaged.forEachEntry { entry = $0 }
            #expect(throws: ZIPArchive.Problem.self, "cut at \(length)") { try damaged.inflate(try #require(entry)) { _, _ in } }
        }
    }

    /// The bomb ratio counts the stored bytes inflation consumed: a central directory that
    /// states far more (inside the archive, or past its end) buys the entry nothing.
    @Test func aBombIsMeasuredByTheBytesItConsumed() throws {
        let folder = try makeScratchFolder("hostile-zip")
        defer { removeScratch(folder) }
        var bomb = TestZIP.Entry.file("Payload/Coins.app/Coins", [UInt8](repeating: 0, count: 10 << 20))
        // Stated as 300 KB (a ratio of 35 by that size): the filler entry after it keeps that
        // inside the archive.
        bomb.statedCompressedSize = UInt64(bomb.stored.count + 290_000)
        let filler = TestZIP.Entry.file("Payload/Coins.app/Filler", Self.code(300_000), deflated: false)
        let info = TestZIP.Entry.file("Payload/Coins.app/Info.plist", Self.info)
        let stated = refusal(try TestZIP.write([info, bomb, filler], to: folder + "/Bomb.ipa"))
        #expect(stated.contains("Coins` inflates to more than 200 times its stored size: a ZIP bomb"), "\(stated)")

        bomb.statedCompressedSize = 0xFFFF_FFF0
        let past = refusal(try TestZIP.write([info, bomb], to: folder + "/Past.ipa"))
        #expect(past.contains("Coins` is damaged: it claims 4294967280 stored bytes, which run past the archive's end"), "\(past)")

        // The same archive with an executable of real code reads.
        var image = MachOImage()
        image.padding = 0
        let executable = TestZIP.Entry.file("Payload/Coins.app/Coins", image.bytes() + Self.code(2 << 20))
        let app = try BuiltApp.load(path: try TestZIP.write([info, executable], to: folder + "/Real.ipa"))
        #expect(app.bundleID?.value == "com.acme.coins")
    }

    /// A CRC-32 that differs from the central directory's is damage, not a file to read.
    @Test func aChecksumThatDiffersIsDamaged() throws {
        let folder = try makeScratchFolder("hostile-zip")
        defer { removeScratch(folder) }
        var info = TestZIP.Entry.file("Payload/Coins.app/Info.plist", Self.info)
        let right = info.crc32
        info.crc32 ^= 0x8000_0001
        let message = refusal(try TestZIP.write([info], to: folder + "/CRC.ipa"))
        #expect(message.contains("Info.plist` is damaged: its CRC-32 is 0x"), "\(message)")
        #expect(message.contains("where its central directory states 0x"), "\(message)")
        info.crc32 = right
        #expect(try BuiltApp.load(path: try TestZIP.write([info], to: folder + "/Right.ipa")).bundleID?.value == "com.acme.coins")
    }

    /// An archive whose classic end record only says "see ZIP64" (0xFFFF entries, 0xFFFFFFFF
    /// size and offset): the ZIP64 end record behind its locator gives the directory, and a
    /// locator pointing past the archive is refused with the reason.
    @Test func zip64EndRecordGivesTheDirectory() throws {
        func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * $0) & 0xFF) } }
        let plain = TestZIP.bytes([.file("Payload/Coins.app/Info.plist", Array("<plist/>".utf8)), .file("Payload/Coins.app/Coins", [1, 2, 3])])
        let endStart = plain.count - 22
        let directorySize = UInt64(plain[endStart + 12]) | UInt64(plain[endStart + 13]) << 8 | UInt64(plain[endStart + 14]) << 16
        let directoryOffset = UInt64(plain[endStart + 16]) | UInt64(plain[endStart + 17]) << 8 | UInt64(plain[endStart + 18]) << 16
        func archive(recordAt recordOffset: UInt64) -> [UInt8] {
            let record = [0x50, 0x4B, 0x06, 0x06] + le64(44) + TestZIP.le16(45) + TestZIP.le16(45) + TestZIP.le32(0) + TestZIP.le32(0)
                + le64(2) + le64(2) + le64(directorySize) + le64(directoryOffset)
            let locator = [0x50, 0x4B, 0x06, 0x07] + TestZIP.le32(0) + le64(recordOffset) + TestZIP.le32(1)
            let end = [0x50, 0x4B, 0x05, 0x06] + TestZIP.le16(0xFFFF) + TestZIP.le16(0xFFFF) + TestZIP.le16(0xFFFF) + TestZIP.le16(0xFFFF)
                + TestZIP.le32(0xFFFF_FFFF) + TestZIP.le32(0xFFFF_FFFF) + TestZIP.le16(0)
            return Array(plain[..<endStart]) + record + locator + end
        }
        let zip = try ZIPArchive(ZIPArchive.Bytes(archive(recordAt: UInt64(endStart))))
        #expect(zip.statedEntryCount == 2)
        var names: [String] = []
        try zip.forEachEntry { names.append($0.name) }
        #expect(names == ["Payload/Coins.app/Info.plist", "Payload/Coins.app/Coins"])
        // The classic archive reads the same entries (the control).
        var plainNames: [String] = []
        try ZIPArchive(ZIPArchive.Bytes(plain)).forEachEntry { plainNames.append($0.name) }
        #expect(plainNames == names)
        #expect(throws: ZIPArchive.Problem("its ZIP64 end record is missing or points outside the archive")) {
            try ZIPArchive(ZIPArchive.Bytes(archive(recordAt: 1 << 40)))
        }
        #expect(throws: ZIPArchive.Problem("its ZIP64 end record is missing or points outside the archive")) {
            try ZIPArchive(ZIPArchive.Bytes(archive(recordAt: 0)))
        }
    }

    /// ZIP64's extended information gives the 64-bit sizes and offset a record sets to
    /// 0xFFFFFFFF, in order, and only those; an entry's kind comes from its Unix mode, else from
    /// its name or MS-DOS's directory attribute.
    @Test func zip64FieldsAndEntryKinds() {
        var entry = ZIPArchive.Entry(
            name: "Payload/Coins.app/Coins", flags: 0, method: 8, crc32: 0, compressedSize: 0xFFFF_FFFF, uncompressedSize: 0xFFFF_FFFF,
            localHeaderOffset: 12, versionMadeBy: 0x031E, externalAttributes: 0o100644 << 16)
        let other: [UInt8] = [0x0A, 0x00, 0x04, 0x00, 1, 2, 3, 4]
        func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * $0) & 0xFF) } }
        ZIPArchive.applyZIP64(other + [0x01, 0x00, 0x10, 0x00] + le64(5_000_000_000) + le64(6_000_000_000), to: &entry)
        #expect(entry.uncompressedSize == 5_000_000_000 && entry.compressedSize == 6_000_000_000 && entry.localHeaderOffset == 12)
        #expect(entry.kind == .file)
        entry.externalAttributes = 0o120777 << 16
        #expect(entry.kind == .symbolicLink)
        entry.externalAttributes = 0o040755 << 16
        #expect(entry.kind == .directory)
        entry.versionMadeBy = 0x0014
        entry.externalAttributes = 0x10
        #expect(entry.kind == .directory)
        entry.externalAttributes = 0x20
        #expect(entry.kind == .file)
        entry.name = "Payload/"
        #expect(entry.kind == .directory)
    }

    /// The executable of an `.ipa`, read through `ExportedApp.signature`: passes and bytes held.
    func streamed(_ executable: [UInt8]) throws -> (signature: BuiltApp.Signature, passes: Int, held: Int) {
        let archive = try ZIPArchive(ZIPArchive.Bytes(TestZIP.bytes([TestZIP.Entry.file("Coins", executable)])))
        var entry: ZIPArchive.Entry?
        try archive.forEachEntry { entry = $0 }
        return try ExportedApp.signature(of: try #require(entry), in: archive, shownAs: "Coins.ipa/Payload/Coins.app/Coins")
    }

    /// Sixteen architectures that overlap, each signed over the rest of the file: each byte is
    /// held once, and a signature only as far as its index and entitlements.
    @Test func overlappingArchitecturesHoldEachByteOnce() throws {
        let total = 8 << 20
        var bytes = Self.code(total)
        var header = MachOImage.be(0xCAFE_BABE) + MachOImage.be(16)
        let signature = MachOImage().superblob()
        for index in 0..<16 {
            let base = 4096 * (index + 1), size = total - base
            header += MachOImage.be(0x0100_000C) + MachOImage.be(0) + MachOImage.be(UInt32(base)) + MachOImage.be(UInt32(size)) + MachOImage.be(12)
            var image = MachOImage.le(0xFEED_FACF) + MachOImage.le(0x0100_000C) + MachOImage.le(0) + MachOImage.le(2)
            image += MachOImage.le(1) + MachOImage.le(16) + MachOImage.le(0) + MachOImage.le(0)
            image += MachOImage.le(0x1D) + MachOImage.le(16) + MachOImage.le(1 << 20) + MachOImage.le(UInt32(size - (1 << 20)))
            bytes.replaceSubrange(base..<base + image.count, with: image)
            bytes.replaceSubrange(base + (1 << 20)..<base + (1 << 20) + signature.count, with: signature)
        }
        bytes.replaceSubrange(0..<header.count, with: header)
        let read = try streamed(bytes)
        #expect(read.signature.isSigned && read.signature.applicationIdentifier?.value == "ABCDE12345.com.acme.coins")
        #expect(read.passes == 1)
        #expect(read.held < 256 << 10, "held \(read.held) bytes of \(total)")

        // A universal binary as lipo writes it: one pass too, the same facts as read whole.
        let fat = MachOImage.fat([MachOImage().bytes(), MachOImage().bytes()])
        let ordinary = try streamed(fat)
        #expect(ordinary.passes == 1 && ordinary.signature.applicationIdentifier?.value == "ABCDE12345.com.acme.coins")
    }

    /// Load commands that end past the first 64 KB, and a signature of 16 blobs: one pass, the
    /// commands' size read from the header as it streams by and every blob planned at once.
    @Test func longLoadCommandsAndManyBlobsTakeOnePass() throws {
        let entitlements = Array(MachOImage().entitlements!.utf8)
        let blob = MachOImage.be(0xFADE_7171) + MachOImage.be(UInt32(8 + entitlements.count)) + entitlements
        var index: [UInt8] = [], body: [UInt8] = []
        for number in 0..<16 {
            index += MachOImage.be(5) + MachOImage.be(UInt32(12 + 16 * 8 + number * blob.count))
            body += blob
        }
        let superblob = MachOImage.be(0xFADE_0CC0) + MachOImage.be(UInt32(12 + index.count + body.count)) + MachOImage.be(16) + index + body
        let filler = 100_000
        let commands = MachOImage.le(0x99) + MachOImage.le(UInt32(filler)) + [UInt8](repeating: 0, count: filler - 8)
        let signatureOffset = 32 + filler + 16 + 1_000_000
        var image = MachOImage.le(0xFEED_FACF) + MachOImage.le(0x0100_000C) + MachOImage.le(0) + MachOImage.le(2)
        image += MachOImage.le(2) + MachOImage.le(UInt32(filler + 16)) + MachOImage.le(0) + MachOImage.le(0) + commands
        image += MachOImage.le(0x1D) + MachOImage.le(16) + MachOImage.le(UInt32(signatureOffset)) + MachOImage.le(UInt32(superblob.count))
        image += Self.code(signatureOffset - image.count) + superblob
        let read = try streamed(image)
        #expect(read.passes == 1)
        #expect(read.signature.applicationIdentifier?.value == "ABCDE12345.com.acme.coins")
        #expect(read.held < 256 << 10, "held \(read.held)")

        // The ordinary executable, its signature 300 KB in: one pass as well.
        var ordinary = MachOImage()
        ordinary.padding = 300_000
        ordinary.strings = ["com.acme.coins.gold"]
        let plain = try streamed(ordinary.bytes())
        #expect(plain.passes == 1 && plain.signature.identifierStrings == ["com.acme.coins.gold"])
    }

    /// An executable that is a link, in an `.ipa` or an app bundle, is named as one and not followed.
    @Test func aLinkedExecutableIsNamedAndNotFollowed() throws {
        let folder = try makeScratchFolder("hostile-link")
        defer { removeScratch(folder) }
        let ipa = try TestZIP.write([
            TestZIP.Entry.file("Payload/Coins.app/Info.plist", Self.info), TestZIP.Entry.link("Payload/Coins.app/Coins", to: "Real"),
            TestZIP.Entry.file("Payload/Coins.app/Real", MachOImage().bytes()),
        ], to: folder + "/Link.ipa")
        let zipped = refusal(ipa)
        #expect(zipped.contains("Coins.app/Coins`, the app's executable, is a symbolic link, which iapdoctor does not follow inside a build"), "\(zipped)")

        try BuiltAppFixture().writeApp(at: folder + "/Coins.app")
        #expect(try BuiltApp.load(path: folder + "/Coins.app").signature?.isSigned == true)
        try FileManager.default.moveItem(atPath: folder + "/Coins.app/Coins", toPath: folder + "/Coins.app/Real")
        try FileManager.default.createSymbolicLink(atPath: folder + "/Coins.app/Coins", withDestinationPath: "Real")
        let bundled = refusal(folder + "/Coins.app")
        #expect(bundled.contains("Coins.app/Coins`, the app's executable, is a symbolic link"), "\(bundled)")
        #expect(bundled.hasSuffix("| " + folder + "/Coins.app/Coins"))
    }

    /// A file of the bundle that links out of the build is refused, with or without a project
    /// confinement around it; one that links inside the build is read.
    @Test func aLinkOutOfAFolderBuildIsRefused() throws {
        let folder = try makeScratchFolder("hostile-link")
        defer { removeScratch(folder) }
        let archive = try BuiltAppFixture().writeArchive(in: folder)
        let bundle = archive + "/Products/Applications/Coins.app"
        try FileManager.default.moveItem(atPath: bundle + "/embedded.mobileprovision", toPath: folder + "/outside.mobileprovision")
        try FileManager.default.createSymbolicLink(atPath: bundle + "/embedded.mobileprovision", withDestinationPath: "../../../../outside.mobileprovision")
        let unconfined = refusal(archive)
        #expect(unconfined.contains("embedded.mobileprovision`: it is, or is inside, a symbolic link that leads outside the build"), "\(unconfined)")
        let confined = try Workspace.withConfinement(root: folder) { () throws -> String in refusal(archive) }
        #expect(confined == unconfined)

        try FileManager.default.removeItem(atPath: bundle + "/embedded.mobileprovision")
        try FileManager.default.moveItem(atPath: folder + "/outside.mobileprovision", toPath: bundle + "/Profile.mobileprovision")
        try FileManager.default.createSymbolicLink(atPath: bundle + "/embedded.mobileprovision", withDestinationPath: "Profile.mobileprovision")
        #expect(try BuiltApp.load(path: archive).profile?.type == .development)
    }
}
