import Foundation
import PackagePlugin

/// `swift package iapdoctor check project.yaml` (also `report`, `init`, `rules`, `explain`, and
/// `check --fix`): runs the released iapdoctor in the package's folder with the arguments as given.
/// Writing commands need `--allow-writing-to-package-directory`.
@main
struct IAPDoctorCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let process = Process()
        process.executableURL = try context.tool(named: "iapdoctor").url
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // The tool's exit code is the result (1: findings at or above --fail-on, 2: input errors).
        if process.terminationReason == .exit, process.terminationStatus != 0 {
            Diagnostics.error("iapdoctor exited with \(process.terminationStatus)")
            throw Failure(status: process.terminationStatus)
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    let status: Int32
    var description: String { "iapdoctor exited with \(status)" }
}
