import Foundation
import Testing
import TestSupport

/// The JSON files among the shared samples (real `.storekit` files), read by both parsers.
@Suite struct SampleTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/samples").path

    static var available: Bool { FileManager.default.fileExists(atPath: samples) }
    static var required: Bool { available || environmentRequires("IAPDOCTOR_REQUIRE_SHARED") }

    @Test(.enabled(if: required, Comment(rawValue: SharedFolder.skipReason)))
    func sharedSamplesReadAlike() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.samples)
            .filter { $0.hasSuffix(".storekit") || $0.hasSuffix(".json") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.samples + "/" + name)))
            #expect(TwinTests.difference(bytes) == nil, "\(name)")
        }
    }
}
