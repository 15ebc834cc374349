import Foundation

/// A temporary folder a test writes its files into, removed when the value is released.
package final class FixtureFolder {
    package let folder: String

    package init(_ name: String = "files") {
        folder = NSTemporaryDirectory() + "iapdoctor-\(name)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `text` at `relative`, making the folders on the way.
    package func write(_ relative: String, _ text: String) {
        let path = folder + "/" + relative
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
