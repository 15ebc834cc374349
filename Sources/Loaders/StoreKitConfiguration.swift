import JSONReader
import Formats
import Model

/// What a StoreKit configuration file (`.storekit`, JSON, versions 1–5) says, with positions: the
/// products Xcode serves locally, their groups, the simulated failures and a committed signing key.
public struct StoreKitConfiguration: Sendable {
    public struct Localization: Sendable {
        public var locale: Fact<String>?
        public var displayName: Fact<String>?
        public var description: Fact<String>?
    }

    public struct Product: Sendable {
        public var productID: Fact<String>?
        public var referenceName: Fact<String>?
        /// `Consumable`, `NonConsumable`, `NonRenewingSubscription`, `RecurringSubscription`.
        public var type: Fact<String>?
        public var localizations: [Localization]
        /// The subscription group it belongs to (index into ``groups``).
        public var group: Int?
        public var location: SourceLocation
        /// The JSON object, for declarative rules.
        public var json: JSONNode
    }

    public struct Group: Sendable {
        /// The group's `id`: App Store Connect's group ID in a synced file, a random one in a local file.
        public var id: Fact<String>?
        public var name: Fact<String>?
        public var localizations: [Localization]
        public var location: SourceLocation
    }

    /// What the file is to the app: the one Xcode serves products from when it runs the app, or a
    /// file checked on its own (on the command line, or the descriptor's when a scheme chose another).
    public enum Use: String, Sendable {
        /// The scheme's (or, without a scheme, the descriptor's): App Store Connect's limits are
        /// not its business; only what makes Xcode fail to serve a product is.
        case run
        /// Checked as a catalog: App Store Connect's limits are reported, as notes.
        case catalog
    }

    public var file: String
    public var use: Use = .catalog
    public var products: [Product] = []
    public var groups: [Group] = []
    /// The "Load Products" simulated failure, when it is on.
    public var loadProductsFailure: SourceLocation?
    /// `settings._applicationInternalID`: Xcode writes it when the file is synced with an App Store
    /// Connect app, whose products it then mirrors. A file without it is local, made by hand.
    public var syncedApplicationID: Fact<String>?
    public var isSynced: Bool { syncedApplicationID != nil }
    /// `subscriptionOffersKeyPair.privateKey`, when the file carries one.
    public var privateKey: SourceLocation?
    public var root: JSONNode

    public var productIDs: [String] { products.compactMap { $0.productID?.value } }

    public static func load(path: String) throws(InputProblem) -> StoreKitConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: 64 << 20)
        } catch {
            throw InputProblem.unreadable(
                error, at: SourceLocation(file: path),
                hint: "`app.storekit_configuration` is relative to the descriptor's folder, a scheme's reference to the folder holding the .xcodeproj")
        }
        let root: JSONNode
        do {
            root = try JSONNode.parse(bytes: bytes, file: path)
        } catch {
            throw PropertyList.malformed(
                "the StoreKit configuration file is not valid JSON: \(error.message)",
                help: "fix the JSON at this position, or restore the file from version control and edit it in Xcode", at: error.location)
        }
        guard root.kind == .object, root["products"] != nil || root["subscriptionGroups"] != nil || root["settings"] != nil else {
            throw PropertyList.malformed(
                "`\(path)` is JSON but not a StoreKit configuration (no `products`, `subscriptionGroups` or `settings`)",
                help: "create it in Xcode with File → New → File → StoreKit Configuration File", at: root.location)
        }
        try refuseDuplicateKeys(root)
        var configuration = StoreKitConfiguration(file: path, root: root)
        for entry in root["products"]?.elements ?? [] { configuration.products.append(product(entry, group: nil)) }
        for entry in root["nonRenewingSubscriptions"]?.elements ?? [] { configuration.products.append(product(entry, group: nil)) }
        for group in root["subscriptionGroups"]?.elements ?? [] {
            configuration.groups.append(Group(
                id: group["id"]?.stringFact(.storekit), name: group["name"]?.stringFact(.storekit), localizations: localizations(group["localizations"]), location: group.location))
            for entry in group["subscriptions"]?.elements ?? [] {
                configuration.products.append(product(entry, group: configuration.groups.count - 1))
            }
        }
        for error in root["settings"]?["_storeKitErrors"]?.elements ?? [] where error["name"]?.string == "Load Products" && error["enabled"]?.bool == true {
            configuration.loadProductsFailure = error["enabled"]?.location
        }
        configuration.syncedApplicationID = root["settings"]?["_applicationInternalID"]?.stringFact(.storekit)
        if let key = root["subscriptionOffersKeyPair"]?["privateKey"], let text = key.string, !text.isEmpty {
            configuration.privateKey = key.location
        }
        return configuration
    }

    /// An object that repeats a key (`productID` twice) has no one meaning: Xcode writes none, and
    /// readers differ on which one counts. Refused at the second, naming the first.
    static func refuseDuplicateKeys(_ root: JSONNode) throws(InputProblem) {
        var pending = [root]
        while let node = pending.popLast() {
            switch node.kind {
            case .object:
                var seen: [String: JSONNode] = [:]
                for member in node.members {
                    if let first = seen[member.key] {
                        throw PropertyList.malformed(
                            "the key `\(Escaping.inline(member.key))` appears twice in one object; it was first set at line \(first.location.line)",
                            help: "keep one of the two (Xcode writes each key once), or restore the file from version control",
                            at: member.keyLocation)
                    }
                    seen[member.key] = member.keyNode
                    pending.append(member.value)
                }
            case .array: pending += node.elements
            default: break
            }
        }
    }

    static func product(_ json: JSONNode, group: Int?) -> Product {
        // Hand-written files sometimes say `id` or `identifier`; Xcode writes `productID`.
        let id = json["productID"]?.stringFact(.storekit)
        return Product(
            productID: id, referenceName: json["referenceName"]?.stringFact(.storekit), type: json["type"]?.stringFact(.storekit),
            localizations: localizations(json["localizations"]), group: group, location: json.location, json: json)
    }

    static func localizations(_ json: JSONNode?) -> [Localization] {
        (json?.elements ?? []).map {
            Localization(
                locale: $0["locale"]?.stringFact(.storekit), displayName: $0["displayName"]?.stringFact(.storekit),
                description: $0["description"]?.stringFact(.storekit))
        }
    }
}
