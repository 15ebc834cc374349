import Foundation
import JSONReader
import Formats
import Model

/// The sibling packages of a monorepo an app depends on (Melos, Turborepo, Yarn/npm/pnpm
/// workspaces), whose code the app's requests may import: Dart `path:` dependencies in
/// `pubspec.yaml`, npm `file:`/`link:` dependencies, and `workspace:` dependencies found among the
/// workspace's packages. Only folders inside the repository (the git work tree around the app)
/// are taken, never outside it.
enum WorkspacePackages {
    /// The source folders of the app's sibling packages, relative to `directory`.
    static func sources(directory: String) -> [String] {
        guard let repository = repositoryRoot(of: directory) else { return [] }
        var folders: [String] = []
        func take(_ relative: String, subfolder: String?) {
            let package = Paths.resolve(relative, relativeTo: directory)
            guard Paths.isWithin(package, repository), !Paths.isWithin(package, directory) else { return }
            var folder = package
            if let subfolder, FileSystem.isDirectory(package + "/" + subfolder) { folder = package + "/" + subfolder }
            guard FileSystem.isDirectory(folder) else { return }
            let shown = Paths.relativePath(folder, from: directory)
            if !folders.contains(shown) { folders.append(shown) }
        }
        for path in dartPathDependencies(directory: directory) { take(path, subfolder: "lib") }
        let (local, workspace) = npmDependencies(directory: directory)
        for path in local { take(path, subfolder: "src") }
        if !workspace.isEmpty {
            let packages = workspacePackages(repository: repository)
            for name in workspace.sorted() {
                if let folder = packages[name] { take(Paths.relativePath(folder, from: directory), subfolder: "src") }
            }
        }
        return folders
    }

    /// The git work tree holding `directory`: the nearest folder above it with `.git`.
    static func repositoryRoot(of directory: String) -> String? {
        var folder = URL(fileURLWithPath: directory).standardizedFileURL.path
        for _ in 0..<32 {
            if FileSystem.exists(folder + "/.git") { return folder }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return nil }
            folder = parent
        }
        return nil
    }

    /// `path: ../packages/shared` under `dependencies:` or `dependency_overrides:` of `pubspec.yaml`.
    static func dartPathDependencies(directory: String) -> [String] {
        guard let bytes = try? FileSystem.readBytes(directory + "/pubspec.yaml", maxBytes: 1 << 20) else { return [] }
        var paths: [String] = []
        var section = ""
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if let first = line.first, first != " ", first != "#" { section = String(line.prefix { $0 != ":" }) }
            guard section == "dependencies" || section == "dependency_overrides" else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("path:") else { continue }
            let value = trimmed.dropFirst("path:".count).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            if !value.isEmpty { paths.append(value) }
        }
        return paths
    }

    /// The app's `file:`/`link:` dependencies (paths) and `workspace:` ones (package names).
    static func npmDependencies(directory: String) -> (paths: [String], workspace: Set<String>) {
        guard let bytes = try? FileSystem.readBytes(directory + "/package.json", maxBytes: 1 << 20),
              let root = try? JSONDocument.parse(bytes: bytes, file: "package.json").root else { return ([], []) }
        var paths: [String] = []
        var workspace: Set<String> = []
        for section in ["dependencies", "devDependencies"] {
            for member in root[section]?.members ?? [] {
                guard let value = member.value.string else { continue }
                if value.hasPrefix("file:") || value.hasPrefix("link:") {
                    paths.append(String(value.drop { $0 != ":" }.dropFirst()))
                } else if value.hasPrefix("workspace:") || value == "*" {
                    workspace.insert(member.key)
                }
            }
        }
        return (paths, workspace)
    }

    /// The workspace's packages by name: the folders the root `package.json`'s `workspaces` (or
    /// `pnpm-workspace.yaml`'s `packages`) name, `dir/*` patterns expanded one level.
    static func workspacePackages(repository: String) -> [String: String] {
        var patterns: [String] = []
        if let bytes = try? FileSystem.readBytes(repository + "/package.json", maxBytes: 1 << 20),
           let root = try? JSONDocument.parse(bytes: bytes, file: "package.json").root {
            let list = root["workspaces"].map { $0.kind == .array ? $0 : ($0["packages"] ?? $0) }
            patterns = list?.elements.compactMap(\.string) ?? []
        }
        if patterns.isEmpty, let bytes = try? FileSystem.readBytes(repository + "/pnpm-workspace.yaml", maxBytes: 1 << 20) {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("- ") else { continue }
                patterns.append(trimmed.dropFirst(2).trimmingCharacters(in: CharacterSet(charactersIn: " '\"")))
            }
        }
        var folders: [String] = []
        for pattern in patterns where !pattern.hasPrefix("!") {
            if pattern.hasSuffix("/*") || pattern.hasSuffix("/**") {
                let parent = repository + "/" + pattern.prefix { $0 != "*" }.dropLast()
                let names = (try? FileManager.default.contentsOfDirectory(atPath: parent))?.sorted() ?? []
                folders += names.filter { !$0.hasPrefix(".") }.map { parent + "/" + $0 }.filter(FileSystem.isDirectory)
            } else if !pattern.contains("*") {
                folders.append(repository + "/" + pattern)
            }
        }
        var packages: [String: String] = [:]
        for folder in folders.prefix(500) {
            guard let bytes = try? FileSystem.readBytes(folder + "/package.json", maxBytes: 1 << 20),
                  let name = (try? JSONDocument.parse(bytes: bytes, file: "package.json").root)?["name"]?.string else { continue }
            packages[name] = packages[name] ?? folder
        }
        return packages
    }
}
