import StoreKit
import SwiftUI

/// RunMonster Plus: the subscription store shows every plan of the App Store Connect group.
struct PlusPaywall: View {
    var body: some View {
        SubscriptionStoreView(groupID: "21450937")
            .storeButton(.visible, for: .restorePurchases)
    }
}
