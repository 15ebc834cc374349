import Formats
import Model
import Loaders
import RuleEngine

/// ``SARIFReporter/write(_:ruleIndex:fingerprint:into:)`` for a finding without related spans,
/// from its keys and indentation cut into byte fragments once per report (field by field, a
/// result's separators, keys and nesting would be most of the work of a faulty catalog's SARIF
/// log).
struct SARIFResultTemplate {
    /// `{` to `"ruleId": `, `"ruleIndex": `, `"level": `, and `"message": {…"text": `.
    private let ruleID: [UInt8], ruleIndex: [UInt8], level: [UInt8], messageText: [UInt8]
    /// The message's object closed, then `"locations": [{"physicalLocation": {"artifactLocation": {"uri": `.
    private let uri: [UInt8]
    /// The artifact location closed, `"region": {"startLine": `.
    private let startLine: [UInt8]
    private let startColumn: [UInt8], endLine: [UInt8], endColumn: [UInt8]
    /// The region closed.
    private let regionEnd: [UInt8]
    /// The artifact location closed when there is no region.
    private let artifactEnd: [UInt8]
    /// The physical location, the location and the array closed.
    private let locationsEnd: [UInt8]
    /// The message's object closed (no location).
    private let messageEnd: [UInt8]
    /// `"partialFingerprints": {"iapdoctorFinding/v1": `.
    private let fingerprint: [UInt8]
    /// The fingerprints closed, `"properties": {`.
    private let properties: [UInt8]
    /// The first and later keys in `properties`: `"help": `, `"notes": [`, `"docs": `.
    private let firstHelp: [UInt8], firstNotes: [UInt8], laterNotes: [UInt8], firstDocs: [UInt8], laterDocs: [UInt8]
    private let firstNote: [UInt8], nextNote: [UInt8], notesEnd: [UInt8]
    private let checklist: [UInt8], productID: [UInt8]
    /// `properties` and the result closed.
    private let close: [UInt8]

    /// `level`: the indentation of the result objects (their array's level + 1).
    init(level: Int) {
        func newline(_ level: Int) -> [UInt8] { [0x0A] + Array(repeating: 0x20, count: 2 * level) }
        func key(_ name: String, _ level: Int, comma: Bool = true) -> [UInt8] {
            (comma ? [0x2C] : []) + newline(level) + Array("\"\(name)\": ".utf8)
        }
        let open: [UInt8] = [0x7B], closeObject: (Int) -> [UInt8] = { newline($0) + [0x7D] }
        ruleID = open + key("ruleId", level + 1, comma: false)
        ruleIndex = key("ruleIndex", level + 1)
        self.level = key("level", level + 1)
        messageText = key("message", level + 1) + open + key("text", level + 2, comma: false)
        messageEnd = closeObject(level + 1)
        uri = messageEnd + key("locations", level + 1) + [0x5B] + newline(level + 2) + open
            + key("physicalLocation", level + 3, comma: false) + open + key("artifactLocation", level + 4, comma: false) + open
            + key("uri", level + 5, comma: false)
        artifactEnd = closeObject(level + 4)
        startLine = artifactEnd + key("region", level + 4) + open + key("startLine", level + 5, comma: false)
        startColumn = key("startColumn", level + 5)
        endLine = key("endLine", level + 5)
        endColumn = key("endColumn", level + 5)
        regionEnd = closeObject(level + 4)
        locationsEnd = closeObject(level + 3) + closeObject(level + 2) + newline(level + 1) + [0x5D]
        fingerprint = key("partialFingerprints", level + 1) + open + key("iapdoctorFinding/v1", level + 2, comma: false)
        properties = closeObject(level + 1) + key("properties", level + 1) + open
        firstHelp = key("help", level + 2, comma: false)
        firstNotes = key("notes", level + 2, comma: false) + [0x5B]
        laterNotes = key("notes", level + 2) + [0x5B]
        firstDocs = key("docs", level + 2, comma: false)
        laterDocs = key("docs", level + 2)
        firstNote = newline(level + 3)
        nextNote = [0x2C] + newline(level + 3)
        notesEnd = newline(level + 2) + [0x5D]
        checklist = key("checklist", level + 2)
        productID = key("productId", level + 2)
        close = closeObject(level + 1) + closeObject(level)
    }

    /// The URI reference of the last file written (a report lists file after file's findings).
    struct FileURI {
        fileprivate var file: String?
        fileprivate var uri: String = ""

        init() {}
    }

    /// A result with its `ruleIndex` (if any) and fingerprint; `finding` has no related spans.
    func write(_ finding: Finding, ruleIndex index: Int?, fingerprint print: String, uris: inout FileURI, into json: inout JSONWriter) {
        json.append(fragment: ruleID)
        json.append(value: finding.rule)
        if let index {
            json.append(fragment: ruleIndex)
            json.append(value: index)
        }
        json.append(fragment: level)
        json.append(value: finding.severity.rawValue)
        json.append(fragment: messageText)
        json.append(value: finding.message)
        if let location = finding.location, !location.file.isEmpty {
            if uris.file != location.file {
                uris.file = location.file
                uris.uri = SARIFReporter.uriReference(location.file)
            }
            json.append(fragment: uri)
            json.append(value: uris.uri)
            if location.line >= 1 {
                json.append(fragment: startLine)
                json.append(value: location.line)
                if location.column >= 1 {
                    json.append(fragment: startColumn)
                    json.append(value: location.column)
                }
                if location.hasEnd {
                    json.append(fragment: endLine)
                    json.append(value: location.endLine)
                    json.append(fragment: endColumn)
                    json.append(value: location.endColumn)
                }
                json.append(fragment: regionEnd)
            } else {
                json.append(fragment: artifactEnd)
            }
            json.append(fragment: locationsEnd)
        } else {
            json.append(fragment: messageEnd)
        }
        json.append(fragment: fingerprint)
        json.append(value: print)
        json.append(fragment: properties)
        var first = true
        if let help = finding.help {
            json.append(fragment: firstHelp)
            json.append(value: help)
            first = false
        }
        if !finding.notes.isEmpty {
            json.append(fragment: first ? firstNotes : laterNotes)
            for (index, note) in finding.notes.enumerated() {
                json.append(fragment: index == 0 ? firstNote : nextNote)
                json.append(value: note)
            }
            json.append(fragment: notesEnd)
            first = false
        }
        json.append(fragment: first ? firstDocs : laterDocs)
        json.appendDocsPath(rule: finding.rule)
        if let value = finding.checklist {
            json.append(fragment: checklist)
            json.append(value: value)
        }
        if let value = finding.productID {
            json.append(fragment: productID)
            json.append(value: value)
        }
        json.append(fragment: close)
    }
}
