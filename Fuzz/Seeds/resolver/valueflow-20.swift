import StoreKit
import SwiftUI
struct Paywall: View {
    let products: [Product]
    var body: some View {
        ForEach(products) { product in ProductView(id: product.id) }
    }
}
struct Row: View {
    let tierID: String
    var body: some View { ProductView(id: tierID) }
}
