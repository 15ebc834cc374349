import Formats
import Model
import Loaders
import RuleEngine

/// `--format sarif`: a SARIF 2.1.0 log for GitHub code scanning and other SARIF viewers
/// (`shared/knowledge/linter-anchors.md` §5.3). One run; the driver describes only the rules that
/// some finding uses, so the log stays small.
public struct SARIFReporter: ListingReporter {
    public static let identifier = "sarif"
    static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    static let informationURI = "https://github.com/iapdoctor/iapdoctor"

    public static let listsEveryFinding = true

    static let bytesPerFinding = 1_024

    public init() {}

    /// The log: every finding (``FindingListing``) a result.
    static func write(_ diagnosis: Diagnosis, listing: FindingListing, into json: inout JSONWriter) {
        let usedRuleIDs = listing.ruleIDs
        // Catalog order, so `ruleIndex` does not depend on which finding came first.
        let rules = diagnosis.ruleSet.rules.filter { usedRuleIDs.contains($0.id) }
        var ruleIndex: [String: Int] = [:]
        for (index, rule) in rules.enumerated() { ruleIndex[rule.id] = index }
        var fingerprints = FindingFingerprints(diagnosis)
        json.object {
            $0.field("$schema", Self.schemaURI)
            $0.field("version", "2.1.0")
            $0.field("runs") { json in
                json.array([diagnosis]) { json, diagnosis in
                    json.object {
                        $0.field("tool") {
                            $0.object {
                                $0.field("driver") {
                                    $0.object {
                                        $0.field("name", "iapdoctor")
                                        $0.field("semanticVersion", diagnosis.toolVersion)
                                        $0.field("informationUri", Self.informationURI)
                                        $0.field("rules") { json in json.array(rules) { Self.write($1, into: &$0) } }
                                    }
                                }
                            }
                        }
                        $0.field("results") { json in
                            let template = SARIFResultTemplate(level: json.indentLevel + 1)
                            var uris = SARIFResultTemplate.FileURI()
                            json.array(0..<listing.count) { json, number in
                                let finding = listing[number]
                                let index = ruleIndex[finding.rule], print = fingerprints.next(finding)
                                // A finding with related spans or a fix (rare) takes the general path.
                                guard finding.related.isEmpty, finding.fix == nil else {
                                    return Self.write(finding, ruleIndex: index, fingerprint: print, into: &json)
                                }
                                template.write(finding, ruleIndex: index, fingerprint: print, uris: &uris, into: &json)
                            }
                        }
                    }
                }
            }
        }
    }

    /// A `reportingDescriptor`: what the alert page shows above the result.
    static func write(_ rule: RuleMetadata, into json: inout JSONWriter) {
        json.object {
            $0.field("id", rule.id)
            $0.field("name", pascalCase(rule.id))
            $0.field("shortDescription") { $0.object { $0.field("text", rule.title) } }
            $0.field("fullDescription") { $0.object { $0.field("text", rule.rationale.isEmpty ? rule.title : rule.rationale) } }
            if !rule.help.isEmpty {
                $0.field("help") {
                    $0.object {
                        $0.field("text", rule.help)
                        // Rule text may come from a user's configuration: no raw HTML in the Markdown.
                        $0.field("markdown", Markdown.inline(rule.help))
                    }
                }
            }
            // Code scanning needs an absolute URI: the page in the repository's docs.
            $0.field("helpUri", "\(Self.informationURI)/blob/main/docs/rules/\(rule.id).md")
            $0.field("defaultConfiguration") { $0.object { $0.field("level", rule.severity.rawValue) } }
        }
    }

    static func write(_ finding: Finding, ruleIndex: Int?, fingerprint: String, into json: inout JSONWriter) {
        json.object {
            $0.field("ruleId", finding.rule)
            if let ruleIndex { $0.field("ruleIndex", ruleIndex) }
            $0.field("level", finding.severity.rawValue)
            $0.field("message") { $0.object { $0.field("text", finding.message) } }
            if let location = finding.location, !location.file.isEmpty {
                $0.field("locations") { json in
                    json.array([location]) { json, location in
                        json.object { $0.field("physicalLocation") { writePhysicalLocation(location, into: &$0) } }
                    }
                }
            }
            // The other places the finding names, each with what it is ("first used here").
            let related = finding.related.filter { !$0.location.file.isEmpty }
            if !related.isEmpty {
                $0.field("relatedLocations") { json in
                    json.array(Array(related.enumerated())) { json, entry in
                        json.object {
                            $0.field("id", entry.offset)
                            $0.field("physicalLocation") { writePhysicalLocation(entry.element.location, into: &$0) }
                            $0.field("message") { $0.object { $0.field("text", entry.element.label) } }
                        }
                    }
                }
            }
            // The certain fix (`check --fix`), as SARIF's replacement of the literal's text.
            if let fix = finding.fix, let span = fix.replacedSpan, !span.file.isEmpty {
                $0.field("fixes") { json in
                    json.array([span]) { json, span in
                        json.object {
                            $0.field("description") { $0.object { $0.field("text", "`\(fix.original)` → `\(fix.replacement)`") } }
                            $0.field("artifactChanges") { json in
                                json.array([span]) { json, span in
                                    json.object {
                                        $0.field("artifactLocation") { $0.object { $0.field("uri", uriReference(span.file)) } }
                                        $0.field("replacements") { json in
                                            json.array([span]) { json, span in
                                                json.object {
                                                    $0.field("deletedRegion") {
                                                        $0.object {
                                                            $0.field("startLine", span.line)
                                                            $0.field("startColumn", span.column)
                                                            $0.field("endLine", span.endLine)
                                                            $0.field("endColumn", span.endColumn)
                                                        }
                                                    }
                                                    $0.field("insertedContent") { $0.object { $0.field("text", fix.replacement) } }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            // The same line-free fingerprint as GitLab's, so alerts survive edits above them.
            $0.field("partialFingerprints") { $0.object { $0.field("iapdoctorFinding/v1", fingerprint) } }
            $0.field("properties") {
                $0.object {
                    if let help = finding.help { $0.field("help", help) }
                    if !finding.notes.isEmpty { $0.field("notes") { json in json.array(finding.notes) { $0.string($1) } } }
                    $0.field("docs", finding.docsPath)
                    if let checklist = finding.checklist { $0.field("checklist", checklist) }
                    if let productID = finding.productID { $0.field("productId", productID) }
                }
            }
        }
    }

    /// The file and the region: SARIF's lines and columns are 1-based and its `endColumn` is
    /// exclusive, as ``SourceLocation``'s; an unknown line means no region at all.
    static func writePhysicalLocation(_ location: SourceLocation, into json: inout JSONWriter) {
        json.object {
            $0.field("artifactLocation") { $0.object { $0.field("uri", uriReference(location.file)) } }
            if location.line >= 1 {
                $0.field("region") {
                    $0.object {
                        $0.field("startLine", location.line)
                        if location.column >= 1 { $0.field("startColumn", location.column) }
                        if location.hasEnd {
                            $0.field("endLine", location.endLine)
                            $0.field("endColumn", location.endColumn)
                        }
                    }
                }
            }
        }
    }

    /// `wildcard-app-id` → `WildcardAppId`: SARIF's `name` is an identifier, not a sentence.
    static func pascalCase(_ id: String) -> String {
        id.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }

    /// The path as given, with only the characters a URI reference cannot hold percent-encoded
    /// (a space, `%`, `#`, `?`…), so ordinary paths come out unchanged.
    static func uriReference(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            let allowed = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || "-._~/!$&'()*+,;=:@".utf8.contains(byte)
            if allowed {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
