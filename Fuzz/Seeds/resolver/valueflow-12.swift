import SwiftyStoreKit
final class Till {
    static let shared = Till()
    static let bundles = ["com.acme.bundle.a", "com.acme.bundle.b"]
    func purchaseCoins(_ id: String, user: String) {
        SwiftyStoreKit.purchaseProduct(id, quantity: 1, atomically: false, applicationUsername: user) { _ in }
    }
}
final class CoinScreen {
    func tap(row: Int) { purchaseCoins(id: Till.bundles[row]) }
    func purchaseCoins(id: String) { Till.shared.purchaseCoins(id, user: "u") }
}
