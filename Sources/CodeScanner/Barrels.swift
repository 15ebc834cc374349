// MARK: - Barrel modules

extension SourceScanner {
    /// Whether a JavaScript module specifier names the app's own file rather than a package:
    /// relative (`./iap`, `../services/iap`), rooted (`/app/iap`) or through a path alias
    /// (`@/iap`, `~/iap`, `#/iap`).
    static func isLocalModule(_ specifier: String) -> Bool {
        specifier.hasPrefix(".") || specifier.hasPrefix("/") || specifier.hasPrefix("@/") || specifier.hasPrefix("~/")
            || specifier.hasPrefix("#/")
    }

    /// A file that re-exports a purchase library (`export * from 'react-native-iap'`) is that
    /// library to the files importing it: for each JavaScript file, the specifiers it imports
    /// that name such a file, and the library. A rooted or aliased specifier is matched by the
    /// end of the file's path (`/app/domain/iap` → `src/app/domain/iap.tsx`), since the alias
    /// lives in a bundler's configuration; the files it may name must re-export one library.
    static func barrelAliases(_ summaries: [FileSummary]) -> [Int: [String: String]] {
        var barrels: [String: String] = [:]
        for summary in summaries where summary.language == .javaScript {
            guard let library = summary.reexports.sorted().first else { continue }
            let stem = Self.stem(summary.path)
            barrels[stem] = library
            if stem.hasSuffix("/index") { barrels[String(stem.dropLast("/index".count))] = library }
        }
        guard !barrels.isEmpty else { return [:] }
        var aliases: [Int: [String: String]] = [:]
        for (index, summary) in summaries.enumerated() where summary.language == .javaScript {
            for specifier in summary.localImports.sorted() {
                if let library = barrel(specifier, from: summary.path, in: barrels) { aliases[index, default: [:]][specifier] = library }
            }
        }
        return aliases
    }

    static func barrel(_ specifier: String, from file: String, in barrels: [String: String]) -> String? {
        if specifier.hasPrefix(".") {
            let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            return barrels[normalized((folder.isEmpty ? "" : folder + "/") + specifier)]
        }
        var tail = Substring(specifier)
        for prefix in ["@/", "~/", "#/", "/"] where tail.hasPrefix(prefix) { tail = tail.dropFirst(prefix.count) }
        let wanted = stem(normalized(String(tail)))
        guard !wanted.isEmpty else { return nil }
        // Several files may end so (a white-label brand's copy); they count when they agree.
        let libraries = Set(barrels.filter { $0.key == wanted || $0.key.hasSuffix("/" + wanted) }.values)
        return libraries.count == 1 ? libraries.first : nil
    }

    /// A path without its script extension.
    static func stem(_ path: String) -> String {
        for suffix in [".d.ts", ".tsx", ".ts", ".jsx", ".js", ".mjs", ".cjs"] where path.hasSuffix(suffix) {
            return String(path.dropLast(suffix.count))
        }
        return path
    }

    /// `a/b/../c/./d` → `a/c/d`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(part)
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
