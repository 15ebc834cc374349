import Foundation

/// A folder of source files written by a test, removed when the value is released.
final class SourceFolder {
    let folder = NSTemporaryDirectory() + "iapdoctor-sources-\(UUID().uuidString)"

    init() {
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func write(_ relative: String, _ text: String) {
        let path = folder + "/" + relative
        try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
