import Formats
import Model
import Loaders
import RuleEngine

/// `--format gitlab`: a GitLab Code Quality report (`artifacts: reports: codequality:`), a JSON
/// array of issues (`shared/knowledge/linter-anchors.md` §5.5).
public struct GitLabReporter: Reporter {
    public static let identifier = "gitlab"

    public init() {}

    public func report(_ diagnosis: Diagnosis) -> String {
        var fingerprints = FindingFingerprints(diagnosis)
        var json = JSONWriter()
        json.array(diagnosis.findings) { json, finding in
            let fingerprint = fingerprints.next(finding)
            json.object {
                $0.field("description", Escaping.controlCharacters(finding.message))
                $0.field("check_name", finding.rule)
                $0.field("fingerprint", fingerprint)
                $0.field("severity", Self.severity(finding.severity))
                $0.field("location") {
                    $0.object {
                        $0.field("path", Escaping.controlCharacters(FindingFingerprints.path(of: finding, in: diagnosis)))
                        // GitLab requires a line; a project-level finding points at the top of the file.
                        let begin = max(1, finding.location?.line ?? 1)
                        $0.field("lines") {
                            $0.object {
                                $0.field("begin", begin)
                                if let location = finding.location, location.hasEnd { $0.field("end", max(begin, location.endLine)) }
                            }
                        }
                    }
                }
            }
        }
        return json.output + "\n"
    }

    /// GitLab's lower-case severities: errors block (`major`), warnings do not (`minor`).
    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "major"
        case .warning: return "minor"
        case .note: return "info"
        }
    }
}

/// Stable identities for findings, for CI systems that track issues across runs (GitLab's
/// `fingerprint`, SARIF's `partialFingerprints`): MD5 of rule, file, product and message, never
/// the line, so an edit above a finding does not make it look new. Identical findings get an
/// occurrence number, because GitLab needs every fingerprint in a report to be unique.
struct FindingFingerprints {
    /// Each fingerprint given so far, with how many times.
    private var seen = DigestCounts()
    private let diagnosis: Diagnosis
    /// The bytes hashed for the last finding (reused).
    private var key: [UInt8] = []

    init(_ diagnosis: Diagnosis) {
        self.diagnosis = diagnosis
    }

    /// The fingerprint of the next finding, the findings given in report order.
    mutating func next(_ finding: Finding) -> String {
        let digest = Self.digest(finding, path: Self.path(of: finding, in: diagnosis), key: &key)
        let occurrence = seen.count(digest)
        let base = MD5.hex(digest)
        return occurrence == 0 ? base : MD5.hex(Array("\(base)\u{1F}\(occurrence)".utf8))
    }

    /// MD5 of rule, path, product and message with a separator between them that no path or
    /// one-line value holds (keeps `a`+`bc` apart from `ab`+`c`). The key is put together in
    /// `key`, a buffer reused from finding to finding, and hashed in one go: each update of the
    /// hasher costs more than copying the bytes.
    private static func digest(_ finding: Finding, path: String, key: inout [UInt8]) -> (high: UInt64, low: UInt64) {
        func append(_ part: String, to key: inout [UInt8]) {
            var part = part
            part.withUTF8 { key.append(contentsOf: $0) }
        }
        key.removeAll(keepingCapacity: true)
        append(finding.rule, to: &key)
        key.append(0x1F)
        append(path, to: &key)
        key.append(0x1F)
        append(finding.productID ?? "", to: &key)
        key.append(0x1F)
        append(finding.message, to: &key)
        var md5 = MD5()
        key.withUnsafeBytes { md5.update($0) }
        return md5.digest()
    }

    /// The finding's file, or the descriptor for project-level findings (formats that need a path).
    static func path(of finding: Finding, in diagnosis: Diagnosis) -> String {
        if let file = finding.location?.file, !file.isEmpty { return file }
        return diagnosis.inputs.first ?? ""
    }
}

/// How many times each MD5 digest was counted: an open-addressing table of the digests' two
/// halves, probed by the low half (a digest is already uniformly spread; hashing it again with
/// `Hasher`, and a `Dictionary`'s bookkeeping, were half of fingerprinting a SARIF log).
struct DigestCounts {
    private var highs: [UInt64] = []
    private var lows: [UInt64] = []
    /// 0: the slot is empty; else how many times its digest was counted.
    private var counts: [Int] = []
    private var used = 0

    init() {}

    /// Counts `digest` once more; returns how many times it was counted before.
    mutating func count(_ digest: (high: UInt64, low: UInt64)) -> Int {
        if 2 * (used + 1) > counts.count { grow() }
        let mask = counts.count - 1
        var slot = Int(truncatingIfNeeded: digest.low) & mask
        while counts[slot] != 0 {
            if highs[slot] == digest.high, lows[slot] == digest.low {
                counts[slot] += 1
                return counts[slot] - 1
            }
            slot = (slot + 1) & mask
        }
        highs[slot] = digest.high
        lows[slot] = digest.low
        counts[slot] = 1
        used += 1
        return 0
    }

    /// Twice the slots (at least 64), the digests counted so far placed anew.
    private mutating func grow() {
        let old = (highs, lows, counts)
        let size = max(64, 2 * counts.count)
        highs = [UInt64](repeating: 0, count: size)
        lows = [UInt64](repeating: 0, count: size)
        counts = [Int](repeating: 0, count: size)
        for index in old.2.indices where old.2[index] != 0 {
            var slot = Int(truncatingIfNeeded: old.1[index]) & (size - 1)
            while counts[slot] != 0 { slot = (slot + 1) & (size - 1) }
            highs[slot] = old.0[index]
            lows[slot] = old.1[index]
            counts[slot] = old.2[index]
        }
    }
}
