/// One question of the invalid-product-ID checklist (`shared/spec/checklist.md`). Ids are public.
public struct ChecklistItem: Sendable, Hashable {
    public var number: Int
    public var id: String
    public var question: String
    /// Community advice: reported, but never makes a product invalid.
    public var isAdvice: Bool
    /// The item is answered from the products in App Store Connect: with none known, a rule's
    /// pass or "not applicable" would be vacuous, so the item asks for them instead.
    public var aboutProducts: Bool

    public init(number: Int, id: String, question: String, isAdvice: Bool = false, aboutProducts: Bool = false) {
        self.number = number
        self.id = id
        self.question = question
        self.isAdvice = isAdvice
        self.aboutProducts = aboutProducts
    }
}

public enum Checklist {
    public static let items: [ChecklistItem] = [
        ChecklistItem(number: 1, id: "app-id-iap-enabled", question: "Have you enabled In-App Purchase for your App ID?"),
        ChecklistItem(number: 2, id: "cleared-for-sale", question: "Is every product cleared for sale?", aboutProducts: true),
        ChecklistItem(number: 3, id: "binary-submitted", question: "Have you submitted an app binary, where this environment needs one?"),
        ChecklistItem(number: 4, id: "bundle-id-matches", question: "Does the app's bundle ID match the App ID and the App Store Connect app?"),
        ChecklistItem(number: 5, id: "provisioning-profile", question: "Is the build's provisioning profile made for this explicit App ID, current, and installed?"),
        ChecklistItem(number: 6, id: "code-signing", question: "Does the project sign with that profile and team?"),
        ChecklistItem(number: 7, id: "os-version", question: "Does the deployment target support the StoreKit API the code uses?"),
        ChecklistItem(number: 8, id: "full-product-id", question: "Does the code request each product by its full product ID, exactly?"),
        ChecklistItem(number: 9, id: "propagation-wait", question: "Has enough time passed since the product was added or changed?", aboutProducts: true),
        ChecklistItem(number: 10, id: "bank-details", question: "Are the Paid Apps Agreement, banking and tax all active?"),
        ChecklistItem(number: 11, id: "app-reinstalled", question: "Have you deleted the app from the device and reinstalled it?", isAdvice: true),
        ChecklistItem(number: 12, id: "device-not-jailbroken", question: "Is the test device free of a jailbreak?", isAdvice: true),
        ChecklistItem(number: 13, id: "explicit-app-id", question: "Is the App ID explicit (no `*` wildcard)?"),
        ChecklistItem(number: 14, id: "product-exists", question: "Does every requested product exist for this app in App Store Connect (and was its ID never used before)?"),
        ChecklistItem(number: 15, id: "product-metadata", question: "Does every product have the minimum metadata (reference name, a localization with display name, a price) with valid values?", aboutProducts: true),
        ChecklistItem(number: 16, id: "product-status", question: "Is every product in a status that this environment serves?", aboutProducts: true),
        ChecklistItem(number: 17, id: "storefront-availability", question: "Is the tester's storefront among each product's territories?", aboutProducts: true),
        ChecklistItem(number: 18, id: "developer-program", question: "Is the membership active, the latest program license accepted, and the team not a free personal team?"),
        ChecklistItem(number: 19, id: "storekit-configuration", question: "If Xcode serves products from a StoreKit configuration file, does it hold the requested products, with simulated \"Load Products\" failure off, and is that what you meant to test?"),
        ChecklistItem(number: 20, id: "sandbox-account", question: "Is there a sandbox test account from this team (needed to purchase, not to fetch products)?"),
        ChecklistItem(number: 21, id: "test-device", question: "Is the test device one on which StoreKit can load products in this environment?"),
        ChecklistItem(number: 22, id: "subscription-groups", question: "Does every auto-renewable subscription belong to a group with a localized display name?", aboutProducts: true),
        ChecklistItem(number: 23, id: "catalog-valid", question: "Is every bulk product XML upload valid (structure, values, screenshots)?"),
    ]

    public static let ids: Set<String> = Set(items.map(\.id))

    public static func item(_ id: String) -> ChecklistItem? { items.first { $0.id == id } }
}
