import AppStoreConnect
import Foundation

/// SYNTHETIC: a made-up App Store Connect account for the pull tests. Every ID, name, price and
/// date here is invented (the IDs only look like Apple's); none comes from a real account.
///
/// One app, `com.example.synthetic.coins`, and a decoy whose bundle ID starts the same way (the
/// API's `filter[bundleId]` is not exact, so the decoy comes back and must be dropped):
/// - three In-App Purchases: one complete (its localization on the latest of two versions, the
///   older per-product list empty; a manual price in its base territory, automatic prices
///   elsewhere); one `MISSING_METADATA` with no localization, no availability, and a screenshot
///   and price schedule the list's `include=` says nothing about; one with more localizations
///   than the included linkage holds and manual prices in two territories;
/// - a subscription group with a monthly plan (territories past the included linkage, two prices)
///   and a yearly plan whose server has no `planAvailabilities` (the older
///   `subscriptionAvailability` answers);
/// - its App ID with two capabilities and a profile, a decoy App ID, and a sandbox tester.
enum SyntheticASCWorld {
    /// What a relationship holds, and how the synthetic server shows it.
    enum Related: Sendable {
        case one(ResourceKey?)
        case many([ResourceKey])
        /// A to-one relationship whose `include=` carries no `data` (only links); its related
        /// endpoint answers (404 when nil).
        case oneUndisclosed(ResourceKey?)
        /// The related endpoint answers 404 (a server without it).
        case notFound
    }

    struct Node: Sendable {
        var attributes: [String: JSONValue]
        var relationships: [String: Related] = [:]
    }

    static let bundleID = "com.example.synthetic.coins"
    static let appID = "1500000001"
    static let decoyAppID = "1500000002"

    static func key(_ type: String, _ id: String) -> ResourceKey { ResourceKey(type: type, id: id) }
    static func territory(_ code: String) -> ResourceKey { key("territories", code) }

    static let nodes: [ResourceKey: Node] = {
        var nodes: [ResourceKey: Node] = [:]
        for (code, currency) in [("USA", "USD"), ("CAN", "CAD"), ("GBR", "GBP"), ("DEU", "EUR"), ("FRA", "EUR")] {
            nodes[territory(code)] = Node(attributes: ["currency": .string(currency)])
        }

        // The app and its decoy.
        nodes[key("apps", appID)] = Node(
            attributes: ["name": "Synthetic Coins", "bundleId": .string(bundleID), "sku": "SYNTHCOINS", "primaryLocale": "en-US"],
            relationships: [
                "inAppPurchasesV2": .many(["6447028000", "6447028001", "6447028002"].map { key("inAppPurchases", $0) }),
                "subscriptionGroups": .many([key("subscriptionGroups", "21000001")]),
            ])
        nodes[key("apps", decoyAppID)] = Node(
            attributes: ["name": "Synthetic Coins Widget", "bundleId": .string(bundleID + ".widget"), "sku": "SYNTHWIDGET", "primaryLocale": "en-US"],
            relationships: ["inAppPurchasesV2": .many([]), "subscriptionGroups": .many([])])

        // App IDs.
        nodes[key("bundleIds", "SYNTHBID01")] = Node(
            attributes: ["identifier": .string(bundleID), "name": "Synthetic Coins", "platform": "IOS", "seedId": "SYNTH12345"],
            relationships: [
                "bundleIdCapabilities": .many([key("bundleIdCapabilities", "SYNTHBID01_IN_APP_PURCHASE"), key("bundleIdCapabilities", "SYNTHBID01_PUSH_NOTIFICATIONS")]),
                "profiles": .many([key("profiles", "SYNTHPROF01")]),
            ])
        nodes[key("bundleIds", "SYNTHBID02")] = Node(
            attributes: ["identifier": .string(bundleID + ".widget"), "name": "Synthetic Widget", "platform": "IOS", "seedId": "SYNTH12345"],
            relationships: ["bundleIdCapabilities": .many([key("bundleIdCapabilities", "SYNTHBID02_APP_GROUPS")]), "profiles": .many([])])
        for (id, capability) in [("SYNTHBID01_IN_APP_PURCHASE", "IN_APP_PURCHASE"), ("SYNTHBID01_PUSH_NOTIFICATIONS", "PUSH_NOTIFICATIONS"), ("SYNTHBID02_APP_GROUPS", "APP_GROUPS")] {
            nodes[key("bundleIdCapabilities", id)] = Node(attributes: ["capabilityType": .string(capability)])
        }
        nodes[key("profiles", "SYNTHPROF01")] = Node(attributes: [
            "name": "Synthetic Coins App Store", "platform": "IOS", "profileType": "IOS_APP_STORE", "profileState": "ACTIVE",
            "uuid": "5a1e0000-0000-4000-8000-00000000c01e", "createdDate": "2026-01-05T10:00:00.000+0000",
            "expirationDate": "2027-01-05T10:00:00.000+0000", "profileContent": "U1lOVEhFVElDLVBST0ZJTEUtQ09OVEVOVA==",
        ])

        // In-App Purchases.
        nodes[key("inAppPurchases", "6447028000")] = Node(
            attributes: ["name": "Coins 100", "productId": "com.example.synthetic.coins.100", "inAppPurchaseType": "CONSUMABLE",
                         "state": "READY_TO_SUBMIT", "reviewNote": "Tap Shop, then Coins.", "familySharable": false, "contentHosting": false],
            relationships: [
                // Its metadata lives on versions (API 4.4.1): the older list is empty.
                "inAppPurchaseLocalizations": .many([]),
                "versions": .many([key("inAppPurchaseVersions", "6447028301"), key("inAppPurchaseVersions", "6447028302")]),
                "appStoreReviewScreenshot": .one(key("inAppPurchaseAppStoreReviewScreenshots", "6447028202")),
                "inAppPurchaseAvailability": .one(key("inAppPurchaseAvailabilities", "6447028000")),
                "iapPriceSchedule": .one(key("inAppPurchasePriceSchedules", "6447028000")),
            ])
        nodes[key("inAppPurchases", "6447028001")] = Node(
            attributes: ["name": "Coins 500", "productId": "com.example.synthetic.coins.500", "inAppPurchaseType": "CONSUMABLE",
                         "state": "MISSING_METADATA", "reviewNote": .null, "familySharable": false, "contentHosting": false],
            relationships: [
                "inAppPurchaseLocalizations": .many([]),
                "versions": .many([]),
                "appStoreReviewScreenshot": .oneUndisclosed(nil),
                "inAppPurchaseAvailability": .one(nil),
                "iapPriceSchedule": .oneUndisclosed(key("inAppPurchasePriceSchedules", "6447028001")),
            ])
        nodes[key("inAppPurchases", "6447028002")] = Node(
            attributes: ["name": "Unlock", "productId": "com.example.synthetic.unlock", "inAppPurchaseType": "NON_CONSUMABLE",
                         "state": "APPROVED", "reviewNote": .null, "familySharable": true, "contentHosting": false],
            relationships: [
                "inAppPurchaseLocalizations": .many(["6447028102", "6447028103", "6447028104"].map { key("inAppPurchaseLocalizations", $0) }),
                "appStoreReviewScreenshot": .one(key("inAppPurchaseAppStoreReviewScreenshots", "6447028203")),
                "inAppPurchaseAvailability": .one(key("inAppPurchaseAvailabilities", "6447028002")),
                "iapPriceSchedule": .one(key("inAppPurchasePriceSchedules", "6447028002")),
            ])
        nodes[key("inAppPurchaseVersions", "6447028301")] = Node(
            attributes: ["version": 1, "state": "REPLACED_WITH_NEW_VERSION"],
            relationships: ["localizations": .many([key("inAppPurchaseLocalizations", "6447028100")])])
        nodes[key("inAppPurchaseVersions", "6447028302")] = Node(
            attributes: ["version": 2, "state": "APPROVED"],
            relationships: ["localizations": .many([key("inAppPurchaseLocalizations", "6447028101")])])
        nodes[key("inAppPurchaseLocalizations", "6447028100")] = Node(attributes: [
            "name": "Old Coins", "locale": "en-US", "description": "Replaced.",
        ])
        for (id, locale, name) in [("6447028101", "en-US", "100 Coins"), ("6447028102", "en-US", "Unlock"),
                                   ("6447028103", "de-DE", "Freischalten"), ("6447028104", "fr-FR", "Débloquer")] {
            nodes[key("inAppPurchaseLocalizations", id)] = Node(attributes: [
                "name": .string(name), "locale": .string(locale), "description": "Synthetic description.", "state": "PREPARE_FOR_SUBMISSION",
            ])
        }
        for id in ["6447028202", "6447028203"] {
            nodes[key("inAppPurchaseAppStoreReviewScreenshots", id)] = screenshot(fileName: "review-\(id).png")
        }
        nodes[key("inAppPurchaseAvailabilities", "6447028000")] = Node(
            attributes: ["availableInNewTerritories": true],
            relationships: ["availableTerritories": .many(["USA", "CAN", "GBR", "DEU", "FRA"].map(territory))])
        nodes[key("inAppPurchaseAvailabilities", "6447028002")] = Node(
            attributes: ["availableInNewTerritories": false], relationships: ["availableTerritories": .many([territory("USA")])])

        // Price schedules: base territory, manual and automatic (equalized) prices.
        func price(_ id: String, _ code: String, manual: Bool, customerPrice: String, proceeds: String) {
            let point = key("inAppPurchasePricePoints", "SYNTH-PP-\(id)")
            nodes[key("inAppPurchasePrices", "SYNTH-PRICE-\(id)")] = Node(
                attributes: ["startDate": .null, "endDate": .null, "manual": .bool(manual)],
                relationships: ["inAppPurchasePricePoint": .one(point), "territory": .one(territory(code))])
            nodes[point] = Node(attributes: ["customerPrice": .string(customerPrice), "proceeds": .string(proceeds)],
                                relationships: ["territory": .one(territory(code))])
        }
        price("0000-USA", "USA", manual: true, customerPrice: "0.99", proceeds: "0.84")
        price("0000-CAN", "CAN", manual: false, customerPrice: "1.39", proceeds: "1.18")
        price("0000-GBR", "GBR", manual: false, customerPrice: "0.99", proceeds: "0.70")
        price("0002-USA", "USA", manual: true, customerPrice: "4.99", proceeds: "4.24")
        price("0002-GBR", "GBR", manual: true, customerPrice: "4.49", proceeds: "3.10")
        nodes[key("inAppPurchasePriceSchedules", "6447028000")] = Node(attributes: [:], relationships: [
            "baseTerritory": .one(territory("USA")),
            "manualPrices": .many([key("inAppPurchasePrices", "SYNTH-PRICE-0000-USA")]),
            "automaticPrices": .many([key("inAppPurchasePrices", "SYNTH-PRICE-0000-CAN"), key("inAppPurchasePrices", "SYNTH-PRICE-0000-GBR")]),
        ])
        nodes[key("inAppPurchasePriceSchedules", "6447028001")] = Node(attributes: [:], relationships: [
            "baseTerritory": .one(nil), "manualPrices": .many([]), "automaticPrices": .many([]),
        ])
        nodes[key("inAppPurchasePriceSchedules", "6447028002")] = Node(attributes: [:], relationships: [
            "baseTerritory": .one(territory("USA")),
            "manualPrices": .many([key("inAppPurchasePrices", "SYNTH-PRICE-0002-GBR"), key("inAppPurchasePrices", "SYNTH-PRICE-0002-USA")]),
            "automaticPrices": .many([]),
        ])

        // Subscriptions.
        let monthly = key("subscriptions", "6450000001")
        let yearly = key("subscriptions", "6450000002")
        nodes[key("subscriptionGroups", "21000001")] = Node(
            attributes: ["referenceName": "Pro"],
            relationships: ["subscriptions": .many([monthly, yearly]),
                            "subscriptionGroupLocalizations": .many([key("subscriptionGroupLocalizations", "21000101")])])
        nodes[key("subscriptionGroupLocalizations", "21000101")] = Node(attributes: [
            "name": "Synthetic Pro", "customAppName": .null, "locale": "en-US", "state": "APPROVED",
        ])
        nodes[monthly] = Node(
            attributes: ["name": "Pro Monthly", "productId": "com.example.synthetic.pro.monthly", "familySharable": false, "state": "APPROVED",
                         "subscriptionPeriod": "ONE_MONTH", "reviewNote": .null, "groupLevel": 1],
            relationships: [
                "subscriptionLocalizations": .many([key("subscriptionLocalizations", "6450000101")]),
                "appStoreReviewScreenshot": .one(key("subscriptionAppStoreReviewScreenshots", "6450000201")),
                "planAvailabilities": .many([key("subscriptionPlanAvailabilities", "6450000301")]),
                "subscriptionAvailability": .notFound,
                "prices": .many([key("subscriptionPrices", "SYNTH-SUBPRICE-USA"), key("subscriptionPrices", "SYNTH-SUBPRICE-CAN")]),
                "group": .one(key("subscriptionGroups", "21000001")),
            ])
        nodes[yearly] = Node(
            attributes: ["name": "Pro Yearly", "productId": "com.example.synthetic.pro.yearly", "familySharable": false, "state": "MISSING_METADATA",
                         "subscriptionPeriod": "ONE_YEAR", "reviewNote": .null, "groupLevel": 2],
            relationships: [
                "subscriptionLocalizations": .many([]),
                "versions": .many([]),
                "appStoreReviewScreenshot": .oneUndisclosed(nil),
                "planAvailabilities": .notFound,
                "subscriptionAvailability": .one(key("subscriptionAvailabilities", "6450000002")),
                "prices": .many([]),
                "group": .one(key("subscriptionGroups", "21000001")),
            ])
        nodes[key("subscriptionLocalizations", "6450000101")] = Node(attributes: [
            "name": "Pro Monthly", "locale": "en-US", "description": "Synthetic monthly plan.", "state": "APPROVED",
        ])
        nodes[key("subscriptionAppStoreReviewScreenshots", "6450000201")] = screenshot(fileName: "review-monthly.png")
        nodes[key("subscriptionPlanAvailabilities", "6450000301")] = Node(
            attributes: ["availableInNewTerritories": true, "planType": "MONTHLY"],
            relationships: ["availableTerritories": .many(["USA", "CAN", "GBR"].map(territory))])
        nodes[key("subscriptionAvailabilities", "6450000002")] = Node(
            attributes: ["availableInNewTerritories": false], relationships: ["availableTerritories": .many([territory("USA")])])
        for (code, customerPrice, proceeds) in [("USA", "4.99", "4.24"), ("CAN", "6.99", "5.94")] {
            let point = key("subscriptionPricePoints", "SYNTH-SUBPP-\(code)")
            nodes[key("subscriptionPrices", "SYNTH-SUBPRICE-\(code)")] = Node(
                attributes: ["startDate": .null, "preserved": false, "planType": "MONTHLY"],
                relationships: ["subscriptionPricePoint": .one(point), "territory": .one(territory(code))])
            nodes[point] = Node(attributes: ["customerPrice": .string(customerPrice), "proceeds": .string(proceeds), "proceedsYear2": .string(proceeds)],
                                relationships: ["territory": .one(territory(code))])
        }

        nodes[key("sandboxTesters", "SYNTHTESTER1")] = Node(attributes: [
            "firstName": "Sandy", "lastName": "Synthetic", "acAccountName": "sandy.synthetic@example.com", "territory": "USA",
            "applePayCompatible": false, "interruptPurchases": false, "subscriptionRenewalRate": "MONTHLY_RENEWAL_EVERY_FIVE_MINUTES",
        ])
        return nodes
    }()

    private static func screenshot(fileName: String) -> Node {
        Node(attributes: [
            "fileSize": 245_760, "fileName": .string(fileName), "sourceFileChecksum": "0d4a1e6d7c1f1e2b3c4d5e6f708192a3",
            "imageAsset": ["templateUrl": "https://example.invalid/{w}x{h}bb.{f}", "width": 1290, "height": 2796],
            "assetType": "SCREENSHOT", "assetDeliveryState": ["errors": [], "warnings": [], "state": "COMPLETE"],
        ])
    }
}
