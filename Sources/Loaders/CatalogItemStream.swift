import XMLReader
import Formats
import Model

/// One `<in_app_purchase>` as it streams by: its elements, its facts, where it sits. One
/// instance serves every item of a read (it is not kept: copy out what you need).
public final class CatalogStreamedItem {
    /// The `<in_app_purchase>` element.
    public internal(set) var element: XMLElementView
    /// What the package keeps of it.
    public internal(set) var item: CatalogPackage.Item
    /// The kind of group it sits in, if any.
    public internal(set) var groupKind: CatalogPackage.GroupKind?
    /// The `metadata.xml` path and its folder.
    public let file: String
    public let directory: String

    init(element: XMLElementView, item: CatalogPackage.Item, file: String, directory: String) {
        self.element = element
        self.item = item
        self.file = file
        self.directory = directory
    }

    /// The element's start tag.
    public func location(of element: XMLElementView) -> SourceLocation {
        SourceLocation(file: file, element.position)
    }

    /// The element's text (or its start tag when it has none).
    public func valueLocation(of element: XMLElementView) -> SourceLocation {
        SourceLocation(file: file, element.valuePosition)
    }

    /// The value of the element's attribute `name` (or its start tag when that is unknown).
    public func location(of element: XMLElementView, attribute name: XMLName) -> SourceLocation {
        SourceLocation(file: file, element.attributePosition(name))
    }
}

/// One read of a package: selects the `<in_app_purchase>` items, writes what the package keeps of
/// each into its ``ItemTable``, and shows each to `visit` while it is in memory. It knows no rule:
/// what is done with an item is the caller's (the engine's catalog scan).
final class CatalogItemStream {
    let file: String
    let directory: String
    let table: ItemTable
    private(set) var items: [CatalogPackage.Item] = []
    /// Where the elements whose `<in_app_purchase>` children were streamed out start.
    private(set) var itemParents: Set<XMLPosition> = []

    private let visit: (CatalogStreamedItem) -> Void
    @exclusivity(unchecked) private var streamed: CatalogStreamedItem?

    // Where the read is (elements outside items only): names on the path from the root, whether
    // each is the first child of its name, and the names seen among each level's children so far.
    @exclusivity(unchecked) private var path: [(name: String, first: Bool, position: XMLPosition)] = []
    /// With the name last added at each level ("" for none): siblings of one name (100,000
    /// `<in_app_purchase>`) skip hashing it into the set again.
    @exclusivity(unchecked) private var seen: [(names: Set<String>, last: String)] = []
    /// The element `itemParents` last took.
    @exclusivity(unchecked) private var lastItemParent: XMLPosition?
    /// Groups started in the package's `in_app_purchases` so far.
    @exclusivity(unchecked) private var groupCount = 0

    init(file: String, visit: @escaping (CatalogStreamedItem) -> Void) {
        self.file = file
        self.directory = Paths.directoryName(of: file)
        self.visit = visit
        table = ItemTable(file: file)
    }

    /// Reads the file; returns the document without its items. The items are handled (the table
    /// written, `visit` called) on a second thread while the parse reads on, in document order;
    /// that thread reads in this one's workspace and confinement.
    func run() throws -> XMLNode {
        Workspace.noteRead(file)
        let scope = Workspace.scope
        return try XMLReader.scanInParallel(
            contentsOfFile: file, select: { self.select($0) },
            around: { work in Workspace.within(scope, work) },
            handler: { self.item($0) })
    }

    /// `root/software/software_metadata/in_app_purchases` as `CatalogPackage` reads it: the first
    /// element of each name at every step.
    private func isPurchases(_ level: Int) -> Bool { level == 3 && pathIsPurchases }

    /// ``isPurchases(_:)`` for the current path, worked out when an element at level 3 or above
    /// starts (it cannot change below), so no item pays the string comparisons that work it out.
    @exclusivity(unchecked) private var pathIsPurchases = false

    private func updatePathIsPurchases() {
        pathIsPurchases = path.count > 3 && path[1].first && path[1].name == "software" && path[2].first
            && path[2].name == "software_metadata" && path[3].first && path[3].name == "in_app_purchases"
    }

    /// Whether an element starts an item; its tag says which group the item is in: -1 none,
    /// otherwise the group's index × 2, plus 1 for a family (see ``group(ofTag:)``).
    private func select(_ info: XMLStartInfo) -> Int? {
        let level = info.depth - 1
        if path.count > level { path.removeLast(path.count - level) }
        if seen.count > level + 1 { seen.removeLast(seen.count - level - 1) }
        while seen.count < level + 1 { seen.append(([], "")) }
        let first: Bool
        if seen[level].last == info.name {
            first = false
        } else {
            first = seen[level].names.insert(info.name).inserted
            seen[level].last = info.name
        }
        // An item: its children are not asked about, so it takes no place in `path` or `seen`.
        if info.name == "in_app_purchase", level == 4 || level == 5, isPurchases(3) {
            if level == 4 {
                noteItemParent(path[3].position)
                return -1
            }
            let parent = path[4].name
            if parent == "family" || parent == "subscription_group" {
                noteItemParent(path[4].position)
                return (groupCount - 1) * 2 + (parent == "family" ? 1 : 0)
            }
        }
        path.append((info.name, first, info.position))
        seen.append(([], ""))
        if level <= 3 { updatePathIsPurchases() }
        // Names are compared last: unequal strings take the slow comparison.
        if level == 4, isPurchases(3), info.name == "family" || info.name == "subscription_group" { groupCount += 1 }
        return nil
    }

    private func noteItemParent(_ position: XMLPosition) {
        guard position != lastItemParent else { return }
        itemParents.insert(position)
        lastItemParent = position
    }

    private static func group(ofTag tag: Int) -> (index: Int, kind: CatalogPackage.GroupKind)? {
        tag < 0 ? nil : (tag / 2, tag % 2 == 1 ? .family : .subscriptionGroup)
    }

    private func item(_ element: XMLElementView) {
        let currentGroup = Self.group(ofTag: element.itemTag)
        var record = ItemTable.Record(
            span: ItemTable.Span(element.position), group: Int32(currentGroup?.index ?? -1),
            flags: (element.child("read_only_info") != nil ? ItemTable.Record.existsFlag : 0)
                | (element.child("review_screenshot") != nil ? ItemTable.Record.screenshotFlag : 0))
        var productID: String?
        if let node = element.child("product_id") {
            productID = node.text
            record.productIDSpan = ItemTable.Span(node.valuePosition)
        }
        if let node = element.child("reference_name") {
            node.withTextBytes { text in
                record.referenceNameStart = Int32(truncatingIfNeeded: table.bytes.count)
                record.referenceNameCount = Int32(truncatingIfNeeded: text.count)
                table.bytes.append(contentsOf: text)
            }
            record.referenceNameSpan = ItemTable.Span(node.valuePosition)
        }
        if let node = element.child("type") {
            record.type = node.withTextBytes { table.value(bytes: $0) }
            record.typeSpan = ItemTable.Span(node.valuePosition)
        }
        if let node = element.child("products")?.child("product")?.child("cleared_for_sale") ?? element.child("cleared_for_sale") {
            record.clearedForSale = node.withTextBytes { table.value(bytes: $0) }
            record.clearedForSaleSpan = ItemTable.Span(node.valuePosition)
        }
        table.records.append(record)
        table.productIDs.append(productID)
        table.findRepeats(ofRow: table.records.count - 1)
        let item = CatalogPackage.Item(table: table, row: table.records.count - 1)
        items.append(item)
        let streamed: CatalogStreamedItem
        if let reused = self.streamed {
            streamed = reused
            streamed.element = element
            streamed.item = item
        } else {
            streamed = CatalogStreamedItem(element: element, item: item, file: file, directory: directory)
            self.streamed = streamed
        }
        streamed.groupKind = currentGroup?.kind
        visit(streamed)
    }
}
