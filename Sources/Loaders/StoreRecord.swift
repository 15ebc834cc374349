import Formats
import Model

/// What App Store Connect says about one product beyond the descriptor's fields: the raw state,
/// each localization's review state, territories available and priced, the review screenshot's
/// delivery. Every part is `nil` (or `.notFetched`) when the snapshot did not fetch it: unknown.
public struct StoreRecord: Sendable {
    public enum Kind: String, Sendable {
        case inAppPurchase = "inAppPurchases", subscription = "subscriptions"
    }

    public struct Localization: Sendable {
        public var locale: Fact<String>
        public var name: Fact<String>?
        /// `PREPARE_FOR_SUBMISSION`, `WAITING_FOR_REVIEW`, `APPROVED`, `REJECTED`.
        public var state: Fact<String>?
    }

    public enum Screenshot: Sendable {
        case notFetched
        /// Fetched, and there is none (at the relationship's `data`).
        case none(SourceLocation)
        /// `assetDeliveryState.state`: `AWAITING_UPLOAD`, `UPLOAD_COMPLETE`, `COMPLETE`, `FAILED`.
        case uploaded(state: Fact<String>?, fileName: String?, location: SourceLocation)

        /// Uploaded and not failed or still waiting for its bytes.
        public var isDelivered: Bool? {
            switch self {
            case .notFetched: return nil
            case .none: return false
            case .uploaded(let state, _, _):
                guard let state = state?.value else { return true }
                return state != "FAILED" && state != "AWAITING_UPLOAD"
            }
        }
    }

    public var kind: Kind
    public var resourceID: String
    /// The resource object in the snapshot.
    public var location: SourceLocation
    /// `state` as the API wrote it; kept when iapdoctor does not know the value.
    public var state: Fact<String>?
    /// `nil`: not fetched.
    public var localizations: [Localization]?
    /// Where the localization linkage is (for "none" findings).
    public var localizationsLocation: SourceLocation?
    /// ISO 3166-1 alpha-3 territory ids; `nil`: not fetched.
    public var availableTerritories: Fact<[String]>?
    /// Territories with a price in force; `nil`: not fetched. For an In-App Purchase, those with
    /// a manual price when the snapshot holds no automatic ones (`asc pull` fetches only manual
    /// prices: the others follow the base price), so empty still means "no price".
    public var pricedTerritories: Fact<[String]>?
    public var screenshot: Screenshot = .notFetched
    /// Requests about this product that failed.
    public var failedRequests: [ASCSnapshot.FailedRequest] = []

    public init(kind: Kind, resourceID: String, location: SourceLocation) {
        self.kind = kind
        self.resourceID = resourceID
        self.location = location
    }

    /// States App Store Connect gives a product only once its metadata is complete: it leaves
    /// `MISSING_METADATA` for `READY_TO_SUBMIT` when the localization, the price (for a subscription,
    /// in every territory it is sold in), the review screenshot and the availability are all there,
    /// and the review states follow. Sources: `../shared/knowledge/iap-causes.md` §2.2–2.4 (TN3188:
    /// no Ready to Submit with metadata missing; a subscription stays `MISSING_METADATA` until its
    /// price matrix is complete) and `../shared/knowledge/asc/README.md` (the state enums; the `asc`
    /// CLI treats `APPROVED`, `WAITING_FOR_REVIEW`, `IN_REVIEW`, `PENDING_BINARY_APPROVAL` as ready).
    /// Not here: `DEVELOPER_ACTION_NEEDED` and `REJECTED` (App Review asks for changes),
    /// `WAITING_FOR_UPLOAD` and `PROCESSING_CONTENT` (hosted content still missing), and the two
    /// removed-from-sale states (they say nothing about the metadata).
    public static let metadataCompleteStates: Set<String> = [
        "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL", "APPROVED",
    ]

    /// The state, when it is App Store Connect's word that the metadata is complete: rules may not
    /// contradict it with an error (the snapshot's lists may be partial), only explain.
    public var metadataComplete: Fact<String>? {
        state.flatMap { Self.metadataCompleteStates.contains($0.value) ? $0 : nil }
    }

    /// App Store Connect's words for the state ("MISSING_METADATA" → "Missing Metadata",
    /// "READY_TO_SUBMIT" → "Ready to Submit": its small words stay lowercase).
    public static func displayName(ofState state: String) -> String {
        state.split(separator: "_").enumerated().map { index, word in
            let lower = word.lowercased()
            return index > 0 && ["to", "for", "from"].contains(lower) ? lower : String(word.prefix(1)) + lower.dropFirst()
        }.joined(separator: " ")
    }
}

/// The App Store Connect snapshot read for a run and what it said beyond the project's facts.
public struct ASCSnapshotFacts: Sendable {
    /// A fact the snapshot states differently from the descriptor: the snapshot's wins.
    public struct Disagreement: Sendable {
        public var subject: String
        public var checklistItem: String
        public var descriptor: Fact<String>
        public var snapshot: Fact<String>
        public var key: DescriptorKeyPath
    }

    public var snapshot: ASCSnapshot
    /// Where the snapshot was named (`--asc` or `app_store_connect.snapshot`).
    public var namedAt: SourceLocation
    /// The bundle ID the snapshot was compared with.
    public var bundleID: String?
    /// The app record for the bundle ID.
    public var app: ASCSnapshot.Resource?
    /// The snapshot is of another app: its bundle ID, and where it says so.
    public var otherApp: Fact<String>?
    /// Apps whose bundle ID is close to the project's (App Store Connect's filter is fuzzy).
    public var nearMisses: [Fact<String>] = []
    /// The pull looked for the App ID and found none: where it looked.
    public var appIDMissing: SourceLocation?
    /// The descriptor's profile as App Store Connect lists it.
    public var profileState: Fact<String>?
    public var profileName: String?
    /// Sandbox testers fetched (`nil`: not fetched).
    public var sandboxTesterCount: Int?
    /// The descriptor's sandbox email is not among them.
    public var sandboxTesterMissing: Fact<String>?
    /// Products whose App Store Connect lists were fetched (IAPs, subscriptions).
    public var inAppPurchasesFetched = false
    public var subscriptionsFetched = false
    /// Products the descriptor lists that App Store Connect does not have for this app.
    public var productsNotInStore: [Fact<String>] = []
    /// Where App Store Connect's product list is (for notes).
    public var productListLocation: SourceLocation?
    public var disagreements: [Disagreement] = []

    public init(snapshot: ASCSnapshot, namedAt: SourceLocation) {
        self.snapshot = snapshot
        self.namedAt = namedAt
        agreementLapse = snapshot.unavailable.first { $0.isAgreementLapse }
    }

    /// The failed request that says a required agreement lapsed, if any (found once: rules ask
    /// for every product).
    public let agreementLapse: ASCSnapshot.FailedRequest?
}
