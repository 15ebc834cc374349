import Foundation

/// The project's shared folder (`spec/`, `samples/`), which sits beside the repository as
/// `../shared` in the project's CI and on the developers' machines, but not in a plain clone. Tests
/// that read it are skipped, by name and with this reason, when it is missing; with
/// `IAPDOCTOR_REQUIRE_SHARED=1` (the project's CI, `.ci/run`) they run and fail instead.
package enum SharedFolder {
    package static let path = URL(fileURLWithPath: repositoryRoot).deletingLastPathComponent().appendingPathComponent("shared").path

    package static func file(_ relative: String) -> String { path + "/" + relative }

    package static var isAvailable: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether these tests must run: beside a shared folder, or where it is required.
    package static var isRequired: Bool { isAvailable || environmentRequires("IAPDOCTOR_REQUIRE_SHARED") }

    /// The reason a test skips without it (`Comment(rawValue:)` in a trait).
    package static let skipReason = "../shared (the project's spec and samples) is not beside this checkout; IAPDOCTOR_REQUIRE_SHARED=1 makes it required"
}

/// Whether the tests that need tools a machine may lack (Chromium or Google Chrome, Python with
/// jsonschema and PyYAML) must run: `IAPDOCTOR_REQUIRE_TOOLS=1`, where `scripts/bootstrap.sh --tests` has
/// installed them (`.ci/run`, the GitHub workflow). Elsewhere they skip by name when a tool is missing.
package var toolsRequired: Bool { environmentRequires("IAPDOCTOR_REQUIRE_TOOLS") }

/// A variable set to anything but empty, `0` or `false`. Not `CI`: GitHub Actions and other
/// runners set that everywhere, and a plain clone's tests must pass there.
package func environmentRequires(_ name: String) -> Bool {
    let value = ProcessInfo.processInfo.environment[name] ?? ""
    return !value.isEmpty && value != "0" && value.lowercased() != "false"
}
