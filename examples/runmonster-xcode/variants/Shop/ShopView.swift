import StoreKit
import SwiftUI

// A rule example for `request-not-resolved`: the product shown comes from a binding, so the code
// does not say which product ID is requested.
struct ShopView: View {
    @Binding var selectedID: String

    var body: some View {
        ProductView(id: selectedID)
    }
}
