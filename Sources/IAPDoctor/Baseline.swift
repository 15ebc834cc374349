import Foundation
import Formats
import Model
import RuleEngine

/// `--baseline FILE` / `--write-baseline FILE`: the findings a team accepted when it adopted
/// iapdoctor, so that a check fails only on new ones. Each is kept by its rule, file and message
/// (``Suppressions/fingerprint(_:)``), never by its line, so edits that move lines keep it; a
/// fingerprint seen twice is accepted twice.
public enum Baseline {
    public static let schema = "iapdoctor-baseline/1"
    /// A baseline is a list a person could review; past this it is refused.
    public static let maxBytes = 64 << 20

    public struct Problem: Error, Sendable {
        public var message: String
        public var help: String
    }

    /// The file's text for every finding of `diagnosis` (listed or counted past the listing
    /// limit), sorted, one object per line: a diff of two baselines reads as what changed.
    public static func text(of diagnosis: Diagnosis) -> String {
        let listing = FindingListing(diagnosis)
        var counts: [String: (rule: String, file: String, message: String, count: Int)] = [:]
        for number in 0..<listing.count {
            let finding = listing[number]
            // Its own notes are not a finding's to accept.
            if finding.rule == RuleID.suppressionUnused.rawValue || finding.rule == RuleID.suppressionWithoutReason.rawValue { continue }
            let key = Suppressions.fingerprint(finding)
            counts[key, default: (finding.rule, finding.location?.file ?? "", finding.message, 0)].count += 1
        }
        var lines: [String] = []
        for key in counts.keys.sorted() {
            let entry = counts[key]!
            let object: [String: Any] = ["rule": entry.rule, "file": entry.file, "message": entry.message, "count": entry.count]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            lines.append("    " + String(decoding: data, as: UTF8.self))
        }
        return "{\n  \"schema\": \"\(schema)\",\n  \"findings\": [\n" + lines.joined(separator: ",\n") + (lines.isEmpty ? "" : "\n") + "  ]\n}\n"
    }

    /// The fingerprints a baseline file accepts, with their counts.
    public static func load(path: String) throws(Problem) -> [String: Int] {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: maxBytes)
        } catch {
            throw Problem(message: "cannot read the baseline `\(Paths.shown(path))`: \(error.message)",
                          help: "write one with `iapdoctor check --write-baseline \(Paths.shown(path)) …`")
        }
        func malformed(_ what: String) -> Problem {
            Problem(message: "the baseline `\(Paths.shown(path))` is not one iapdoctor wrote: \(what)",
                    help: "write it again with `iapdoctor check --write-baseline \(Paths.shown(path)) …`")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw malformed("it is not a JSON object")
        }
        guard object["schema"] as? String == schema else { throw malformed("its `schema` is not `\(schema)`") }
        guard let entries = object["findings"] as? [[String: Any]] else { throw malformed("`findings` is not a list of objects") }
        var accepted: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            guard let rule = entry["rule"] as? String, let file = entry["file"] as? String, let message = entry["message"] as? String,
                  let count = entry["count"] as? Int, count > 0 else {
                throw malformed("finding \(index + 1) lacks a `rule`, `file` or `message` string, or a positive `count`")
            }
            accepted["\(rule)\u{1F}\(file)\u{1F}\(message)", default: 0] += count
        }
        return accepted
    }
}
