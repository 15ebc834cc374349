import XMLReader

/// A bulk in-app purchase upload (App Store Package `metadata.xml`, software5.x), read through the
/// XML reader into typed facts that keep their line and column. Format: `shared/knowledge/bulk-xml.md`.
public struct CatalogPackage: Sendable {
    public enum GroupKind: String, Sendable {
        /// `family`: auto-renewables before software5.7.
        case family
        /// `subscription_group`: auto-renewables from software5.7.
        case subscriptionGroup = "subscription_group"
    }

    public struct Group: Sendable {
        public var kind: GroupKind
        public var name: Fact<String>?
        public var node: XMLNode
        public var location: SourceLocation
    }

    public struct Item: Sendable {
        /// The `<in_app_purchase>` element (declarative rules address fields inside it by path).
        public var node: XMLNode
        public var location: SourceLocation
        /// The `family` or `subscription_group` it sits in (index into ``groups``).
        public var group: Int?
        public var productID: Fact<String>?
        public var referenceName: Fact<String>?
        public var type: Fact<String>?
        /// `read_only_info` says the item already exists in App Store Connect (lookup output).
        public var existsInAppStoreConnect: Bool
    }

    /// The `metadata.xml` path, as given or resolved from the descriptor.
    public var file: String
    /// The folder whose files the package may reference (the `.itmsp` folder).
    public var directory: String
    public var rootName: String
    public var rootNamespace: String?
    public var rootLocation: SourceLocation
    public var version: Fact<String>?
    public var metadataToken: Fact<String>?
    public var vendorID: Fact<String>?
    public var items: [Item] = []
    public var groups: [Group] = []
    /// The `in_app_purchases` element, when there is one.
    public var inAppPurchases: XMLNode?
    /// Every element of the document with its parent's name, in document order (for structure rules).
    public var root: XMLNode

    /// The spec version as numbers: `software5.12` → (5, 12).
    public var versionNumber: (major: Int, minor: Int)? {
        guard let text = version?.value, text.hasPrefix("software") else { return nil }
        let parts = text.dropFirst("software".count).split(separator: ".")
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        return (major, minor)
    }

    public func location(of node: XMLNode) -> SourceLocation {
        SourceLocation(file: file, line: node.position.line, column: node.position.column)
    }

    public func fact(_ node: XMLNode?) -> Fact<String>? {
        guard let node else { return nil }
        return Fact(node.text, at: location(of: node), source: .catalog)
    }

    // MARK: Loading

    /// Resolves a catalog path: a `metadata.xml` file, or a `.itmsp` folder holding one.
    public static func metadataPath(for path: String) -> String {
        FileSystem.isDirectory(path) ? (path.hasSuffix("/") ? path + "metadata.xml" : path + "/metadata.xml") : path
    }

    /// Reads a package; throws a positioned input finding (`input-unreadable` / `input-malformed`).
    public static func load(path: String) throws(InputProblem) -> CatalogPackage {
        let file = metadataPath(for: path)
        guard FileSystem.exists(file) else {
            throw InputProblem(Finding(
                rule: "input-unreadable", severity: .error, checklist: nil,
                message: FileSystem.isDirectory(path)
                    ? "the package `\(path)` has no `metadata.xml`" : "cannot read `\(path)`: no such file",
                help: "name a `metadata.xml` file or the `.itmsp` folder that contains it (the file name is case-sensitive)",
                location: SourceLocation(file: file)))
        }
        let root: XMLNode
        do {
            root = try XMLReader.parse(contentsOfFile: file)
        } catch {
            let rule = error.kind == .unreadable ? "input-unreadable" : "input-malformed"
            throw InputProblem(Finding(
                rule: rule, severity: .error, checklist: "catalog-valid",
                message: error.kind == .unreadable ? "cannot read `\(file)`: \(error.message)" : "invalid XML: \(error.message)",
                help: helpText(for: error.kind),
                location: SourceLocation(file: file, line: error.position.line, column: error.position.column)))
        }
        return CatalogPackage(file: file, root: root)
    }

    static func helpText(for kind: XMLReaderError.Kind) -> String {
        switch kind {
        case .entityDeclaration: return "remove the DOCTYPE's entity declarations; App Store packages never use entities"
        case .tooDeep: return "check the file: real packages nest about 10 elements deep"
        case .textTooLong: return "check the file: no package value is anywhere near this long"
        case .empty: return "the file is empty; export the package again"
        case .unreadable: return "check the file's permissions"
        default: return "fix the XML at this position; a package must be well-formed before Transporter reads it"
        }
    }

    init(file: String, root: XMLNode) {
        self.file = file
        self.directory = FileSystem.directoryName(of: file)
        self.root = root
        rootName = root.name
        rootNamespace = root.namespaceURI
        rootLocation = SourceLocation(file: file, line: root.position.line, column: root.position.column)
        if let version = root.attribute("version") {
            self.version = Fact(version, at: rootLocation, source: .catalog)
        }
        metadataToken = fact(root.child("metadata_token"))
        vendorID = fact(root["software", "vendor_id"])
        guard let purchases = root["software", "software_metadata", "in_app_purchases"] else { return }
        inAppPurchases = purchases
        for child in purchases.children {
            switch child.name {
            case "in_app_purchase":
                items.append(item(child, group: nil))
            case "family", "subscription_group":
                let kind: GroupKind = child.name == "family" ? .family : .subscriptionGroup
                groups.append(Group(
                    kind: kind, name: child.attribute("name").map { Fact($0, at: location(of: child), source: .catalog) },
                    node: child, location: location(of: child)))
                for member in child.children(named: "in_app_purchase") {
                    items.append(item(member, group: groups.count - 1))
                }
            default:
                continue
            }
        }
    }

    func item(_ node: XMLNode, group: Int?) -> Item {
        Item(
            node: node, location: location(of: node), group: group, productID: fact(node.child("product_id")),
            referenceName: fact(node.child("reference_name")), type: fact(node.child("type")),
            existsInAppStoreConnect: node.child("read_only_info") != nil)
    }
}

/// One input problem, already written as a finding.
public struct InputProblem: Error, Sendable {
    public var finding: Finding

    public init(_ finding: Finding) {
        self.finding = finding
    }
}
