import StoreKit
final class Vendor: NSObject {
    private let skus: Set<String>
    private var request: SKProductsRequest?
    init(skus: Set<String>) { self.skus = skus; super.init() }
    func fetch() {
        request = SKProductsRequest(productIdentifiers: skus)
        request?.start()
    }
}
