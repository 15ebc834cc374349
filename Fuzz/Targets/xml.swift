// libFuzzer target `xml`: XMLReader's node tree, its classic dictionary view and streaming.
// Build and run with scripts/fuzz.sh. Invariants checked beyond "no crash":
// - malformed input throws an XMLReaderError with a position (line ≥ 1) or a kind that has none;
// - a document that parses as a tree also streams (same limits, same verdict).
import XMLReader

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
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
    return 0
}
