import Foundation
import Testing
import TestSupport

/// The real `.storekit` files among the samples (the carried copies, and `../shared`'s when it is
/// beside the checkout), read by both parsers.
@Suite struct SampleTests {
    @Test(arguments: SharedFolder.files("samples", extensions: ["storekit", "json"]))
    func samplesReadAlike(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(TwinTests.difference(bytes) == nil, "\(path)")
    }

    @Test func theCarriedSamplesAreThere() {
        #expect(SharedFolder.files("samples", extensions: ["storekit"]).count >= 3)
    }
}
