import Formats

/// An enumeration of the descriptor. Values are lower_snake_case; App Store Connect's own
/// spellings ("Ready to Submit", "READY_TO_SUBMIT", "Non-Consumable") are accepted and normalised.
public protocol DescriptorEnumeration: RawRepresentable, CaseIterable, Sendable, Hashable
where RawValue == String {
    /// Other spellings, already normalised (lowercase, `_` for spaces and hyphens), mapped to a case.
    static var aliases: [String: Self] { get }
}

extension DescriptorEnumeration {
    public static var aliases: [String: Self] { [:] }

    /// Reads any accepted spelling; `nil` when it is none of them.
    public init?(spelling: String) {
        let key = normalizedEnumerationSpelling(spelling)
        if let value = Self(rawValue: key) ?? Self.aliases[key] {
            self = value
        } else {
            return nil
        }
    }

    /// The valid values, for messages: "`a`, `b` or `c`".
    public static var choices: String {
        let names = allCases.map { "`\($0.rawValue)`" }
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// "Ready to Submit" → "ready_to_submit"; "Non-Consumable" → "non_consumable".
public func normalizedEnumerationSpelling(_ text: String) -> String {
    // ASCII (every built-in value, nearly every typed one) by bytes: the Character path costs far
    // more a call, and each start-up's reading of rules.yaml makes many calls.
    // Spaces at the ends need no trimming: leading separators are skipped, trailing ones removed.
    if let ascii = text.utf8.withContiguousStorageIfAvailable({ bytes -> String? in
        guard !bytes.contains(where: { $0 >= 0x80 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var lastWasSeparator = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "_"):
                if !lastWasSeparator && !result.isEmpty { result.append(UInt8(ascii: "_")) }
                lastWasSeparator = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                result.append(byte + 32)
                lastWasSeparator = false
            default:
                result.append(byte)
                lastWasSeparator = false
            }
        }
        while result.last == UInt8(ascii: "_") { result.removeLast() }
        return String(decoding: result, as: UTF8.self)
    }), let ascii { return ascii }
    var result = ""
    var lastWasSeparator = false
    for character in text.trimmingXMLSpace() {
        if character == " " || character == "-" || character == "_" {
            if !lastWasSeparator && !result.isEmpty { result.append("_") }
            lastWasSeparator = true
        } else {
            result.append(contentsOf: character.lowercased())
            lastWasSeparator = false
        }
    }
    while result.hasSuffix("_") { result.removeLast() }
    return result
}

extension String {
    package func trimmingXMLSpace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}

/// Which environment returned the invalid or missing product IDs.
public enum Environment: String, DescriptorEnumeration {
    case xcode, sandbox, testflight, review, production

    public static let aliases: [String: Environment] = [
        "storekit_testing": .xcode, "local": .xcode, "test_flight": .testflight, "app_review": .review,
        "app_store": .production,
    ]

    /// The build is an archive (TestFlight, App Review, the App Store), not a Run from Xcode.
    public var isAppStoreBuild: Bool { self == .testflight || self == .review || self == .production }
}

public enum Platform: String, DescriptorEnumeration {
    case ios, ipados, macos, tvos, visionos, watchos

    public static let aliases: [String: Platform] = ["mac_os": .macos, "osx": .macos, "iphoneos": .ios]

    /// The first OS version with StoreKit 2's `Product` API.
    public var storeKit2Minimum: String {
        switch self {
        case .ios, .ipados, .tvos: return "15.0"
        case .macos: return "12.0"
        case .watchos: return "8.0"
        case .visionos: return "1.0"
        }
    }

    public var displayName: String {
        switch self {
        case .ios: return "iOS"
        case .ipados: return "iPadOS"
        case .macos: return "macOS"
        case .tvos: return "tvOS"
        case .visionos: return "visionOS"
        case .watchos: return "watchOS"
        }
    }

    // MARK: SDKs

    /// The one map from Xcode's SDK names (`SDKROOT`, `SUPPORTED_PLATFORMS`) to platforms: the
    /// device SDK's name, the stem its simulator and versioned SDKs share (`iphonesimulator`,
    /// `macosx14.2`), and the platform. In the order `SDKROOT = auto` picks from
    /// `SUPPORTED_PLATFORMS` (iOS first; `BuildSettings.settleSDK`).
    package static let sdks: [(name: String, stem: String, platform: Platform)] = [
        ("iphoneos", "iphone", .ios), ("macosx", "macosx", .macos), ("appletvos", "appletv", .tvos),
        ("xros", "xr", .visionos), ("watchos", "watch", .watchos),
    ]

    /// The platform of a device SDK's exact name (`iphoneos`), as `SDKROOT` settles it; `nil` for
    /// anything else (a simulator, a path to an `.sdk`), where the caller has its own default.
    package init?(sdk: String?) {
        guard let match = Self.sdks.first(where: { $0.name == sdk }) else { return nil }
        self = match.platform
    }

    /// The platform of any SDK of its family: device or simulator, versioned or not
    /// (`watchsimulator10.0` is watchOS), for naming a target's platform.
    package init?(sdkFamily sdk: String) {
        guard let match = Self.sdks.first(where: { sdk.hasPrefix($0.stem) }) else { return nil }
        self = match.platform
    }
}

public enum StoreKitAPI: String, DescriptorEnumeration {
    case storekit1, storekit2, both

    public static let aliases: [String: StoreKitAPI] = [
        "storekit_1": .storekit1, "storekit_2": .storekit2, "sk1": .storekit1, "sk2": .storekit2,
    ]
}

public enum TeamType: String, DescriptorEnumeration {
    case individual, organization, enterprise, personal

    public static let aliases: [String: TeamType] = ["company": .organization, "free": .personal]
}

public enum MembershipStatus: String, DescriptorEnumeration {
    case active, expired
}

public enum LicenseStatus: String, DescriptorEnumeration {
    case accepted, pending
}

public enum AgreementStatus: String, DescriptorEnumeration {
    case active, pending, newVersionPending = "new_version_pending", expired, missing

    public static let aliases: [String: AgreementStatus] = [
        "pending_user_info": .pending, "new_version": .newVersionPending, "not_signed": .missing,
    ]
}

public enum SetupStatus: String, DescriptorEnumeration {
    case active, processing, missing
}

public enum ProfileType: String, DescriptorEnumeration {
    case development, adHoc = "ad_hoc", appStore = "app_store", enterprise

    public static let aliases: [String: ProfileType] = [
        "adhoc": .adHoc, "distribution": .appStore, "in_house": .enterprise, "ios_app_development": .development,
        "ios_app_store": .appStore, "ios_app_adhoc": .adHoc, "ios_app_inhouse": .enterprise,
    ]
}

public enum SigningStyle: String, DescriptorEnumeration {
    case automatic, manual
}

public enum VersionState: String, DescriptorEnumeration {
    case prepareForSubmission = "prepare_for_submission", waitingForReview = "waiting_for_review",
        inReview = "in_review", pendingDeveloperRelease = "pending_developer_release",
        readyForSale = "ready_for_sale", rejected, developerRejected = "developer_rejected"

    public static let aliases: [String: VersionState] = [
        "ready_for_distribution": .readyForSale, "pending_apple_release": .pendingDeveloperRelease,
        "metadata_rejected": .rejected,
    ]
}

public enum ProductType: String, DescriptorEnumeration {
    case consumable, nonConsumable = "non_consumable", autoRenewable = "auto_renewable",
        nonRenewing = "non_renewing"

    public static let aliases: [String: ProductType] = [
        "nonconsumable": .nonConsumable, "auto_renewable_subscription": .autoRenewable,
        "autorenewable": .autoRenewable, "non_renewing_subscription": .nonRenewing,
        "nonrenewing": .nonRenewing, "auto_renewing_subscription": .autoRenewable,
    ]

    public var displayName: String {
        switch self {
        case .consumable: return "consumable"
        case .nonConsumable: return "non-consumable"
        case .autoRenewable: return "auto-renewable subscription"
        case .nonRenewing: return "non-renewing subscription"
        }
    }
}

public enum ProductStatus: String, DescriptorEnumeration {
    case missingMetadata = "missing_metadata", readyToSubmit = "ready_to_submit",
        waitingForReview = "waiting_for_review", inReview = "in_review",
        developerActionNeeded = "developer_action_needed", pendingBinaryApproval = "pending_binary_approval",
        approved, developerRemovedFromSale = "developer_removed_from_sale",
        removedFromSale = "removed_from_sale", rejected,
        // Hosted content (legacy): the metadata is complete, the content is not uploaded or not processed yet.
        waitingForUpload = "waiting_for_upload", processingContent = "processing_content"

    public static let aliases: [String: ProductStatus] = [
        "prepare_for_submission": .readyToSubmit, "ready_for_review": .readyToSubmit, "accepted": .approved,
        "ready_for_sale": .approved,
    ]
}

public enum SubscriptionDuration: String, DescriptorEnumeration {
    case oneWeek = "1_week", oneMonth = "1_month", twoMonths = "2_months", threeMonths = "3_months",
        sixMonths = "6_months", oneYear = "1_year"

    public static let aliases: [String: SubscriptionDuration] = [
        "1w": .oneWeek, "7_days": .oneWeek, "1m": .oneMonth, "2m": .twoMonths, "3m": .threeMonths,
        "6m": .sixMonths, "1y": .oneYear, "12_months": .oneYear, "one_week": .oneWeek,
        "one_month": .oneMonth, "one_year": .oneYear, "p1w": .oneWeek, "p1m": .oneMonth, "p2m": .twoMonths,
        "p3m": .threeMonths, "p6m": .sixMonths, "p1y": .oneYear,
        // App Store Connect's `subscriptionPeriod` values.
        "two_months": .twoMonths, "three_months": .threeMonths, "six_months": .sixMonths,
    ]
}

public enum DeviceKind: String, DescriptorEnumeration {
    case physical, simulator

    public static let aliases: [String: DeviceKind] = ["device": .physical]
}
