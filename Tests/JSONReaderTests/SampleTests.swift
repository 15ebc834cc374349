import Foundation
import Testing

/// The JSON files among the shared samples (real `.storekit` files), read by both parsers.
@Suite struct SampleTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/samples").path

    static var available: Bool { FileManager.default.fileExists(atPath: samples) }
    static var required: Bool {
        let value = ProcessInfo.processInfo.environment["CI"] ?? ""
        return available || (!value.isEmpty && value != "0" && value.lowercased() != "false")
    }

    @Test(.enabled(if: required, "../shared (the project's spec and samples) is not beside this checkout"))
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
