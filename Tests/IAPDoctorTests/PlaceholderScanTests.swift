import Testing
import IAPDoctor
import TestSupport

/// The placeholder test reads every text of every catalog item; on ASCII text it looks at bytes, pairs
/// of them first. It must find what the plain reading of the rule finds: a `{word}`, then
/// `xxxxx`, then the first marker in the list, in any case.
@Suite("Placeholders found byte by byte")
struct PlaceholderScanTests {
    /// The rule's definition, on characters.
    func reference(_ text: String) -> String? {
        if let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}"), text.distance(from: open, to: close) > 1,
            text[text.index(after: open)..<close].allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) })
        {
            return String(text[open...close])
        }
        let lower = text.lowercased()
        return (["xxxxx"] + Placeholders.markers).first { lower.contains($0) }
    }

    @Test func bytesFindWhatTheDefinitionFinds() {
        let pieces = [
            "your_", "YOUR-", "Todo:", "ChangeMe", "replace_me", "Lorem Ipsum", "xxXXx", "{SKU}", "{a b}", "{}", "}", "{", "[x]",
            "re", "lo", "to", "ch", "yo", "xx", "your", "tod", "chang", "lorem", "replace", " ", "-", "_", ":", "Pass", "Gold", "é",
            "\u{7F}", "Z", "[", "{x.y-z_1}",
        ]
        var generator = SplitMix(seed: 4)
        var found = 0, ascii = 0
        for _ in 0..<6_000 {
            let text = (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let expected = reference(text)
            switch Placeholders.asciiPlaceholder(in: text) {
            case .ascii(let marker):
                ascii += 1
                #expect(text.utf8.allSatisfy { $0 < 0x80 }, "\(text)")
                #expect(marker == expected, "\(text.debugDescription)")
                if marker != nil { found += 1 }
            case .notASCII:
                #expect(text.utf8.contains { $0 >= 0x80 }, "\(text)")
                #expect(Placeholders.placeholder(in: text) == expected, "\(text.debugDescription)")
            }
        }
        #expect(ascii > 3_000)
        #expect(found > 1_000)
    }
}
