import AppStoreConnect
import Foundation

/// SYNTHETIC: an App Store Connect account the size of a large catalog, for the pull's scale
/// tests and benchmark. Every ID, name and price is invented.
///
/// The app `SyntheticASCWorld.bundleID` with `inAppPurchases` In-App Purchases and
/// `subscriptions` subscriptions (ten to a group), each available in every one of `territories`
/// territories. An In-App Purchase has two localizations, a review screenshot, one manual price
/// in its base territory and automatic prices everywhere else; a subscription has a localization,
/// a review screenshot, one plan and a price in every territory. Automatic prices and price points
/// are shared between products, which the API's are not: the pull never asks for automatic
/// prices, and sharing keeps the test's own memory small.
enum SyntheticScaleWorld {
    typealias Node = SyntheticASCWorld.Node

    static func key(_ type: String, _ id: String) -> ResourceKey { ResourceKey(type: type, id: id) }

    /// `USA`, then made-up three-letter codes.
    static func territoryCodes(_ count: Int) -> [String] {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var codes = ["USA"]
        var index = 0
        while codes.count < count {
            let code = String([letters[index / 676 % 26], letters[index / 26 % 26], letters[index % 26]])
            if code != "USA" { codes.append(code) }
            index += 1
        }
        return codes
    }

    static func iapID(_ index: Int) -> String { String(7_000_000_000 + index) }
    static func subscriptionID(_ index: Int) -> String { String(7_500_000_000 + index) }

    static func nodes(inAppPurchases: Int, subscriptions: Int, territories: Int = 175) -> [ResourceKey: Node] {
        var nodes: [ResourceKey: Node] = [:]
        let codes = territoryCodes(territories)
        let territoryKeys = codes.map { key("territories", $0) }
        for code in codes { nodes[key("territories", code)] = Node(attributes: ["currency": "XTS"]) }
        let groupCount = (subscriptions + 9) / 10
        nodes[key("apps", SyntheticASCWorld.appID)] = Node(
            attributes: ["name": "Synthetic Catalog", "bundleId": .string(SyntheticASCWorld.bundleID), "sku": "SYNTHCATALOG", "primaryLocale": "en-US"],
            relationships: [
                "inAppPurchasesV2": .many((0..<inAppPurchases).map { key("inAppPurchases", iapID($0)) }),
                "subscriptionGroups": .many((0..<groupCount).map { key("subscriptionGroups", String(22_000_000 + $0)) }),
            ])
        nodes[key("bundleIds", "SYNTHBIDS1")] = Node(
            attributes: ["identifier": .string(SyntheticASCWorld.bundleID), "name": "Synthetic Catalog", "platform": "IOS", "seedId": "SYNTH12345"],
            relationships: ["bundleIdCapabilities": .many([key("bundleIdCapabilities", "SYNTHBIDS1_IN_APP_PURCHASE")]), "profiles": .many([])])
        nodes[key("bundleIdCapabilities", "SYNTHBIDS1_IN_APP_PURCHASE")] = Node(attributes: ["capabilityType": "IN_APP_PURCHASE"])

        // Shared price points, and the shared automatic prices of every territory but the base.
        for code in codes {
            nodes[key("inAppPurchasePricePoints", "SYNTH-PP-\(code)")] = Node(
                attributes: ["customerPrice": "0.99", "proceeds": "0.84"], relationships: ["territory": .one(key("territories", code))])
            nodes[key("subscriptionPricePoints", "SYNTH-SUBPP-\(code)")] = Node(
                attributes: ["customerPrice": "4.99", "proceeds": "4.24", "proceedsYear2": "4.24"], relationships: ["territory": .one(key("territories", code))])
        }
        var automatic: [ResourceKey] = []
        for code in codes.dropFirst() {
            let price = key("inAppPurchasePrices", "SYNTH-AUTO-\(code)")
            automatic.append(price)
            nodes[price] = Node(attributes: ["startDate": .null, "endDate": .null, "manual": false], relationships: [
                "inAppPurchasePricePoint": .one(key("inAppPurchasePricePoints", "SYNTH-PP-\(code)")), "territory": .one(key("territories", code))])
        }

        for index in 0..<inAppPurchases {
            let id = iapID(index)
            let localizations = ["en-US", "de-DE"].enumerated().map { key("inAppPurchaseLocalizations", "\(id)-L\($0.offset)") }
            nodes[key("inAppPurchases", id)] = Node(
                attributes: ["name": .string("Item \(index)"), "productId": .string("com.example.synthetic.item\(index)"), "inAppPurchaseType": "CONSUMABLE",
                             "state": "APPROVED", "reviewNote": .null, "familySharable": false, "contentHosting": false],
                relationships: [
                    "inAppPurchaseLocalizations": .many(localizations),
                    "appStoreReviewScreenshot": .one(key("inAppPurchaseAppStoreReviewScreenshots", "\(id)-S")),
                    "inAppPurchaseAvailability": .one(key("inAppPurchaseAvailabilities", id)),
                    "iapPriceSchedule": .one(key("inAppPurchasePriceSchedules", id)),
                ])
            for (offset, locale) in ["en-US", "de-DE"].enumerated() {
                nodes[localizations[offset]] = Node(attributes: [
                    "name": .string("Item \(index)"), "locale": .string(locale), "description": "Synthetic description.", "state": "APPROVED",
                ])
            }
            nodes[key("inAppPurchaseAppStoreReviewScreenshots", "\(id)-S")] = screenshot
            nodes[key("inAppPurchaseAvailabilities", id)] = Node(
                attributes: ["availableInNewTerritories": true], relationships: ["availableTerritories": .many(territoryKeys)])
            let manual = key("inAppPurchasePrices", "\(id)-USA")
            nodes[manual] = Node(attributes: ["startDate": .null, "endDate": .null, "manual": true], relationships: [
                "inAppPurchasePricePoint": .one(key("inAppPurchasePricePoints", "SYNTH-PP-USA")), "territory": .one(key("territories", "USA"))])
            nodes[key("inAppPurchasePriceSchedules", id)] = Node(attributes: [:], relationships: [
                "baseTerritory": .one(key("territories", "USA")), "manualPrices": .many([manual]), "automaticPrices": .many(automatic),
            ])
        }

        for group in 0..<groupCount {
            let groupID = String(22_000_000 + group)
            let members = (group * 10..<min(subscriptions, group * 10 + 10)).map { key("subscriptions", subscriptionID($0)) }
            nodes[key("subscriptionGroups", groupID)] = Node(
                attributes: ["referenceName": .string("Group \(group)")],
                relationships: ["subscriptions": .many(members), "subscriptionGroupLocalizations": .many([key("subscriptionGroupLocalizations", "\(groupID)-L")])])
            nodes[key("subscriptionGroupLocalizations", "\(groupID)-L")] = Node(attributes: [
                "name": .string("Group \(group)"), "customAppName": .null, "locale": "en-US", "state": "APPROVED",
            ])
            for (level, member) in members.enumerated() {
                let id = member.id
                let prices = codes.map { key("subscriptionPrices", "\(id)-\($0)") }
                nodes[member] = Node(
                    attributes: ["name": .string("Plan \(id)"), "productId": .string("com.example.synthetic.plan\(id)"), "familySharable": false,
                                 "state": "APPROVED", "subscriptionPeriod": "ONE_MONTH", "reviewNote": .null, "groupLevel": .integer(Int64(level + 1))],
                    relationships: [
                        "subscriptionLocalizations": .many([key("subscriptionLocalizations", "\(id)-L")]),
                        "appStoreReviewScreenshot": .one(key("subscriptionAppStoreReviewScreenshots", "\(id)-S")),
                        "planAvailabilities": .many([key("subscriptionPlanAvailabilities", id)]),
                        "subscriptionAvailability": .one(key("subscriptionAvailabilities", id)),
                        "prices": .many(prices),
                        "group": .one(key("subscriptionGroups", groupID)),
                    ])
                nodes[key("subscriptionLocalizations", "\(id)-L")] = Node(attributes: [
                    "name": .string("Plan \(id)"), "locale": "en-US", "description": "Synthetic plan.", "state": "APPROVED",
                ])
                nodes[key("subscriptionAppStoreReviewScreenshots", "\(id)-S")] = screenshot
                nodes[key("subscriptionPlanAvailabilities", id)] = Node(
                    attributes: ["availableInNewTerritories": true, "planType": "MONTHLY"], relationships: ["availableTerritories": .many(territoryKeys)])
                nodes[key("subscriptionAvailabilities", id)] = Node(
                    attributes: ["availableInNewTerritories": true], relationships: ["availableTerritories": .many(territoryKeys)])
                for (code, price) in zip(codes, prices) {
                    nodes[price] = Node(attributes: ["startDate": .null, "preserved": false, "planType": "MONTHLY"], relationships: [
                        "subscriptionPricePoint": .one(key("subscriptionPricePoints", "SYNTH-SUBPP-\(code)")), "territory": .one(key("territories", code))])
                }
            }
        }
        return nodes
    }

    private static let screenshot = Node(attributes: [
        "fileSize": 245_760, "fileName": "review.png", "sourceFileChecksum": "0d4a1e6d7c1f1e2b3c4d5e6f708192a3",
        "imageAsset": ["templateUrl": "https://example.invalid/{w}x{h}bb.{f}", "width": 1290, "height": 2796],
        "assetType": "SCREENSHOT", "assetDeliveryState": ["errors": [], "warnings": [], "state": "COMPLETE"],
    ])
}
