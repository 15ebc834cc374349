import StoreKit
open class Helper: NSObject {
    private let productIdentifiers: Set<String>
    public init(productIds: Set<String>) {
        productIdentifiers = productIds
        super.init()
    }
    public func request() { SKProductsRequest(productIdentifiers: productIdentifiers).start() }
}
