import Foundation

/// What a StoreKit configuration file (`.storekit`, JSON) says: the product IDs Xcode serves
/// locally and whether the simulated "Load Products" failure is on.
public struct StoreKitConfiguration: Sendable {
    public var file: String
    public var productIDs: [String]
    public var loadProductsFailureEnabled: Bool

    /// Reads the file; the problem says what is wrong when it is not a StoreKit configuration.
    public static func load(path: String) throws(FileSystem.Problem) -> StoreKitConfiguration {
        let bytes = try FileSystem.readBytes(path, maxBytes: 64 << 20)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw FileSystem.Problem(
                message: "`\(path)` is not valid JSON, so it is not a StoreKit configuration file",
                help: "open it in Xcode and save it again, or restore it from version control")
        }
        guard let root = object as? [String: Any] else {
            throw FileSystem.Problem(
                message: "`\(path)` is JSON but not a StoreKit configuration (expected an object with `products`)",
                help: "create it with Xcode → File → New → StoreKit Configuration File")
        }
        var ids: [String] = []
        func collect(_ list: Any?) {
            for case let entry as [String: Any] in (list as? [Any]) ?? [] {
                if let id = entry["productID"] as? String { ids.append(id) }
            }
        }
        collect(root["products"])
        collect(root["nonRenewingSubscriptions"])
        for case let group as [String: Any] in (root["subscriptionGroups"] as? [Any]) ?? [] {
            collect(group["subscriptions"])
        }
        var failure = false
        if let settings = root["settings"] as? [String: Any] {
            for case let error as [String: Any] in (settings["_storeKitErrors"] as? [Any]) ?? [] {
                if (error["name"] as? String) == "Load Products", (error["enabled"] as? Bool) == true { failure = true }
            }
        }
        return StoreKitConfiguration(file: path, productIDs: ids, loadProductsFailureEnabled: failure)
    }
}
