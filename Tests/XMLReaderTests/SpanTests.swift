import Testing
import XMLReader

/// Where a value is: an element's text without the white space around it, an attribute's value
/// between its quotes. Spans end at the column after their last character.
@Suite("Spans of texts and attribute values")
struct SpanTests {
    static func span(_ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int) -> XMLPosition {
        XMLPosition(line: line, column: column, endLine: endLine, endColumn: endColumn)
    }

    /// The tree and the streamed items must give the same spans.
    static func bothWays(_ xml: String) throws -> [XMLNode] {
        let tree = try XMLReader.parse(string: xml)
        var streamed: [XMLNode] = []
        _ = try XMLReader.scan(bytes: Array(xml.utf8), select: { $0.depth == 2 }, handler: { streamed.append($0.node) })
        #expect(streamed == tree.children)
        return tree.children
    }

    @Test func textOnTheLineOfItsTags() throws {
        let items = try Self.bothWays("<r>\n  <title>Fifty Seed Packs</title>\n  <t>  padded\t</t>\n</r>")
        // `<title>` ends at column 10; the text is the 16 characters after it.
        #expect(items[0].textPosition == Self.span(2, 10, 2, 26))
        #expect(items[1].textPosition == Self.span(3, 8, 3, 14))
    }

    @Test func textOnLinesOfItsOwn() throws {
        let items = try Self.bothWays("<r>\n<d>\n    first line\n    second\n</d>\n</r>")
        #expect(items[0].text == "first line\n    second")
        #expect(items[0].textPosition == Self.span(3, 5, 4, 11))
    }

    @Test func anEntityReferenceKeepsTheSpanExactOnOneLine() throws {
        // `&amp;` is five characters in the file and one in the text: the span is the file's.
        let items = try Self.bothWays("<r><n>Salt &amp; Pepper</n></r>")
        #expect(items[0].text == "Salt & Pepper")
        #expect(items[0].textPosition == Self.span(1, 7, 1, 24))
    }

    @Test func anEntityReferenceBeforeALineBreakLeavesOnlyTheStart() throws {
        let items = try Self.bothWays("<r><n>\n  Salt &amp; Pepper\n</n></r>")
        #expect(items[0].textPosition == XMLPosition(line: 2, column: 3))
        #expect(!items[0].textPosition.hasEnd)
    }

    @Test func cdataSpansTheWholeContent() throws {
        let items = try Self.bothWays("<r><n><![CDATA[ a<b ]]></n></r>")
        #expect(items[0].text == "a<b")
        #expect(items[0].textPosition == Self.span(1, 7, 1, 24))
    }

    /// A comment is not in the text, so the text's white space no longer locates it: the span is
    /// the whole content, which starts on the start tag's line.
    @Test func aCommentInTheContentGivesTheContentsSpan() throws {
        let items = try Self.bothWays("<r><n>   <!-- <- -->\n  long text\n</n></r>")
        #expect(items[0].text == "long text")
        #expect(items[0].textPosition == Self.span(1, 7, 3, 1))
    }

    @Test func nonASCIITextCountsCharacters() throws {
        let items = try Self.bothWays("<r><t>grüße</t><u>x</u></r>")
        #expect(items[0].textPosition == Self.span(1, 7, 1, 12))
        #expect(items[1].textPosition == Self.span(1, 19, 1, 20))
    }

    @Test func elementsWithoutTextHaveNoTextSpan() throws {
        let items = try Self.bothWays("<r><a/><b>  </b><c><d>x</d></c></r>")
        #expect(items.map(\.textPosition.line) == [0, 0, 0])
    }

    @Test func attributeValuesBetweenTheirQuotes() throws {
        let items = try Self.bothWays("<r>\n  <locale name=\"en_US\" x='1'/>\n</r>")
        #expect(items[0].attributeValuePosition("name") == Self.span(2, 17, 2, 22))
        #expect(items[0].attributeValuePosition("x") == Self.span(2, 27, 2, 28))
    }

    @Test func attributeValuesInAStartTagOverSeveralLines() throws {
        let xml = "<r>\n  <Ref\n     identifier = \"../Products.storekit\">\n  </Ref>\n</r>"
        let items = try Self.bothWays(xml)
        #expect(items[0].position == Self.span(2, 3, 3, 42))
        #expect(items[0].attributeValuePosition("identifier") == Self.span(3, 20, 3, 40))
    }

    /// libxml2 turns a line break in a value into a space, in a copy: the copy is not in the file.
    @Test func aRewrittenAttributeValueHasNoSpan() throws {
        let items = try Self.bothWays("<r><a v=\"x\ny\" w=\"z\"/></r>")
        #expect(items[0].attribute("v") == "x y")
        #expect(items[0].attributeValuePosition("v")?.line == 0)
        #expect(items[0].attributeValuePosition("w") == Self.span(2, 7, 2, 8))
    }
}
