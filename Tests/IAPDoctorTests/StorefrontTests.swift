import Foundation
@testable import IAPDoctor
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
