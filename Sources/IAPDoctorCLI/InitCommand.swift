import ArgumentParser
import Foundation
import IAPDoctor

/// `iapdoctor init [DIR]`: writes a starter descriptor for the Xcode project in DIR.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Writes a starter project.yaml for an Xcode project folder.",
        discussion: """
            Finds the .xcodeproj, Info.plist, entitlements, shared schemes, .storekit files, \
            provisioning profiles, product ID lists and sources, fills their paths (and the bundle ID \
            and team the project builds with) into DIR/project.yaml, and leaves every fact it cannot \
            see as a commented question. Never overwrites a file without --force.
            """)

    @Argument(help: "The project folder (default: the current folder).")
    var directory: String = "."

    @Option(name: .shortAndLong, help: "Where to write the descriptor (default: DIR/project.yaml).")
    var output: String?

    @Flag(help: "Overwrite an existing descriptor.")
    var force = false

    func run() throws {
        guard FileSystem.isDirectory(directory) else {
            writeError("error: `\(directory)` is not a folder\nhelp: give the folder that holds the .xcodeproj")
            throw ExitCode(2)
        }
        let target = output ?? FileSystem.resolve("project.yaml", relativeTo: directory)
        if FileSystem.exists(target) && !force {
            writeError("error: `\(target)` already exists; iapdoctor init does not overwrite it\nhelp: pass --force to replace it, or -o to write elsewhere")
            throw ExitCode(2)
        }
        let found = StarterDescriptor.scan(directory: directory)
        let folderName = URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent
        let name = found.xcodeproj.map { String($0.split(separator: "/").last!.dropLast(".xcodeproj".count)) } ?? folderName
        do {
            try FileSystem.writeAtomically(StarterDescriptor.render(found, name: name), to: target)
        } catch {
            writeError("error: \(error.message)\nhelp: \(error.help)")
            throw ExitCode(2)
        }
        var summary = ["wrote \(target)"]
        for (label, value) in [("project", found.xcodeproj), ("Info.plist", found.infoPlist), ("entitlements", found.entitlements),
                               ("scheme", found.scheme), ("StoreKit configuration", found.storeKit), ("profile", found.profile)] {
            summary.append("  \(label): \(value ?? "not found")")
        }
        summary.append("  sources: \(found.sources.isEmpty ? "not found" : found.sources.joined(separator: ", "))")
        summary.append("next: answer the commented questions, then run `iapdoctor check \(target)`")
        print(summary.joined(separator: "\n"))
    }
}
