import SwiftyStoreKit
enum Vault { static let packs = ["com.acme.coins.10", "com.acme.coins.50", "com.acme.coins.99"] }
final class PackModel {
    func buyBest() { SwiftyStoreKit.purchaseProduct(Vault.packs[2]) { _ in } }
}
