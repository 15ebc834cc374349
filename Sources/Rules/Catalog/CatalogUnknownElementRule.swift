import Formats
import Model
import Loaders
import RuleEngine
import XMLReader

/// Every element below `in_app_purchases` must be one the spec knows in that place.
struct CatalogUnknownElementRule: CatalogItemRule {
    let id = RuleID.catalogUnknownElement.rawValue

    static func finding(_ child: String, in parent: String, allowed: Set<String>, at location: SourceLocation) -> CatalogItemFinding {
        let choices = allowed.sorted()
        var help = "remove it, or use one of \(choices.map { "`\($0)`" }.joined(separator: ", "))"
        if let suggestion = closestMatch(to: child, in: choices) { help = "did you mean `<\(suggestion)>`?" }
        return CatalogItemFinding(
            "element `<\(child)>` is not allowed in `<\(parent)>`", at: location, help: help,
            notes: ["Transporter rejects it with ITMS-3000 (\"element … not allowed anywhere\")"])
    }

    /// Items, as they stream by (every `<in_app_purchase>` is allowed where items are read).
    /// The walk of the tree version, in document order: an element is checked when its parent is
    /// reached and known to the schema; it is reached when its parent allows it.
    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        let schema = context.scanState.value(SchemaByNameID.self, make: SchemaByNameID.init)
        let root = streamed.element
        let count = root.subtreeCount
        // Which elements are reached (by index in the item), and their schema entries: in the
        // buffer the previous item used, so the item thread does not allocate one per item.
        var reached: [Int] = []
        swap(&reached, &schema.reached)
        defer { swap(&reached, &schema.reached) }
        reached.removeAll(keepingCapacity: true)
        reached.append(contentsOf: repeatElement(-1, count: count))
        reached[0] = schema.entry(for: root) ?? -2
        var findings: [Finding] = []
        root.forEachDescendant { node in
            let index = node.indexInItem
            guard index > 0 else { return }
            let parent = reached[node.parentIndexInItem]
            // -1: the parent was not reached; -2: reached but unknown to the schema.
            guard parent >= 0 else { return }
            if schema.allows(parent, node) {
                reached[index] = schema.entry(for: node) ?? -2
            } else {
                let parentNode = root.element(at: node.parentIndexInItem)
                findings.append(context.finding(Self.finding(node.name, in: parentNode.name, allowed: schema.allowed[parent], at: streamed.location(of: node))))
            }
        }
        return findings
    }

    /// ``CatalogSchema/children`` by name id, for one read of a package: after the first item,
    /// a check is two lookups in flat tables.
    final class SchemaByNameID {
        /// By parent name id: index into `allowed`, -1 when the schema does not know the element,
        /// -2 when not looked up yet.
        private var entries: [Int] = []
        private(set) var allowed: [Set<String>] = []
        /// By entry × `width` + child name id: 1 allowed, 0 not, -1 not looked up yet.
        private var membership: [Int8] = []
        private var width = 64
        /// ``check(item:context:)``'s buffer, kept from one item to the next.
        var reached: [Int] = []

        func entry(for node: XMLElementView) -> Int? {
            let id = node.nameID
            if id < entries.count {
                let entry = entries[id]
                if entry != -2 { return entry < 0 ? nil : entry }
            } else {
                entries += Array(repeating: -2, count: id - entries.count + 1)
            }
            if let set = CatalogSchema.children[node.name] {
                entries[id] = allowed.count
                allowed.append(set)
                membership += Array(repeating: -1, count: width)
            } else {
                entries[id] = -1
            }
            return entries[id] < 0 ? nil : entries[id]
        }

        func allows(_ entry: Int, _ child: XMLElementView) -> Bool {
            let id = child.nameID
            if id >= width {
                // More names than the table is wide: widen it (rare; names are few).
                var widened = [Int8](repeating: -1, count: allowed.count * (id + 64))
                for row in 0..<allowed.count {
                    for column in 0..<width { widened[row * (id + 64) + column] = membership[row * width + column] }
                }
                membership = widened
                width = id + 64
            }
            let slot = entry * width + id
            let known = membership[slot]
            if known >= 0 { return known == 1 }
            let answer = allowed[entry].contains(child.name)
            membership[slot] = answer ? 1 : 0
            return answer
        }
    }

    /// The rest of the package (without its items), then the items' findings.
    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            guard let purchases = package.inAppPurchases else { continue }
            findings += context.itemFindings(in: package)
            // Iterative walk: (node, its parent's name).
            var stack: [XMLNode] = [purchases]
            while let node = stack.popLast() {
                guard let allowed = CatalogSchema.children[node.name] else { continue }
                for child in node.children.reversed() {
                    if allowed.contains(child.name) {
                        stack.append(child)
                        continue
                    }
                    // `family` / `subscription_group` in the wrong version is its own rule.
                    if node.name == "in_app_purchases", child.name == "family" || child.name == "subscription_group" { continue }
                    findings.append(context.finding(Self.finding(child.name, in: node.name, allowed: allowed, at: package.location(of: child))))
                }
            }
        }
        return context.outcomes(findings.sorted(by: { $0.location! < $1.location! }))
    }
}
