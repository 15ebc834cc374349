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
    /// Each fingerprint given so far (as its two 64-bit halves: a string each cost 70 bytes over
    /// 250,000 findings), with how many times.
    private var seen: [Digest: Int] = [:]
    private let diagnosis: Diagnosis

    private struct Digest: Hashable {
        let high: UInt64, low: UInt64
        init(_ hex: String) {
            high = UInt64(hex.prefix(16), radix: 16) ?? 0
            low = UInt64(hex.dropFirst(16), radix: 16) ?? 0
        }
    }

    init(_ diagnosis: Diagnosis) {
        self.diagnosis = diagnosis
    }

    /// The fingerprint of the next finding, the findings given in report order.
    mutating func next(_ finding: Finding) -> String {
        let base = Self.fingerprint(finding, path: Self.path(of: finding, in: diagnosis))
        let key = Digest(base)
        let occurrence = seen[key, default: 0]
        seen[key] = occurrence + 1
        return occurrence == 0 ? base : MD5.hex(Array("\(base)\u{1F}\(occurrence)".utf8))
    }

    static func fingerprint(_ finding: Finding, path: String) -> String {
        // A separator that no path or one-line value holds keeps `a`+`bc` apart from `ab`+`c`.
        let key = [finding.rule, path, finding.productID ?? "", finding.message].joined(separator: "\u{1F}")
        return MD5.hex(Array(key.utf8))
    }

    /// The finding's file, or the descriptor for project-level findings (formats that need a path).
    static func path(of finding: Finding, in diagnosis: Diagnosis) -> String {
        if let file = finding.location?.file, !file.isEmpty { return file }
        return diagnosis.inputs.first ?? ""
    }
}
