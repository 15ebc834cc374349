import Formats
import Model

/// Everything iapdoctor knows about one app, each fact with where it was stated.
/// Loaders fill it; rules only read it.
public struct Project: Sendable {
    public var descriptorFile: String
    /// The descriptor's folder: relative paths in it are resolved against this.
    public var baseDirectory: String
    /// The descriptor as parsed, for declarative rules that address fields by path.
    public var descriptor: YAMLTree?

    public var version: Fact<Int>?
    public var environment: Fact<Environment>?
    public var checkedAt: Fact<Timestamp>?
    /// `project_root`: the project folder of a descriptor kept outside it (as `init -o` writes);
    /// honoured only under the conditions ``Doctor`` checks, since it widens what may be read.
    public var projectRoot: Fact<String>?
    /// `--profiles-dir`: where installed provisioning profiles are looked up (default: Xcode's
    /// folders under the home folder).
    public var profileFolders: [String]?

    public var app = App()
    public var account = DeveloperAccount()
    public var appID = AppID()
    public var signing = Signing()
    /// The files this run parsed as what they were read for: the ones reports may quote.
    public let parsedFiles = ParsedFiles()
    public var appStoreConnect = AppStoreConnectSection()
    /// `revenuecat`: the RevenueCat snapshot and app.
    public var revenueCat = RevenueCatSection()
    public var subscriptionGroups: [SubscriptionGroup] = []
    public var products: [Product] = []
    public var requests: [Fact<String>] = []
    public var catalogs: [Fact<String>] = []
    public var testing = TestSetup()
    /// Bulk product XML packages read for this run (the descriptor's `catalogs` and the command line's).
    public var catalogPackages: [CatalogPackage] = []
    /// `false` when the run checks catalogs only, with no descriptor.
    public var hasDescriptor = true
    /// What the project's own files say (Info.plist, project.pbxproj, entitlements, profile, scheme,
    /// StoreKit configuration, sources).
    public var evidence = Evidence()
    /// StoreKit configuration files checked on their own: the command line's, the scheme's and the descriptor's.
    public var storeKitFiles: [StoreKitConfiguration] = []
    /// Archives and app bundles given on the command line: what was built, beside what the
    /// repository says should be.
    public var builtApps: [BuiltApp] = []
    /// The App Store Connect snapshot read for this run (`--asc`, `app_store_connect.snapshot`),
    /// with what could not be matched to the project's facts.
    public var ascSnapshot: ASCSnapshotFacts?

    public init(descriptorFile: String, baseDirectory: String) {
        self.descriptorFile = descriptorFile
        self.baseDirectory = baseDirectory
    }

    /// The environment in force: the stated one, or `sandbox` (the most common) when none is stated.
    public var effectiveEnvironment: Environment { environment?.value ?? .sandbox }

    /// The build given whose facts answer for the environment in force: the one build that runs
    /// in it (none when several do, since they may disagree).
    public var runningBuild: BuiltApp? {
        let running = builtApps.filter { $0.runs(in: effectiveEnvironment) }
        return running.count == 1 ? running[0] : nil
    }

    /// Why nothing in the project uses In-App Purchase, when nothing does: its sources were scanned
    /// and none imports StoreKit or a purchase library or requests a product, the target neither
    /// links StoreKit nor has the capability, and no product, request, bulk XML or StoreKit file is
    /// known. `nil` when anything suggests the app sells something (or the sources were not read).
    public var noPurchaseReason: String? {
        let sources = evidence.sources
        guard sources.sourcesKey != nil, sources.filesScanned > 0, sources.importedLibraries.isEmpty, sources.unreadLibraries.isEmpty, !sources.mentionsStoreKit,
            sources.unresolved.isEmpty, sources.subscriptionGroups.isEmpty, requests.isEmpty, products.isEmpty, subscriptionGroups.isEmpty,
            catalogs.isEmpty, catalogPackages.isEmpty, storeKitFiles.isEmpty, app.productIDLists.isEmpty, app.storeKitAPI == nil,
            evidence.schemeUsesStoreKit == nil
        else { return nil }
        // StoreKit imported for reviews is not a purchase library; a StoreKit link or the
        // capability with no code that uses them sells nothing either (an old project keeps the
        // capability on after the purchases are gone), and is said.
        let one = sources.filesScanned == 1
        let subject = one ? "the scanned source file" : "the \(sources.filesScanned) scanned source files"
        let files = sources.importsStoreKitForReviews
            ? "\(subject) \(one ? "uses" : "use") StoreKit only to ask for App Store reviews, \(one ? "imports" : "import") no purchase library and \(one ? "requests" : "request")"
            : "\(subject) \(one ? "imports" : "import") neither StoreKit nor a purchase library and \(one ? "requests" : "request")"
        var unused: [String] = []
        if evidence.hasInAppPurchaseCapability?.value == true { unused.append("the target's In-App Purchase capability is on") }
        if evidence.linksStoreKit == true { unused.append("the target links StoreKit") }
        let but = unused.isEmpty ? "" : "; \(unused.joined(separator: " and ")), but no code uses it"
        return "nothing in the project uses In-App Purchase yet (\(files) no product; no product is listed\(but))"
    }

    /// Products with a stated ID, by ID (the first one wins; duplicates are a finding of their own).
    public func product(withID id: String) -> Product? {
        products.first { $0.productID?.value == id }
    }

    public func subscriptionGroup(named name: String) -> SubscriptionGroup? {
        subscriptionGroups.first { $0.referenceName?.value == name }
    }
}

public struct App: Sendable {
    public var name: Fact<String>?
    public var platform: Fact<Platform>?
    public var bundleID: Fact<String>?
    public var deploymentTarget: Fact<String>?
    public var storeKitAPI: Fact<StoreKitAPI>?
    public var infoPlist: Fact<String>?
    public var xcodeproj: Fact<String>?
    /// The app's target in the project, by name (when the scheme does not settle it).
    public var target: Fact<String>?
    public var configuration: Fact<String>?
    public var entitlements: Fact<String>?
    public var scheme: Fact<String>?
    public var storeKitConfiguration: Fact<String>?
    /// The app as built (`.xcarchive` or `.app`), as written (relative to the descriptor).
    public var build: Fact<String>?
    public var productIDLists: [Fact<String>] = []
    public var sources: [Fact<String>] = []
}

public struct DeveloperAccount: Sendable {
    public var teamID: Fact<String>?
    public var teamType: Fact<TeamType>?
    public var membership: Fact<MembershipStatus>?
    public var programLicense: Fact<LicenseStatus>?
    public var paidAppsAgreement: Fact<AgreementStatus>?
    public var banking: Fact<SetupStatus>?
    public var tax: Fact<SetupStatus>?
}

public struct AppID: Sendable {
    /// `TEAMID.bundle.id` or `TEAMID.com.example.*`.
    public var identifier: Fact<String>?
    public var inAppPurchase: Fact<Bool>?
    public var inAppPurchaseEnabledAt: Fact<Timestamp>?

    /// The identifier without its 10-character team prefix.
    public var bundlePart: Fact<String>? { identifier.map { $0.map(AppID.stripTeamPrefix) } }

    /// The team prefix, when the identifier has one.
    public var teamPrefix: String? {
        guard let value = identifier?.value, let dot = value.firstIndex(of: "."),
            AppID.looksLikeTeamID(String(value[..<dot]))
        else { return nil }
        return String(value[..<dot])
    }

    public var isWildcard: Bool { identifier?.value.hasSuffix("*") ?? false }

    static func stripTeamPrefix(_ identifier: String) -> String {
        guard let dot = identifier.firstIndex(of: "."), looksLikeTeamID(String(identifier[..<dot])) else {
            return identifier
        }
        return String(identifier[identifier.index(after: dot)...])
    }

    /// Team IDs (App ID prefixes) are ten upper-case letters and digits.
    public static func looksLikeTeamID(_ text: String) -> Bool {
        text.count == 10 && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}

public struct Signing: Sendable {
    public var style: Fact<SigningStyle>?
    public var teamID: Fact<String>?
    public var profile = Profile()
}

public struct Profile: Sendable {
    public var file: Fact<String>?
    public var name: Fact<String>?
    public var appID: Fact<String>?
    public var type: Fact<ProfileType>?
    public var createdAt: Fact<Timestamp>?
    public var expiresAt: Fact<Timestamp>?
    public var installed: Fact<Bool>?

    public var isStated: Bool {
        file != nil || name != nil || appID != nil || type != nil || createdAt != nil || expiresAt != nil
            || installed != nil
    }
}

/// The descriptor's `app_store_connect` section, and what a snapshot adds to it: the app record's state.
public struct RevenueCatSection: Sendable {
    /// `revenuecat.snapshot`: a RevenueCat snapshot file.
    public var snapshot: Fact<String>?
    /// `revenuecat.app_id`: the RevenueCat app whose offerings the build shows.
    public var appID: Fact<String>?
    /// `--revenuecat`: the command line's snapshot, read over `snapshot` and not confined.
    public var commandLineSnapshot: String?
    /// `revenuecat.public_api_key`: the SDK key the build configures, when the code reads it at run time.
    public var publicAPIKey: Fact<String>?

    public init() {}
}

public struct AppStoreConnectSection: Sendable {
    public var appRecord: Fact<Bool>?
    public var versionState: Fact<VersionState>?
    public var releasedAt: Fact<Timestamp>?
    public var binaryUploaded: Fact<Bool>?
    /// `app_store_connect.snapshot`: an App Store Connect snapshot file or folder.
    public var snapshot: Fact<String>?
}

public struct Localization: Sendable {
    public var locale: Fact<String>
    public var displayName: Fact<String>?
    public var description: Fact<String>?
}

public struct SubscriptionGroup: Sendable {
    public var location: SourceLocation
    /// App Store Connect's ID of the group (what `SubscriptionStoreView(groupID:)` takes), from a snapshot.
    public var storeID: Fact<String>?
    public var referenceName: Fact<String>?
    /// `nil` when the key is absent; an empty list when stated empty.
    public var localizations: Fact<[Localization]>?
}

/// A review screenshot is either a file or only known to be present or absent.
public enum ReviewScreenshot: Sendable, Hashable {
    /// A file named in the descriptor (relative to its folder), and whether it is there.
    case file(String, exists: Bool)
    case present(Bool)

    public var isPresent: Bool {
        if case .present(let present) = self { return present }
        return true
    }
}

public struct Product: Sendable {
    /// The list item's position in the descriptor.
    public var location: SourceLocation
    public var productID: Fact<String>?
    public var referenceName: Fact<String>?
    public var type: Fact<ProductType>?
    public var status: Fact<ProductStatus>?
    public var clearedForSale: Fact<Bool>?
    /// Storefronts (ISO 3166-1 alpha-3); `nil` = all.
    public var availability: Fact<[Fact<String>]>?
    public var priceTier: Fact<Int>?
    public var price: Fact<String>?
    public var createdAt: Fact<Timestamp>?
    public var updatedAt: Fact<Timestamp>?
    public var familyShareable: Fact<Bool>?
    public var subscriptionGroup: Fact<String>?
    public var subscriptionDuration: Fact<SubscriptionDuration>?
    public var localizations: Fact<[Localization]>?
    public var reviewScreenshot: Fact<ReviewScreenshot>?
    public var reviewNotes: Fact<String>?
    public var submittedWithAppVersion: Fact<Bool>?
    /// What the App Store Connect snapshot says about the product beyond the fields above.
    public var store: StoreRecord?

    public init(location: SourceLocation) {
        self.location = location
    }

    /// Where to point a finding about the product as a whole: its ID, else the list item.
    public var anchor: SourceLocation { productID?.location ?? location }

    /// The product's ID for messages, or its position when it has none.
    public var name: String { productID?.value ?? "the product at line \(location.line)" }
}

public struct TestSetup: Sendable {
    public var device: Fact<DeviceKind>?
    public var osVersion: Fact<String>?
    public var jailbroken: Fact<Bool>?
    /// Screen Time's "In-app Purchases" restriction on the device: `false` when set to Don't Allow.
    public var inAppPurchasesAllowed: Fact<Bool>?
    public var appReinstalled: Fact<Bool>?
    public var signedOutOfStore: Fact<Bool>?
    public var sandboxAccount = SandboxAccount()
    /// Whether `testing.sandbox_account` was stated at all.
    public var sandboxAccountLocation: SourceLocation?
}

public struct SandboxAccount: Sendable {
    public var email: Fact<String>?
    public var storefront: Fact<String>?
    public var teamID: Fact<String>?
}

/// Facts read from the project's files, beside the descriptor's. Where a file and the descriptor
/// disagree, the file wins and the disagreement is recorded.
public struct Evidence: Sendable {
    public struct Disagreement: Sendable {
        /// What is compared, for messages ("the bundle ID").
        public var subject: String
        public var checklistItem: String
        public var descriptor: Fact<String>
        public var file: Fact<String>
        /// The descriptor key to change.
        public var key: DescriptorKeyPath
    }

    /// `CFBundleIdentifier` as written in Info.plist.
    public var infoPlistBundleID: Fact<String>?
    /// The bundle ID the build runs with: Info.plist expanded with the build settings (or
    /// `PRODUCT_BUNDLE_IDENTIFIER` itself).
    public var runningBundleID: Fact<String>?
    /// The bundle ID of the configuration the scheme archives (Release without one): the one App
    /// Store Connect knows the app by, when the checked configuration is another (Debug's
    /// `com.acme.app.debug`).
    public var archiveBundleID: Fact<String>?
    /// Settings the files set to nothing (`PRODUCT_BUNDLE_IDENTIFIER = ""`, an empty
    /// `CFBundleIdentifier`): no value to judge, and where it is empty.
    public var emptySettings: [String: Fact<String>] = [:]
    /// The bundle ID App Store Connect knows the app by, as far as the files say.
    public var storeBundleID: Fact<String>? { archiveBundleID ?? runningBundleID }
    /// The app's name as the build shows it: Info.plist's `CFBundleDisplayName` or `CFBundleName`,
    /// expanded, else `PRODUCT_NAME`.
    public var appName: Fact<String>?
    /// The platform of the app target's SDK.
    public var platform: Fact<Platform>?
    /// The app target and configuration the build settings come from.
    public var targetName: String?
    public var configurationName: String?
    /// Build settings of that target and configuration (target over project level).
    public var buildSettings: [String: Fact<String>] = [:]
    /// All the chosen target's settings, to expand `$(…)` in values the app reads (its Info.plist).
    public var settingsExpansion: BuildSettings?
    public var hasInAppPurchaseCapability: Fact<Bool>?
    /// `PRODUCT_BUNDLE_IDENTIFIER` of the target's other configurations, expanded, by name.
    public var otherConfigurationBundleIDs: [String: Fact<String>]?
    public var linksStoreKit: Bool?
    /// Keys of the .entitlements file.
    public var entitlementKeys: [Fact<String>] = []
    public var entitlementsFile: String?
    /// Why the .entitlements file could not be read (empty, not a property list, missing), and
    /// where it is named. In-App Purchase needs no entitlement: the check goes on without it.
    public var entitlementsProblem: (finding: Finding, named: Fact<String>)?
    public var profile: ProvisioningProfile?
    public var scheme: XcodeScheme?
    /// The StoreKit configuration Xcode serves (the scheme's, else `app.storekit_configuration`).
    public var storeKit: StoreKitConfiguration?
    /// The scheme's Run action uses a StoreKit configuration file.
    public var schemeUsesStoreKit: Fact<String>?
    /// StoreKit APIs the sources call.
    public var usesStoreKit1 = false
    public var usesStoreKit2 = false
    /// Each StoreKit 2 use the scan saw, with the availability around it.
    public var storeKit2Uses: [StoreKit2Use] = []
    public var sourcesScanned = 0
    /// Unresolved call sites, subscription groups, secrets and scan problems from the sources and
    /// the product ID lists.
    public var sources = SourceEvidence()
    /// The RevenueCat SDK keys and offerings the code names, and the snapshot's project.
    public var revenueCat = RevenueCatEvidence()
    public var disagreements: [Disagreement] = []
    /// How the app target was chosen (for notes), or why none could be.
    public var targetChoice: String?
    /// When no target could be chosen: each application target, described with its bundle ID and
    /// platform, for the question to the user.
    public var targetCandidates: [String] = []
    /// Build settings iapdoctor needs whose value still holds a `$(…)` reference after resolution,
    /// by name; they are unknown, never compared or printed as values.
    public var unresolvedSettings: [String: Fact<String>] = [:]
    /// `.xcconfig` files the configuration is based on that are not there.
    public var missingConfigurationFiles: [String] = []
    /// Known generated `.xcconfig` files (CocoaPods', Flutter's) that are not there: they define
    /// none of the settings iapdoctor reads.
    public var absentGeneratedFiles: [(file: String, generator: GeneratedConfigurationFile)] = []
    /// Settings that the needed settings refer to and no file defines (Xcode expands them to
    /// nothing), by the needed setting's name.
    public var undefinedReferences: [String: [String]] = [:]
    /// The generator (XcodeGen, Tuist) and the manifest the project was read from, when the
    /// repository commits no `project.pbxproj`.
    public var projectGenerator: (tool: String, manifest: String)?
    /// For an unresolved setting: what a committed template of a missing file sets (a hint for
    /// the question, never the value), by setting name.
    public var templateHints: [String: String] = [:]
    /// Configuration files (and the scheme's StoreKit file) found only by ignoring case.
    public var caseMismatches: [CaseMismatch] = []
    /// The profile the build settings name, found committed in the repository (not installed).
    public var committedProfile: String?
    /// The folders searched for an installed profile that was not found there.
    public var profileSearch: [String] = []
    /// The scheme names a StoreKit configuration file that is not where the reference points.
    public var storeKitReferenceMissing: (reference: Fact<String>, tried: [String])?
    /// The scheme's StoreKit configuration file is there but not in the Xcode project (no file
    /// reference, no folder that holds it, not in a workspace beside it): Xcode does not serve it.
    public var storeKitOutsideProject: (reference: Fact<String>, file: String, project: String)?
    /// The scheme's StoreKit configuration is a file of a Swift package's checkout (under
    /// DerivedData's `SourcePackages/checkouts`): `package` is the checkout's folder name.
    public var storeKitFromPackage: (reference: Fact<String>, package: String)?

    public init() {}
}
