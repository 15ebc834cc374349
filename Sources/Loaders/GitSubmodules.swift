import Foundation
import Formats

/// The git submodules a repository declares in `.gitmodules` and has not checked out: a clone
/// without `--recurse-submodules` leaves each one an empty folder, and the code in it (a shared
/// store module, a purchase wrapper) is not there to scan.
enum GitSubmodules {
    /// Folders above the sources looked at for `.gitmodules`.
    static let maximumDepth = 8

    /// The absent submodules whose folder is a source root, holds one, or is inside one, from the
    /// `.gitmodules` of the repository each root is in (found in the root or a folder above it).
    static func absent(overlapping roots: [String]) -> [Fact<String>] {
        var found: [Fact<String>] = []
        var read: Set<String> = []
        let absolute: [String] = roots.map { Paths.normalize(Paths.absolute($0)) }
        for root in absolute {
            guard let (folder, file) = modulesFile(above: root), read.insert(file).inserted,
                  let bytes = try? FileSystem.readBytes(file, maxBytes: 1 << 20) else { continue }
            for path in declared(in: String(decoding: bytes, as: UTF8.self), file: file) {
                let full = Paths.normalize(folder + "/" + path.value)
                guard isAbsent(full) else { continue }
                let inside = full + "/"
                let overlaps = absolute.contains { (root: String) -> Bool in
                    root == full || root.hasPrefix(inside) || full.hasPrefix(root + "/")
                }
                if overlaps { found.append(path) }
            }
        }
        return found
    }

    /// The `.gitmodules` of the repository `path` is in: the folder holding it and the file.
    static func modulesFile(above path: String) -> (folder: String, file: String)? {
        var folder = path
        for _ in 0..<maximumDepth {
            let file = folder == "/" ? "/.gitmodules" : folder + "/.gitmodules"
            if FileSystem.exists(file) { return (folder, file) }
            if FileSystem.exists(folder + "/.git") || folder == "/" { return nil }
            folder = Paths.directoryName(of: folder)
        }
        return nil
    }

    /// Each `path = …` of the file, at its value.
    static func declared(in text: String, file: String) -> [Fact<String>] {
        var paths: [Fact<String>] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("path"), let equals = trimmed.firstIndex(of: "="),
                  trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)..<equals].allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            let afterEquals = trimmed[trimmed.index(after: equals)...]
            let value = afterEquals.drop { $0 == " " || $0 == "\t" }.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !value.isEmpty, !value.hasPrefix("/"), !value.split(separator: "/").contains("..") else { continue }
            let column = line.unicodeScalars.count - afterEquals.drop { $0 == " " || $0 == "\t" }.unicodeScalars.count + 1
            paths.append(Fact(value, at: SourceLocation(file: file, line: index + 1, column: column, endLine: index + 1,
                                                         endColumn: column + value.unicodeScalars.count), source: .code))
        }
        return paths
    }

    /// Missing, or a folder that holds nothing but git's own `.git` file.
    static func isAbsent(_ folder: String) -> Bool {
        guard FileSystem.isDirectory(folder) else { return !FileSystem.exists(folder) }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        return entries.allSatisfy { $0 == ".git" }
    }
}
