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
            if FileSystem.isReadOnly(file) {
                refuse("`\(Paths.shown(file))` is read-only; iapdoctor leaves it alone: make it writable (`chmod u+w`) or edit it by hand")
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
                guard fix.replacementIsSafe else {
                    let shown = Escaping.controlCharacters(String(fix.replacement.prefix(120)))
                    plan.refused.append(Refusal(fix: fix, reason: "the replacement `\(shown)` is not a product ID of letters, digits, `.`, `_` and `-` only, so it is not written into code: correct the product ID first"))
                    continue
                }
                switch range(of: fix, in: before) {
                case .failure(let reason):
                    plan.refused.append(Refusal(fix: fix, reason: reason.text))
                case .success(let (range, quote)):
                    guard range.upperBound <= lastStart else {
                        plan.refused.append(Refusal(fix: fix, reason: "it overlaps another fix in the same place"))
                        continue
                    }
                    guard let replacement = escaped(fix.replacement, quote: quote, file: file) else {
                        plan.refused.append(Refusal(fix: fix, reason: "the replacement cannot be written inside this literal: edit it by hand"))
                        continue
                    }
                    after.replaceSubrange(range, with: replacement)
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
    static func range(of fix: Fix, in bytes: [UInt8]) -> Result<(Range<Int>, quote: UInt8?), ReasonText> {
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
            if before.isEmpty && after.isEmpty { return .success((innerStart..<innerEnd, nil)) }
            if quoted && objectiveC { return .success((innerStart..<innerEnd, before.last)) }
        }
        let shown = String(decoding: text.prefix(120), as: UTF8.self)
        return .failure(ReasonText("the text at \(location) is `\(Escaping.controlCharacters(shown))`, not `\(fix.original)` as written whole: edit it by hand"))
    }

    /// `text` as the inside of a literal opened by `quote` (nil: bare, as a YAML key or plain
    /// value) in `file`'s language: backslashes and the quote escaped, and `$` where it starts an
    /// interpolation (Dart, JavaScript's template literals); nil where the text cannot be held
    /// there (a bare value that is not a plain token, a control character anywhere).
    static func escaped(_ text: String, quote: UInt8?, file: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        guard let quote else { return Fix.isSafeReplacement(text) ? bytes : nil }
        let name = file.lowercased()
        let yaml = name.hasSuffix(".yaml") || name.hasSuffix(".yml")
        let dart = name.hasSuffix(".dart")
        let backslash = UInt8(ascii: "\\"), dollar = UInt8(ascii: "$")
        if yaml && quote == UInt8(ascii: "'") {
            // YAML's single quotes: a quote is doubled; a backslash is a backslash.
            return bytes.flatMap { $0 == quote ? [quote, quote] : [$0] }
        }
        if yaml && quote != UInt8(ascii: "\"") { return Fix.isSafeReplacement(text) ? bytes : nil }
        let escapesDollar = dart || quote == UInt8(ascii: "`")
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte == backslash || byte == quote || byte == dollar && escapesDollar { out.append(backslash) }
            out.append(byte)
        }
        return out
    }

    struct ReasonText: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// The byte offset of a 1-based line and column (columns count Unicode scalars).
    static func offset(line: Int, column: Int, in bytes: [UInt8]) -> Int? {
        guard line >= 1, column >= 1 else { return nil }
        // A UTF-8 byte order mark is not a column: readers start line 1 after it.
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
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

    /// A unified diff of the plan (`--fix --diff`), paths as shown, three lines of context, as
    /// bytes: the lines are the files' own bytes (any encoding, CRLF kept), so `patch -p1` makes
    /// exactly what `--fix` writes.
    public static func diff(_ plan: Plan) -> [UInt8] {
        plan.files.flatMap { diff(before: $0.before, after: $0.after, name: Paths.displayPath($0.path)) }
    }

    /// A diff header's path: as it is when it is printable ASCII without quotes or backslashes,
    /// else between double quotes with C escapes, as git writes it and GNU patch reads it (a
    /// newline in a name cannot start a line of its own).
    static func quotedPath(_ path: String) -> [UInt8] {
        let bytes = Array(path.utf8)
        let plain = bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        guard !plain else { return bytes }
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case 0x0A: out += Array("\\n".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x20: out.append(byte)
            case ..<0x20, 0x7F...:
                let octal = String(byte, radix: 8)
                out += Array(("\\" + String(repeating: "0", count: 3 - octal.count) + octal).utf8)
            default: out.append(byte)
            }
        }
        return out + [UInt8(ascii: "\"")]
    }

    /// Fixes change bytes within lines, never the lines' count: lines compare one to one.
    static func diff(before: [UInt8], after: [UInt8], name: String) -> [UInt8] {
        let old = before.split(separator: 0x0A, omittingEmptySubsequences: false)
        let new = after.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard old.count == new.count else { return [] }
        // A final newline ends the last line; it starts none.
        let endsWithNewline = before.last == 0x0A
        let lines = endsWithNewline ? old.count - 1 : old.count
        let changed = (0..<lines).filter { old[$0] != new[$0] }
        let quoted = { (side: String) in quotedPath(side + "/" + name) }
        let path = Array(name.utf8)
        var out: [UInt8] = Array("--- ".utf8) + (quotedPath(name) == path ? Array("a/".utf8) + path : quoted("a")) + [0x0A]
        out += Array("+++ ".utf8) + (quotedPath(name) == path ? Array("b/".utf8) + path : quoted("b")) + [0x0A]
        func line(_ mark: Character, _ bytes: ArraySlice<UInt8>, index: Int) {
            out.append(UInt8(ascii: mark.unicodeScalars.first!))
            out += bytes
            out.append(0x0A)
            // The last line of a file without a final newline says so, or patch would add one.
            if index == old.count - 1, !endsWithNewline { out += Array("\\ No newline at end of file\n".utf8) }
        }
        var index = 0
        while index < changed.count {
            // A hunk: changed lines closer than seven apart share their context.
            var last = index
            while last + 1 < changed.count, changed[last + 1] - changed[last] <= 7 { last += 1 }
            let start = max(0, changed[index] - 3), end = min(lines, changed[last] + 4)
            let count = end - start
            out += Array("@@ -\(start + 1),\(count) +\(start + 1),\(count) @@\n".utf8)
            var current = start
            while current < end {
                guard old[current] != new[current] else {
                    line(" ", old[current], index: current)
                    current += 1
                    continue
                }
                // A run of changed lines: the old ones, then the new ones.
                var runEnd = current
                while runEnd < end, old[runEnd] != new[runEnd] { runEnd += 1 }
                for changedLine in current..<runEnd { line("-", old[changedLine], index: changedLine) }
                for changedLine in current..<runEnd { line("+", new[changedLine], index: changedLine) }
                current = runEnd
            }
            index = last + 1
        }
        return out
    }
}
