import Foundation
import Formats
import Model

/// `check --fix`: the certain edits that findings carry (``Fix``), applied to the files they point
/// into. Only bytes of the literal or key change; nothing is reformatted. A fix is refused, with
/// the reason, when its file is a link, is not a regular file or lies outside the project's
/// folder, when the text at its span is no longer what the finding saw, or when it overlaps
/// another fix.
public enum Fixer {
    /// One file's edits.
    public struct FileEdit: Sendable {
        public var path: String
        public var before: [UInt8]
        public var after: [UInt8]
        public var fixes: [Fix]
    }

    public struct Refusal: Sendable {
        public var fix: Fix
        public var reason: String
    }

    public struct Plan: Sendable {
        public var files: [FileEdit] = []
        public var refused: [Refusal] = []
        public var fixCount: Int { files.reduce(0) { $0 + $1.fixes.count } }
    }

    /// The edits of `findings`' fixes, for files inside `root` (the descriptor's folder, or the
    /// folder of the file checked).
    public static func plan(_ findings: [Finding], root: String) -> Plan {
        var plan = Plan()
        var seen = Set<Fix>()
        let fixes = findings.compactMap(\.fix).filter { seen.insert($0).inserted }
        let byFile = Dictionary(grouping: fixes, by: \.location.file)
        let realRoot = FileSystem.realPath(root) ?? root
        for file in byFile.keys.sorted() {
            let fixes = byFile[file]!.sorted { $0.location < $1.location }
            func refuse(_ reason: String) { plan.refused += fixes.map { Refusal(fix: $0, reason: reason) } }
            if FileSystem.isSymbolicLink(file) {
                refuse("`\(Paths.shown(file))` is a link; iapdoctor does not write through links")
                continue
            }
            guard let real = FileSystem.realPath(file), Paths.isWithin(real, realRoot) else {
                refuse("`\(Paths.shown(file))` is outside the project's folder `\(Paths.shown(root))`")
                continue
            }
            let before: [UInt8]
            do {
                try FileSystem.requireRegularFile(file)
                before = try FileSystem.readBytes(file, maxBytes: 64 << 20)
            } catch {
                refuse(error.message)
                continue
            }
            var after = before
            var applied: [Fix] = []
            var lastStart = Int.max
            // From the end, so earlier offsets stay right.
            for fix in fixes.reversed() {
                switch range(of: fix, in: before) {
                case .failure(let reason):
                    plan.refused.append(Refusal(fix: fix, reason: reason.text))
                case .success(let range):
                    guard range.upperBound <= lastStart else {
                        plan.refused.append(Refusal(fix: fix, reason: "it overlaps another fix in the same place"))
                        continue
                    }
                    after.replaceSubrange(range, with: Array(fix.replacement.utf8))
                    lastStart = range.lowerBound
                    applied.insert(fix, at: 0)
                }
            }
            if !applied.isEmpty { plan.files.append(FileEdit(path: file, before: before, after: after, fixes: applied)) }
        }
        return plan
    }

    /// The bytes to replace: the span's text is the original, or the original between quotes
    /// (`"…"`, `'…'`, `` `…` ``, `@"…"`: then only what is inside them), as ``Fix/replacedSpan``
    /// works it out from the widths; the bytes must agree.
    static func range(of fix: Fix, in bytes: [UInt8]) -> Result<Range<Int>, ReasonText> {
        let location = fix.location
        guard location.isOneLine, !fix.replacement.utf8.contains(0x0A), let start = offset(line: location.line, column: location.column, in: bytes),
              let end = offset(line: location.line, column: location.endColumn, in: bytes), start <= end
        else { return .failure(ReasonText("\(location) is not in the file any more")) }
        let text = Array(bytes[start..<end])
        // The span the fix replaces (``Fix/replacedSpan``: bare, or inside quotes or `@"…"`),
        // checked against the bytes: the original inside it, real quotes around it.
        if let inner = fix.replacedSpan, let innerStart = offset(line: inner.line, column: inner.column, in: bytes),
           let innerEnd = offset(line: inner.line, column: inner.endColumn, in: bytes), innerStart <= innerEnd,
           Array(bytes[innerStart..<innerEnd]) == Array(fix.original.utf8) {
            let quotes: Set<UInt8> = [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`")]
            let before = Array(bytes[start..<innerStart]), after = Array(bytes[innerEnd..<end])
            let quoted = before.last.map { quotes.contains($0) && after == [$0] } ?? false
            let objectiveC = before.count != 2 || before.first == UInt8(ascii: "@")
            if before.isEmpty && after.isEmpty || quoted && objectiveC { return .success(innerStart..<innerEnd) }
        }
        let shown = String(decoding: text.prefix(120), as: UTF8.self)
        return .failure(ReasonText("the text at \(location) is `\(Escaping.controlCharacters(shown))`, not `\(fix.original)` as written whole: edit it by hand"))
    }

    struct ReasonText: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// The byte offset of a 1-based line and column (columns count Unicode scalars).
    static func offset(line: Int, column: Int, in bytes: [UInt8]) -> Int? {
        guard line >= 1, column >= 1 else { return nil }
        var index = 0
        var currentLine = 1
        while currentLine < line {
            guard let newline = bytes[index...].firstIndex(of: 0x0A) else { return nil }
            index = newline + 1
            currentLine += 1
        }
        var scalar = 1
        while scalar < column {
            guard index < bytes.count, bytes[index] != 0x0A else { return scalar == column ? index : nil }
            let lead = bytes[index]
            index += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            scalar += 1
        }
        return min(index, bytes.count)
    }

    /// Writes each file's edits, atomically; the files written, or the first problem.
    public static func apply(_ plan: Plan) throws(FileSystem.Problem) {
        for file in plan.files { try OutputFile.rewrite(file.path, with: file.after) }
    }

    /// A unified diff of the plan (`--fix --diff`), paths as shown, three lines of context.
    public static func diff(_ plan: Plan) -> String {
        plan.files.map { diff(before: $0.before, after: $0.after, name: Paths.displayPath($0.path)) }.joined()
    }

    /// Fixes change bytes within lines, never the lines' count: lines compare one to one.
    static func diff(before: [UInt8], after: [UInt8], name: String) -> String {
        let old = before.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let new = after.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard old.count == new.count else { return "" }
        // A final newline ends the last line; it starts none.
        let lines = before.last == 0x0A ? old.count - 1 : old.count
        let changed = (0..<lines).filter { old[$0] != new[$0] }
        var out = "--- a/\(name)\n+++ b/\(name)\n"
        var index = 0
        while index < changed.count {
            // A hunk: changed lines closer than seven apart share their context.
            var last = index
            while last + 1 < changed.count, changed[last + 1] - changed[last] <= 7 { last += 1 }
            let start = max(0, changed[index] - 3), end = min(lines, changed[last] + 4)
            let count = end - start
            out += "@@ -\(start + 1),\(count) +\(start + 1),\(count) @@\n"
            var line = start
            while line < end {
                guard old[line] != new[line] else {
                    out += " \(old[line])\n"
                    line += 1
                    continue
                }
                // A run of changed lines: the old ones, then the new ones.
                var runEnd = line
                while runEnd < end, old[runEnd] != new[runEnd] { runEnd += 1 }
                for changedLine in line..<runEnd { out += "-\(old[changedLine])\n" }
                for changedLine in line..<runEnd { out += "+\(new[changedLine])\n" }
                line = runEnd
            }
            index = last + 1
        }
        return out
    }
}
