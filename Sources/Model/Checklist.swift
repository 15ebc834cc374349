import Formats

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

/// The checklist items' ids (public: JSON, SARIF and configuration files use them), in checklist order.
/// Rules name items through these cases, so a misspelt item does not compile.
public enum ChecklistID: String, CaseIterable, Sendable {
    case appIdIapEnabled = "app-id-iap-enabled"
    case clearedForSale = "cleared-for-sale"
    case binarySubmitted = "binary-submitted"
    case bundleIdMatches = "bundle-id-matches"
    case provisioningProfile = "provisioning-profile"
    case codeSigning = "code-signing"
    case osVersion = "os-version"
    case fullProductId = "full-product-id"
    case propagationWait = "propagation-wait"
    case bankDetails = "bank-details"
    case appReinstalled = "app-reinstalled"
    case deviceNotJailbroken = "device-not-jailbroken"
    case explicitAppId = "explicit-app-id"
    case productExists = "product-exists"
    case productMetadata = "product-metadata"
    case productStatus = "product-status"
    case storefrontAvailability = "storefront-availability"
    case developerProgram = "developer-program"
    case storekitConfiguration = "storekit-configuration"
    case sandboxAccount = "sandbox-account"
    case testDevice = "test-device"
    case subscriptionGroups = "subscription-groups"
    case catalogValid = "catalog-valid"
}

public enum Checklist {
    public static let items: [ChecklistItem] = [
        ChecklistItem(number: 1, id: ChecklistID.appIdIapEnabled.rawValue, question: "Have you enabled In-App Purchase for your App ID?"),
        ChecklistItem(number: 2, id: ChecklistID.clearedForSale.rawValue, question: "Is every product cleared for sale?", aboutProducts: true),
        ChecklistItem(number: 3, id: ChecklistID.binarySubmitted.rawValue, question: "Have you submitted an app binary, where this environment needs one?"),
        ChecklistItem(number: 4, id: ChecklistID.bundleIdMatches.rawValue, question: "Does the app's bundle ID match the App ID and the App Store Connect app?"),
        ChecklistItem(number: 5, id: ChecklistID.provisioningProfile.rawValue, question: "Is the build's provisioning profile made for this explicit App ID, current, and installed?"),
        ChecklistItem(number: 6, id: ChecklistID.codeSigning.rawValue, question: "Does the project sign with that profile and team?"),
        ChecklistItem(number: 7, id: ChecklistID.osVersion.rawValue, question: "Does the deployment target support the StoreKit API the code uses?"),
        ChecklistItem(number: 8, id: ChecklistID.fullProductId.rawValue, question: "Does the code request each product by its full product ID, exactly?"),
        ChecklistItem(number: 9, id: ChecklistID.propagationWait.rawValue, question: "Has enough time passed since the product was added or changed?", aboutProducts: true),
        ChecklistItem(number: 10, id: ChecklistID.bankDetails.rawValue, question: "Are the Paid Apps Agreement, banking and tax all active?"),
        ChecklistItem(number: 11, id: ChecklistID.appReinstalled.rawValue, question: "Have you deleted the app from the device and reinstalled it?", isAdvice: true),
        ChecklistItem(number: 12, id: ChecklistID.deviceNotJailbroken.rawValue, question: "Is the test device free of a jailbreak?", isAdvice: true),
        ChecklistItem(number: 13, id: ChecklistID.explicitAppId.rawValue, question: "Is the App ID explicit (no `*` wildcard)?"),
        ChecklistItem(number: 14, id: ChecklistID.productExists.rawValue, question: "Does every requested product exist for this app in App Store Connect (and was its ID never used before)?"),
        ChecklistItem(number: 15, id: ChecklistID.productMetadata.rawValue, question: "Does every product have the minimum metadata (reference name, a localization with display name, a price) with valid values?", aboutProducts: true),
        ChecklistItem(number: 16, id: ChecklistID.productStatus.rawValue, question: "Is every product in a status that this environment serves?", aboutProducts: true),
        ChecklistItem(number: 17, id: ChecklistID.storefrontAvailability.rawValue, question: "Is the tester's storefront among each product's territories?", aboutProducts: true),
        ChecklistItem(number: 18, id: ChecklistID.developerProgram.rawValue, question: "Is the membership active, the latest program license accepted, and the team not a free personal team?"),
        ChecklistItem(number: 19, id: ChecklistID.storekitConfiguration.rawValue, question: "If Xcode serves products from a StoreKit configuration file, does it hold the requested products, with simulated \"Load Products\" failure off, and is that what you meant to test?"),
        ChecklistItem(number: 20, id: ChecklistID.sandboxAccount.rawValue, question: "Is there a sandbox test account from this team (needed to purchase, not to fetch products)?"),
        ChecklistItem(number: 21, id: ChecklistID.testDevice.rawValue, question: "Is the test device one on which StoreKit can load products in this environment?"),
        ChecklistItem(number: 22, id: ChecklistID.subscriptionGroups.rawValue, question: "Does every auto-renewable subscription belong to a group with a localized display name?", aboutProducts: true),
        ChecklistItem(number: 23, id: ChecklistID.catalogValid.rawValue, question: "Is every bulk product XML upload valid (structure, values, screenshots)?"),
    ]

    public static let ids: Set<String> = Set(items.map(\.id))

    public static func item(_ id: String) -> ChecklistItem? { items.first { $0.id == id } }
}
