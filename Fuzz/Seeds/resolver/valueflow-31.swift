enum Shelf {
    static let noAds = "com.acme.kite.noads"
    static let vendor = Vendor(skus: [Shelf.noAds, "com.acme.kite.maps"])
}
final class Atlas {
    let catalog = Catalog(skus: ["com.acme.atlas.pro"])
}
