import Foundation

// MARK: - Files and folders

extension SourceScanner {
    enum Language: Sendable { case swift, objectiveC, dart, javaScript, cSharp }

    /// The files the scan reads, for messages about one it does not.
    public static let sourceKinds = "Swift, Objective-C, Dart, JavaScript, TypeScript or C# file (.swift, .m, .mm, .h, .dart, .js, .jsx, .ts, .tsx, .cs)"

    static func language(ofFile path: String) -> Language? {
        switch fileExtension(path).lowercased() {
        case "swift": return .swift
        case "m", "mm", "h": return .objectiveC
        case "dart": return .dart
        case "cs": return .cSharp
        case "js", "jsx", "ts", "tsx", "mjs", "cjs", "mts", "cts":
            // Type declarations (`.d.ts`) hold no values.
            return path.hasSuffix(".d.ts") || path.hasSuffix(".d.mts") ? nil : .javaScript
        default: return nil
        }
    }

    static func fileExtension(_ path: String) -> Substring {
        let name = path[(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)...]
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...]
    }

    /// Collects source files with the shared `FolderWalker` (depth first), reporting what it could
    /// not read or would not follow. With a `root`, a link that leads outside it (to `/`, another
    /// checkout) is reported, not followed.
    struct SourceFinder {
        var walker: FolderWalker
        struct File { var path: String; var language: Language }
        var files: [File] = []
        var problems: [ScanProblem] = []
        /// Configuration files of In-App Purchase libraries (`MKStoreKitConfigs.plist`).
        var configurationFiles: [String] = []
        /// Property lists the app ships, which its code may read by name.
        var propertyLists: [String] = []
        /// Real paths and device/inode pairs of the files taken, so a file reached through a link
        /// or a hard link is scanned once.
        var visitedFiles: Set<String> = []
        var visitedIdentities: Set<FolderWalker.FileIdentity> = []
        var bytesTaken = 0

        /// `root`: the project root with its links resolved; nil walks wherever links lead.
        init(root: String?) { walker = FolderWalker(root: root, order: .depthFirst) }

        mutating func visit(root path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else {
                problems.append(ScanProblem(message: "cannot read `\(path)`: no such file or folder", path: path, kind: .missing))
                return
            }
            let real = FolderWalker.realPath(path)
            guard walker.isInsideRoot(real) else {
                problems.append(ScanProblem(message: "skipped `\(path)`: it leads outside the project folder, which the scan never leaves", path: path, kind: .skipped))
                return
            }
            switch FolderWalker.kind(info.st_mode) {
            case .folder:
                // The walker is taken out while it walks, so the closures may add to `self`.
                var walker = self.walker
                walker.walk(folder: path, problem: { problem in
                    if let scanProblem = Self.scanProblem(problem) { problems.append(scanProblem) }
                }) { entry in
                    switch entry.kind {
                    case .folder:
                        return !FolderWalker.skippedFolderNames.contains(entry.name.lowercased())
                            && !FolderWalker.projectBundleExtensions.contains(SourceScanner.fileExtension(entry.name).lowercased())
                            && !FolderWalker.builtBundleExtensions.contains(SourceScanner.fileExtension(entry.name).lowercased())
                            && !FolderWalker.isTestFolder(entry.name)
                    case .regularFile:
                        if let language = SourceScanner.language(ofFile: entry.name), !FolderWalker.isTestFile(entry.name) {
                            add(entry.path, real: FolderWalker.realPath(entry.path), identity: entry.identity, size: entry.size, language: language)
                        } else if SourceScanner.libraryConfigurationFileNames.contains(entry.name) {
                            configurationFiles.append(entry.path)
                        } else if entry.name.hasSuffix(".plist") {
                            propertyLists.append(entry.path)
                        }
                    case .other:
                        // A FIFO or device named like a source file: never opened (a FIFO would block).
                        if SourceScanner.language(ofFile: entry.name) != nil {
                            problems.append(ScanProblem(message: "skipped `\(entry.path)`: not a regular file (a pipe, socket or device)", path: entry.path, kind: .unreadable))
                        }
                    }
                    return false
                }
                self.walker = walker
            case .other:
                problems.append(ScanProblem(message: "skipped `\(path)`: not a regular file (a pipe, socket or device)", path: path, kind: .unreadable))
            case .regularFile:
                if let language = SourceScanner.language(ofFile: path) {
                    add(path, real: real, identity: FolderWalker.FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                        size: Int(info.st_size), language: language)
                } else {
                    problems.append(ScanProblem(message: "skipped `\(path)`: not a \(SourceScanner.sourceKinds)", path: path, kind: .skipped))
                }
            }
        }

        /// The walker's problem in the scan's words; nil for a link outside the root to a file that is
        /// no source file (the scan would not have read it anyway).
        static func scanProblem(_ problem: FolderWalker.Problem) -> ScanProblem? {
            switch problem {
            case .cannotList(let folder):
                // Foundation's wording differs between platforms; the reason that matters is said here.
                let reason = access(folder, R_OK | X_OK) == 0 ? "it could not be read" : "permission denied (on a Mac, a sandboxed build phase must list it as an input)"
                return ScanProblem(message: "cannot list `\(folder)`: \(reason)", path: folder, kind: .unreadable)
            case .cannotLookAt(let path):
                return ScanProblem(message: "skipped `\(path)`: it could not be looked at", path: path, kind: .unreadable)
            case .brokenLink(let path):
                return ScanProblem(message: "skipped `\(path)`: broken symbolic link", path: path, kind: .unreadable)
            case .linkLeavesRoot(let entry):
                guard entry.kind == .folder || SourceScanner.language(ofFile: entry.name) != nil else { return nil }
                return ScanProblem(
                    message: "skipped `\(entry.path)`: a symbolic link that leads outside the project folder, which the scan never leaves",
                    path: entry.path, kind: .skipped)
            case .linkLoop(let path, let real):
                return ScanProblem(message: "skipped `\(path)`: symbolic link loop (it leads back to `\(real)`)", path: path, kind: .skipped)
            }
        }

        /// A file is taken once, whatever names reach it, and while the scan's byte budget lasts.
        mutating func add(_ path: String, real: String, identity: FolderWalker.FileIdentity, size: Int, language: Language) {
            guard visitedFiles.insert(real).inserted, visitedIdentities.insert(identity).inserted else { return }
            if size > SourceScanner.maxFileBytes {
                problems.append(ScanProblem(message: "skipped `\(path)`: larger than \(SourceScanner.maxFileBytes >> 20) MiB", path: path, kind: .oversized))
                return
            }
            guard bytesTaken + size <= SourceScanner.maxScanBytes else {
                problems.append(ScanProblem(
                    message: "skipped `\(path)`: the scan reads at most \(SourceScanner.maxScanBytes >> 20) MiB of sources in all",
                    path: path, kind: .oversized))
                return
            }
            bytesTaken += size
            files.append(File(path: path, language: language))
        }
    }
}
