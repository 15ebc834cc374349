import StoreKit
import UIKit
enum Keys {
    static let bundle = "com.acme.app"
    static let didBuy = Notification.Name("com.acme.app.didBuy")
    static let lastTip = "com.acme.app.lastTip"
}
let links: [String: String] = ["com.acme.app.pro": "https://acme.com/pro"]
let groupName = "group.com.acme.app"
func remember(_ id: String) { UserDefaults.standard.set(true, forKey: id) }
func setUp() {
    remember("com.acme.app.remembered")
    NotificationCenter.default.post(name: Keys.didBuy, object: nil)
    UserDefaults.standard.set(links["com.acme.app.pro"], forKey: Keys.lastTip)
    _ = URL(string: "https://acme.com/com.acme.app.pro")
    _ = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: groupName)
}
func fetch(_ ids: [String]) async throws -> [Product] {
    try await Product.products(for: ids)
}
