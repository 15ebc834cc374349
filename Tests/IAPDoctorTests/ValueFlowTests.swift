import CodeScanner
import Testing

/// `file:line id` for each requested ID, sorted: the form value-flow expectations are written in.
func requestedIDs(_ files: [(file: String, text: String)]) -> [String] {
    SourceScanner.scan(sources: files).requests.map { "\($0.location.file):\($0.location.line) \($0.id)" }
}

/// Each unresolved call site's note, as `file:line kind: reason`.
func unresolvedNotes(_ files: [(file: String, text: String)]) -> [String] {
    SourceScanner.scan(sources: files).unresolved.map { "\($0.location.file):\($0.location.line) \($0.kind.rawValue): \($0.reason)" }
}

@Suite("Value flow")
struct ValueFlowTests {
    @Test func dictionaryKeysReachTheFetch() {
        let files = [("Tips.swift", #"""
        import StoreKit
        let tipNames: [String: String] = [
            "com.acme.tip.small": "Small tip",
            "com.acme.tip.large": "Large tip",
        ]
        func load() async throws {
            _ = try await Product.products(for: Set(tipNames.keys))
            _ = try await Product.products(for: tipNames.values.map { $0 })
        }
        """#)]
        #expect(requestedIDs(files) == [
            "Tips.swift:3 com.acme.tip.small",
            "Tips.swift:3 Small tip",
            "Tips.swift:4 com.acme.tip.large",
            "Tips.swift:4 Large tip",
        ])
    }
}
