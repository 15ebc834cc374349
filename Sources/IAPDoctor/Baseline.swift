import Formats
import JSONReader
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
        // Keys in a fixed order and strings quoted as every iapdoctor JSON file is: the same bytes on
        // every platform.
        let lines = counts.keys.sorted().map { key -> String in
            let entry = counts[key]!
            return "    {\"rule\": \(JSONText.quoted(entry.rule)), \"file\": \(JSONText.quoted(entry.file)), "
                + "\"message\": \(JSONText.quoted(entry.message)), \"count\": \(entry.count)}"
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
        func malformed(_ what: String, at node: JSONNode? = nil) -> Problem {
            let position = node.map { ":\($0.span.line):\($0.span.column)" } ?? ""
            return Problem(message: "\(Paths.shown(path))\(position): the baseline is not one iapdoctor wrote: \(what)",
                           help: "write it again with `iapdoctor check --write-baseline \(Paths.shown(path)) …`")
        }
        let document: JSONDocument
        do {
            document = try JSONDocument.parse(bytes: bytes, file: path)
        } catch {
            throw Problem(message: "\(Paths.shown(path)):\(error.line):\(error.column): the baseline is not valid JSON: \(error.message)",
                          help: "write it again with `iapdoctor check --write-baseline \(Paths.shown(path)) …`")
        }
        let root = document.root
        guard root.kind == .object else { throw malformed("it is not a JSON object", at: root) }
        guard root["schema"]?.string == schema else { throw malformed("its `schema` is not `\(schema)`", at: root["schema"] ?? root) }
        guard let list = root["findings"], list.kind == .array else { throw malformed("`findings` is not a list", at: root["findings"] ?? root) }
        var accepted: [String: Int] = [:]
        for (index, entry) in list.elements.enumerated() {
            guard entry.kind == .object, let rule = entry["rule"]?.string, let file = entry["file"]?.string,
                  let message = entry["message"]?.string, let count = entry["count"]?.integer, count > 0, count <= Int64(Int32.max) else {
                throw malformed("finding \(index + 1) lacks a `rule`, `file` or `message` string, or a positive `count`", at: entry)
            }
            accepted["\(rule)\u{1F}\(file)\u{1F}\(message)", default: 0] += Int(count)
        }
        return accepted
    }
}
