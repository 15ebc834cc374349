import Foundation

/// Path arithmetic: pure functions of strings (and of the current folder, for relative paths);
/// nothing here opens a file.
public enum Paths {


    /// `path` made absolute from the current folder and normalized lexically.
    package static func absolute(_ path: String) -> String {
        normalize(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    }

    /// Whether `path` is `folder` or inside it (both as given; compared as absolute paths).
    public static func isWithin(_ path: String, _ folder: String) -> Bool {
        isInside(absolute(path), absolute(folder))
    }

    /// Whether the absolute, normalized `path` is `folder` or inside it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// A path as messages show it: control characters escaped (see ``Escaping``).
    public static func shown(_ path: String) -> String { Escaping.controlCharacters(path) }

    /// Whether `name` is one of `names`, ignoring case: Apple file systems are case-insensitive by
    /// default, so `pods` there is the `Pods` folder; comparing the same way everywhere keeps a
    /// Linux CI run and a Mac in step.
    public static func name(_ name: some StringProtocol, isIn names: Set<String>) -> Bool {
        names.contains(String(name)) || names.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// `a/b/c.yaml` → `c.yaml`; a path without `/` is its own name.
    public static func fileName(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `a/b/c.yaml` → `a/b`; `c.yaml` → `.`.
    public static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Joins a descriptor-relative path to the descriptor's folder (absolute paths stay as they are).
    public static func resolve(_ path: String, relativeTo base: String) -> String {
        if path.hasPrefix("/") || base == "." || base.isEmpty { return normalize(path) }
        return normalize(base + "/" + path)
    }

    /// An absolute `path` inside the current folder, relative to it (`/repo/App` → `App` when run in
    /// `/repo`); anything else as it is.
    public static func displayPath(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let current = normalize(FileManager.default.currentDirectoryPath)
        let normalized = normalize(path)
        if normalized == current { return "." }
        guard normalized.hasPrefix(current == "/" ? "/" : current + "/") else { return path }
        return String(normalized.dropFirst(current == "/" ? 1 : current.count + 1))
    }

    /// `path` as seen from the folder `base` (`../App/Info.plist`); relative inputs are taken from
    /// the current folder. `.` when they are the same.
    public static func relativePath(_ path: String, from base: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> [Substring] {
            normalize(path.hasPrefix("/") ? path : current + "/" + path).split(separator: "/")
        }
        let target = absolute(path), origin = absolute(base)
        var common = 0
        while common < target.count, common < origin.count, target[common] == origin[common] { common += 1 }
        let parts = Array(repeating: Substring(".."), count: origin.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The deepest folder that holds both `a` and `b` (relative when both are inside the current folder).
    public static func commonAncestor(_ a: String, _ b: String) -> String {
        let first = absolute(a).split(separator: "/"), second = absolute(b).split(separator: "/")
        var common = 0
        while common < first.count, common < second.count, first[common] == second[common] { common += 1 }
        return displayPath("/" + first[..<common].joined(separator: "/"))
    }

    /// Removes `.` and `dir/..` segments lexically, so messages show `a/Products.storekit`, not
    /// `a/b.xcodeproj/xcshareddata/../../Products.storekit`.
    public static func normalize(_ path: String) -> String {
        let absolute = path.utf8.first == UInt8(ascii: "/")
        var parts: [Substring] = []
        // Split on the byte `/`, as the file system does (and without Character breaking, which
        // would be most of the cost of a missing screenshot file).
        for bytes in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            let part = Substring(bytes)
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute, parts.isEmpty { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
