import Formats

public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case note, warning, error

    package var rank: Int {
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
///
/// A value type whose fields live in one copy-on-write box: a copy is one retain, not one per
/// string and array in it (the engine and the reports copy findings often, and a faulty catalog
/// has thousands), and an array of findings holds a pointer each. The fields are
/// changed in place (`_modify`): a getter and setter pair would copy an array to append to it.
public struct Finding: Sendable, Hashable {
    public var rule: String {
        get { storage.rule }
        _modify { yield &unique().rule }
    }
    public var severity: Severity {
        get { storage.severity }
        _modify { yield &unique().severity }
    }
    /// The checklist item this finding answers (`nil` for input and configuration problems).
    public var checklist: String? {
        get { storage.checklist }
        _modify { yield &unique().checklist }
    }
    public var message: String {
        get { storage.message }
        _modify { yield &unique().message }
    }
    public var help: String? {
        get { storage.help }
        _modify { yield &unique().help }
    }
    public var notes: [String] {
        get { storage.notes }
        _modify { yield &unique().notes }
    }
    public var location: SourceLocation? {
        get { storage.location }
        _modify { yield &unique().location }
    }
    /// Other places the finding names ("first used here", "the descriptor says this"), shown
    /// as labelled secondary spans where a format has them (text, SARIF, JSON).
    public var related: [RelatedSpan] {
        get { storage.related }
        _modify { yield &unique().related }
    }
    public var productID: String? {
        get { storage.productID }
        _modify { yield &unique().productID }
    }
    /// The secret this finding is about (a private key, a shared secret, an API key), when it is
    /// one: no output shows it. The source line quoted under the finding shows it masked, or is
    /// left out when the secret is not on it whole; the texts above never contain it.
    public var secret: Secret? {
        get { storage.secret }
        _modify { yield &unique().secret }
    }
    /// A finding past the engine's per-rule listing limit: it still decides verdicts and the
    /// exit code, but is not listed (its rule's summary note counts it).
    public var isElided: Bool {
        get { storage.isElided }
        _modify { yield &unique().isElided }
    }
    /// How many findings a stand-in (`isElided`) counts for: a catalog scan keeps one stand-in per
    /// product and severity for the findings past the limit, not one per finding (1 otherwise).
    public var elidedWeight: Int {
        get { storage.elidedWeight }
        _modify { yield &unique().elidedWeight }
    }
    /// For a catalog scan's stand-in: the products of the findings it counts (beside `productID`,
    /// the first), so that verdicts still see every product a finding past the limit was about.
    public var elidedProducts: [String] {
        get { storage.elidedProducts }
        _modify { yield &unique().elidedProducts }
    }

    /// The note that says how many of its rule's findings are past the listing limit: shown where
    /// findings are capped (text, Markdown, HTML), left out where all are listed (JSON, SARIF).
    public var summarizesUnlisted: Bool {
        get { storage.summarizesUnlisted }
        _modify { yield &unique().summarizesUnlisted }
    }

    /// The edit that fixes it, when one is certain (`check --fix`).
    public var fix: Fix? {
        get { storage.fix }
        _modify { yield &unique().fix }
    }

    public init(
        rule: String, severity: Severity, checklist: String?, message: String, help: String? = nil,
        notes: [String] = [], location: SourceLocation?, related: [RelatedSpan] = [], productID: String? = nil,
        secret: Secret? = nil
    ) {
        storage = Storage(
            rule: rule, severity: severity, checklist: checklist,
            message: secret?.masking(message) ?? message,
            help: help.map { secret?.masking($0) ?? $0 },
            notes: secret == nil ? notes : notes.map { secret?.masking($0) ?? $0 },
            location: location,
            related: secret == nil ? related : related.map { span in
                var masked = span
                masked.label = secret?.masking(span.label) ?? span.label
                masked.note = span.note.map { secret?.masking($0) ?? $0 }
                return masked
            },
            productID: productID, secret: secret)
    }

    private var storage: Storage

    /// The box, copied first when another finding shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// Mutated only through ``unique()`` (copy on write), so a box is never changed while shared.
    private final class Storage: @unchecked Sendable {
        var rule: String
        var severity: Severity
        var checklist: String?
        var message: String
        var help: String?
        var notes: [String]
        var location: SourceLocation?
        var related: [RelatedSpan]
        var productID: String?
        var secret: Secret?
        var isElided = false
        var elidedWeight = 1
        var elidedProducts: [String] = []
        var summarizesUnlisted = false
        var fix: Fix?

        init(
            rule: String, severity: Severity, checklist: String?, message: String, help: String?, notes: [String],
            location: SourceLocation?, related: [RelatedSpan], productID: String?, secret: Secret?
        ) {
            self.rule = rule
            self.severity = severity
            self.checklist = checklist
            self.message = message
            self.help = help
            self.notes = notes
            self.location = location
            self.related = related
            self.productID = productID
            self.secret = secret
        }

        func copy() -> Storage {
            let copy = Storage(
                rule: rule, severity: severity, checklist: checklist, message: message, help: help, notes: notes,
                location: location, related: related, productID: productID, secret: secret)
            copy.isElided = isElided
            copy.elidedWeight = elidedWeight
            copy.elidedProducts = elidedProducts
            copy.summarizesUnlisted = summarizesUnlisted
            copy.fix = fix
            return copy
        }
    }

    public static func == (a: Finding, b: Finding) -> Bool {
        let x = a.storage, y = b.storage
        if x === y { return true }
        return x.rule == y.rule && x.severity == y.severity && x.checklist == y.checklist && x.message == y.message
            && x.help == y.help && x.notes == y.notes && x.location == y.location && x.related == y.related
            && x.productID == y.productID && x.secret == y.secret && x.isElided == y.isElided
            && x.elidedWeight == y.elidedWeight && x.elidedProducts == y.elidedProducts && x.summarizesUnlisted == y.summarizesUnlisted
            && x.fix == y.fix
    }

    public func hash(into hasher: inout Hasher) {
        let x = storage
        hasher.combine(x.rule)
        hasher.combine(x.severity)
        hasher.combine(x.checklist)
        hasher.combine(x.message)
        hasher.combine(x.help)
        hasher.combine(x.notes)
        hasher.combine(x.location)
        hasher.combine(x.related)
        hasher.combine(x.productID)
        hasher.combine(x.secret)
        hasher.combine(x.isElided)
        hasher.combine(x.elidedWeight)
        hasher.combine(x.elidedProducts)
        hasher.combine(x.summarizesUnlisted)
        hasher.combine(x.fix)
    }

    /// Findings sort by file, line, column, then rule: the order every report uses.
    package static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
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
