import IAPDoctor

extension Environment {
    /// One tester's account loads the products (a Run from Xcode, the sandbox, TestFlight), so its
    /// storefront decides what StoreKit returns; for App Review and the App Store every territory a
    /// product is sold in counts.
    var oneTesterStorefront: Bool { self == .xcode || self == .sandbox || self == .testflight }
}

extension StoreRecord {
    /// The note for a finding that App Store Connect's state outranks (``StoreRecord/metadataComplete``).
    static func completeStateNote(_ state: Fact<String>) -> String {
        "App Store Connect reports it \(displayName(ofState: state.value)) (\(state.location)), a state it gives only once the metadata is complete"
    }
}
