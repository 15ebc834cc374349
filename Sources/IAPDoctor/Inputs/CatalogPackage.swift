import Foundation
import XMLReader

/// A bulk in-app purchase upload (App Store Package `metadata.xml`, software5.x), read through the
/// XML reader into typed facts that keep their line and column. Format: `shared/knowledge/bulk-xml.md`.
///
/// The package is read as a stream of `<in_app_purchase>` items: each item is checked by the
/// per-item catalog rules (``CatalogItemRule``, and the declarative `each: in_app_purchase` checks)
/// while it is in memory, and only what rules across items need is kept (``Item``: IDs, reference
/// names, types, where they are). The rest of the document (``root``, without the items) is a
/// small tree. Memory stays flat however many items a package has.
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
        public var location: SourceLocation { table.location(record.line, record.column) }
        /// The `family` or `subscription_group` it sits in (index into ``CatalogPackage/groups``).
        public var group: Int? { record.group < 0 ? nil : Int(record.group) }
        /// `read_only_info` says the item already exists in App Store Connect (lookup output).
        public var existsInAppStoreConnect: Bool { record.flags & ItemTable.Record.existsFlag != 0 }
        /// The item has its own `<review_screenshot>`.
        public var hasReviewScreenshot: Bool { record.flags & ItemTable.Record.screenshotFlag != 0 }
        public var productID: Fact<String>? {
            let record = record
            return table.productIDs[row].map { table.fact($0, record.productIDLine, record.productIDColumn) }
        }
        public var referenceName: Fact<String>? {
            let record = record
            guard record.referenceNameStart >= 0 else { return nil }
            return table.fact(table.text(record.referenceNameStart, record.referenceNameCount), record.referenceNameLine, record.referenceNameColumn)
        }
        public var type: Fact<String>? {
            let record = record
            return record.type < 0 ? nil : table.fact(table.values[Int(record.type)], record.typeLine, record.typeColumn)
        }
        /// `<products><product><cleared_for_sale>`, or the item's own `<cleared_for_sale>` (subscriptions in a group).
        public var clearedForSale: Fact<String>? {
            let record = record
            return record.clearedForSale < 0
                ? nil : table.fact(table.values[Int(record.clearedForSale)], record.clearedForSaleLine, record.clearedForSaleColumn)
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
    /// The document without its `<in_app_purchase>` items (those went to the item rules as they streamed by).
    public var root: XMLNode
    /// Where the elements whose `<in_app_purchase>` children were streamed out start: in ``root``
    /// they look childless, but they are not leaves.
    public var itemParents: Set<XMLPosition> = []
    /// Findings of the per-item rules, by rule id, gathered while the items streamed by.
    var itemFindings: [String: [CatalogItemFinding]] = [:]
    /// Findings of the declarative item checks, by rule id, with the check they were made for.
    var declarativeFindings: [String: (signature: String, findings: [DeclarativeItemFinding])] = [:]

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
    /// The registered per-item rules (``register(itemRule:)``) and the built-in declarative item
    /// checks run on each item as it streams by.
    public static func load(path: String) throws(InputProblem) -> CatalogPackage {
        try load(path: path, itemRules: ItemRuleRegistry.shared.rules)
    }

    /// Reads a package, running `itemRules` on each item as it streams by.
    public static func load(path: String, itemRules: [any CatalogItemRule]) throws(InputProblem) -> CatalogPackage {
        let file = metadataPath(for: path)
        guard FileSystem.exists(file) else {
            throw InputProblem(Finding(
                rule: "input-unreadable", severity: .error, checklist: nil,
                message: FileSystem.isDirectory(path)
                    ? "the package `\(path)` has no `metadata.xml`" : "cannot read `\(path)`: no such file",
                help: "name a `metadata.xml` file or the `.itmsp` folder that contains it (the file name is case-sensitive)",
                location: SourceLocation(file: file)))
        }
        let plans = RuleCatalog.builtin.rules.compactMap { DeclarativeRule.CatalogPlan($0) }
        let scan = ItemScan(file: file, itemRules: itemRules, plans: plans, keepItems: true)
        do {
            let root = try scan.run()
            var package = CatalogPackage(file: file, root: root)
            package.items = scan.items
            package.itemParents = scan.itemParents
            for (index, rule) in itemRules.enumerated() { package.itemFindings[rule.id] = scan.ruleFindings[index] }
            for (index, plan) in plans.enumerated() {
                package.declarativeFindings[plan.id] = (plan.signature, scan.planFindings[index])
            }
            return package
        } catch let error as XMLReaderError {
            let rule = error.kind == .unreadable ? "input-unreadable" : "input-malformed"
            throw InputProblem(Finding(
                rule: rule, severity: .error, checklist: "catalog-valid",
                message: error.isSandboxDenial ? "cannot read `\(file)`: \(FileSystem.sandboxedReason)"
                    : error.kind == .unreadable ? "cannot read `\(file)`: \(error.message)" : "invalid XML: \(error.message)",
                help: error.kind == .unreadable ? FileSystem.unreadableHelp(error) : helpText(for: error.kind),
                location: SourceLocation(file: file, line: error.position.line, column: error.position.column)))
        } catch {
            throw InputProblem(Finding(
                rule: "input-malformed", severity: .error, checklist: "catalog-valid",
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
        for child in purchases.children where child.name == "family" || child.name == "subscription_group" {
            let kind: GroupKind = child.name == "family" ? .family : .subscriptionGroup
            groups.append(Group(
                kind: kind, name: child.attribute("name").map { Fact($0, at: location(of: child), source: .catalog) },
                node: child, location: location(of: child)))
        }
    }

    /// Items whose `key` repeats an earlier item's (empty values never repeat), each with its
    /// value and the first item's value, in item order.
    public func repeats(of key: (Item) -> Fact<String>?) -> [(item: Item, repeated: Fact<String>, first: Fact<String>)] {
        // An open-addressing table of item indexes (4 bytes a slot, half full at most) instead of a
        // dictionary of values: 100,000 items take 1 MB, not 20. Values are compared as strings.
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

    // MARK: Findings of the per-item rules

    /// What `rule` found in this package's items: gathered while the package streamed when the
    /// rule was registered at load time, otherwise by reading the file again (same findings, slower).
    public func findings(of rule: some CatalogItemRule) -> [CatalogItemFinding] {
        if let found = itemFindings[rule.id] { return found }
        let scan = ItemScan(file: file, itemRules: [rule], plans: [], keepItems: false)
        _ = try? scan.run()
        return scan.ruleFindings[0]
    }

    /// What a declarative `each: in_app_purchase` check found: gathered while the package streamed
    /// when the check is the built-in one, otherwise by reading the file again.
    func findings(of plan: DeclarativeRule.CatalogPlan) -> [DeclarativeItemFinding] {
        if let found = declarativeFindings[plan.id], found.signature == plan.signature { return found.findings }
        let scan = ItemScan(file: file, itemRules: [], plans: [plan], keepItems: false)
        _ = try? scan.run()
        return scan.planFindings[0]
    }

    // MARK: Registering per-item rules

    /// Makes `rule` run on every item of every package loaded from now on (idempotent per rule id).
    /// Rules register themselves when they are made; a rule that is not registered still gets its
    /// findings, by a second read of the file.
    public static func register(itemRule rule: any CatalogItemRule) {
        ItemRuleRegistry.shared.add(rule)
    }
}

/// The facts a package keeps of its items, in columns (written while the package loads, then
/// only read).
final class ItemTable: @unchecked Sendable {
    struct Record {
        static let existsFlag: UInt8 = 1
        static let screenshotFlag: UInt8 = 2

        var line: Int32
        var column: Int32
        var group: Int32
        var flags: UInt8
        var productIDLine: Int32 = 0
        var productIDColumn: Int32 = 0
        /// Into `bytes`; -1: no `<reference_name>`.
        var referenceNameStart: Int32 = -1
        var referenceNameCount: Int32 = 0
        var referenceNameLine: Int32 = 0
        var referenceNameColumn: Int32 = 0
        /// Into `values`; -1: no such element.
        var type: Int32 = -1
        var typeLine: Int32 = 0
        var typeColumn: Int32 = 0
        var clearedForSale: Int32 = -1
        var clearedForSaleLine: Int32 = 0
        var clearedForSaleColumn: Int32 = 0
    }

    let file: String
    var records: [Record] = []
    /// Product IDs are kept as strings: the request index shares them.
    var productIDs: [String?] = []
    /// Reference names, back to back.
    var bytes: [UInt8] = []
    /// Types and `cleared_for_sale` values, each distinct value once.
    var values: [String] = []
    private var valueIDs: [String: Int32] = [:]

    init(file: String) { self.file = file }

    func location(_ line: Int32, _ column: Int32) -> SourceLocation {
        SourceLocation(file: file, line: Int(line), column: Int(column))
    }

    func fact(_ value: String, _ line: Int32, _ column: Int32) -> Fact<String> {
        Fact(value, at: location(line, column), source: .catalog)
    }

    func text(_ start: Int32, _ count: Int32) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(start + count)]), as: UTF8.self) }
    }

    func value(_ text: String) -> Int32 {
        if let known = valueIDs[text] { return known }
        let id = Int32(values.count)
        values.append(text)
        valueIDs[text] = id
        return id
    }
}

/// One problem a per-item rule found, before the rule's metadata (severity, default help) applies.
public struct CatalogItemFinding: Sendable, Hashable {
    public var message: String
    public var location: SourceLocation
    public var help: String?
    public var notes: [String]
    public var product: String?

    public init(_ message: String, at location: SourceLocation, help: String? = nil, notes: [String] = [], product: String? = nil) {
        self.message = message
        self.location = location
        self.help = help
        self.notes = notes
        self.product = product
    }
}

/// One value a declarative item check flagged: the template fields and where.
struct DeclarativeItemFinding: Sendable {
    var fields: [String: String]
    var location: SourceLocation
    var product: String?
}

/// A catalog rule that looks at each `<in_app_purchase>` while the package streams by.
public protocol CatalogItemRule: Rule {
    /// Checks one item. `item` (and every element view in it) is valid only during the call.
    func check(item: CatalogStreamedItem, findings: inout [CatalogItemFinding])
}

extension RuleContext {
    /// The finding for a per-item rule's draft, with this rule's severity and checklist item.
    public func finding(_ draft: CatalogItemFinding) -> Finding {
        finding(draft.message, at: draft.location, help: draft.help, notes: draft.notes, product: draft.product)
    }
}

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
    /// State shared by every rule over every item of one read (e.g. facts about screenshot files).
    public let shared: CatalogScanState

    init(element: XMLElementView, item: CatalogPackage.Item, file: String, directory: String, shared: CatalogScanState) {
        self.element = element
        self.item = item
        self.file = file
        self.directory = directory
        self.shared = shared
    }

    public func location(of element: XMLElementView) -> SourceLocation {
        let position = element.position
        return SourceLocation(file: file, line: position.line, column: position.column)
    }
}

/// State the per-item rules share over one read of a package, one value per type.
public final class CatalogScanState {
    private var values: [ObjectIdentifier: AnyObject] = [:]
    /// The last value asked for (rules ask for the same one many times in a row).
    private var last: (key: ObjectIdentifier, value: AnyObject)?

    /// The value of type `T`, made by `make` the first time.
    public func value<T: AnyObject>(_ type: T.Type, make: () -> T) -> T {
        let key = ObjectIdentifier(type)
        if let last, last.key == key { return unsafeDowncast(last.value, to: T.self) }
        let value: AnyObject
        if let known = values[key] {
            value = known
        } else {
            value = make()
            values[key] = value
        }
        last = (key, value)
        return unsafeDowncast(value, to: T.self)
    }
}

/// The per-item rules that run while packages stream.
final class ItemRuleRegistry: @unchecked Sendable {
    static let shared = ItemRuleRegistry()
    private let lock = NSLock()
    private var byID: [String: any CatalogItemRule] = [:]

    func add(_ rule: any CatalogItemRule) {
        lock.lock()
        byID[rule.id] = rule
        lock.unlock()
    }

    var rules: [any CatalogItemRule] {
        lock.lock()
        defer { lock.unlock() }
        return byID.keys.sorted().map { byID[$0]! }
    }
}

/// One read of a package: selects the items, keeps their facts, runs the item rules on them.
final class ItemScan {
    let file: String
    let directory: String
    let itemRules: [any CatalogItemRule]
    let plans: [DeclarativeRule.CatalogPlan]
    let keepItems: Bool
    let shared = CatalogScanState()

    private(set) var items: [CatalogPackage.Item] = []
    let table: ItemTable
    private var streamed: CatalogStreamedItem?
    private(set) var itemParents: Set<XMLPosition> = []
    private(set) var ruleFindings: [[CatalogItemFinding]]
    private(set) var planFindings: [[DeclarativeItemFinding]]

    // Where the scan is (elements outside items only): names on the path from the root, whether
    // each is the first child of its name, and the names seen among each level's children so far.
    private var path: [(name: String, first: Bool, position: XMLPosition)] = []
    private var seen: [Set<String>] = []
    /// Groups started in the package's `in_app_purchases` so far.
    private var groupCount = 0
    /// For the item being read: its group (index and kind).
    private var currentGroup: (index: Int, kind: CatalogPackage.GroupKind)?

    init(file: String, itemRules: [any CatalogItemRule], plans: [DeclarativeRule.CatalogPlan], keepItems: Bool) {
        self.file = file
        self.directory = FileSystem.directoryName(of: file)
        self.itemRules = itemRules
        self.plans = plans
        self.keepItems = keepItems
        table = ItemTable(file: file)
        ruleFindings = Array(repeating: [], count: itemRules.count)
        planFindings = Array(repeating: [], count: plans.count)
    }

    func run() throws -> XMLNode {
        FileSystem.noteRead(file)
        return try XMLReader.scan(contentsOfFile: file, select: { self.select($0) }, handler: { self.item($0) })
    }

    /// `root/software/software_metadata/in_app_purchases` as `CatalogPackage` reads it: the first
    /// element of each name at every step.
    private func isPurchases(_ level: Int) -> Bool {
        level == 3 && path.count > 3 && path[1].first && path[1].name == "software" && path[2].first
            && path[2].name == "software_metadata" && path[3].first && path[3].name == "in_app_purchases"
    }

    private func select(_ info: XMLStartInfo) -> Bool {
        let level = info.depth - 1
        if path.count > level { path.removeLast(path.count - level) }
        if seen.count > level + 1 { seen.removeLast(seen.count - level - 1) }
        while seen.count < level + 1 { seen.append([]) }
        let first = seen[level].insert(info.name).inserted
        path.append((info.name, first, info.position))
        seen.append([])
        let isGroup = info.name == "family" || info.name == "subscription_group"
        if level == 4, isGroup, isPurchases(3) { groupCount += 1 }
        guard info.name == "in_app_purchase" else { return false }
        if level == 4, isPurchases(3) {
            currentGroup = nil
            itemParents.insert(path[3].position)
            path.removeLast()
            return true
        }
        if level == 5, isPurchases(3), path[4].name == "family" || path[4].name == "subscription_group" {
            currentGroup = (groupCount - 1, path[4].name == "family" ? .family : .subscriptionGroup)
            itemParents.insert(path[4].position)
            path.removeLast()
            return true
        }
        return false
    }

    private func item(_ element: XMLElementView) {
        let position = element.position
        var record = ItemTable.Record(
            line: Int32(truncatingIfNeeded: position.line), column: Int32(truncatingIfNeeded: position.column),
            group: Int32(currentGroup?.index ?? -1),
            flags: (element.child("read_only_info") != nil ? ItemTable.Record.existsFlag : 0)
                | (element.child("review_screenshot") != nil ? ItemTable.Record.screenshotFlag : 0))
        var productID: String?
        if let node = element.child("product_id") {
            let at = node.position
            productID = node.text
            record.productIDLine = Int32(truncatingIfNeeded: at.line)
            record.productIDColumn = Int32(truncatingIfNeeded: at.column)
        }
        if let node = element.child("reference_name") {
            let at = node.position
            node.withTextBytes { text in
                record.referenceNameStart = Int32(truncatingIfNeeded: table.bytes.count)
                record.referenceNameCount = Int32(truncatingIfNeeded: text.count)
                table.bytes.append(contentsOf: text)
            }
            record.referenceNameLine = Int32(truncatingIfNeeded: at.line)
            record.referenceNameColumn = Int32(truncatingIfNeeded: at.column)
        }
        if let node = element.child("type") {
            let at = node.position
            record.type = table.value(node.text)
            record.typeLine = Int32(truncatingIfNeeded: at.line)
            record.typeColumn = Int32(truncatingIfNeeded: at.column)
        }
        if let node = element.child("products")?.child("product")?.child("cleared_for_sale") ?? element.child("cleared_for_sale") {
            let at = node.position
            record.clearedForSale = table.value(node.text)
            record.clearedForSaleLine = Int32(truncatingIfNeeded: at.line)
            record.clearedForSaleColumn = Int32(truncatingIfNeeded: at.column)
        }
        table.records.append(record)
        table.productIDs.append(productID)
        let item = CatalogPackage.Item(table: table, row: table.records.count - 1)
        let streamed: CatalogStreamedItem
        if let reused = self.streamed {
            streamed = reused
            streamed.element = element
            streamed.item = item
        } else {
            streamed = CatalogStreamedItem(element: element, item: item, file: file, directory: directory, shared: shared)
            self.streamed = streamed
        }
        streamed.groupKind = currentGroup?.kind
        // Rules write into a local array (most items have no findings), not into this object's
        // storage: no exclusivity check per call.
        var found: [CatalogItemFinding] = []
        for index in itemRules.indices {
            itemRules[index].check(item: streamed, findings: &found)
            if !found.isEmpty {
                ruleFindings[index] += found
                found.removeAll()
            }
        }
        var flagged: [DeclarativeItemFinding] = []
        for index in plans.indices {
            plans[index].check(streamed, into: &flagged)
            if !flagged.isEmpty {
                planFindings[index] += flagged
                flagged.removeAll()
            }
        }
        if keepItems {
            items.append(item)
        } else {
            // Only the findings are wanted: forget the item's facts.
            table.records.removeAll(keepingCapacity: true)
            table.productIDs.removeAll(keepingCapacity: true)
            table.bytes.removeAll(keepingCapacity: true)
        }
    }
}
