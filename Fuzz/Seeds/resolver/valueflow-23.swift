import RevenueCat
enum Paywall {
    static var current: Offering?
    static func refresh() {
        Purchases.shared.getOfferings { offerings, error in
            if let offerings = offerings {
                current = offerings.current
            }
        }
    }
}
