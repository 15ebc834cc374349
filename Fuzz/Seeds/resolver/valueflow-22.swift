final class Tips {
    enum Tip: String, CaseIterable { case small = "tip.small", large = "tip.large" }
    var isProEdition = false
    func productID(_ tip: Tip) -> String {
        isProEdition ? String(format: "pro.%@", tip.rawValue) : tip.rawValue
    }
    func load() {
        let ids = Tip.allCases.map { productID($0) }
        RMStore.default().requestProducts(Set(ids)) { _, _ in } failure: { _ in }
    }
}
