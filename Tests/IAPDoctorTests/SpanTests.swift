import Foundation
import CodeScanner
import IAPDoctor
import JSONReader
import Testing

/// Every reader gives a value's span: where it starts and the column after its last character
/// (`SourceLocation`'s end, exclusive as SARIF's).
@Suite("Spans from every reader")
struct SpanTests {
    static func span(_ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int, in file: String) -> IAPDoctor.SourceLocation {
        IAPDoctor.SourceLocation(file: file, line: line, column: column, endLine: endLine, endColumn: endColumn)
    }

    // MARK: YAML

    static func yaml(_ text: String) throws -> YAMLTree {
        try #require(try YAMLTreeReader.read(bytes: Array(text.utf8), file: "p.yaml").tree)
    }

    @Test func yamlScalarInAFlowSequenceEndsBeforeTheComma() throws {
        let tree = try Self.yaml("requests: [upgradetopro, com.example.coins100]   # two\n")
        let items = try #require(tree["requests"]).sequenceItems
        #expect(items.map(\.location) == [Self.span(1, 12, 1, 24, in: "p.yaml"), Self.span(1, 26, 1, 46, in: "p.yaml")])
        // The sequence runs to its closing bracket, not to the comment.
        #expect(tree["requests"]?.location == Self.span(1, 11, 1, 47, in: "p.yaml"))
    }

    @Test func yamlPlainScalarStopsBeforeItsComment() throws {
        let tree = try Self.yaml("app_id:\n  identifier: 7DW89RZKLY.com.runmonster.*   # wildcard\n")
        #expect(tree["app_id"]?["identifier"]?.location == Self.span(2, 15, 2, 42, in: "p.yaml"))
    }

    @Test func yamlQuotedScalarsIncludeTheirQuotes() throws {
        let tree = try Self.yaml("a: \"x \\\" y\"\nb: 'it''s'\n")
        #expect(tree["a"]?.location == Self.span(1, 4, 1, 12, in: "p.yaml"))
        #expect(tree["b"]?.location == Self.span(2, 4, 2, 11, in: "p.yaml"))
    }

    @Test func yamlFoldedPlainScalarEndsOnItsLastLine() throws {
        let tree = try Self.yaml("notes: first part\n  second part\nnext: 1\n")
        #expect(tree["notes"]?.scalar?.text == "first part second part")
        #expect(tree["notes"]?.location == Self.span(1, 8, 2, 14, in: "p.yaml"))
    }

    @Test func yamlBlockScalarEndsWithItsLastIndentedLine() throws {
        let tree = try Self.yaml("review_notes: |\n  line one\n  line two\n\nnext: 1\n")
        #expect(tree["review_notes"]?.location == Self.span(1, 15, 3, 11, in: "p.yaml"))
    }

    @Test func yamlEmptyFlowMappingIsBothBraces() throws {
        let tree = try Self.yaml("group:\n  localizations: {}   # none\n")
        #expect(tree["group"]?["localizations"]?.location == Self.span(2, 18, 2, 20, in: "p.yaml"))
    }

    @Test func yamlBlockMappingEndsWithItsLastValue() throws {
        let tree = try Self.yaml("products:\n  - product_id: a\n    price: 4.99\n")
        #expect(tree["products"]?.sequenceItems.first?.location == Self.span(2, 5, 3, 16, in: "p.yaml"))
    }

    @Test func yamlColumnsCountScalarsAfterNonASCII() throws {
        let tree = try Self.yaml("name: Pröduct Zwëi\nid: x\n")
        #expect(tree["name"]?.location == Self.span(1, 7, 1, 19, in: "p.yaml"))
        #expect(tree["id"]?.location == Self.span(2, 5, 2, 6, in: "p.yaml"))
    }

    @Test func yamlAliasKeepsTheAnchoredValuesSpan() throws {
        let tree = try Self.yaml("base: &id com.example.pro\nrequests: [*id]\n")
        #expect(tree["requests"]?.sequenceItems.first?.location == Self.span(1, 7, 1, 26, in: "p.yaml"))
    }

    // MARK: JSON

    @Test func jsonStringSpansItsQuotes() throws {
        let text = "{\n  \"productID\": \"com.example.pro\",\n  \"n\": [1, true]\n}"
        let value = try JSONNode.parse(bytes: Array(text.utf8), file: "p.json")
        #expect(value["productID"]?.location == Self.span(2, 16, 2, 33, in: "p.json"))
        #expect(value["n"]?.location == Self.span(3, 8, 3, 17, in: "p.json"))
        #expect(value["n"]?.elements.last?.location == Self.span(3, 12, 3, 16, in: "p.json"))
        #expect(value.location == Self.span(1, 1, 4, 2, in: "p.json"))
    }

    @Test func jsonKeysHaveSpansToo() throws {
        let value = try JSONNode.parse(bytes: Array("{\"é\": null}".utf8), file: "p.json")
        let members = value.members
        #expect(members.first?.keyLocation == Self.span(1, 2, 1, 5, in: "p.json"))
        #expect(members.first?.value.location == Self.span(1, 7, 1, 11, in: "p.json"))
    }

    // MARK: Property lists

    @Test func plistStringIsItsTextNotItsTag() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>CFBundleIdentifier</key>
            \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            \t<key>Flag</key>
            \t<true/>
            </dict>
            </plist>
            """
        let plist = try PropertyList.parse(bytes: Array(text.utf8), file: "Info.plist", what: "Info.plist")
        #expect(plist["CFBundleIdentifier"]?.location == Self.span(5, 10, 5, 38, in: "Info.plist"))
        #expect(plist.keys.first?.keyLocation == Self.span(4, 7, 4, 25, in: "Info.plist"))
        // A value without text is its element.
        #expect(plist["Flag"]?.location == Self.span(7, 2, 7, 9, in: "Info.plist"))
    }

    @Test func embeddedPlistSpansMoveDownWithIt() throws {
        let text = "<plist><dict><key>A</key><string>b</string></dict></plist>"
        let plist = try PropertyList.parse(bytes: Array(text.utf8), file: "x.mobileprovision", what: "profile", lineOffset: 4)
        #expect(plist["A"]?.location == Self.span(5, 34, 5, 35, in: "x.mobileprovision"))
    }

    // MARK: pbxproj and xcconfig


    @Test func pbxprojScalarsAndDictionariesHaveSpans() throws {
        let text = "{\n\tkey = \"quoted value\";\n\tlist = (a, b);\n\tsub = {x = 1;};\n}\n"
        let root = try ASCIIPropertyList(text: text).root
        let quoted = try #require(root["key"]?.position)
        #expect(quoted == .span(2, 8, 2, 22))
        let b = try #require(root["list"]?.array?.last?.position)
        #expect(b == .span(3, 13, 3, 14))
        let sub = try #require(root["sub"]?.position)
        #expect(sub == .span(4, 8, 4, 16))
        let key = try #require(root.entry("list")?.key.position)
        #expect(key == .span(3, 2, 3, 6))
    }

    @Test func xcconfigValueSpansTheValueOnly() throws {
        let file = XCConfigFile.parse(text: "PRODUCT_BUNDLE_IDENTIFIER = com.example.app.dev ; // the debug app\n", file: "a.xcconfig")
        let value = try #require(file.assignments.first?.value)
        #expect(value.value == "com.example.app.dev")
        #expect(value.location == Self.span(1, 29, 1, 48, in: "a.xcconfig"))
    }
}

extension ASCIIPropertyList.Position {
    /// A value's span: where it starts, and the line and column after its last character.
    static func span(_ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int) -> Self {
        Self(from: Self(line: line, column: column), to: Self(line: endLine, column: endColumn))
    }
}

extension YAMLTree {
    /// The items when this is a sequence.
    var sequenceItems: [YAMLTree] {
        if case .sequence(let items, _) = self { return items }
        return []
    }
}

/// The source scanner's requests span their string literal, quotes included; an ID made by
/// interpolation spans the whole literal it came from.
@Suite("Spans of requests in source code")
struct CodeSpanTests {
    @Test func literalRequestsSpanTheirLiteral() {
        let source = #"""
        let products = try await Product.products(for: ["com.x.pro", "é.x"])
        let suffix = "gold"
        _ = try await Product.products(for: ["com.x.\(suffix)"])
        """#
        let scan = SourceScanner.scan(source: source, file: "Store.swift")
        let spans = scan.requests.map { [$0.location.line, $0.location.column, $0.location.endLine, $0.location.endColumn] }
        #expect(spans == [[1, 49, 1, 60], [1, 62, 1, 67], [3, 38, 3, 55]])
        #expect(scan.requests.map(\.id) == ["com.x.pro", "é.x", "com.x.gold"])
    }
}

/// Spans cost no memory per location: catalogs keep one per item and field, projects one per value.
@Suite("Size of a span")
struct SpanSizeTests {
    @Test func aLocationWithItsEndIsStill32Bytes() {
        #expect(MemoryLayout<IAPDoctor.SourceLocation>.size == 32)
        // A pbxproj value (a string and its span) stays 32 bytes too: the parser keeps millions.
        #expect(MemoryLayout<ASCIIPropertyList.Value>.stride == 32)
    }
}
