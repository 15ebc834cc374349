import Foundation
import Formats
import Model

/// A path that names a file only on a case-insensitive file system.
public struct CaseMismatch: Sendable, Equatable {
    /// The path as the project writes it.
    public var written: String
    /// The file that is there.
    public var actual: String
}

/// A build configuration file (`.xcconfig`): its assignments in file order, `#include`d files
/// spliced in where they are included, each assignment positioned at its value.
public struct XCConfigFile: Sendable {
    /// One `KEY[cond…] = value` line.
    public struct Assignment: Sendable {
        /// The setting's name without conditions (`PRODUCT_BUNDLE_IDENTIFIER`).
        public var name: String
        /// The key as written, conditions included (`PRODUCT_BUNDLE_IDENTIFIER[sdk=iphoneos*]`).
        public var key: String
        public var value: Fact<String>
    }

    /// The path as given (the file named by a configuration or an include).
    public var file: String
    public var assignments: [Assignment] = []
    /// Every file read for it (itself and what it includes), each parsed.
    public var parsedFiles: [String] = []
    /// Files this one includes (directly or not) that are not there: `#include` (not `#include?`)
    /// of a missing file, or the file itself. Settings they would define are unknown.
    public var missingFiles: [String] { gaps.map(\.file) }
    /// Each missing file with the number of assignments read before it: where it would splice in.
    var gaps: [(position: Int, file: String)] = []
    /// Files included with `#include?` that are not there (a developer's local overrides, kept
    /// out of version control), with the number of assignments read before each: on a Mac that
    /// has one, what it sets there wins over what comes before.
    var optionalGaps: [(position: Int, file: String)] = []
    /// Files found only by ignoring case, as macOS's default file system does: the path as written
    /// and the file read.
    public var caseMismatches: [CaseMismatch] = []

    /// Included files deeper than this are not read (Xcode stops at cycles; this also bounds work).
    static let maxIncludeDepth = 16
    /// Files, includes included, larger than this are not read (a real one is a few KB).
    static let maxBytes = 1 << 20
    static let maxFiles = 256
    /// Bytes read across a configuration file and everything it includes: a file reached under
    /// several names (links) counts once as a file but at every read. Past it, what is not read
    /// is a missing file (its settings unknown), never a partial value.
    static let maxTotalBytes = 4 << 20

    /// Reads `path` and what it includes. A missing or unreadable file is listed in
    /// ``missingFiles`` (never thrown): an xcconfig kept out of version control is common
    /// (`Secrets.xcconfig`, a file generated from a template), and only what it would define is unknown.
    ///
    /// An include is looked for beside the including file, then in the project's folder
    /// (`projectDirectory`), as Xcode does: Flutter's `Flutter/Release.xcconfig` includes
    /// `Pods/Target Support Files/…`, which is in the project's folder.
    public static func load(path: String, projectDirectory: String? = nil) -> XCConfigFile {
        var result = XCConfigFile(file: path)
        var visited: Set<String> = []
        result.read(path, depth: 0, optional: false, visited: &visited, projectDirectory: projectDirectory)
        return result
    }

    /// Files read so far (by device and inode, so links to one file are one file) and their bytes.
    private var readFiles: Set<FileIdentity> = []
    private var bytesRead = 0

    /// Parses `text` as the contents of `file` (no includes are followed).
    public static func parse(text: String, file: String) -> XCConfigFile {
        var result = XCConfigFile(file: file)
        result.assignments = parseLines(Array(text.utf8), file: file).compactMap {
            if case .assignment(let assignment) = $0 { return assignment }
            return nil
        }
        return result
    }

    mutating func read(_ path: String, depth: Int, optional: Bool, visited: inout Set<String>, projectDirectory: String? = nil) {
        let normalized = Paths.normalize(path)
        guard depth <= Self.maxIncludeDepth, visited.count < Self.maxFiles, !visited.contains(normalized) else { return }
        visited.insert(normalized)
        var path = path
        if let actual = FileSystem.caseInsensitiveMatch(path) {
            caseMismatches.append(CaseMismatch(written: path, actual: actual))
            path = actual
        }
        if let identity = FileSystem.identity(of: path) {
            // A file is read once, whatever name reaches it (as a path is, through `visited`).
            guard readFiles.insert(identity).inserted else { return }
        }
        guard bytesRead < Self.maxTotalBytes, let bytes = try? FileSystem.readBytes(path, maxBytes: min(Self.maxBytes, Self.maxTotalBytes - bytesRead)) else {
            if !optional || bytesRead >= Self.maxTotalBytes {
                gaps.append((assignments.count, path))
            } else {
                optionalGaps.append((assignments.count, path))
            }
            return
        }
        bytesRead += bytes.count
        parsedFiles.append(path)
        for line in Self.parseLines(bytes, file: path) {
            switch line {
            case .assignment(let assignment):
                assignments.append(assignment)
            case .include(let included, let isOptional):
                // `<DEVELOPER_DIR>/…` and other angle-bracket paths name files in Xcode itself.
                guard !included.hasPrefix("<") else { continue }
                var resolved = Paths.resolve(included, relativeTo: Paths.directoryName(of: path))
                if let projectDirectory, !included.hasPrefix("/"), !FileSystem.exists(resolved) {
                    let fromProject = Paths.resolve(included, relativeTo: projectDirectory)
                    if FileSystem.exists(fromProject) || !FileSystem.isDirectory(Paths.directoryName(of: resolved)) { resolved = fromProject }
                }
                read(resolved, depth: depth + 1, optional: isOptional, visited: &visited, projectDirectory: projectDirectory)
            }
        }
    }

    /// A committed template of the missing file `missing` beside it (`Local.template.xcconfig`,
    /// `Secrets.xcconfig.example`, `Config.sample.xcconfig`): the file a README says to copy.
    public static func template(for missing: String) -> String? {
        let folder = Paths.directoryName(of: missing)
        let name = Paths.fileName(of: missing).lowercased()
        let stem = name.hasSuffix(".xcconfig") ? String(name.dropLast(".xcconfig".count)) : name
        guard !stem.isEmpty, let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        let marks = ["template", "example", "sample", "dist", "default", "tpl"]
        let found = entries.sorted().first { entry in
            let lower = entry.lowercased()
            guard lower != name, lower.hasPrefix(stem), lower.contains(".xcconfig") || lower.hasSuffix(".xcconfig") else { return false }
            let rest = lower.dropFirst(stem.count)
            return marks.contains { rest.contains($0) }
        }
        return found.map { folder == "." ? $0 : folder + "/" + $0 }
    }

    /// What the templates of `missing` files set for `names`, for a question's hint: "`Local.template.xcconfig`
    /// sets `APP_ID = com.example.app`". `nil` when no template assigns any of them.
    /// `shown` writes a path as the message shows it.
    public static func templateHint(for missing: [String], names: [String], shown: (String) -> String = { $0 }) -> String? {
        var parts: [String] = []
        for file in missing {
            guard let template = template(for: file), let bytes = try? FileSystem.readBytes(template, maxBytes: maxBytes) else { continue }
            let assignments = parseLines(bytes, file: template).compactMap { line -> Assignment? in
                if case .assignment(let assignment) = line, names.contains(assignment.name) { return assignment }
                return nil
            }
            guard !assignments.isEmpty else { continue }
            let listed = assignments.prefix(4).map { "`\($0.key) = \($0.value.value)`" }.joined(separator: ", ")
            parts.append("`\(shown(template))`, a committed template of it, sets \(listed)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ") + " (a hint, not what this build uses: copy the template and fill it in)"
    }

    enum Line {
        case assignment(Assignment)
        case include(String, optional: Bool)
    }

    /// One line at a time: `//` starts a comment anywhere (as in Xcode, which is why URLs in
    /// xcconfig files are written `https:/$()/…`); a trailing `;` is dropped.
    static func parseLines(_ bytes: [UInt8], file: String) -> [Line] {
        var lines: [Line] = []
        var lineNumber = 0
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start <= bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            var index = start
            while index + 1 < lineEnd {
                if bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                    lineEnd = index
                    break
                }
                index += 1
            }
            if let line = parseLine(bytes[start..<lineEnd], file: file, line: lineNumber) {
                lines.append(line)
            }
            if end >= bytes.count { break }
            start = end + 1
        }
        return lines
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

    static func parseLine(_ line: ArraySlice<UInt8>, file: String, line lineNumber: Int) -> Line? {
        var text = line
        while let first = text.first, isSpace(first) { text = text.dropFirst() }
        while let last = text.last, isSpace(last) { text = text.dropLast() }
        guard !text.isEmpty else { return nil }
        if text.first == UInt8(ascii: "#") {
            let directive = String(decoding: text, as: UTF8.self)
            let optional = directive.hasPrefix("#include?")
            guard directive.hasPrefix("#include"), let open = directive.firstIndex(where: { $0 == "\"" || $0 == "<" }) else { return nil }
            let closer: Character = directive[open] == "\"" ? "\"" : ">"
            let rest = directive[directive.index(after: open)...]
            guard let close = rest.firstIndex(of: closer) else { return nil }
            let path = String(rest[..<close])
            return .include(closer == ">" ? "<" + path : path, optional: optional)
        }
        // The `=` that assigns: not one inside a condition (`KEY[sdk=iphoneos*] = value`).
        var bracketDepth = 0
        var equalsIndex: Int?
        for index in text.indices {
            switch text[index] {
            case UInt8(ascii: "["): bracketDepth += 1
            case UInt8(ascii: "]"): bracketDepth = max(0, bracketDepth - 1)
            case UInt8(ascii: "=") where bracketDepth == 0: equalsIndex = index
            default: break
            }
            if equalsIndex != nil { break }
        }
        guard let equals = equalsIndex else { return nil }
        var keyBytes = text[..<equals]
        while let last = keyBytes.last, isSpace(last) { keyBytes = keyBytes.dropLast() }
        let key = String(decoding: keyBytes, as: UTF8.self)
        let name = String(key.prefix { $0 != "[" })
        guard !name.isEmpty, name.utf8.allSatisfy({ XCConfigFile.isNameByte($0) }) else { return nil }
        var valueBytes = text[text.index(after: equals)...]
        while let first = valueBytes.first, isSpace(first) { valueBytes = valueBytes.dropFirst() }
        if valueBytes.last == UInt8(ascii: ";") { valueBytes = valueBytes.dropLast() }
        while let last = valueBytes.last, isSpace(last) { valueBytes = valueBytes.dropLast() }
        let valueStart = valueBytes.startIndex
        // Columns count Unicode scalars, as every reader's do.
        let column = String(decoding: line[line.startIndex..<valueStart], as: UTF8.self).unicodeScalars.count + 1
        let value = String(decoding: valueBytes, as: UTF8.self)
        let location = SourceLocation(
            file: file, line: lineNumber, column: column, endLine: lineNumber, endColumn: column + value.unicodeScalars.count)
        return .assignment(Assignment(name: name, key: key, value: Fact(value, at: location, source: .xcconfig)))
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
