import Formats
import Model
import Loaders
import RuleEngine

extension Environment {
    /// One tester's account loads the products (a Run from Xcode, the sandbox, TestFlight), so its
    /// storefront decides what StoreKit returns; for App Review and the App Store every territory a
    /// product is sold in counts.
    var oneTesterStorefront: Bool { self == .xcode || self == .sandbox || self == .testflight }
}

extension StoreRecord {
    /// The note for a finding that App Store Connect's state outranks (``StoreRecord/metadataComplete``);
    /// `subject` names the product when "it" would not be clear (a group's subscriptions).
    static func completeStateNote(_ state: Fact<String>, subject: String = "it") -> String {
        "App Store Connect reports \(subject) \(displayName(ofState: state.value)) (\(state.location)), a state it gives only once the metadata is complete"
    }
}

extension Finding {
    /// This finding about a product whose state App Store Connect gives only with complete metadata:
    /// at most a warning (the snapshot's lists may be partial, App Store Connect's state is not), with
    /// the state as a note and a labelled span. `subject` as for ``StoreRecord/completeStateNote(_:subject:)``.
    func deferring(to state: Fact<String>, subject: String = "it") -> Finding {
        var finding = self
        finding.severity = min(finding.severity, .warning)
        let note = StoreRecord.completeStateNote(state, subject: subject)
        finding.notes.append(note)
        finding.related.append(RelatedSpan(state.location, label: "App Store Connect: metadata complete", note: note))
        return finding
    }
}
