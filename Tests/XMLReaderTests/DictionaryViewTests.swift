import Testing
import XMLReader

@Suite("Classic XMLReader dictionary shape")
struct DictionaryViewTests {
    static let donut = """
        <items><item id="0001" type="donut"><name>Cake</name><ppu>0.55</ppu><batters>\
        <batter id="1001">Regular</batter><batter id="1002">Chocolate</batter>\
        <batter id="1003">Blueberry</batter></batters><topping id="5001">None</topping>\
        <topping id="5002">Glazed</topping><topping id="5005">Sugar</topping></item></items>
        """

    @Test func classicDonutExampleConvertsAsDocumented() throws {
        let value = try XMLReader.dictionary(forXMLString: Self.donut)
        let item = try #require(value["items"]?["item"])
        #expect(item["id"]?.stringValue == "0001")
        #expect(item["type"]?.stringValue == "donut")
        #expect(item["name"]?["text"]?.stringValue == "Cake")
        #expect(item["ppu"]?["text"]?.stringValue == "0.55")
        let batters = try #require(item["batters"]?["batter"])
        guard case .array(let batterList) = batters else {
            Issue.record("batter must be an array, got \(batters)")
            return
        }
        #expect(batterList.map { $0["id"]?.stringValue } == ["1001", "1002", "1003"])
        #expect(batterList.map { $0["text"]?.stringValue } == ["Regular", "Chocolate", "Blueberry"])
        #expect(item.array("topping").map { $0["text"]?.stringValue } == ["None", "Glazed", "Sugar"])
        #expect(item.array("topping").map { $0["id"]?.stringValue } == ["5001", "5002", "5005"])
        // Keys keep document order.
        #expect(item.dictionaryValue?.keys == ["id", "type", "name", "ppu", "batters", "topping"])
    }

    @Test func foundationViewHasTheClassicUntypedShape() throws {
        let value = try XMLReader.dictionary(forXMLString: Self.donut)
        let root = try #require(value.foundationValue as? [String: Any])
        let items = try #require(root["items"] as? [String: Any])
        let item = try #require(items["item"] as? [String: Any])
        #expect(item["id"] as? String == "0001")
        let toppings = try #require(item["topping"] as? [Any])
        #expect(toppings.count == 3)
        #expect((toppings[1] as? [String: Any])?["text"] as? String == "Glazed")
    }

    @Test func singleChildIsADictionaryButArrayAccessorAlwaysGivesAnArray() throws {
        let one = try XMLReader.dictionary(forXMLString: "<book><page>1</page></book>")
        let two = try XMLReader.dictionary(forXMLString: "<book><page>1</page><page>2</page></book>")
        #expect(one["book"]?["page"]?.dictionaryValue != nil)
        if case .array = two["book"]?["page"] {} else { Issue.record("two pages must be an array") }
        #expect(one["book"]!.array("page").count == 1)
        #expect(two["book"]!.array("page").count == 2)
        #expect(one["book"]!.array("missing").isEmpty)
        let three = try XMLReader.dictionary(forXMLString: "<b><p>1</p><p>2</p><p>3</p></b>")
        #expect(three["b"]!.array("p").map { $0["text"]?.stringValue } == ["1", "2", "3"])
    }

    @Test func alwaysArrayOptionMakesOneChildAnArray() throws {
        let options = XMLDictionaryOptions(alwaysArray: ["page"])
        let value = try XMLReader.dictionary(forXMLString: "<book><page>1</page></book>", options: options)
        guard case .array(let pages) = value["book"]?["page"] else {
            Issue.record("page must be an array")
            return
        }
        #expect(pages.count == 1)
    }

    @Test func whitespaceBetweenElementsIsDroppedAndTextIsTrimmed() throws {
        let value = try XMLReader.dictionary(forXMLString: "<a>\n  <b>  hello \n</b>\n  <c/>\n</a>")
        #expect(value["a"]?["text"] == nil)
        #expect(value["a"]?["b"]?["text"]?.stringValue == "hello")
        #expect(value["a"]?["c"]?.dictionaryValue?.count == 0)
    }

    @Test func untrimmedTextIsAvailableOnRequest() throws {
        let options = XMLDictionaryOptions(trimText: false)
        let value = try XMLReader.dictionary(forXMLString: "<a><b>  hello </b></a>", options: options)
        #expect(value["a"]?["b"]?["text"]?.stringValue == "  hello ")
        let node = try XMLReader.parse(string: "<a><b>  hello </b></a>")
        #expect(node.child("b")?.rawText == "  hello ")
        #expect(node.child("b")?.text == "hello")
    }

    @Test func cdataIsTextAndMixedContentConcatenatesInOrder() throws {
        let node = try XMLReader.parse(string: "<a>one <![CDATA[<two> & ]]><b/>three</a>")
        #expect(node.rawText == "one <two> & three")
        let value = node.dictionaryValue()
        #expect(value["a"]?["text"]?.stringValue == "one <two> & three")
        #expect(value["a"]?["b"] != nil)
    }

    @Test func predefinedEntitiesAndCharacterReferencesAreText() throws {
        let node = try XMLReader.parse(string: "<a t=\"&quot;x&quot;\">&lt;&amp;&gt; &#233;&#x263A;</a>")
        #expect(node.text == "<&> é☺")
        #expect(node.attribute("t") == "\"x\"")
    }

    @Test func textKeyCollisionsKeepEveryValue() throws {
        // An attribute named `text`: the body text moves to `#text`.
        let attr = try XMLReader.dictionary(forXMLString: "<a text=\"attr\">body</a>")
        #expect(attr["a"]?["text"]?.stringValue == "attr")
        #expect(attr["a"]?["#text"]?.stringValue == "body")
        // A child named `text`: it keeps its name, body text moves to `#text`.
        let child = try XMLReader.dictionary(forXMLString: "<a>body<text>child</text></a>")
        #expect(child["a"]?["text"]?["text"]?.stringValue == "child")
        #expect(child["a"]?["#text"]?.stringValue == "body")
        // An attribute named like a child: the attribute becomes `@name`.
        let both = try XMLReader.dictionary(forXMLString: "<a name=\"attr\"><name>child</name></a>")
        #expect(both["a"]?["@name"]?.stringValue == "attr")
        #expect(both["a"]?["name"]?["text"]?.stringValue == "child")
    }

    @Test func textKeyIsConfigurable() throws {
        let options = XMLDictionaryOptions(textKey: "#text")
        let value = try XMLReader.dictionary(forXMLString: "<a text=\"attr\">body</a>", options: options)
        #expect(value["a"]?["#text"]?.stringValue == "body")
        #expect(value["a"]?["text"]?.stringValue == "attr")
    }

    @Test func namespacesGiveLocalNamesWithTheURIAvailable() throws {
        let xml = """
            <package xmlns="http://apple.com/itunes/importer" xmlns:x="urn:x" version="software5.4">\
            <x:provider x:kind="k">P</x:provider></package>
            """
        let node = try XMLReader.parse(string: xml)
        #expect(node.name == "package")
        #expect(node.namespaceURI == "http://apple.com/itunes/importer")
        let provider = try #require(node.child("provider"))
        #expect(provider.prefix == "x")
        #expect(provider.namespaceURI == "urn:x")
        #expect(provider.qualifiedName == "x:provider")
        #expect(provider.attributes.first?.namespaceURI == "urn:x")
        // Namespace declarations are not attributes.
        #expect(node.attributes.map(\.name) == ["version"])
        let value = node.dictionaryValue()
        #expect(value["package"]?["provider"]?["text"]?.stringValue == "P")
        let qualified = node.dictionaryValue(options: XMLDictionaryOptions(qualifiedNames: true))
        #expect(qualified["package"]?["x:provider"]?["kind"]?.stringValue == "k")
    }

    @Test func dictionariesRememberTheirElementPosition() throws {
        let value = try XMLReader.dictionary(forXMLString: "<a>\n  <b>x</b>\n    <c\n   k=\"v\"/></a>")
        #expect(value["a"]?["b"]?.dictionaryValue?.position == XMLPosition(line: 2, column: 3, endLine: 2, endColumn: 6))
        // A start tag over two lines ends on the second.
        #expect(value["a"]?["c"]?.dictionaryValue?.position == XMLPosition(line: 3, column: 5, endLine: 4, endColumn: 11))
    }
}
