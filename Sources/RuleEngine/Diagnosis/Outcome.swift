import Formats
import Model
import Loaders

/// What one rule concluded about one checklist item (and, where it applies, one product).
public struct Outcome: Sendable {
    public enum Status: Sendable, Hashable {
        case pass
        /// The evidence says yes, with something worth knowing (findings that do not answer the
        /// question: a context-only rule's, or the note that counts findings past the listing limit).
        case passWithNotes([Finding])
        /// The evidence says no: `fail` for the item when a finding is an error, else `warn`.
        case fail([Finding])
        /// No evidence either way: the question to answer and the descriptor key to set.
        case unknown(question: String, key: String)
        case notApplicable(reason: String)

        /// A failure with at least one error-level finding: what fails a checklist item and makes a
        /// product invalid. A failure with warnings or notes only makes the item `warn` and the
        /// product `at_risk`.
        public var failsWithError: Bool {
            guard case .fail(let findings) = self else { return false }
            return findings.contains { $0.severity == .error }
        }

        /// The evidence answers the question "no", at any severity.
        public var answersNo: Bool {
            guard case .fail(let findings) = self else { return false }
            return !findings.isEmpty
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
