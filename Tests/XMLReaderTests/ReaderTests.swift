import Foundation
import Testing
import XMLReader

@Suite("Node tree, positions, encodings, streaming")
struct ReaderTests {
    /// An element's position is its start tag's span: the `<`, and the column after the `>`.
    @Test func elementsCarryTheSpanOfTheirStartTag() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package version="software5.4">
              <in_app_purchase>
                <product_id>com.example.a</product_id>
              </in_app_purchase>
              <in_app_purchase><product_id>com.example.b</product_id></in_app_purchase>
            </package>
            """
        let root = try XMLReader.parse(string: xml)
        #expect(root.position == XMLPosition(line: 2, column: 1, endLine: 2, endColumn: 32))
        let items = root.children(named: "in_app_purchase")
        #expect(items.map(\.position) == [
            XMLPosition(line: 3, column: 3, endLine: 3, endColumn: 20), XMLPosition(line: 6, column: 3, endLine: 6, endColumn: 20),
        ])
        #expect(items[0].child("product_id")?.position == XMLPosition(line: 4, column: 5, endLine: 4, endColumn: 17))
        #expect(items[1].child("product_id")?.position == XMLPosition(line: 6, column: 20, endLine: 6, endColumn: 32))
        #expect(items.map { $0["product_id"]?.text } == ["com.example.a", "com.example.b"])
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let root = try XMLReader.parse(string: "<a>éé<b/></a>")
        #expect(root.child("b")?.position == XMLPosition(line: 1, column: 6, endLine: 1, endColumn: 10))
    }

    @Test func iso88591DeclaredEncodingIsDecoded() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>caf".utf8)
        bytes.append(0xE9)  // é in Latin-1
        bytes += Array("</a>".utf8)
        let root = try XMLReader.parse(bytes: bytes)
        #expect(root.text == "café")
    }

    @Test func utf16WithByteOrderMarkIsDecoded() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<a t=\"ü\">grüße</a>"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in xml.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let root = try XMLReader.parse(bytes: bytes)
        #expect(root.text == "grüße")
        #expect(root.attribute("t") == "ü")
    }

    @Test func fileAndMemoryGiveTheSameTree() throws {
        let xml = "<r>\n" + (0..<3000).map { "  <i n=\"\($0)\">value \($0)</i>\n" }.joined() + "</r>\n"
        let file = try TemporaryFile(contents: Array(xml.utf8))
        defer { file.remove() }
        let path = file.path
        // A small chunk size makes tags straddle chunk boundaries.
        let limits = XMLReaderLimits(chunkSize: 97)
        let fromFile = try XMLReader.parse(contentsOfFile: path, limits: limits)
        let fromMemory = try XMLReader.parse(string: xml)
        #expect(fromFile == fromMemory)
        #expect(fromFile.children.count == 3000)
        #expect(fromFile.children[2999].position == XMLPosition(line: 3001, column: 3, endLine: 3001, endColumn: 15))
        #expect(fromFile.children[2999].textPosition == XMLPosition(line: 3001, column: 15, endLine: 3001, endColumn: 25))
        #expect(fromFile.children[2999].attributes.first?.valuePosition == XMLPosition(line: 3001, column: 9, endLine: 3001, endColumn: 13))
    }

    @Test func streamingHandsOverEachItemAndKeepsTheRest() throws {
        let xml = """
            <package><provider>P</provider><software><in_app_purchases>
            <in_app_purchase><product_id>a</product_id></in_app_purchase>
            <in_app_purchase><product_id>b</product_id></in_app_purchase>
            </in_app_purchases></software></package>
            """
        var seen: [String] = []
        var ancestors: [[String]] = []
        let skeleton = try XMLReader.stream(bytes: Array(xml.utf8), itemDepth: 4) { item, path in
            seen.append(item["product_id"]?.text ?? "")
            ancestors.append(path)
        }
        #expect(seen == ["a", "b"])
        #expect(ancestors.first == ["package", "software", "in_app_purchases"])
        #expect(skeleton["software", "in_app_purchases"]?.children.isEmpty == true)
        #expect(skeleton["provider"]?.text == "P")
    }

    @Test func streamingHandlerErrorsAreRethrownUnchanged() throws {
        struct Enough: Error {}
        let xml = "<r><i/><i/><i/></r>"
        var count = 0
        #expect(throws: Enough.self) {
            _ = try XMLReader.stream(bytes: Array(xml.utf8), itemDepth: 2) { _, _ in
                count += 1
                if count == 2 { throw Enough() }
            }
        }
        #expect(count == 2)
    }

    @Test func applePropertyListWithItsStandardDoctypeParsesWithoutNetwork() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>CFBundleIdentifier</key>
            \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            </dict>
            </plist>
            """
        // The DTD is named, never fetched: this machine has no network, and the parse is instant.
        let root = try XMLReader.parse(string: plist)
        #expect(root.name == "plist")
        #expect(root["dict", "string"]?.text == "$(PRODUCT_BUNDLE_IDENTIFIER)")
        #expect(root["dict", "key"]?.position == XMLPosition(line: 5, column: 2, endLine: 5, endColumn: 7))
        #expect(root["dict", "key"]?.textPosition == XMLPosition(line: 5, column: 7, endLine: 5, endColumn: 25))
    }

    @Test func unreadableFileIsAnErrorNamingTheFile() throws {
        let error = try #require(throws: XMLReaderError.self) {
            try XMLReader.parse(contentsOfFile: "/nonexistent/metadata.xml")
        }
        #expect(error.kind == .unreadable)
        #expect(error.description.hasPrefix("/nonexistent/metadata.xml: cannot read the file"))
    }
}

/// A file in the temporary folder; the test removes it (`defer { file.remove() }`).
struct TemporaryFile {
    let path: String

    init(contents: [UInt8], suffix: String = ".xml") throws {
        let directory = FileManager.default.temporaryDirectory
        path = directory.appendingPathComponent("iapdoctor-\(UUID().uuidString)\(suffix)").path
        try Data(contents).write(to: URL(fileURLWithPath: path))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
