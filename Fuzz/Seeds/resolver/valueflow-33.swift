import StoreKit
import SwiftUI
struct Perk: RawRepresentable, Hashable {
    let rawValue: String
    init?(rawValue: String) { self.rawValue = rawValue }
    private init(perk: String) { self.init(rawValue: "\(Self.head)\(perk)")! }
    static let head = "com.acme.perk."
    static let sync = Perk(perk: "sync")
    static let themes = Perk(perk: "themes")
    static var all: [Perk] { [.sync, .themes] }
}
struct PerksView: View {
    var body: some View {
        Text("Perks").storeProductsTask(for: Perk.all.map(\.rawValue)) { _ in }
    }
}
