// Times the XML reader on one file, for scripts/bench.py. Not part of the tool.
//
// usage: XMLReaderBench FILE [tree|stream [ITEM_DEPTH]|scan|verify]
//   tree     the whole document as a node tree
//   stream   XMLReader.stream: one XMLNode subtree per element at ITEM_DEPTH (default 5)
//   scan     XMLReader.scan: every <in_app_purchase> of a catalog as a view into a reused arena
//   verify   scan and tree agree: every item's node equals the tree's, and the rest of the tree
//            equals the scan's skeleton (exit 1 on the first difference)
import XMLReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    Bench.fail("usage: XMLReaderBench FILE [tree|stream [ITEM_DEPTH]|scan|verify]")
}
let path = arguments[1]
let mode = arguments.count > 2 ? arguments[2] : "tree"
let itemDepth = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5

enum Bench {
    static func fail(_ message: String) -> Never {
        print(message)
        exit(2)
    }

    /// Catalog items: `<in_app_purchase>` under `in_app_purchases`, directly or in a group.
    static func catalogSelector() -> (XMLStartInfo) -> Bool {
        var path: [String] = []
        return { info in
            path.removeLast(max(0, path.count - (info.depth - 1)))
            path.append(info.name)
            guard info.name == "in_app_purchase", path.count >= 5 else { return false }
            if path.count == 5 { return path[3] == "in_app_purchases" }
            return path.count == 6 && path[3] == "in_app_purchases" && (path[4] == "family" || path[4] == "subscription_group")
        }
    }

    /// The tree with every catalog item removed (what `scan` returns), and the items in order.
    static func split(_ node: XMLNode, depth: Int, parents: [String], items: inout [XMLNode]) -> XMLNode {
        var copy = node
        copy.children = []
        for child in node.children {
            let path = parents + [node.name]
            let isItem = child.name == "in_app_purchase"
                && ((depth + 1 == 5 && path.count == 4 && path[3] == "in_app_purchases")
                    || (depth + 1 == 6 && path.count == 5 && path[3] == "in_app_purchases"
                        && (path[4] == "family" || path[4] == "subscription_group")))
            if isItem {
                items.append(child)
            } else {
                copy.children.append(split(child, depth: depth + 1, parents: path, items: &items))
            }
        }
        return copy
    }
}

do {
    var elements = 0
    switch mode {
    case "stream":
        var items = 0
        _ = try XMLReader.stream(contentsOfFile: path, itemDepth: itemDepth) { item, _ in
            items += 1
            item.forEachDescendant { _ in elements += 1 }
        }
        print("items: \(items), elements in items: \(elements)")
    case "scan":
        var items = 0
        let skeleton = try XMLReader.scan(contentsOfFile: path, select: Bench.catalogSelector()) { item in
            items += 1
            item.forEachDescendant { _ in elements += 1 }
        }
        var rest = 0
        skeleton.forEachDescendant { _ in rest += 1 }
        print("items: \(items), elements in items: \(elements), elements outside items: \(rest)")
    case "verify":
        let tree = try XMLReader.parse(contentsOfFile: path)
        var expected: [XMLNode] = []
        let expectedSkeleton = Bench.split(tree, depth: 1, parents: [], items: &expected)
        var index = 0
        let skeleton = try XMLReader.scan(contentsOfFile: path, select: Bench.catalogSelector()) { item in
            guard index < expected.count, item.node == expected[index] else {
                Bench.fail("item \(index + 1) at \(item.position) differs from the tree's")
            }
            index += 1
        }
        guard index == expected.count else { Bench.fail("scan gave \(index) items, the tree has \(expected.count)") }
        // Where every child was an item, the tree's indentation is not text; the skeleton agrees.
        guard skeleton == expectedSkeleton else { Bench.fail("the skeleton differs from the tree without its items") }
        print("verified: \(index) items and the skeleton agree with the tree")
    default:
        let root = try XMLReader.parse(contentsOfFile: path)
        root.forEachDescendant { _ in elements += 1 }
        print("elements: \(elements)")
    }
} catch {
    Bench.fail("\(error)")
}
