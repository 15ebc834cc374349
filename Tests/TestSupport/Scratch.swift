import Foundation

/// Every file and folder these tests make lives under one folder of this test process, which is
/// removed when the process exits; tests that make large inputs remove theirs as they finish.
package let scratchRoot: String = {
    let root = NSTemporaryDirectory() + "iapdoctor-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    atexit { removeScratchRoot() }
    return root
}()

private func removeScratchRoot() {
    try? FileManager.default.removeItem(atPath: scratchRoot)
}

/// A new, unused path under the scratch folder: `name`, a unique part, then `suffix`.
package func scratchPath(_ name: String, suffix: String = "") -> String {
    scratchRoot + "/\(name)-\(UUID().uuidString)\(suffix)"
}

/// A new, empty folder under the scratch folder; the caller removes it (`removeScratch`).
package func makeScratchFolder(_ name: String, suffix: String = "") throws -> String {
    let folder = scratchPath(name, suffix: suffix)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

package func removeScratch(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}
