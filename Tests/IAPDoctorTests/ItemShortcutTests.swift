import Testing
import XMLReader

@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
@testable import RuleEngine
@testable import Reporters
@testable import Rules
import TestSupport

/// The item thread answers some questions from bytes, where the plain answer makes a string:
/// each shortcut must give the plain answer on every text, ASCII or not, well-formed UTF-8 or not.
@Suite("Shortcuts on an item's bytes give the plain answers")
struct ItemShortcutTests {
    /// Every `<checksum>` text of a document made of `texts`, as a view, handed to `body`.
    func forEachChecksum(_ texts: [String], _ body: (XMLElementView) -> Void) throws {
        let escaped = texts.map {
            $0.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        let document = "<r>" + escaped.map { "<checksum type=\"md5\">\($0)</checksum>" }.joined() + "</r>"
        var seen = 0
        _ = try XMLReader.scan(bytes: Array(document.utf8), select: { $0.name == "checksum" }) { view in
            body(view)
            seen += 1
        }
        #expect(seen == texts.count)
    }

    @Test func checksumsCompareAsTheirLowerCasedTexts() throws {
        let digest = "0123456789abcdef0123456789abcdef"
        let pieces = ["0123", "4567", "89ab", "cdef", "89AB", "CDEF", "é", "É", " ", "x", "İ", "ß", "\u{212A}"]
        var generator = SplitMix(seed: 21)
        var texts = [digest, digest.uppercased(), " \(digest) ", String(digest.dropLast()), digest + "0", "", "ǅ"]
        for _ in 0..<3_000 {
            // The digest with each character in either case, now and then one replaced, dropped or
            // followed by a piece: equal texts in mixed case, and texts a little different.
            var text = ""
            for character in digest {
                let piece = pieces[Int(generator.next() % UInt64(pieces.count))]
                switch generator.next() % 40 {
                case 0: text += piece
                case 1: break
                case 2: text += String(character) + piece
                default: text += generator.next() % 2 == 0 ? String(character) : String(character).uppercased()
                }
            }
            texts.append(text)
        }
        var equal = 0
        try forEachChecksum(texts) { view in
            let expected = view.text.lowercased() == digest
            #expect(CatalogScreenshotChecksumRule.isDigest(view, digest) == expected, "\(view.text.debugDescription)")
            if expected { equal += 1 }
        }
        // The generator makes matches too, in upper and mixed case, not only differences.
        #expect(equal > 100)
        #expect(texts.count - equal > 1_000)
    }

    @Test func valuesLookedUpByBytesAreTheValuesOfTheirTexts() {
        let table = ItemTable(file: "metadata.xml")
        let reference = ItemTable(file: "metadata.xml")
        let pieces: [[UInt8]] = [
            Array("consumable".utf8), Array("non_consumable".utf8), Array("true".utf8), Array("false".utf8),
            [0xC3, 0xA9], [0xFF], [0xC3], Array("TRUE".utf8), [],
        ]
        var generator = SplitMix(seed: 8)
        for _ in 0..<4_000 {
            // Up to two pieces: more distinct values than the lookup remembers, invalid UTF-8 among them.
            let bytes = (0..<Int(generator.next() % 3)).flatMap { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
            let id = bytes.withUnsafeBufferPointer { table.value(bytes: $0) }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(id == reference.value(text), "\(bytes)")
            #expect(table.values[Int(id)] == text)
        }
        #expect(table.values == reference.values)
        #expect(table.values.count > 20)
    }

    @Test func screenshotSizesAreTheListedPairsEitherWayRound() {
        for (width, height) in CatalogSchema.screenshotSizes {
            #expect(CatalogSchema.isScreenshotSize(ImageSize(width: width, height: height, format: "PNG")))
        }
        // The list is of width × height: (312, 390) is listed in portrait only.
        #expect(CatalogSchema.isScreenshotSize(ImageSize(width: 1136, height: 640, format: "PNG")))
        #expect(!CatalogSchema.isScreenshotSize(ImageSize(width: 390, height: 312, format: "PNG")))
        #expect(!CatalogSchema.isScreenshotSize(ImageSize(width: 640, height: 1135, format: "PNG")))
        #expect(!CatalogSchema.isScreenshotSize(ImageSize(width: 0, height: 0, format: "JPEG")))
    }
}
