public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case note, warning, error

    var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// One problem, written rustc-style: a self-contained message with the actual and expected values,
/// a separate `help` with the exact edit, and notes for context.
public struct Finding: Sendable, Hashable {
    public var rule: String
    public var severity: Severity
    /// The checklist item this finding answers (`nil` for input and configuration problems).
    public var checklist: String?
    public var message: String
    public var help: String?
    public var notes: [String]
    public var location: SourceLocation?
    /// Other places the finding names ("first used here", "the descriptor says this"), shown
    /// as labelled secondary spans where a format has them (text, SARIF, JSON).
    public var related: [RelatedSpan]
    public var productID: String?
    /// The secret this finding is about (a private key, a shared secret, an API key), when it is
    /// one: no output shows it. The source line quoted under the finding shows it masked, or is
    /// left out when the secret is not on it whole; the texts above never contain it.
    public var secret: Secret?
    /// A finding past the engine's per-rule listing limit: it still decides verdicts and the
    /// exit code, but is not listed (its rule's summary note counts it).
    public var isElided = false
    /// How many findings a stand-in (`isElided`) counts for: a catalog scan keeps one stand-in per
    /// product and severity for the findings past the limit, not one per finding (1 otherwise).
    public var elidedWeight = 1
    /// For a catalog scan's stand-in: the products of the findings it counts (beside `productID`,
    /// the first), so that verdicts still see every product a finding past the limit was about.
    public var elidedProducts: [String] = []

    public init(
        rule: String, severity: Severity, checklist: String?, message: String, help: String? = nil,
        notes: [String] = [], location: SourceLocation?, related: [RelatedSpan] = [], productID: String? = nil,
        secret: Secret? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.checklist = checklist
        self.location = location
        self.productID = productID
        self.secret = secret
        self.message = secret?.masking(message) ?? message
        self.help = help.map { secret?.masking($0) ?? $0 }
        self.notes = notes.map { secret?.masking($0) ?? $0 }
        self.related = related.map { span in
            var masked = span
            masked.label = secret?.masking(span.label) ?? span.label
            masked.note = span.note.map { secret?.masking($0) ?? $0 }
            return masked
        }
    }

    /// Findings sort by file, line, column, then rule: the order every report uses.
    static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
        let fa = a.location?.file ?? "", fb = b.location?.file ?? ""
        if fa != fb { return fa < fb }
        let la = a.location?.line ?? 0, lb = b.location?.line ?? 0
        if la != lb { return la < lb }
        let ca = a.location?.column ?? 0, cb = b.location?.column ?? 0
        if ca != cb { return ca < cb }
        if a.rule != b.rule { return a.rule < b.rule }
        if a.message != b.message { return a.message < b.message }
        return (a.productID ?? "") < (b.productID ?? "")
    }
}

/// A second place a finding names, with what to say there: rendered by the text report as a
/// labelled `---` span (rustc's secondary span), by SARIF as a related location.
public struct RelatedSpan: Sendable, Hashable {
    public var location: SourceLocation
    /// Says what this place is, next to its span: "first used here".
    public var label: String
    /// The finding's note that says the same in words ("first used at file:12:5"), for formats
    /// without spans; the text report leaves it out when it has drawn the span instead.
    public var note: String?

    public init(_ location: SourceLocation, label: String, note: String? = nil) {
        self.location = location
        self.label = label
        self.note = note
    }
}

/// A secret value a finding is about. It prints as `<secret>` (never its value), so string
/// interpolation and debug output cannot leak it either.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { "<secret>" }
    public var debugDescription: String { "<secret>" }

    /// What replaces the value in a quoted source line: its length, none of its characters.
    public var mask: String { "[masked: \(value.count) characters]" }

    /// `text` with every occurrence of the value masked.
    public func masking(_ text: String) -> String {
        guard !value.isEmpty, text.contains(value) else { return text }
        return text.replacingOccurrences(of: value, with: mask)
    }

    /// Where the 0-based scalar `offset` of `line` falls once the secret is masked on it: moved by
    /// the difference in length for every occurrence before it, at the mask's start inside one.
    public func maskedOffset(_ offset: Int, in line: String) -> Int {
        let lineScalars = Array(line.unicodeScalars), valueScalars = Array(value.unicodeScalars)
        guard !valueScalars.isEmpty else { return offset }
        let growth = mask.unicodeScalars.count - valueScalars.count
        var shift = 0, index = 0
        while index + valueScalars.count <= lineScalars.count, index <= offset {
            guard lineScalars[index..<index + valueScalars.count].elementsEqual(valueScalars) else {
                index += 1
                continue
            }
            if offset < index + valueScalars.count { return index + shift }
            shift += growth
            index += valueScalars.count
        }
        return offset + shift
    }

    /// A source line to quote under the finding: the value masked, or nil (quote nothing) when the
    /// line holds only part of it (a value split over lines), or when `value` is too short to
    /// find safely.
    public func maskedSourceLine(_ line: String) -> String? {
        guard value.count >= 4 else { return nil }
        if line.contains(value) { return masking(line) }
        return nil
    }
}
