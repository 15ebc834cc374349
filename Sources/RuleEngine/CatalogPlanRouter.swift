import XMLReader
import Formats
import Model
import Loaders

/// Finds, in one walk of an item, the elements at the end of every declarative check's paths
/// (``DeclarativeRule/CatalogPlan/paths``): the paths make one tree of element names, and each
/// element of the item is matched to the node its parent reached. The walk is one child lookup
/// an element, where each plan walking the item for each of its paths would cost the item
/// thread a walk per plan and path.
///
/// The elements a path reaches come out in document order, path after path, as the plans' own
/// walks gave them: findings keep their order.
final class CatalogPlanRouter {
    /// Every path of every plan, in plan order then path order: a path's place here is its id.
    private let paths: [[XMLName]]
    /// By plan: its paths' ids.
    private let planPaths: [Range<Int>]

    // The tree of names, for the parse and name count it was made with (a name met later may
    // complete a path). Flat, as are the walk's records: the walk reads and writes them for
    // every element, and arrays checked their bounds and uniqueness each time (a first version
    // with arrays of arrays cost as much as the plans' own walks).
    @exclusivity(unchecked) private var parse: XMLParseIdentity?
    @exclusivity(unchecked) private var nameCount = -1
    /// By node: where its children start in `children`, and one past their end.
    @exclusivity(unchecked) private var childRange: [(start: Int, end: Int)] = []
    /// Children of the nodes, as (name id, node).
    @exclusivity(unchecked) private var children: [(name: Int, node: Int)] = []
    /// By node: where the paths that end there start in `endingPaths`, and one past their end.
    @exclusivity(unchecked) private var endingRange: [(start: Int, end: Int)] = []
    @exclusivity(unchecked) private var endingPaths: [Int] = []

    // What the last walk found.
    /// By element (index in the item): the node it reached, -1 for none.
    @exclusivity(unchecked) private var reached: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var reachedCapacity = 64
    /// By path: its first and last match (indexes into `matched`), -1 when none.
    private let firstMatch: UnsafeMutablePointer<Int>
    private let lastMatch: UnsafeMutablePointer<Int>
    /// Matches: the element, and the next match of the same path (-1: none).
    @exclusivity(unchecked) private var matchedElement: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var nextMatch: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var matchedCount = 0
    @exclusivity(unchecked) private var matchedCapacity = 64

    /// `plans`: by plan, its paths (each a list of element names below the item).
    init(_ plans: [[[XMLName]]]) {
        var paths: [[XMLName]] = []
        var planPaths: [Range<Int>] = []
        for plan in plans {
            let start = paths.count
            paths += plan
            planPaths.append(start..<paths.count)
        }
        self.paths = paths
        self.planPaths = planPaths
        firstMatch = .allocate(capacity: max(paths.count, 1))
        firstMatch.initialize(repeating: -1, count: max(paths.count, 1))
        lastMatch = .allocate(capacity: max(paths.count, 1))
        lastMatch.initialize(repeating: -1, count: max(paths.count, 1))
        reached = .allocate(capacity: reachedCapacity)
        matchedElement = .allocate(capacity: matchedCapacity)
        nextMatch = .allocate(capacity: matchedCapacity)
    }

    deinit {
        firstMatch.deallocate()
        lastMatch.deallocate()
        reached.deallocate()
        matchedElement.deallocate()
        nextMatch.deallocate()
    }

    /// Walks `item`, finding the elements every path reaches.
    func walk(_ item: XMLElementView) {
        firstMatch.update(repeating: -1, count: paths.count)
        matchedCount = 0
        let names = item.names
        if parse !== names.parse || nameCount != names.nameCount { build(names) }
        let base = item.indexInItem
        let count = item.subtreeCount
        if count > reachedCapacity {
            reached.deallocate()
            reachedCapacity = max(count, 2 * reachedCapacity)
            reached = .allocate(capacity: reachedCapacity)
        }
        reached[0] = 0
        childRange.withUnsafeBufferPointer { childRange in
            children.withUnsafeBufferPointer { children in
                endingRange.withUnsafeBufferPointer { endingRange in
                    endingPaths.withUnsafeBufferPointer { endingPaths in
                        // An empty path (a field of just `.`) reaches the item itself.
                        for ending in endingRange[0].start..<endingRange[0].end { record(endingPaths[ending], base) }
                        for offset in 1..<max(count, 1) {
                            let element = item.element(at: base + offset)
                            let parentNode = reached[element.parentIndexInItem - base]
                            var node = -1
                            if parentNode >= 0 {
                                let id = element.nameID
                                let range = childRange[parentNode]
                                var child = range.start
                                while child < range.end {
                                    if children[child].name == id {
                                        node = children[child].node
                                        break
                                    }
                                    child += 1
                                }
                            }
                            reached[offset] = node
                            guard node >= 0 else { continue }
                            for ending in endingRange[node].start..<endingRange[node].end { record(endingPaths[ending], base + offset) }
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private func record(_ path: Int, _ element: Int) {
        if matchedCount == matchedCapacity {
            matchedCapacity *= 2
            matchedElement = Self.grown(matchedElement, count: matchedCount, capacity: matchedCapacity)
            nextMatch = Self.grown(nextMatch, count: matchedCount, capacity: matchedCapacity)
        }
        if firstMatch[path] < 0 {
            firstMatch[path] = matchedCount
        } else {
            nextMatch[lastMatch[path]] = matchedCount
        }
        lastMatch[path] = matchedCount
        matchedElement[matchedCount] = element
        nextMatch[matchedCount] = -1
        matchedCount += 1
    }

    private static func grown(_ buffer: UnsafeMutablePointer<Int>, count: Int, capacity: Int) -> UnsafeMutablePointer<Int> {
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        grown.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        return grown
    }

    /// Calls `body` with each element the plan at `index` reached in the last walk: path after
    /// path, each in document order.
    @inline(__always)
    func forEachMatch(ofPlan index: Int, in item: XMLElementView, _ body: (XMLElementView) -> Void) {
        for path in planPaths[index] {
            var match = firstMatch[path]
            while match >= 0 {
                body(item.element(at: matchedElement[match]))
                match = nextMatch[match]
            }
        }
    }

    /// The tree of the paths' names, as ids of this parse (a path with a name the parse has not
    /// met yet is left out: it reaches nothing).
    private func build(_ names: XMLItemArena) {
        parse = names.parse
        nameCount = names.nameCount
        var nodeChildren: [[(name: Int, node: Int)]] = [[]]
        var ending: [[Int]] = [[]]
        for (pathID, path) in paths.enumerated() {
            let ids = path.map { names.id(of: $0) }
            guard ids.allSatisfy({ $0 >= 0 }) else { continue }
            var node = 0
            for id in ids {
                if let known = nodeChildren[node].first(where: { $0.name == id }) {
                    node = known.node
                } else {
                    nodeChildren.append([])
                    ending.append([])
                    nodeChildren[node].append((id, nodeChildren.count - 1))
                    node = nodeChildren.count - 1
                }
            }
            ending[node].append(pathID)
        }
        childRange = []
        children = []
        for list in nodeChildren {
            childRange.append((children.count, children.count + list.count))
            children += list
        }
        endingRange = []
        endingPaths = []
        for list in ending {
            endingRange.append((endingPaths.count, endingPaths.count + list.count))
            endingPaths += list
        }
    }
}
