import StoreKit

/// Loads the store's products and buys them (StoreKit 1, as the app still supports iOS 14).
final class Store: NSObject, SKProductsRequestDelegate {
    static let shared = Store()
    private var request: SKProductsRequest?
    private(set) var products: [SKProduct] = []

    func loadProducts() {
        let identifiers: Set<String> = [
            "upgradetopro",
            "com.runmonster.runmonsterfree.Coins100",
        ]
        request = SKProductsRequest(productIdentifiers: identifiers)
        request?.delegate = self
        request?.start()
    }

    func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse) {
        products = response.products
        if !response.invalidProductIdentifiers.isEmpty {
            print("Invalid product IDs: \(response.invalidProductIdentifiers)")
        }
    }

    func buy(_ product: SKProduct) {
        SKPaymentQueue.default().add(SKPayment(product: product))
    }
}
