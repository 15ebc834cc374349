import Foundation
import Formats
import Model

/// Findings the user has accepted: inline `iapdoctor:ignore` comments in the files findings point
/// at, and a baseline of earlier findings (`--baseline`). A suppressed finding is left out of the
/// findings, the checklist, the verdicts and the exit code, and counted.
public struct Suppressions: Sendable {
    /// `// iapdoctor:ignore RULE[, RULE] — reason` (or `#`, `<!-- -->`, `/* */`): on a line of its
    /// own it covers the next line; after code, its own line.
    public struct Directive: Sendable, Hashable {
        public var location: SourceLocation
        /// The line whose findings it suppresses.
        public var coveredLine: Int
        public var rules: [String]
        public var reason: String?
    }

    /// An `.iapdoctor.yml` `ignore:` entry: every finding of `rule` (any rule when nil) in a file
    /// matching `path` (any file when nil; a glob from the configuration's folder, where `*`
    /// also crosses `/`).
    public struct Ignore: Sendable, Hashable {
        public var rule: String?
        public var path: String?
        public var reason: String?
        public var location: SourceLocation
        /// `path` made absolute from the configuration's folder (set by whoever loads it).
        public var pattern: String?
    }

    public var directives: [Directive] = []
    public var ignores: [Ignore] = []
    /// Baseline fingerprints (``fingerprint(_:)``), each with how many findings it still accepts.
    public var baseline: [String: Int] = [:]

    public init(directives: [Directive] = [], baseline: [String: Int] = [:]) {
        self.directives = directives
        self.baseline = baseline
    }

    public var isEmpty: Bool { directives.isEmpty && baseline.isEmpty && ignores.isEmpty }

    static let marker = Array("iapdoctor:ignore".utf8)

    /// Whether `bytes` may hold a directive: the scan below runs only on files that do.
    public static func mentionsDirective(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard buffer.count >= marker.count else { return false }
            var index = 0
            while let found = buffer[index...].firstIndex(of: UInt8(ascii: "i")) {
                if found + marker.count > buffer.count { return false }
                if marker.indices.allSatisfy({ buffer[found + $0] == marker[$0] }) { return true }
                index = found + 1
            }
            return false
        }
    }

    /// The directives in one file's text, in order. A directive names one or more rule ids
    /// (letters, digits, `-`), separated by commas; what follows a `—`, `--` or `:` is its reason.
    public static func directives(in text: String, file: String) -> [Directive] {
        var found: [Directive] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, rawLine) in lines.enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            guard let range = line.range(of: "iapdoctor:ignore") else { continue }
            let before = line[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            let openers = ["//", "#", "<!--", "/*", "*", "--", ";"]
            var code = before
            for opener in openers where code.hasSuffix(opener) {
                code = String(code.dropLast(opener.count)).trimmingCharacters(in: .whitespaces)
                break
            }
            var rest = String(line[range.upperBound...])
            for closer in ["-->", "*/"] where rest.trimmingCharacters(in: .whitespaces).hasSuffix(closer) {
                if let closing = rest.range(of: closer, options: .backwards) { rest = String(rest[..<closing.lowerBound]) }
            }
            // Rule ids, then the reason after a separator.
            var reason: String?
            var ids = rest
            for separator in ["—", " -- ", ": ", " - "] {
                if let split = rest.range(of: separator) {
                    ids = String(rest[..<split.lowerBound])
                    let text = rest[split.upperBound...].trimmingCharacters(in: .whitespaces)
                    reason = text.isEmpty ? nil : text
                    break
                }
            }
            let rules = ids.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
                .filter { id in !id.isEmpty && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
            let column = line[..<range.lowerBound].count + 1
            found.append(Directive(
                location: SourceLocation(file: file, line: offset + 1, column: column, endLine: offset + 1, endColumn: column + 16),
                coveredLine: code.isEmpty ? offset + 2 : offset + 1, rules: rules, reason: reason))
        }
        return found
    }

    /// A finding's identity across edits that move lines: its rule, file and message.
    public static func fingerprint(_ finding: Finding) -> String {
        "\(finding.rule)\u{1F}\(finding.location?.file ?? "")\u{1F}\(finding.message)"
    }

    /// What one diagnosis left out, and the directives that matched nothing.
    struct Ledger {
        var suppressions: Suppressions
        var used: Set<Int> = []
        var suppressed = 0
        /// Each finding decided once: one finding reported for several products is one finding.
        var decided: [String: Bool] = [:]
        /// Directives by file and covered line.
        let index: [String: [Int: [Int]]]
        var usedIgnores: Set<Int> = []
        let currentFolder = FileManager.default.currentDirectoryPath

        init(_ suppressions: Suppressions) {
            self.suppressions = suppressions
            var index: [String: [Int: [Int]]] = [:]
            for (offset, directive) in suppressions.directives.enumerated() {
                index[directive.location.file, default: [:]][directive.coveredLine, default: []].append(offset)
            }
            self.index = index
        }

        /// Whether `finding` is accepted; counts it when it is. Input rules are never suppressed
        /// (a file iapdoctor cannot read is not a finding to accept).
        mutating func suppresses(_ finding: Finding) -> Bool {
            guard !Engine.inputRuleIDs.contains(finding.rule), !finding.isElided else { return false }
            let key = "\(Suppressions.fingerprint(finding))\u{1F}\(finding.location?.line ?? 0):\(finding.location?.column ?? 0)"
            if let decision = decided[key] { return decision }
            let decision = decide(finding)
            decided[key] = decision
            if decision { suppressed += 1 }
            return decision
        }

        /// An outcome without the findings suppressed; a failure left with none passes.
        mutating func filter(_ outcome: Outcome) -> Outcome {
            var outcome = outcome
            switch outcome.status {
            case .fail(let reported):
                let kept = reported.filter { !suppresses($0) }
                outcome.status = kept.isEmpty ? .pass : .fail(kept)
            case .passWithNotes(let reported):
                let kept = reported.filter { !suppresses($0) }
                outcome.status = kept.isEmpty ? .pass : .passWithNotes(kept)
            default: break
            }
            return outcome
        }

        private mutating func decide(_ finding: Finding) -> Bool {
            if let location = finding.location, let candidates = index[location.file]?[location.line] {
                for offset in candidates where suppressions.directives[offset].rules.contains(finding.rule) {
                    used.insert(offset)
                    return true
                }
            }
            for (offset, ignore) in suppressions.ignores.enumerated() where ignore.rule == nil || ignore.rule == finding.rule {
                if let pattern = ignore.pattern {
                    guard let file = finding.location?.file, !file.isEmpty else { continue }
                    let absolute = Paths.normalize(file.hasPrefix("/") ? file : currentFolder + "/" + file)
                    guard fnmatch(pattern, absolute, 0) == 0 else { continue }
                }
                usedIgnores.insert(offset)
                return true
            }
            if !suppressions.baseline.isEmpty {
                let key = Suppressions.fingerprint(finding)
                if let left = suppressions.baseline[key], left > 0 {
                    suppressions.baseline[key] = left - 1
                    return true
                }
            }
            return false
        }

        /// Notes for directives that give no reason, or suppress nothing.
        func notes() -> [Finding] {
            var notes: [Finding] = []
            for (offset, directive) in suppressions.directives.enumerated() {
                if directive.rules.isEmpty {
                    var finding = Finding(
                        rule: RuleID.suppressionUnused.rawValue, severity: .note, checklist: nil,
                        message: "`iapdoctor:ignore` names no rule, so it suppresses nothing", location: directive.location)
                    finding.help = "name the rule ids after it: `iapdoctor:ignore RULE — reason` (the id is in brackets in each finding)"
                    notes.append(finding)
                    continue
                }
                let names = directive.rules.map { "`\($0)`" }.joined(separator: ", ")
                if !used.contains(offset) {
                    var finding = Finding(
                        rule: RuleID.suppressionUnused.rawValue, severity: .note, checklist: nil,
                        message: "`iapdoctor:ignore \(directive.rules.joined(separator: ", "))` suppresses nothing on line \(directive.coveredLine)",
                        location: directive.location)
                    finding.notes = ["a directive covers the line it ends, or, on a line of its own, the next line; no finding of \(names) is there"]
                    finding.help = "remove the comment, or move it to the line the finding points at"
                    notes.append(finding)
                } else if directive.reason == nil {
                    var finding = Finding(
                        rule: RuleID.suppressionWithoutReason.rawValue, severity: .note, checklist: nil,
                        message: "`iapdoctor:ignore \(directive.rules.joined(separator: ", "))` gives no reason",
                        location: directive.location)
                    finding.help = "say why after a dash: `iapdoctor:ignore \(directive.rules.joined(separator: ", ")) — the reason`"
                    notes.append(finding)
                }
            }
            for (offset, ignore) in suppressions.ignores.enumerated() where !usedIgnores.contains(offset) {
                let what = [ignore.rule.map { "rule `\($0)`" }, ignore.path.map { "path `\($0)`" }].compactMap { $0 }.joined(separator: " and ")
                var finding = Finding(
                    rule: RuleID.suppressionUnused.rawValue, severity: .note, checklist: nil,
                    message: "the `ignore` entry for \(what) suppresses nothing", location: ignore.location)
                finding.notes = ["a path is a glob from the configuration's folder; `*` also matches `/`"]
                finding.help = "remove the entry, or correct its rule id or path"
                notes.append(finding)
            }
            for ignore in suppressions.ignores where ignore.reason == nil {
                var finding = Finding(
                    rule: RuleID.suppressionWithoutReason.rawValue, severity: .note, checklist: nil,
                    message: "an `ignore` entry gives no reason", location: ignore.location)
                finding.help = "add `reason: …` saying why these findings are accepted"
                notes.append(finding)
            }
            return notes
        }
    }
}
