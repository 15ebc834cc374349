import Formats

/// What the source scan and the product ID lists said beyond the requested IDs: call sites whose
/// IDs could not be worked out, subscription groups, committed secrets, files that could not be
/// read, lists without IDs. The rules `request-not-resolved`, `no-storekit-in-sources`,
/// `source-scan-incomplete`, `product-id-list-empty` and `committed-shared-secret` report them.
public struct SourceEvidence: Sendable {
    /// A StoreKit call site whose product IDs are not known from the code.
    public struct UnresolvedRequest: Sendable, Hashable {
        public enum Kind: String, Sendable { case unresolved, partial, empty, offerings, wrapperWithoutCalls
            /// A subscription group's ID is known, but no file the run read lists its subscriptions.
            case groupMembersUnknown
        }
        public var location: SourceLocation
        public var api: String
        /// The argument as written (shortened); empty when the call takes none.
        public var argument: String
        public var reason: String
        public var kind: Kind
        /// The argument is a subscription group ID, not product IDs.
        public var isGroup = false

        public init(location: SourceLocation, api: String, argument: String, reason: String, kind: Kind) {
            self.location = location
            self.api = api
            self.argument = argument
            self.reason = reason
            self.kind = kind
        }
    }

    /// A value shaped like an App Store shared secret under a name that says secret. Only where it
    /// is: the value is never kept.
    public struct Secret: Sendable, Hashable, CustomStringConvertible {
        public var location: SourceLocation
        public var name: String
        /// The value, for reporters to mask where they quote its line; never printed.
        public var value: String

        public init(location: SourceLocation, name: String, value: String) {
            self.location = location
            self.name = name
            self.value = value
        }

        public var description: String { "\(name) at \(location): <secret>" }
    }

    /// Whether `app.sources` was given and scanned, and where the descriptor says so.
    public var sourcesKey: SourceLocation?
    /// Git submodules (`.gitmodules`) whose folder is missing or empty, where `app.sources` reads
    /// or holds them: code the scan could not see. Each at its `path =` line.
    public var absentSubmodules: [Fact<String>] = []
    public var filesScanned = 0
    public var unresolved: [UnresolvedRequest] = []
    /// A subscription group ID handed to a StoreKit view (`SubscriptionStoreView(groupID:)`), which
    /// asks StoreKit for every subscription of the group.
    public struct ShownGroup: Sendable, Hashable {
        public var id: Fact<String>
        public var api: String
        /// The group's subscriptions, as the files that list the group say (empty until expanded).
        public var members: [String] = []
        /// Which files listed them (a `.storekit` file, the App Store Connect snapshot).
        public var listedBy: [String] = []

        public init(id: Fact<String>, api: String) {
            self.id = id
            self.api = api
        }
    }

    /// Subscription groups the code shows, and what they hold.
    public var subscriptionGroups: [ShownGroup] = []
    /// StoreKit and In-App Purchase libraries the code imports.
    public var importedLibraries: [String] = []
    /// Those of them that call StoreKit for a Flutter, React Native, Capacitor, .NET or Unity
    /// app (`in_app_purchase`, `react-native-iap`): they, not the app's code, choose StoreKit 1 or 2.
    public var crossPlatformLibraries: [String] = []
    /// How such an app is launched without Xcode (`flutter run`): the scheme's StoreKit
    /// configuration does not apply then.
    public var launchCommands: [String] = []
    /// How those libraries choose StoreKit 1 or 2, where the app can choose.
    public var storeKitSwitches: [String] = []
    /// StoreKit types or calls appear in the code (with or without an import).
    public var mentionsStoreKit = false
    /// A scanned file imports StoreKit only to ask for App Store reviews, which sells nothing.
    public var importsStoreKitForReviews = false
    /// Where the code asks whether the device may make payments (`canMakePayments`, the
    /// `in_app_purchase` plugin's `isAvailable()`): code that returns early on a false answer
    /// requests no products on a device whose Screen Time turns In-App Purchases off.
    public var paymentChecks: [Fact<String>] = []
    /// Imported modules named like purchase libraries that iapdoctor does not read
    /// (`InAppPurchaseLibrary`): the app may request products through them.
    public var unreadLibraries: [String] = []
    /// Every cross-platform library the code uses loads products with StoreKit 1 on any OS
    /// (Objective-C and C# plugins, RevenueCat's SDKs): no StoreKit 2 question to ask.
    public var pluginsUseStoreKit1 = false
    /// The repository URLs of the project's remote Swift packages, whose code is not scanned.
    public var remotePackages: [Fact<String>] = []
    /// Files in the scanned folders that could not be read or were skipped (message, at the file).
    public var problems: [Fact<String>] = []
    /// Product ID lists (named in the descriptor or found in the sources) that gave no ID.
    public var emptyLists: [Fact<String>] = []
    public var secrets: [Secret] = []

    public init() {}
}
