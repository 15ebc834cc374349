import Foundation
@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
@testable import RuleEngine
@testable import Reporters
import Rules
import Testing

/// Storefront-aware rules: where one tester loads the products (Xcode, the sandbox, TestFlight) the
/// tester's storefront decides; for App Review and the App Store every territory counts; and
/// App Store Connect's state, when it says the metadata is complete, is never contradicted by an
/// error. Each case checks the finding's severity, the checklist item and the product's verdict.
@Suite("Storefront-aware rules")
struct StorefrontTests {
    static let monthly = "com.greenthumb.pocketgarden.plus.monthly"
    static let seeds = "com.greenthumb.pocketgarden.seeds50"

    /// The healthy project's subscription as App Store Connect has it: available in `available`,
    /// priced in USA only.
    static func subscription(state: String, available: [String] = ["USA", "CAN"]) -> String {
        let territories = available.map { "{ \"type\": \"territories\", \"id\": \"\($0)\" }" }.joined(separator: ", ")
        return """
            { "data": [
              { "type": "subscriptions", "id": "21", "attributes": { "productId": "\(monthly)", "name": "Plus Monthly",
                  "state": "\(state)", "subscriptionPeriod": "ONE_MONTH" },
                "relationships": {
                  "subscriptionAvailability": { "data": { "type": "subscriptionAvailabilities", "id": "21" } },
                  "prices": { "data": [ { "type": "subscriptionPrices", "id": "SP1" } ] } } },
              { "type": "subscriptionAvailabilities", "id": "21", "attributes": { "availableInNewTerritories": false },
                "relationships": { "availableTerritories": { "data": [ \(territories) ] } } },
              { "type": "subscriptionPrices", "id": "SP1",
                "relationships": { "territory": { "data": { "type": "territories", "id": "USA" } } } } ] }
            """
    }

    /// The healthy project's consumable with its price schedule fetched and no price in it.
    static func unpricedConsumable(state: String) -> String {
        """
        { "data": [
          { "type": "inAppPurchases", "id": "11", "attributes": { "productId": "\(seeds)", "name": "Seed Pack 50",
              "inAppPurchaseType": "CONSUMABLE", "state": "\(state)" },
            "relationships": { "iapPriceSchedule": { "data": { "type": "inAppPurchasePriceSchedules", "id": "PS11" } } } },
          { "type": "inAppPurchasePriceSchedules", "id": "PS11", "relationships": { "manualPrices": { "data": [] } } } ] }
        """
    }

    /// The healthy project's consumable with its localizations fetched: none, or (`unnamed`) one
    /// without a display name.
    static func unlocalizedConsumable(state: String, unnamed: Bool = false) -> String {
        """
        { "data": [
          { "type": "inAppPurchases", "id": "11", "attributes": { "productId": "\(seeds)", "name": "Seed Pack 50",
              "inAppPurchaseType": "CONSUMABLE", "state": "\(state)" },
            "relationships": { "inAppPurchaseLocalizations": { "data": [\(unnamed ? " { \"type\": \"inAppPurchaseLocalizations\", \"id\": \"L1\" } " : "")] } } }\(unnamed ? "," : "")
          \(unnamed ? "{ \"type\": \"inAppPurchaseLocalizations\", \"id\": \"L1\", \"attributes\": { \"locale\": \"en-US\" } }" : "") ] }
        """
    }

    /// The healthy project's consumable with its review screenshot fetched: none, or one whose
    /// delivery is `delivery` (`FAILED`, `AWAITING_UPLOAD`, `COMPLETE`).
    static func consumableScreenshot(state: String, delivery: String? = nil) -> String {
        let linkage = delivery == nil ? "null" : "{ \"type\": \"inAppPurchaseAppStoreReviewScreenshots\", \"id\": \"S11\" }"
        let shot = delivery.map {
            """
            ,
              { "type": "inAppPurchaseAppStoreReviewScreenshots", "id": "S11",
                "attributes": { "fileName": "seeds.png", "assetDeliveryState": { "state": "\($0)" } } }
            """
        } ?? ""
        return """
            { "data": [
              { "type": "inAppPurchases", "id": "11", "attributes": { "productId": "\(seeds)", "name": "Seed Pack 50",
                  "inAppPurchaseType": "CONSUMABLE", "state": "\(state)" },
                "relationships": { "appStoreReviewScreenshot": { "data": \(linkage) } } }\(shot) ] }
            """
    }

    /// The healthy project's subscription group as App Store Connect has it, without a localization,
    /// with its subscriptions in these states (the first is the healthy monthly one, the others
    /// yearly ones App Store Connect alone lists; `nil`: no state in the snapshot).
    static func unlocalizedGroup(states: [String?]) -> String {
        let members = states.indices.map { "{ \"type\": \"subscriptions\", \"id\": \"2\($0 + 1)\" }" }.joined(separator: ", ")
        let subscriptions = states.enumerated().map { index, state in
            let productID = index == 0 ? monthly : "com.greenthumb.pocketgarden.plus.yearly\(index)"
            let stateAttribute = state.map { ", \"state\": \"\($0)\"" } ?? ""
            return """
                  { "type": "subscriptions", "id": "2\(index + 1)", "attributes": { "productId": "\(productID)",
                      "name": "Plus \(index)"\(stateAttribute), "subscriptionPeriod": "ONE_MONTH" } }
                """
        }.joined(separator: ",\n")
        return """
            { "data": [
              { "type": "subscriptionGroups", "id": "G1", "attributes": { "referenceName": "Pocket Garden Plus" },
                "relationships": {
                  "subscriptions": { "data": [ \(members) ] },
                  "subscriptionGroupLocalizations": { "data": [] } } },
            \(subscriptions) ] }
            """
    }

    /// `snapshot` beside the healthy descriptor with `overlay` (YAML) applied.
    func check(_ snapshot: String, overlay: String = "") -> Diagnosis {
        diagnose(ascSnippet: overlay.isEmpty ? snapshot : overlay + "\n---\n" + snapshot).diagnosis
    }

    func finding(_ diagnosis: Diagnosis, _ rule: String) throws -> Finding {
        try #require(diagnosis.findings.first { $0.rule == rule }, "\(rule) did not fire: \(diagnosis.findings.map(\.rule))")
    }

    func entry(_ diagnosis: Diagnosis, _ item: String) -> Diagnosis.ChecklistEntry? {
        diagnosis.checklist.first { $0.item.id == item }
    }

    func verdict(_ diagnosis: Diagnosis, _ id: String) -> Diagnosis.Verdict? {
        diagnosis.products.first { $0.productID == id }?.verdict
    }

    // MARK: asc-subscription-price-coverage

    @Test func anotherTerritoryUnpricedIsAWarningForTheTesterAndAnErrorForReview() throws {
        // The tester is in the USA (the healthy descriptor), which has a price; Canada has none.
        let sandbox = check(Self.subscription(state: "MISSING_METADATA"))
        let coverage = try finding(sandbox, "asc-subscription-price-coverage")
        #expect(coverage.severity == .warning)
        #expect(coverage.message.contains("`USA` has one") && coverage.message.contains("a tester in CAN would not get it"), "\(coverage.message)")
        #expect(entry(sandbox, "product-metadata")?.status == .warn)
        #expect(verdict(sandbox, Self.monthly) == .atRisk)
        // For App Review and the App Store the same gap is an error.
        for environment in ["review", "production"] {
            let diagnosis = check(Self.subscription(state: "MISSING_METADATA"), overlay: "environment: \(environment)")
            let coverage = try finding(diagnosis, "asc-subscription-price-coverage")
            #expect(coverage.severity == .error, "\(environment)")
            #expect(coverage.message.contains("has no price in 1 of them (CAN)"), "\(coverage.message)")
            #expect(entry(diagnosis, "product-metadata")?.status == .fail)
            #expect(verdict(diagnosis, Self.monthly) == .invalid)
        }
    }

    @Test func theTestersOwnStorefrontUnpricedIsAnError() throws {
        let diagnosis = check(Self.subscription(state: "MISSING_METADATA"), overlay: "testing: { sandbox_account: { storefront: CAN } }")
        let coverage = try finding(diagnosis, "asc-subscription-price-coverage")
        #expect(coverage.severity == .error)
        #expect(coverage.message.contains("no price in the tester's storefront `CAN`"), "\(coverage.message)")
        #expect(coverage.related.contains { $0.label == "the tester's storefront" })
        #expect(entry(diagnosis, "product-metadata")?.status == .fail)
        #expect(verdict(diagnosis, Self.monthly) == .invalid)
    }

    @Test func anUnknownStorefrontIsAWarningAndAQuestion() throws {
        let diagnosis = check(Self.subscription(state: "MISSING_METADATA"), overlay: "testing: { sandbox_account: { storefront: null } }")
        let coverage = try finding(diagnosis, "asc-subscription-price-coverage")
        #expect(coverage.severity == .warning)
        #expect(coverage.message.contains("depends on the tester's storefront"), "\(coverage.message)")
        let metadata = try #require(entry(diagnosis, "product-metadata"))
        #expect(metadata.status == .warn)
        #expect(metadata.questions.contains { $0.key == "testing.sandbox_account.storefront" && $0.productID == Self.monthly })
        #expect(verdict(diagnosis, Self.monthly) == .atRisk)
    }

    @Test("App Store Connect's complete state is never contradicted by an error", arguments: [
        "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL", "APPROVED",
    ])
    func aCompleteStateMakesItAWarning(state: String) throws {
        // Even the tester's own storefront unpriced: App Store Connect says every territory has a price.
        let diagnosis = check(Self.subscription(state: state), overlay: "testing: { sandbox_account: { storefront: CAN } }")
        let coverage = try finding(diagnosis, "asc-subscription-price-coverage")
        #expect(coverage.severity == .warning)
        #expect(coverage.message.contains("CAN"))
        #expect(coverage.notes.contains { $0.contains("App Store Connect reports it \(StoreRecord.displayName(ofState: state))") }, "\(coverage.notes)")
        #expect(entry(diagnosis, "product-metadata")?.status == .warn)
        #expect(verdict(diagnosis, Self.monthly) == .atRisk)
    }

    @Test func aCompleteStateIsAWarningForReviewToo() throws {
        let diagnosis = check(Self.subscription(state: "APPROVED", available: ["USA", "CAN", "GBR"]), overlay: "environment: review")
        let coverage = try finding(diagnosis, "asc-subscription-price-coverage")
        #expect(coverage.severity == .warning)
        #expect(coverage.message.contains("no price in 2 of them (CAN, GBR)"), "\(coverage.message)")
        #expect(entry(diagnosis, "product-metadata")?.status == .warn)
        #expect(!diagnosis.products.first { $0.productID == Self.monthly }!.failing.contains("product-metadata"))
    }

    @Test func onlyStatesPastMissingMetadataSayComplete() throws {
        #expect(StoreRecord.metadataCompleteStates.isDisjoint(with: ["MISSING_METADATA", "DEVELOPER_ACTION_NEEDED", "REJECTED", "REMOVED_FROM_SALE"]))
        let overlay = "testing: { sandbox_account: { storefront: CAN } }"
        let ready = check(Self.subscription(state: "READY_TO_SUBMIT"), overlay: overlay)
        #expect(try finding(ready, "asc-subscription-price-coverage").severity == .warning)
        #expect(verdict(ready, Self.monthly) == .atRisk)
        // App Review asked for changes: nothing says the prices are complete.
        let actionNeeded = check(Self.subscription(state: "DEVELOPER_ACTION_NEEDED"), overlay: overlay)
        #expect(try finding(actionNeeded, "asc-subscription-price-coverage").severity == .error)
        #expect(verdict(actionNeeded, Self.monthly) == .invalid)
    }

    @Test func statesReadAsAppStoreConnectWritesThem() {
        #expect(StoreRecord.displayName(ofState: "READY_TO_SUBMIT") == "Ready to Submit")
        #expect(StoreRecord.displayName(ofState: "WAITING_FOR_REVIEW") == "Waiting for Review")
        #expect(StoreRecord.displayName(ofState: "DEVELOPER_REMOVED_FROM_SALE") == "Developer Removed from Sale")
        #expect(StoreRecord.displayName(ofState: "MISSING_METADATA") == "Missing Metadata")
    }

    // MARK: missing-price

    @Test func noPriceInTheSnapshotOfAnApprovedProductIsNotAnError() throws {
        // The descriptor's tier stands: App Store Connect's state says there is a price.
        let typed = check(Self.unpricedConsumable(state: "APPROVED"))
        #expect(!typed.findings.contains { $0.rule == "missing-price" || $0.message.contains("the price of `\(Self.seeds)`") },
                "\(typed.findings.map(\.message))")
        #expect(entry(typed, "product-metadata")?.status == .pass)
        #expect(verdict(typed, Self.seeds) == .valid)
        // With no typed price, a note says the snapshot's price list is what is short.
        let untyped = check(Self.unpricedConsumable(state: "APPROVED"), overlay: "products:\n  - price_tier: null")
        let note = try finding(untyped, "missing-price")
        #expect(note.severity == .note)
        #expect(note.message.contains("App Store Connect reports it Approved"), "\(note.message)")
        #expect(entry(untyped, "product-metadata")?.status == .pass)
        #expect(verdict(untyped, Self.seeds) == .valid)
        // In Missing Metadata nothing outranks the snapshot: no price is an error.
        let missing = check(Self.unpricedConsumable(state: "MISSING_METADATA"))
        #expect(try finding(missing, "missing-price").severity == .error)
        #expect(entry(missing, "product-metadata")?.status == .fail)
        #expect(verdict(missing, Self.seeds) == .invalid)
    }

    // MARK: missing-localization

    @Test("No localization in the snapshot of a product App Store Connect reports complete is a warning", arguments: [
        "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL", "APPROVED",
    ])
    func noLocalizationOfACompleteProductIsAWarning(state: String) throws {
        let diagnosis = check(Self.unlocalizedConsumable(state: state))
        let missing = try finding(diagnosis, "missing-localization")
        #expect(missing.severity == .warning)
        #expect(missing.message.hasPrefix("the snapshot shows no localization for `\(Self.seeds)`, although App Store Connect reports it \(StoreRecord.displayName(ofState: state))"),
                "\(missing.message)")
        #expect(missing.related.contains { $0.label == "App Store Connect: metadata complete" })
        #expect(entry(diagnosis, "product-metadata")?.status == .warn)
        #expect(verdict(diagnosis, Self.seeds) == .atRisk)
        #expect(!diagnosis.products.first { $0.productID == Self.seeds }!.failing.contains("product-metadata"))
    }

    @Test func anUnnamedLocalizationOfACompleteProductIsAWarning() throws {
        let diagnosis = check(Self.unlocalizedConsumable(state: "READY_TO_SUBMIT", unnamed: true))
        let missing = try finding(diagnosis, "missing-localization")
        #expect(missing.severity == .warning)
        #expect(missing.message.hasPrefix("the `en-US` localization of `\(Self.seeds)` has no display name in the snapshot, although"), "\(missing.message)")
        #expect(entry(diagnosis, "product-metadata")?.status == .warn)
        #expect(verdict(diagnosis, Self.seeds) == .atRisk)
    }

    @Test("No localization stays an error while the product is not known complete", arguments: ["MISSING_METADATA", "REJECTED"])
    func noLocalizationOfAnIncompleteProductIsAnError(state: String) throws {
        let diagnosis = check(Self.unlocalizedConsumable(state: state))
        let missing = try finding(diagnosis, "missing-localization")
        #expect(missing.severity == .error)
        #expect(missing.message.contains("has no localization in App Store Connect"), "\(missing.message)")
        #expect(entry(diagnosis, "product-metadata")?.status == .fail)
        #expect(verdict(diagnosis, Self.seeds) == .invalid)
    }

    // MARK: missing-review-screenshot

    /// App Review, with the binary uploaded and the products submitted with it (so nothing else
    /// fails them); `screenshot`: the consumable's typed `review_screenshot` (`null`: not typed).
    static func review(screenshot: String = "null") -> String {
        """
        environment: review
        app_store_connect: { binary_uploaded: true }
        products:
          - { submitted_with_app_version: true, review_screenshot: \(screenshot) }
          - { submitted_with_app_version: true }
          - { submitted_with_app_version: true }
        """
    }

    @Test("No review screenshot in the snapshot of a product App Store Connect reports complete is a warning", arguments: [
        "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL",
    ])
    func noScreenshotOfACompleteProductIsAWarning(state: String) throws {
        let diagnosis = check(Self.consumableScreenshot(state: state), overlay: Self.review())
        let missing = try finding(diagnosis, "missing-review-screenshot")
        #expect(missing.severity == .warning)
        #expect(missing.message.hasPrefix("the snapshot shows no review screenshot for `\(Self.seeds)`, although App Store Connect reports it \(StoreRecord.displayName(ofState: state))")
                && !missing.message.contains("Missing Metadata"), "\(missing.message)")
        // Still true in review: App Review needs the screenshot.
        #expect(missing.help?.contains("App Review needs it") == true, "\(missing.help ?? "")")
        #expect(missing.related.contains { $0.label == "App Store Connect: metadata complete" })
        #expect(entry(diagnosis, "product-metadata")?.status == .warn)
        #expect(verdict(diagnosis, Self.seeds) == .atRisk)
        #expect(!diagnosis.products.first { $0.productID == Self.seeds }!.failing.contains("product-metadata"))
    }

    @Test func aFailedScreenshotOfACompleteProductIsAWarningThatAppReviewHasNone() throws {
        let diagnosis = check(Self.consumableScreenshot(state: "READY_TO_SUBMIT", delivery: "FAILED"), overlay: Self.review())
        let missing = try finding(diagnosis, "missing-review-screenshot")
        #expect(missing.severity == .warning)
        #expect(missing.message.contains("`seeds.png`") && missing.message.contains("failed to process")
                && missing.message.contains("App Review has none to look at") && !missing.message.contains("cannot be submitted"), "\(missing.message)")
        #expect(entry(diagnosis, "product-metadata")?.status == .warn)
        #expect(verdict(diagnosis, Self.seeds) == .atRisk)
        // In Missing Metadata the failed screenshot is why: an error.
        let stuck = check(Self.consumableScreenshot(state: "MISSING_METADATA", delivery: "FAILED"), overlay: Self.review())
        let error = try finding(stuck, "missing-review-screenshot")
        #expect(error.severity == .error)
        #expect(error.message.contains("so the product cannot be submitted"), "\(error.message)")
        #expect(verdict(stuck, Self.seeds) == .invalid)
    }

    @Test func aTypedNoScreenshotOfAProductAppStoreConnectReportsCompleteIsAWarning() throws {
        // The snapshot has the state but not the screenshot: the descriptor's `false` is what is stale.
        let snapshot = Self.consumableScreenshot(state: "READY_TO_SUBMIT").replacingOccurrences(of: "\"appStoreReviewScreenshot\": { \"data\": null }", with: "")
        let diagnosis = check(snapshot, overlay: Self.review(screenshot: "false"))
        let missing = try finding(diagnosis, "missing-review-screenshot")
        #expect(missing.severity == .warning)
        #expect(missing.message.hasPrefix("the descriptor says `\(Self.seeds)` has no review screenshot, although App Store Connect reports it Ready to Submit"), "\(missing.message)")
        #expect(entry(diagnosis, "product-metadata")?.status == .warn)
        #expect(verdict(diagnosis, Self.seeds) == .atRisk)
    }

    @Test func aTypedScreenshotStandsWhereTheSnapshotOfACompleteProductShowsNone() throws {
        // As with prices: App Store Connect's state says there is one, so the snapshot's "none" is a
        // short read, not a disagreement, and the descriptor's `true` stands.
        let diagnosis = check(Self.consumableScreenshot(state: "READY_TO_SUBMIT"), overlay: Self.review(screenshot: "true"))
        #expect(!diagnosis.findings.contains { $0.rule == "missing-review-screenshot" || $0.message.contains("review screenshot") },
                "\(diagnosis.findings.map(\.message))")
        #expect(entry(diagnosis, "product-metadata")?.status == .pass)
        #expect(verdict(diagnosis, Self.seeds) == .valid)
        // In Missing Metadata the snapshot's "none" wins, and says the descriptor is out of date.
        let missing = check(Self.consumableScreenshot(state: "MISSING_METADATA"), overlay: Self.review(screenshot: "true"))
        #expect(try finding(missing, "missing-review-screenshot").severity == .error)
        #expect(missing.findings.contains { $0.rule == "descriptor-asc-mismatch" && $0.message.contains("review screenshot") })
        #expect(verdict(missing, Self.seeds) == .invalid)
    }

    @Test func noScreenshotStaysAnErrorInMissingMetadataOrWithoutASnapshot() throws {
        let missing = check(Self.consumableScreenshot(state: "MISSING_METADATA"), overlay: Self.review())
        let finding = try finding(missing, "missing-review-screenshot")
        #expect(finding.severity == .error)
        #expect(finding.message.contains("so it stays in Missing Metadata and cannot be submitted"), "\(finding.message)")
        #expect(entry(missing, "product-metadata")?.status == .fail)
        #expect(verdict(missing, Self.seeds) == .invalid)
        // The descriptor's `status: ready_to_submit` is not App Store Connect's word.
        let typed = diagnose(snippet: Self.review(screenshot: "false"))
        #expect(try self.finding(typed, "missing-review-screenshot").severity == .error)
        #expect(entry(typed, "product-metadata")?.status == .fail)
        #expect(verdict(typed, Self.seeds) == .invalid)
        // App Store Connect's Approved: it went through review.
        let approved = check(Self.consumableScreenshot(state: "APPROVED"), overlay: Self.review())
        #expect(!approved.findings.contains { $0.rule == "missing-review-screenshot" })
    }

    // MARK: subscription-group-not-localized

    @Test("A group without a localization is a warning when App Store Connect reports its subscriptions complete", arguments: [
        "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL", "APPROVED",
    ])
    func anUnlocalizedGroupOfCompleteSubscriptionsIsAWarning(state: String) throws {
        let diagnosis = check(Self.unlocalizedGroup(states: [state]))
        let group = try finding(diagnosis, "subscription-group-not-localized")
        #expect(group.severity == .warning)
        #expect(group.message.contains("the snapshot shows no localization for subscription group `Pocket Garden Plus`")
                && group.message.contains("`\(Self.monthly)` \(StoreRecord.displayName(ofState: state))")
                && !group.message.contains("cannot reach"), "\(group.message)")
        #expect(group.related.contains { $0.label == "App Store Connect: metadata complete" })
        #expect(entry(diagnosis, "subscription-groups")?.status == .warn)
        #expect(verdict(diagnosis, Self.monthly) == .atRisk)
        #expect(!diagnosis.products.first { $0.productID == Self.monthly }!.failing.contains("subscription-groups"))
    }

    @Test("A group without a localization stays an error while a subscription is not known complete", arguments: [
        "MISSING_METADATA", "DEVELOPER_ACTION_NEEDED", nil,
    ])
    func anUnlocalizedGroupOfIncompleteSubscriptionsIsAnError(state: String?) throws {
        let diagnosis = check(Self.unlocalizedGroup(states: [state]))
        let group = try finding(diagnosis, "subscription-group-not-localized")
        #expect(group.severity == .error)
        #expect(group.message == "subscription group `Pocket Garden Plus` has no localization, so its subscriptions cannot reach Ready to Submit")
        #expect(entry(diagnosis, "subscription-groups")?.status == .fail)
        #expect(verdict(diagnosis, Self.monthly) == .invalid)
    }

    @Test func aGroupWithOneSubscriptionCompleteAndOneNotSplits() throws {
        let yearly = "com.greenthumb.pocketgarden.plus.yearly1"
        let diagnosis = check(Self.unlocalizedGroup(states: ["READY_TO_SUBMIT", "MISSING_METADATA"]),
                              overlay: "requests: [\(Self.seeds), com.greenthumb.pocketgarden.greenhouse, \(Self.monthly), \(yearly)]")
        let fired = diagnosis.findings.filter { $0.rule == "subscription-group-not-localized" }
        // The one in Missing Metadata keeps the error, which names it alone and mentions the other.
        let error = try #require(fired.first { $0.severity == .error }, "\(fired.map(\.message))")
        #expect(error.message.contains("so `\(yearly)` cannot reach Ready to Submit"), "\(error.message)")
        #expect(error.notes.contains { $0.contains("`\(Self.monthly)` Ready to Submit") && $0.contains("lacks something else") }, "\(error.notes)")
        // The one App Store Connect reports complete gets a warning, not that error.
        let warning = try #require(fired.first { $0.severity == .warning }, "\(fired.map(\.message))")
        #expect(warning.message.contains("its subscription `\(Self.monthly)` Ready to Submit") && !warning.message.contains(yearly), "\(warning.message)")
        #expect(entry(diagnosis, "subscription-groups")?.status == .fail)
        #expect(verdict(diagnosis, Self.monthly) == .atRisk)
        #expect(verdict(diagnosis, yearly) == .invalid)
        #expect(diagnosis.products.first { $0.productID == yearly }?.failing.contains("subscription-groups") == true)
    }

    @Test func aTypedStatusIsNotAppStoreConnectsState() throws {
        // Without a snapshot nothing outranks the descriptor: `status: approved` keeps the error.
        let diagnosis = diagnose(snippet: """
            subscription_groups:
              - localizations: {}
            products:
              - {}
              - {}
              - status: approved
            """)
        #expect(try finding(diagnosis, "subscription-group-not-localized").severity == .error)
        #expect(entry(diagnosis, "subscription-groups")?.status == .fail)
        #expect(verdict(diagnosis, Self.monthly) == .invalid)
    }

    // MARK: storefront-not-available

    @Test func soldElsewhereIsAnErrorForTheTesterAndEnoughForReviewAndTheAppStore() throws {
        let sandbox = diagnose(snippet: "products:\n  - availability: [CAN, GBR]")
        #expect(try finding(sandbox, "storefront-not-available").severity == .error)
        #expect(entry(sandbox, "storefront-availability")?.status == .fail)
        #expect(verdict(sandbox, Self.seeds) == .invalid)
        // App Review and customers buy in their own storefronts: the tester's does not matter.
        for environment in ["review", "production"] {
            let diagnosis = diagnose(snippet: "environment: \(environment)\nproducts:\n  - availability: [CAN, GBR]")
            #expect(!diagnosis.findings.contains { $0.rule == "storefront-not-available" }, "\(environment)")
            let availability = try #require(entry(diagnosis, "storefront-availability"))
            #expect(availability.status == .pass, "\(environment): \(availability.status) \(availability.questions.map(\.question)) \(availability.reasons)")
            #expect(!diagnosis.products.first { $0.productID == Self.seeds }!.failing.contains("storefront-availability"))
        }
    }
}
