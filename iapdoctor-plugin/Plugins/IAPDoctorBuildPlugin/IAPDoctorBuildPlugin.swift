import Foundation
import PackagePlugin

/// Runs `iapdoctor check --format xcode` before a target builds, on the target's descriptor
/// (`iapdoctor.yaml`, or a `project.yaml` that iapdoctor wrote, in the target's folder or the
/// package's or project's) or, without one, on the `.storekit` files among its files. The
/// findings show in the build log and Xcode's issue navigator; an error fails the build (the
/// check's exit code), warnings do not. A target with neither gets no command.
@main
struct IAPDoctorBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = CheckInputs.find(
            folders: [target.directoryURL, context.package.directoryURL], files: target.sourceFiles.map(\.url))
        guard !inputs.isEmpty else { return [] }
        return [try CheckInputs.command(tool: context.tool(named: "iapdoctor").url, inputs: inputs, target: target.name,
                                        work: context.pluginWorkDirectoryURL)]
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension IAPDoctorBuildPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let inputs = CheckInputs.find(folders: [context.xcodeProject.directoryURL], files: target.inputFiles.map(\.url))
        guard !inputs.isEmpty else { return [] }
        return [try CheckInputs.command(tool: context.tool(named: "iapdoctor").url, inputs: inputs, target: target.displayName,
                                        work: context.pluginWorkDirectoryURL)]
    }
}
#endif

enum CheckInputs {
    /// The descriptor in the first folder that has one, else every `.storekit` file among `files`.
    static func find(folders: [URL], files: [URL]) -> [URL] {
        for folder in folders {
            for name in ["iapdoctor.yaml", "project.yaml"] {
                let candidate = folder.appendingPathComponent(name)
                if isDescriptor(candidate) { return [candidate] }
            }
        }
        return files.filter { $0.pathExtension.lowercased() == "storekit" }.sorted { $0.path < $1.path }
    }

    /// `iapdoctor.yaml` always; `project.yaml` only when iapdoctor wrote it (XcodeGen's is also
    /// called `project.yaml`): its first lines name iapdoctor's schema.
    static func isDescriptor(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        if url.lastPathComponent == "iapdoctor.yaml" { return true }
        let head = String(decoding: (try? handle.read(upToCount: 512)) ?? Data(), as: UTF8.self)
        return head.contains("iapdoctor")
    }

    static func command(tool: URL, inputs: [URL], target: String, work: URL) throws -> Command {
        .prebuildCommand(
            displayName: "iapdoctor check (\(target))",
            executable: tool,
            arguments: ["check", "--format", "xcode"] + inputs.map(\.path),
            outputFilesDirectory: work.appendingPathComponent("iapdoctor"))
    }
}
