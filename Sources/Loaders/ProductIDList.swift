import CodeScanner
import JSONReader
import Formats
import Model

/// A list of product IDs the app ships or downloads, as an XML plist or JSON: an array of IDs; a
/// dictionary with arrays under keys such as `Products`, `Subscriptions`, `Consumables`,
/// `NonConsumables` (nested one or two levels, as StoreHelper's `Products.plist` and MKStoreKit's
/// `MKStoreKitConfigs.plist` write them); or a dictionary whose values are IDs.
///
/// Keys that name secrets or keys (`SharedSecret`, `*secret*`, `*key*`) are never read as IDs; a
/// value under such a key shaped like an App Store shared secret is reported, by position only.
public enum ProductIDList {
    public struct Contents: Sendable {
        public var ids: [Fact<String>] = []
        public var secrets: [SourceEvidence.Secret] = []
    }

    public static func load(path: String) throws(InputProblem) -> [Fact<String>] {
        try read(path: path).ids
    }

    public static func read(path: String) throws(InputProblem) -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: 16 << 20)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: path), hint: "`app.product_id_lists` paths are relative to the descriptor's folder")
        }
        return try parse(bytes: bytes, file: path)
    }

    /// A list's bytes, read from `file` (a path, or a name inside a build for messages).
    public static func parse(bytes: [UInt8], file path: String) throws(InputProblem) -> Contents {
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        let root: Node
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            do {
                root = Node(try JSONNode.parse(bytes: bytes, file: path))
            } catch {
                throw PropertyList.malformed("the product ID list is not valid JSON: \(error.message)", help: "fix the JSON at this position", at: error.location)
            }
        } else {
            let plist = try PropertyList.parse(bytes: bytes, file: path, what: "product ID list")
            root = Node(plist)
            if case .scalar = root.kind {
                throw PropertyList.malformed(
                    "the product ID list `\(path)` is a single value; expected an array of product IDs",
                    help: "write `<array><string>com.example.pro</string></array>`", at: plist.location)
            }
        }
        var reader = Reader()
        reader.top(root)
        reader.findSecrets(root, key: nil, depth: 0)
        return Contents(ids: reader.ids, secrets: reader.secrets)
    }

    /// Keys whose values hold product IDs, lowercased without `-` and `_`.
    static let productKeys: Set<String> = [
        "products", "productids", "productidentifiers", "ids", "subscriptions", "consumables", "nonconsumables",
        "nonrenewables", "nonrenewingsubscriptions", "autorenewables", "autorenewablesubscriptions", "others",
        "inapppurchases", "iap", "iaps",
    ]
    /// Keys of an object in a list that hold its one product ID.
    static let idKeys: Set<String> = ["id", "productid", "productidentifier", "identifier"]

    /// Whether a flat dictionary of strings is keyed by product ID: every key is shaped like one
    /// and some value is not (it has a space or a character no ID has), or every key is dotted
    /// (`com.x.pro`) and no value is.
    static func keysAreIDs(_ entries: [(key: String, value: Node)]) -> Bool {
        let values = entries.compactMap { entry -> String? in
            if case .string(let text) = entry.value.kind { return text }
            return nil
        }
        guard !entries.isEmpty, values.count == entries.count else { return false }
        func idShaped(_ text: String) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "." || $0 == "_" || $0 == "-") }
        }
        guard entries.allSatisfy({ idShaped($0.key) }) else { return false }
        if values.contains(where: { !idShaped($0) }) { return true }
        return entries.allSatisfy { $0.key.contains(".") } && !values.contains { $0.contains(".") }
    }

    static func normalized(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
    }

    /// `SharedSecret`, `apiKey`, `kSecret`: never product IDs.
    static func namesSecretOrKey(_ key: String) -> Bool {
        let lower = key.lowercased()
        return lower.contains("secret") || lower.contains("key")
    }

    /// A plist or JSON value reduced to what the list reader needs.
    struct Node {
        enum Kind {
            case string(String)
            case scalar
            case array([Node])
            case dictionary([(key: String, value: Node)])
        }
        var kind: Kind
        var location: SourceLocation

        init(_ value: PlistValue) {
            location = value.location
            switch value {
            case .string(let text, _): kind = .string(text)
            case .array(let values, _): kind = .array(values.map(Node.init))
            case .dictionary(let entries, _): kind = .dictionary(entries.map { ($0.key, Node($0.value)) })
            default: kind = .scalar
            }
        }

        init(_ value: JSONNode) {
            location = value.location
            switch value.kind {
            case .string: kind = .string(value.string ?? "")
            case .array: kind = .array(value.elements.map(Node.init))
            case .object: kind = .dictionary(value.members.map { ($0.key, Node($0.value)) })
            default: kind = .scalar
            }
        }

        var hasProductKeys: Bool {
            guard case .dictionary(let entries) = kind else { return false }
            return entries.contains { ProductIDList.productKeys.contains(ProductIDList.normalized($0.key)) }
        }
    }

    struct Reader {
        var ids: [Fact<String>] = []
        var secrets: [SourceEvidence.Secret] = []
        static let maxDepth = 4

        mutating func id(_ text: String, _ location: SourceLocation) {
            ids.append(Fact(text, at: location, source: .productList))
        }

        /// The document: an array of IDs; a dictionary with product keys (only those are read); or
        /// a dictionary whose string values are IDs.
        mutating func top(_ node: Node) {
            switch node.kind {
            case .array:
                list(node, depth: 0)
            case .dictionary(let entries):
                if node.hasProductKeys {
                    productEntries(entries, depth: 0)
                } else if ProductIDList.keysAreIDs(entries) {
                    // `{ "com.x.tip.small": "☕️ Small tip" }`: the keys are the IDs, the values their names.
                    for entry in entries where !ProductIDList.namesSecretOrKey(entry.key) {
                        id(entry.key, entry.value.location)
                    }
                } else {
                    for entry in entries where !ProductIDList.namesSecretOrKey(entry.key) {
                        if case .string(let text) = entry.value.kind { id(text, entry.value.location) }
                    }
                }
            default:
                break
            }
        }

        /// The entries of a dictionary, reading only the product keys.
        mutating func productEntries(_ entries: [(key: String, value: Node)], depth: Int) {
            for entry in entries where ProductIDList.productKeys.contains(ProductIDList.normalized(entry.key)) {
                underProductKey(entry.value, depth: depth + 1)
            }
        }

        /// What a product key holds: a list of IDs, or a dictionary keyed by group name (values are
        /// lists) or by product ID (values are settings: MKStoreKit's `Consumables`).
        mutating func underProductKey(_ node: Node, depth: Int) {
            guard depth <= Self.maxDepth else { return }
            switch node.kind {
            case .string(let text):
                id(text, node.location)
            case .array:
                list(node, depth: depth)
            case .dictionary(let entries):
                for entry in entries where !ProductIDList.namesSecretOrKey(entry.key) {
                    switch entry.value.kind {
                    case .array:
                        list(entry.value, depth: depth + 1)
                    case .string(let text):
                        id(text, entry.value.location)
                    case .dictionary(let inner) where entry.value.hasProductKeys:
                        productEntries(inner, depth: depth + 1)
                    default:
                        // `com.x.coins: { Count: 500 }`, `com.x.weekly: 7`: the key is the ID.
                        id(entry.key, entry.value.location)
                    }
                }
            case .scalar:
                break
            }
        }

        /// An array: strings are IDs; an object gives its `id`/`productID` and its product keys
        /// (StoreHelper's `{ Group: vip, Products: [...] }`).
        mutating func list(_ node: Node, depth: Int) {
            guard depth <= Self.maxDepth, case .array(let elements) = node.kind else { return }
            for element in elements {
                switch element.kind {
                case .string(let text):
                    id(text, element.location)
                case .dictionary(let entries):
                    // Unity's IAPProductCatalog.json: the App Store's own ID overrides the product's.
                    if let apple = Self.appleStoreID(entries) {
                        id(apple.text, apple.location)
                        continue
                    }
                    for entry in entries where ProductIDList.idKeys.contains(ProductIDList.normalized(entry.key)) {
                        if case .string(let text) = entry.value.kind { id(text, entry.value.location) }
                    }
                    productEntries(entries, depth: depth + 1)
                case .array:
                    list(element, depth: depth + 1)
                case .scalar:
                    break
                }
            }
        }

        /// `"storeIDs": [{ "store": "AppleAppStore", "id": "com.x.coins" }]` (Unity IAP's catalog).
        static func appleStoreID(_ entries: [(key: String, value: Node)]) -> (text: String, location: SourceLocation)? {
            guard let stores = entries.first(where: { ProductIDList.normalized($0.key) == "storeids" })?.value,
                  case .array(let elements) = stores.kind else { return nil }
            for element in elements {
                guard case .dictionary(let fields) = element.kind else { continue }
                let store = fields.first { $0.key == "store" }.flatMap { field -> String? in
                    if case .string(let text) = field.value.kind { return text }
                    return nil
                }
                guard store == "AppleAppStore" || store == "MacAppStore",
                      let id = fields.first(where: { $0.key == "id" }), case .string(let text) = id.value.kind, !text.isEmpty else { continue }
                return (text, id.value.location)
            }
            return nil
        }

        /// Every value shaped like an App Store shared secret under a key that says shared secret
        /// (`SharedSecret`, `IAPSecret`; an `EncryptionSecret` is the app's own).
        mutating func findSecrets(_ node: Node, key: String?, depth: Int) {
            guard depth <= 16 else { return }
            switch node.kind {
            case .string(let text):
                if let key, SourceScanner.namesSharedSecret(key), ProductIDList.looksLikeSharedSecret(text) {
                    secrets.append(SourceEvidence.Secret(location: node.location, name: key, value: text))
                }
            case .array(let elements):
                for element in elements { findSecrets(element, key: key, depth: depth + 1) }
            case .dictionary(let entries):
                for entry in entries { findSecrets(entry.value, key: entry.key, depth: depth + 1) }
            case .scalar:
                break
            }
        }
    }

    /// 32 hexadecimal digits: the shape of an App Store shared secret.
    static func looksLikeSharedSecret(_ value: String) -> Bool {
        value.utf8.count == 32 && value.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || ($0 >= 0x41 && $0 <= 0x46) }
    }
}
