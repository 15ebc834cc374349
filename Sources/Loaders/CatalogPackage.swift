import Foundation
import XMLReader
import Formats
import Model

/// A bulk in-app purchase upload (App Store Package `metadata.xml`, software5.x), read through the
/// XML reader into typed facts that keep their line and column. Format: `shared/knowledge/bulk-xml.md`.
///
/// The package is read as a stream of `<in_app_purchase>` items (``CatalogItemStream``): each item
/// is shown to the caller's `eachItem` while it is in memory (the engine's catalog scan runs the
/// per-item rules there), and only what rules across items need is kept (``Item``: IDs, reference
/// names, types, where they are). The rest of the document (``root``, without the items) is a
/// small tree. Memory stays flat however many items a package has. Loading knows no rule.
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
        /// The group element, without its `<in_app_purchase>` items.
        public var node: XMLNode
        public var location: SourceLocation
    }

    /// What the package keeps of one `<in_app_purchase>` once it has streamed by: its ID,
    /// reference name, type, `cleared_for_sale` and where they are. A handle into a table the
    /// package's items share (a package may hold 100,000 items).
    public struct Item: Sendable {
        let table: ItemTable
        let row: Int

        var record: ItemTable.Record { table.records[row] }

        /// Where the `<in_app_purchase>` start tag is.
        public var location: SourceLocation { table.location(record.span) }
        /// The `family` or `subscription_group` it sits in (index into ``CatalogPackage/groups``).
        public var group: Int? { record.group < 0 ? nil : Int(record.group) }
        /// `read_only_info` says the item already exists in App Store Connect (lookup output).
        public var existsInAppStoreConnect: Bool { record.flags & ItemTable.Record.existsFlag != 0 }
        /// The item has its own `<review_screenshot>`.
        public var hasReviewScreenshot: Bool { record.flags & ItemTable.Record.screenshotFlag != 0 }
        /// ``productID``'s value, without making the fact (for lists of 100,000 IDs).
        public var productIDText: String? { table.productIDs[row] }
        public var productID: Fact<String>? {
            let record = record
            return table.productIDs[row].map { table.fact($0, record.productIDSpan) }
        }
        public var referenceName: Fact<String>? {
            let record = record
            guard record.referenceNameStart >= 0 else { return nil }
            return table.fact(table.text(record.referenceNameStart, record.referenceNameCount), record.referenceNameSpan)
        }
        public var type: Fact<String>? {
            let record = record
            return record.type < 0 ? nil : table.fact(table.values[Int(record.type)], record.typeSpan)
        }
        /// `<products><product><cleared_for_sale>`, or the item's own `<cleared_for_sale>` (subscriptions in a group).
        public var clearedForSale: Fact<String>? {
            let record = record
            return record.clearedForSale < 0
                ? nil : table.fact(table.values[Int(record.clearedForSale)], record.clearedForSaleSpan)
        }
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
    /// The `in_app_purchases` element (without its items), when there is one.
    public var inAppPurchases: XMLNode?
    /// The document without its `<in_app_purchase>` items (those were shown to `eachItem` as they streamed by).
    public var root: XMLNode
    /// Where the elements whose `<in_app_purchase>` children were streamed out start: in ``root``
    /// they look childless, but they are not leaves.
    public var itemParents: Set<XMLPosition> = []

    /// The spec version as numbers: `software5.12` → (5, 12).
    public var versionNumber: (major: Int, minor: Int)? {
        guard let text = version?.value, text.hasPrefix("software") else { return nil }
        let parts = text.dropFirst("software".count).split(separator: ".")
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { return nil }
        return (major, minor)
    }

    /// The element's start tag.
    public func location(of node: XMLNode) -> SourceLocation {
        SourceLocation(file: file, node.position)
    }

    /// The element's text (or its start tag when it has none).
    public func valueLocation(of node: XMLNode) -> SourceLocation {
        SourceLocation(file: file, node.valuePosition)
    }

    /// The value of the element's attribute `name` (or its start tag when that is unknown).
    public func attributeLocation(of node: XMLNode, _ name: String) -> SourceLocation {
        SourceLocation(file: file, node.attributePosition(name))
    }

    /// The element's text as a fact, where the text is.
    public func fact(_ node: XMLNode?) -> Fact<String>? {
        guard let node else { return nil }
        return Fact(node.text, at: valueLocation(of: node), source: .catalog)
    }

    // MARK: Loading

    /// Resolves a catalog path: a `metadata.xml` file, or a `.itmsp` folder holding one.
    public static func metadataPath(for path: String) -> String {
        FileSystem.isDirectory(path) ? (path.hasSuffix("/") ? path + "metadata.xml" : path + "/metadata.xml") : path
    }

    /// Reads a package in one pass; throws a positioned input finding (`input-unreadable` /
    /// `input-malformed`). `eachItem` sees every `<in_app_purchase>` while it is in memory (it is
    /// valid only during the call), in document order, on a thread of its own while the parse
    /// reads on: what it touches must be its own until `load` returns.
    public static func load(path: String, eachItem: @escaping (CatalogStreamedItem) -> Void) throws(InputProblem) -> CatalogPackage {
        let file = metadataPath(for: path)
        guard FileSystem.exists(file) else {
            throw InputProblem(Finding(
                rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                message: FileSystem.isDirectory(path)
                    ? "the package `\(path)` has no `metadata.xml`" : "cannot read `\(path)`: no such file",
                help: "name a `metadata.xml` file or the `.itmsp` folder that contains it (the file name is case-sensitive)",
                location: SourceLocation(file: file)))
        }
        let stream = CatalogItemStream(file: file, visit: eachItem)
        do {
            let root = try stream.run()
            var package = CatalogPackage(file: file, root: root)
            package.items = stream.items
            package.itemParents = stream.itemParents
            return package
        } catch let error as XMLReaderError {
            let rule = error.kind == .unreadable ? RuleID.inputUnreadable.rawValue : RuleID.inputMalformed.rawValue
            throw InputProblem(Finding(
                rule: rule, severity: .error, checklist: ChecklistID.catalogValid.rawValue,
                message: error.isSandboxDenial ? "cannot read `\(file)`: \(FileSystem.sandboxedReason)"
                    : error.kind == .unreadable ? "cannot read `\(file)`: \(error.message)" : "invalid XML: \(error.message)",
                help: error.kind == .unreadable ? FileSystem.unreadableHelp(error) : helpText(for: error.kind),
                location: SourceLocation(file: file, error.position)))
        } catch {
            throw InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: ChecklistID.catalogValid.rawValue,
                message: "invalid XML: \(error)", help: helpText(for: .malformed), location: SourceLocation(file: file)))
        }
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
        self.directory = Paths.directoryName(of: file)
        self.root = root
        rootName = root.name
        rootNamespace = root.namespaceURI
        rootLocation = SourceLocation(file: file, root.position)
        if let version = root.attribute("version") {
            self.version = Fact(version, at: SourceLocation(file: file, root.attributePosition("version")), source: .catalog)
        }
        metadataToken = fact(root.child("metadata_token"))
        vendorID = fact(root["software", "vendor_id"])
        guard let purchases = root["software", "software_metadata", "in_app_purchases"] else { return }
        inAppPurchases = purchases
        for child in purchases.children where child.name == "family" || child.name == "subscription_group" {
            let kind: GroupKind = child.name == "family" ? .family : .subscriptionGroup
            groups.append(Group(
                kind: kind,
                name: child.attribute("name").map { Fact($0, at: SourceLocation(file: file, child.attributePosition("name")), source: .catalog) },
                node: child, location: location(of: child)))
        }
    }

    /// Items whose `key` repeats an earlier item's (empty values never repeat), each with its
    /// value and the first item's value, in item order.
    public func repeats(of key: (Item) -> Fact<String>?) -> [(item: Item, repeated: Fact<String>, first: Fact<String>)] {
        // An open-addressing table of item indexes (4 bytes a slot, half full at most) instead of a
        // much larger dictionary of values: 100,000 items take 1 MB. Values are compared as
        // strings.
        var capacity = 16
        while capacity < items.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        var result: [(item: Item, repeated: Fact<String>, first: Fact<String>)] = []
        for (index, item) in items.enumerated() {
            guard let fact = key(item), !fact.value.isEmpty else { continue }
            var slot = fact.value.hashValue & (capacity - 1)
            while true {
                let earlier = slots[slot]
                if earlier < 0 {
                    slots[slot] = Int32(index)
                    break
                }
                if let first = key(items[Int(earlier)]), first.value == fact.value {
                    result.append((item, fact, first))
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
        }
        return result
    }
}
