enum StoreID: String, CaseIterable {
    case pro = "com.acme.pro"
    case lifetime = "com.acme.lifetime"
    case legacy = "com.acme.legacy"
}
