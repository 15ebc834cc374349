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
    public var productID: String?

    public init(
        rule: String, severity: Severity, checklist: String?, message: String, help: String? = nil,
        notes: [String] = [], location: SourceLocation?, productID: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.checklist = checklist
        self.message = message
        self.help = help
        self.notes = notes
        self.location = location
        self.productID = productID
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
