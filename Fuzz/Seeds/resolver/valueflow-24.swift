import SwiftyStoreKit
final class GemShop {
    static let shared = GemShop()
    static let birthdayPack = "com.acme.gems.birthday"
    func purchaseGems(_ identifier: String, username: String, completion: @escaping (Bool) -> Void) {
        SwiftyStoreKit.purchaseProduct(identifier, quantity: 1, atomically: false, applicationUsername: username) { _ in }
    }
}
final class Promo {
    func buy() {
        GemShop.shared.purchaseGems(GemShop.birthdayPack, username: "") { [weak self] success in
            _ = self
        }
    }
}
