/// What one rule concluded about one checklist item (and, where it applies, one product).
public struct Outcome: Sendable {
    public enum Status: Sendable, Hashable {
        case pass
        /// The evidence says yes, with something worth knowing (a note that does not fail the item).
        case passWithNotes([Finding])
        case fail([Finding])
        /// No evidence either way: the question to answer and the descriptor key to set.
        case unknown(question: String, key: String)
        case notApplicable(reason: String)

        /// A failure with at least one error-level finding: what fails a checklist item and makes a
        /// product invalid. Failures with warnings or notes only are reported, not counted.
        public var failsWithError: Bool {
            guard case .fail(let findings) = self else { return false }
            return findings.contains { $0.severity == .error }
        }
    }

    public var item: String
    /// The product this outcome is about; `nil` for the whole app.
    public var productID: String?
    public var status: Status
    public var rule: String

    public init(item: String, productID: String?, status: Status, rule: String) {
        self.item = item
        self.productID = productID
        self.status = status
        self.rule = rule
    }
}
