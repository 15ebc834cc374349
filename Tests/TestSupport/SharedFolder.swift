import Foundation

/// The project's shared folder (`spec/`, `samples/`), which sits beside the repository as
/// `../shared` in CI and on the developers' machines, but not in a plain clone. Tests that read
/// it are skipped, by name and with this reason, when it is missing; under CI they run and fail.
package enum SharedFolder {
    package static let path = URL(fileURLWithPath: repositoryRoot).deletingLastPathComponent().appendingPathComponent("shared").path

    package static func file(_ relative: String) -> String { path + "/" + relative }

    package static var isAvailable: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether these tests must run: beside a shared folder, or in CI (which always has one).
    package static var isRequired: Bool { isAvailable || runningInCI }

    /// The reason a test skips without it (`Comment(rawValue:)` in a trait).
    package static let skipReason = "../shared (the project's spec and samples) is not beside this checkout"
}

/// CI sets `CI` (GitHub Actions and `.ci/run` alike): tests that skip elsewhere must run there.
package var runningInCI: Bool {
    let value = ProcessInfo.processInfo.environment["CI"] ?? ""
    return !value.isEmpty && value != "0" && value.lowercased() != "false"
}
