import JSONReader
import Formats
import Model

/// A RevenueCat snapshot (`iapdoctor-revenuecat-snapshot/1`, `docs/revenuecat.md`): a project's
/// apps with their public SDK keys, products, offerings with their packages' products, and
/// entitlements, from RevenueCat's REST API v2, each value remembering where it is
/// in the file. It only holds what the file says; ``RevenueCatFacts`` relates it to the app.
public struct RevenueCatSnapshot: Sendable {
    public static let format = "iapdoctor-revenuecat-snapshot/1"
    /// A project with 1,000 products and 1,000 offerings takes well under a megabyte.
    public static let maxFileBytes = 64 << 20
    public static let maxValues = 1 << 22

    public struct App: Sendable, Hashable {
        public var id: Fact<String>
        public var name: String?
        /// `app_store`, `mac_app_store`, `play_store`, `amazon`, `stripe`, `rc_billing`, `roku`,
        /// `paddle`, `test_store`.
        public var type: Fact<String>
        /// `app_store.bundle_id` (or `mac_app_store.bundle_id`) in RevenueCat.
        public var bundleID: Fact<String>?
        public var packageName: String?
        public var keys: [Key]
        /// Where the app is in the file.
        public var location: SourceLocation

        /// An App Store app: its products are StoreKit's.
        public var isApple: Bool { type.value == "app_store" || type.value == "mac_app_store" }
        public var shown: String { "`\(name ?? id.value)` (\(type.value), \(id.value))" }
    }

    /// A public SDK key: public by design, shipped in every app that uses it.
    public struct Key: Sendable, Hashable {
        public var key: Fact<String>
        /// `production` or `sandbox`.
        public var environment: String?
    }

    public struct Product: Sendable, Hashable {
        public var id: Fact<String>
        public var storeIdentifier: Fact<String>
        public var type: String?
        public var appID: Fact<String>?
        public var displayName: String?
    }

    public struct Offering: Sendable, Hashable {
        public var id: String
        public var lookupKey: Fact<String>
        public var displayName: String?
        public var isCurrent: Fact<Bool>?
        public var packages: [Package]
        public var location: SourceLocation
    }

    public struct Package: Sendable, Hashable {
        public var id: String
        public var lookupKey: Fact<String>
        public var displayName: String?
        public var position: Int?
        public var products: [PackageProduct]
        public var location: SourceLocation
    }

    /// A product attached to a package: the product's ID and, as the pull writes them, its store
    /// identifier and app (else looked up in ``products``).
    public struct PackageProduct: Sendable, Hashable {
        public var productID: Fact<String>
        public var storeIdentifier: Fact<String>?
        public var appID: Fact<String>?
        public var eligibility: String?
        public var location: SourceLocation
    }

    public struct Entitlement: Sendable, Hashable {
        public var id: String
        public var lookupKey: Fact<String>
        public var productIDs: [Fact<String>]
    }

    /// A list the pull could not read (no permission, an error answer): what it would have said
    /// is unknown, never empty.
    public struct Unavailable: Sendable, Hashable {
        public var path: String
        public var status: Int?
        public var message: String
        public var location: SourceLocation
    }

    public var file: String
    public var fetchedAt: Fact<String>?
    public var projectID: Fact<String>?
    public var projectName: String?
    public var apps: [App] = []
    public var products: [Product] = []
    public var offerings: [Offering] = []
    public var entitlements: [Entitlement] = []
    public var unavailable: [Unavailable] = []
    /// Where the file's top-level lists are, for findings about a list as a whole.
    public var offeringsLocation: SourceLocation
    public var appsLocation: SourceLocation

    /// The product with this RevenueCat ID.
    public func product(_ id: String) -> Product? { products.first { $0.id.value == id } }

    /// A package product's store identifier and app, from the package or the products list.
    public func resolved(_ attached: PackageProduct) -> (storeIdentifier: Fact<String>?, appID: String?) {
        let product = product(attached.productID.value)
        return (attached.storeIdentifier ?? product?.storeIdentifier, attached.appID?.value ?? product?.appID?.value)
    }

    /// The apps list the pull could not read, if it could not.
    public var appsUnavailable: Unavailable? { unavailable.first { $0.path.hasSuffix("/apps") } }

    /// Whether the pull could read the lists behind offerings (a failed list leaves them unknown).
    public var offeringsComplete: Bool { !unavailable.contains { $0.path.contains("/offerings") || $0.path.contains("/packages") } }
}

extension RevenueCatSnapshot {
    public static func load(path: String) throws(InputProblem) -> RevenueCatSnapshot {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: maxFileBytes)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: path), hint: "write the snapshot as `docs/revenuecat.md` describes")
        }
        return try parse(bytes, file: path)
    }

    public static func load(text: String, file: String) throws(InputProblem) -> RevenueCatSnapshot {
        try parse(Array(text.utf8), file: file)
    }

    static func parse(_ bytes: [UInt8], file: String) throws(InputProblem) -> RevenueCatSnapshot {
        let root: JSONNode
        do {
            root = try JSONNode.parse(bytes: bytes, file: file, maxValues: maxValues)
        } catch {
            throw malformed("the RevenueCat snapshot is not valid JSON: \(error.message)", at: error.location,
                            help: "fix the JSON at this position (a truncated file?), or write the snapshot again as `docs/revenuecat.md` describes")
        }
        var reader = Reader(file: file)
        return try reader.snapshot(root)
    }

    static func malformed(_ message: String, at location: SourceLocation, help: String? = nil) -> InputProblem {
        PropertyList.malformed(
            message, help: help ?? "write it as `docs/revenuecat.md` describes",
            at: location)
    }
}
