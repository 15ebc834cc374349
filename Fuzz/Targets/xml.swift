// libFuzzer target `xml`: XMLReader's node tree, its classic dictionary view and streaming.
// Build and run with scripts/fuzz.sh. Invariants checked beyond "no crash":
// - malformed input throws an XMLReaderError with a position (line ≥ 1) or a kind that has none;
// - a document that parses as a tree also streams (same limits, same verdict);
// - under tight limits (tiny chunks, short tags and texts) the refusals made inside libxml2's read
//   callback run on small inputs too, and either parse or refuse with a position;
// - scanning it (items out of the reused arena, the way catalogs are checked) gives exactly the
//   tree: every item equals the tree's element, and the returned root equals the tree without them.
import XMLReader

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    do {
        _ = try XMLReader.parse(
            bytes: bytes, file: "fuzz.xml", limits: XMLReaderLimits(maxTextBytes: 64, chunkSize: 16, maxStartTagBytes: 40))
    } catch {
        switch error.kind {
        case .empty, .unreadable, .inputTooLarge, .stopped: break
        default: precondition(error.position.line >= 1, "error without a position under tight limits: \(error)")
        }
    }
    let root: XMLNode
    do {
        root = try XMLReader.parse(bytes: bytes, file: "fuzz.xml")
    } catch {
        switch error.kind {
        case .empty, .unreadable, .inputTooLarge, .stopped: break
        default:
            precondition(error.position.line >= 1, "error without a position: \(error)")
        }
        _ = error.description
        return 0
    }
    // The dictionary view, with the default options and the other shapes callers ask for.
    let classic = root.dictionaryValue()
    _ = classic.foundationValue
    _ = classic[root.name]?.arrayValue.count
    let qualified = root.dictionaryValue(
        options: XMLDictionaryOptions(textKey: "text", trimText: false, qualifiedNames: true, alwaysArray: [root.name, "a", "item"]))
    _ = qualified.hashValue
    root.forEachDescendant { _ = $0.text; _ = $0.qualifiedName }

    // Streaming at depth 2 must accept what the tree reader accepted.
    var items = 0
    do {
        _ = try XMLReader.stream(bytes: Array(bytes), file: "fuzz.xml", itemDepth: 2) { item, _ in
            items += 1
            _ = item.dictionaryValue()
        }
    } catch {
        preconditionFailure("parse accepted the document but stream refused it: \(error)")
    }
    precondition(items <= root.children.count, "stream handed \(items) items for \(root.children.count) children")

    // Scan mode, selecting elements by a name the input chooses (its first child's name, or `a`).
    let itemName = root.children.first?.name ?? "a"
    var scanned: [XMLNode] = []
    let rest: XMLNode
    do {
        rest = try XMLReader.scan(bytes: Array(bytes), file: "fuzz.xml", select: { $0.name == itemName && $0.depth > 1 }) {
            scanned.append($0.node)
        }
    } catch {
        preconditionFailure("parse accepted the document but scan refused it: \(error)")
    }
    let expected = split(root, itemName: itemName, depth: 1)
    precondition(scanned == expected.items, "scan items differ from the tree's")
    precondition(rest == expected.rest, "scan's remaining tree differs from the tree without the items")
    return 0
}

/// The elements named `itemName` below the root (not inside another such element), in document
/// order, and the tree without them.
func split(_ node: XMLNode, itemName: String, depth: Int) -> (rest: XMLNode, items: [XMLNode]) {
    var items: [XMLNode] = []
    var rest = node
    rest.children = node.children.compactMap { child in
        if child.name == itemName { items.append(child); return nil }
        let inner = split(child, itemName: itemName, depth: depth + 1)
        items += inner.items
        return inner.rest
    }
    return (rest, items)
}
