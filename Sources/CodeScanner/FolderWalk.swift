import Foundation

// MARK: - Files and folders

extension SourceScanner {
    enum Language: Sendable { case swift, objectiveC }

    static func language(ofFile path: String) -> Language? {
        switch fileExtension(path).lowercased() {
        case "swift": return .swift
        case "m", "mm", "h": return .objectiveC
        default: return nil
        }
    }

    static func fileExtension(_ path: String) -> Substring {
        let name = path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...]
    }

    /// Collects source files in a deterministic order (entries sorted by name), following symbolic
    /// links but entering each real folder once, so a link back to an ancestor cannot loop. With a
    /// `root`, a link that leads outside it (to `/`, another checkout) is reported, not followed.
    struct FolderWalk {
        /// The project root with its links resolved; nil walks wherever links lead.
        var root: String?
        struct File { var path: String; var language: Language }
        var files: [File] = []
        var problems: [ScanProblem] = []
        /// Configuration files of In-App Purchase libraries (`MKStoreKitConfigs.plist`).
        var configurationFiles: [String] = []
        var visitedRealPaths: Set<String> = []

        mutating func visit(root path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                problems.append(ScanProblem(message: "cannot read `\(path)`: no such file or folder", path: path, kind: .missing))
                return
            }
            let real = realPath(path)
            guard isInsideRoot(real) else {
                problems.append(ScanProblem(message: "skipped `\(path)`: it leads outside the project folder, which the scan never leaves", path: path, kind: .skipped))
                return
            }
            if isDirectoryMode(info.st_mode) {
                guard visitedRealPaths.insert(real).inserted else { return }
                walk(folder: path, ancestors: [real])
            } else if !isRegularMode(info.st_mode) {
                problems.append(ScanProblem(message: "skipped `\(path)`: not a regular file (a pipe, socket or device)", path: path, kind: .unreadable))
            } else if let language = SourceScanner.language(ofFile: path) {
                addFile(path, real: real, size: Int(info.st_size), language: language)
            } else {
                problems.append(ScanProblem(message: "skipped `\(path)`: not a Swift or Objective-C file (.swift, .m, .mm, .h)", path: path, kind: .skipped))
            }
        }

        mutating func walk(folder: String, ancestors: [String]) {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            } catch {
                // Foundation's wording differs between platforms; the reason that matters is said here.
                let reason = access(folder, R_OK | X_OK) == 0 ? "it could not be read" : "permission denied (on a Mac, a sandboxed build phase must list it as an input)"
                problems.append(ScanProblem(message: "cannot list `\(folder)`: \(reason)", path: folder, kind: .unreadable))
                return
            }
            for name in names {
                let path = folder == "." ? name : (folder == "/" ? "/" + name : folder + "/" + name)
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    problems.append(ScanProblem(message: "skipped `\(path)`: it could not be looked at", path: path, kind: .unreadable))
                    continue
                }
                if isSymbolicLinkMode(info.st_mode) {
                    if stat(path, &info) != 0 {
                        problems.append(ScanProblem(message: "skipped `\(path)`: broken symbolic link", path: path, kind: .unreadable))
                        continue
                    }
                    if !isInsideRoot(realPath(path)) {
                        if isDirectoryMode(info.st_mode) || SourceScanner.language(ofFile: name) != nil {
                            problems.append(ScanProblem(
                                message: "skipped `\(path)`: a symbolic link that leads outside the project folder, which the scan never leaves",
                                path: path, kind: .skipped))
                        }
                        continue
                    }
                }
                if isDirectoryMode(info.st_mode) {
                    if SourceScanner.skippedFolders.contains(name.lowercased())
                        || SourceScanner.skippedFolderExtensions.contains(SourceScanner.fileExtension(name).lowercased()) {
                        continue
                    }
                    let real = realPath(path)
                    if ancestors.contains(real) {
                        problems.append(ScanProblem(message: "skipped `\(path)`: symbolic link loop (it leads back to `\(real)`)", path: path, kind: .skipped))
                        continue
                    }
                    // Already walked through another link: scanning it twice would double every finding.
                    guard visitedRealPaths.insert(real).inserted else { continue }
                    walk(folder: path, ancestors: ancestors + [real])
                } else if isRegularMode(info.st_mode), let language = SourceScanner.language(ofFile: name) {
                    addFile(path, real: realPath(path), size: Int(info.st_size), language: language)
                } else if isRegularMode(info.st_mode), SourceScanner.libraryConfigurationFileNames.contains(name) {
                    configurationFiles.append(path)
                } else if !isRegularMode(info.st_mode), SourceScanner.language(ofFile: name) != nil {
                    // A FIFO or device named like a source file: never opened (a FIFO would block).
                    problems.append(ScanProblem(message: "skipped `\(path)`: not a regular file (a pipe, socket or device)", path: path, kind: .unreadable))
                }
            }
        }

        mutating func addFile(_ path: String, real: String, size: Int, language: Language) {
            guard visitedRealPaths.insert(real).inserted else { return }
            if size > SourceScanner.maxFileBytes {
                problems.append(ScanProblem(message: "skipped `\(path)`: larger than \(SourceScanner.maxFileBytes >> 20) MiB", path: path, kind: .oversized))
                return
            }
            files.append(File(path: path, language: language))
        }

        func isInsideRoot(_ real: String) -> Bool {
            guard let root else { return true }
            return root == "/" || real == root || real.hasPrefix(root + "/")
        }

        func realPath(_ path: String) -> String {
            guard let resolved = realpath(path, nil) else { return path }
            defer { free(resolved) }
            return String(cString: resolved)
        }

        func isDirectoryMode(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFDIR }
        func isRegularMode(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFREG }
        func isSymbolicLinkMode(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFLNK }
    }
}
