import Foundation
import Testing
import TestSupport
import XMLReader

/// `XMLReader.scan` hands items out of a reused arena instead of building the tree; everything a
/// caller can see (names, namespaces, attributes, texts, positions, the rest of the tree) must be
/// what `parse` gives.
@Suite("Scan mode: items from the arena equal the parsed tree")
struct ScanTests {
    /// Parses and scans `xml`, selecting elements named `item` at any depth outside items.
    func both(_ xml: String, item: String) throws -> (tree: XMLNode, root: XMLNode, items: [XMLNode]) {
        let bytes = Array(xml.utf8)
        let tree = try XMLReader.parse(bytes: bytes, file: "t.xml")
        var items: [XMLNode] = []
        let root = try XMLReader.scan(bytes: bytes, file: "t.xml", select: { $0.name == item }) { items.append($0.node) }
        return (tree, root, items)
    }

    /// The tree's elements named `item` (outside other items), in document order, and the tree
    /// without them.
    func split(_ node: XMLNode, item: String) -> (rest: XMLNode, items: [XMLNode]) {
        var items: [XMLNode] = []
        var rest = node
        rest.children = node.children.compactMap { child in
            if child.name == item { items.append(child); return nil }
            let (inner, found) = split(child, item: item)
            items += found
            return inner
        }
        return (rest, items)
    }

    @Test func itemsAndRestMatchTheTree() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://apple.com/itunes/importer" version="software5.12">
              <software_metadata>
                <in_app_purchases>
                  <in_app_purchase>
                    <product_id>com.example.a</product_id>
                    <locales><locale name="en-US"><title>Ä &amp; b</title></locale></locales>
                    <review_screenshot><file_name>a.png</file_name><checksum type="md5">abc</checksum></review_screenshot>
                  </in_app_purchase>
                  <in_app_purchase><product_id><![CDATA[com.example.b]]></product_id>mixed<x/>text</in_app_purchase>
                </in_app_purchases>
              </software_metadata>
            </package>
            """
        let (tree, root, items) = try both(xml, item: "in_app_purchase")
        let expected = split(tree, item: "in_app_purchase")
        #expect(items.count == 2)
        #expect(items == expected.items)
        #expect(root == expected.rest)
        #expect(items[0].child("locales")?.child("locale")?.child("title")?.text == "Ä & b")
        #expect(items[1].rawText == "mixedtext")
    }

    /// White space after a child is not text, whether or not the element has text of its own;
    /// before the first child it is, if no child follows. Every case with the run after a child,
    /// between children, at the end, and in CDATA.
    @Test func whiteSpaceAfterAChildIsNotTextInMixedContentToo() throws {
        let xml = """
            <r>
              <item><a>text<b/>  </a></item>
              <item><a>one<b/>\n\t two <c/> \n</a></item>
              <item><a> <b/> <c> </c> </a><d>  </d></item>
              <item><a>x<b/><![CDATA[  ]]></a><e><f/><![CDATA[ y ]]></e></item>
            </r>
            """
        let (tree, root, items) = try both(xml, item: "item")
        let expected = split(tree, item: "item")
        #expect(items == expected.items)
        #expect(root == expected.rest)
        #expect(items.map { $0.child("a")?.rawText } == ["text", "one\n\t two ", "", "x"])
        #expect(items[2].child("d")?.rawText == "  ")
        #expect(items[2].child("a")?.child("c")?.rawText == " ")
    }

    /// The catalogs among the samples: the repository's own (`*__OWN.xml`, which take the shapes of
    /// catalogs it may not carry), and `../shared`'s when it is beside the checkout.
    static let catalogSamples = SharedFolder.files("samples", extensions: ["xml"])

    @Test func ownCatalogSamplesAreThere() {
        #expect(Self.catalogSamples.filter { $0.hasSuffix("__OWN.xml") }.count >= 3)
    }

    @Test(arguments: catalogSamples)
    func samplesScanAsTheyParse(path: String) throws {
        try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing")
        let tree = try XMLReader.parse(contentsOfFile: path)
        var items: [XMLNode] = []
        let root = try XMLReader.scan(contentsOfFile: path, select: { $0.name == "in_app_purchase" }) { items.append($0.node) }
        let expected = split(tree, item: "in_app_purchase")
        #expect(!items.isEmpty)
        #expect(items == expected.items)
        #expect(root == expected.rest)
    }

    @Test func errorsInsideAnItemArePositionedAsInTheTree() throws {
        let xml = "<p>\n<item><a>x</b></item></p>"
        var parseError: XMLReaderError?
        var scanError: XMLReaderError?
        do { _ = try XMLReader.parse(string: xml) } catch { parseError = error }
        do {
            _ = try XMLReader.scan(bytes: Array(xml.utf8), select: { $0.name == "item" }) { _ in }
        } catch let error as XMLReaderError { scanError = error }
        #expect(parseError != nil)
        #expect(scanError?.position == parseError?.position)
    }

    @Test func deepNestingInsideItemsCountsTowardTheLimit() throws {
        let depth = XMLReaderLimits().maxDepth + 5
        let xml = "<p><item>" + String(repeating: "<d>", count: depth) + String(repeating: "</d>", count: depth) + "</item></p>"
        #expect(throws: XMLReaderError.self) {
            _ = try XMLReader.scan(bytes: Array(xml.utf8), select: { $0.name == "item" }) { _ in }
        }
    }

    /// With a depth limit over the default, items nested deeper than the open-element buffer's
    /// first size (64), with text before and after the child and comments at every level, come
    /// out as the tree has them, twice (the buffer is reused).
    @Test func deeplyNestedItemsEqualTheTree() throws {
        let depth = 150
        let open = (0..<depth).map { "<d\($0 % 7) n=\"\($0)\">t\($0)<!-- c -->" }.joined()
        let close = (0..<depth).reversed().map { "</d\($0 % 7)>u\($0)" }.joined()
        let item = "<item>\(open)\(close)</item>"
        let bytes = Array("<p>\(item)<q/>\(item)</p>".utf8)
        let limits = XMLReaderLimits(maxDepth: 200)
        let tree = try XMLReader.parse(bytes: bytes, file: "t.xml", limits: limits)
        var items: [XMLNode] = []
        let root = try XMLReader.scan(bytes: bytes, file: "t.xml", limits: limits, select: { $0.name == "item" }) { items.append($0.node) }
        let (rest, expected) = split(tree, item: "item")
        #expect(items.count == 2)
        #expect(items == expected)
        #expect(root == rest)
    }

    @Test func anErrorThrownByTheHandlerStopsTheScanUnchanged() throws {
        struct Stop: Error, Equatable {}
        var seen = 0
        #expect(throws: Stop()) {
            _ = try XMLReader.scan(bytes: Array("<p><item/><item/><item/></p>".utf8), select: { $0.name == "item" }) { _ in
                seen += 1
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
    }
}
