import Foundation
import Testing
import TestSupport

/// `init`'s summary names what it read from a build or a project: a control character in one of
/// those values is escaped, so it cannot start a line of its own on a terminal or in a CI log.
@Suite("init's summary, escaped")
struct InitEscapingTests {
    @Test func aBuildsBundleIDCannotStartALine() throws {
        let folder = try makeScratchFolder("init-escaped")
        defer { removeScratch(folder) }
        var fixture = BuiltAppFixture()
        fixture.bundleID = "com.acme.coins\n::error::planted\u{1B}[31m"
        fixture.archiveBundleID = nil
        let archive = try fixture.writeIPA(in: folder)
        let written = try runIAPDoctor(["init", archive, "-o", folder + "/project.yaml"])
        #expect(written.status == 0, "\(written.errors)")
        #expect(written.errors.contains("bundle ID com.acme.coins\\u{A}::error::planted\\u{1B}[31m"), "\(written.errors)")
        let lines = (written.output + written.errors).split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("::error::") })
        #expect(!(written.output + written.errors).contains("\u{1B}"))
    }
}
