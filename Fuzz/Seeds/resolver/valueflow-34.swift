enum Products {
    private static let table = Bundle.main.object(forInfoDictionaryKey: "Shop IDs") as! [String: String]
    static let noAds = table["NoAds"]!
    static let maps = table["Maps"]!
    static let store = Helper(productIds: [noAds, maps])
}
