import Foundation

/// The project's shared folder (`spec/`, `knowledge/`, `samples/`), beside the repository as
/// `../shared` in the project's CI and on the developers' machines, but not in a plain clone.
/// `Tests/Fixtures/shared` carries, at the same relative paths, copies of the files the repository
/// may carry and stand-ins of its own (named `*__OWN.*`) for those it may not (Tests/Fixtures/README.md);
/// `SharedCopyTests` checks the copies against `../shared` when it is there.
package enum SharedFolder {
    package static let path = URL(fileURLWithPath: repositoryRoot).deletingLastPathComponent().appendingPathComponent("shared").path

    /// The repository's copies and stand-ins.
    package static let carried = repositoryFile("Tests/Fixtures/shared")

    package static var isAvailable: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `relative` in `../shared` when it is beside the checkout, else the carried copy.
    package static func file(_ relative: String) -> String { (isAvailable ? path : carried) + "/" + relative }

    /// The folders to test on: the carried `relative` folder, and `../shared`'s when it is there.
    package static func folders(_ relative: String) -> [String] {
        [carried + "/" + relative] + (isAvailable ? [path + "/" + relative] : [])
    }

    /// The files named `*.<extension>` in `folders(relative)`, as full paths.
    package static func files(_ relative: String, extensions: [String]) -> [String] {
        folders(relative).flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { name in extensions.contains { name.hasSuffix("." + $0) } }.sorted().map { folder + "/" + $0 }
        }
    }

    /// Whether `../shared` must be there (`IAPDOCTOR_REQUIRE_SHARED=1`, the project's CI,
    /// `.ci/run`): then `SharedCopyTests` fails without it rather than compare nothing.
    package static var isRequired: Bool { environmentRequires("IAPDOCTOR_REQUIRE_SHARED") }
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
