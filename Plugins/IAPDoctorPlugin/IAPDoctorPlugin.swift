import Foundation
import PackagePlugin

/// `swift package plugin iapdoctor check project.yaml` (also `report`, `init`, `rules`, `explain`):
/// builds the `iapdoctor` product of this package (release) and runs it, in the package's folder, with the
/// arguments as given. `report` and `init` write files, so the package folder must be writable
/// (`--allow-writing-to-package-directory`); `check` writes only with `--output`.
@main
struct IAPDoctorPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // The package's own executable product, built by the package manager (a command plugin of
        // the same package cannot take it as a tool dependency).
        let build = try packageManager.build(.product("iapdoctor"), parameters: .init(configuration: .release))
        guard build.succeeded, let tool = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
            Diagnostics.error("building iapdoctor failed:\n\(build.logText)")
            throw ExitCode(3)
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // The tool's exit code is the result (1: findings at or above --fail-on, 2: input errors).
        if process.terminationReason == .exit, process.terminationStatus != 0 {
            Diagnostics.error("iapdoctor exited with \(process.terminationStatus)")
            throw ExitCode(process.terminationStatus)
        }
    }
}

struct ExitCode: Error, CustomStringConvertible {
    let status: Int32
    init(_ status: Int32) { self.status = status }
    var description: String { "iapdoctor exited with \(status)" }
}
