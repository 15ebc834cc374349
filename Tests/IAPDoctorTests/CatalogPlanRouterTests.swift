import Testing
import XMLReader
@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
@testable import RuleEngine
@testable import Reporters
import TestSupport

/// The declarative catalog checks find their elements through one walk of each item
/// (`CatalogPlanRouter`); each plan used to walk the item once per path. Both must reach the
/// same elements in the same order.
@Suite("Declarative catalog checks: one walk of each item")
struct CatalogPlanRouterTests {
    /// What a plan's own walk reached: for each path, the elements at its end, in document order.
    func walked(_ item: XMLElementView, _ paths: [[XMLName]]) -> [Int] {
        var reached: [Int] = []
        func visit(_ element: XMLElementView, _ path: [XMLName], _ step: Int) {
            guard step < path.count else { return reached.append(element.indexInItem) }
            for child in element.children where child.isNamed(path[step]) { visit(child, path, step + 1) }
        }
        for path in paths { visit(item, path, 0) }
        return reached
    }

    /// Random items over a few names, one of which (`late`) only appears after a hundred items
    /// (the paths through it are completed then); plans sharing prefixes, with several paths,
    /// a path twice, and the empty path (the item itself).
    @Test func theWalkReachesWhatEachPlansOwnWalkReached() throws {
        let spelled: [[[String]]] = [
            [["a", "b"]], [["a", "b"], ["c"]], [["a", "late", "b"]], [["a", "b"], ["a", "b"]], [["b", "b", "b"]], [[]],
            [["nowhere"]], [["c", "a"], ["a"]],
        ]
        let plans = spelled.map { $0.map { $0.map { XMLName($0) } } }
        var generator = SplitMix(seed: 11)
        func element(depth: Int, allowLate: Bool) -> String {
            let names = allowLate ? ["a", "b", "c", "late"] : ["a", "b", "c"]
            let name = names[Int(generator.next() % UInt64(names.count))]
            let count = depth < 4 ? Int(generator.next() % 4) : 0
            let inner = (0..<count).map { _ in element(depth: depth + 1, allowLate: allowLate) }.joined(separator: "\n")
            return "<\(name)>\(inner.isEmpty ? "v" : inner)</\(name)>"
        }
        let items = (0..<300).map { index in
            "<item>" + (0..<Int(generator.next() % 4)).map { _ in element(depth: 1, allowLate: index >= 100) }.joined() + "</item>"
        }
        let document = "<catalog>\n" + items.joined(separator: "\n") + "\n</catalog>"
        let router = CatalogPlanRouter(plans)
        var checked = 0
        var reached = [Int](repeating: 0, count: plans.count)
        _ = try XMLReader.scan(bytes: Array(document.utf8), select: { $0.name == "item" }) { item in
            router.walk(item)
            for (index, paths) in plans.enumerated() {
                var found: [Int] = []
                router.forEachMatch(ofPlan: index, in: item) { found.append($0.indexInItem) }
                let expected = walked(item, paths)
                #expect(found == expected, "plan \(index), item \(checked)")
                reached[index] += expected.count
            }
            checked += 1
        }
        #expect(checked == 300)
        // Every plan but `nowhere` reached something: through `late` too, and the empty path
        // every item.
        #expect(reached.enumerated().allSatisfy { $0.offset == 6 ? $0.element == 0 : $0.element > 0 }, "\(reached)")
        #expect(reached[5] == 300)
    }
}
