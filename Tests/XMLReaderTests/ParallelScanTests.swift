import Foundation
import Testing
import XMLReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `XMLReader.scanInParallel` hands the items to a second thread while the parse reads on: the
/// handler must see exactly what `scan` shows, in the same order, with the tag its selector gave,
/// however far ahead of the handler the parse gets.
@Suite("Scan in parallel: the same items, in order, on a thread of their own")
struct ParallelScanTests {
    /// `count` items in groups of 7, some with a prefix, attributes, CDATA, entity references,
    /// non-ASCII names and text, tags over two lines; names first seen late in the document.
    static func document(items count: Int) -> String {
        var xml = "<?xml version=\"1.0\"?>\n<catalog xmlns:p=\"urn:p\">\n"
        for index in 0..<count {
            if index % 7 == 0 { xml += index == 0 ? "  <group n=\"\(index / 7)\">\n" : "  </group>\n  <group n=\"\(index / 7)\">\n" }
            xml += "    <item id=\"i\(index)\">\n"
            xml += "      <name>Item \(index) &amp; more</name>\n"
            if index % 3 == 0 { xml += "      <p:note>prefixed \(index)</p:note>\n" }
            if index % 5 == 0 { xml += "      <größe>groß \(index)</größe>\n" }
            if index % 11 == 0 { xml += "      <data><![CDATA[<raw \(index)>]]></data>\n" }
            if index % 13 == 0 { xml += "      <wide\n        >split tag \(index)</wide >\n" }
            if index > count / 2, index % 17 == 0 { xml += "      <late_name_\(index % 3)>late</late_name_\(index % 3)>\n" }
            xml += "      <empty/>\n    </item>\n"
        }
        xml += "  </group>\n</catalog>\n"
        return xml
    }

    /// The group number an item is in, from the selector's point of view (its tag).
    final class GroupTracker {
        var group = -1
        func select(_ info: XMLStartInfo) -> Int? {
            if info.name == "group" { group += 1 }
            return info.name == "item" ? group : nil
        }
    }

    @Test func theSameItemsInDocumentOrderWithTheirTags() throws {
        let bytes = Array(Self.document(items: 2_500).utf8)
        var expected: [XMLNode] = []
        let tracker = GroupTracker()
        var expectedTags: [Int] = []
        let expectedRoot = try XMLReader.scan(bytes: bytes, file: "c.xml", select: { info in
            let tag = tracker.select(info)
            if let tag { expectedTags.append(tag) }
            return tag != nil
        }) { expected.append($0.node) }

        var items: [XMLNode] = []
        var tags: [Int] = []
        let parallelTracker = GroupTracker()
        let root = try XMLReader.scanInParallel(bytes: bytes, file: "c.xml", select: parallelTracker.select) { item in
            // Now and then slower than the parse, so it gets ahead and waits for arenas.
            if items.count % 400 == 0 { usleep(20_000) }
            items.append(item.node)
            tags.append(item.itemTag)
        }
        #expect(items.count == 2_500)
        #expect(items == expected)
        #expect(tags == expectedTags)
        #expect(tags.last == 2_499 / 7)
        #expect(root == expectedRoot)
        #expect(items.contains { $0.children.contains { $0.name == "late_name_2" } })
    }

    @Test func theHandlerRunsOnAnotherThreadInsideAround() throws {
        let caller = pthread_self()
        var onOtherThread: [Bool] = []
        var insideAround = false
        var seenInside: [Bool] = []
        _ = try XMLReader.scanInParallel(
            bytes: Array(Self.document(items: 40).utf8), select: { $0.name == "item" ? 0 : nil },
            around: { work in
                insideAround = true
                work()
                insideAround = false
            },
            handler: { _ in
                onOtherThread.append(pthread_equal(pthread_self(), caller) == 0)
                seenInside.append(insideAround)
            })
        #expect(onOtherThread.count == 40 && onOtherThread.allSatisfy { $0 })
        #expect(seenInside.allSatisfy { $0 })
        #expect(!insideAround)
    }

    /// The alternate signal stack is per thread: a caller that handles stack overflows on one (the
    /// CLI does, to exit 3 instead of crashing) gets one on the handler's thread too.
    @Test func theHandlersThreadGetsAnAlternateSignalStackLikeTheCallers() throws {
        let size = 64 * 1024
        let memory = try #require(malloc(size))
        var stack = stack_t()
        stack.ss_sp = memory
        stack.ss_size = size
        var previous = stack_t()
        #expect(sigaltstack(&stack, &previous) == 0)
        defer {
            var restore = previous
            if previous.ss_sp == nil { restore = stack_t(); restore.ss_flags = Int32(SS_DISABLE) }
            sigaltstack(&restore, nil)
            free(memory)
        }
        var sizes: [Int] = []
        _ = try XMLReader.scanInParallel(bytes: Array(Self.document(items: 3).utf8), select: { $0.name == "item" ? 0 : nil }) { _ in
            var current = stack_t()
            sigaltstack(nil, &current)
            sizes.append(current.ss_flags & Int32(SS_DISABLE) == 0 ? Int(current.ss_size) : 0)
        }
        #expect(sizes == [size, size, size])
    }

    @Test func aParseErrorIsThrownAfterEveryItemBeforeItIsHandled() throws {
        // 300 good items, then a mismatched end tag.
        let xml = String(Self.document(items: 300).dropLast("  </group>\n</catalog>\n".count)) + "  <item><name>bad</nam></item>\n</catalog>\n"
        var scanned = 0
        var scanError: (any Error)?
        do { _ = try XMLReader.scan(bytes: Array(xml.utf8), file: "e.xml", select: { $0.name == "item" }) { _ in scanned += 1 } } catch {
            scanError = error
        }
        var handled = 0
        var parallelError: (any Error)?
        do {
            _ = try XMLReader.scanInParallel(bytes: Array(xml.utf8), file: "e.xml", select: { $0.name == "item" ? 0 : nil }) { _ in
                handled += 1
            }
        } catch { parallelError = error }
        #expect(scanned == 300 && handled == 300)
        let expected = try #require(scanError as? XMLReaderError)
        let got = try #require(parallelError as? XMLReaderError)
        #expect(got.message == expected.message && got.position == expected.position && got.kind == expected.kind)
    }

    @Test func anEmptyOrItemlessDocumentHandlesNothing() throws {
        var handled = 0
        let root = try XMLReader.scanInParallel(bytes: Array("<r><a>1</a></r>".utf8), select: { $0.name == "item" ? 0 : nil }) { _ in
            handled += 1
        }
        #expect(handled == 0 && root.children.first?.text == "1")
        #expect(throws: XMLReaderError.self) {
            _ = try XMLReader.scanInParallel(bytes: [], select: { _ in 0 }) { _ in handled += 1 }
        }
        #expect(handled == 0)
    }
}

/// Tags are found by their names' lengths when they can be (no attributes, ASCII names, no white
/// space): the positions must be exactly those the scan for `<` gives.
@Suite("Tag positions found by the name's length")
struct TagLengthPositionTests {
    func node(_ xml: String) throws -> XMLNode { try XMLReader.parse(string: xml) }

    @Test func startTagsWithAndWithoutThePrefixAttributesOrSpace() throws {
        // A non-ASCII name goes last on its line: libxml2 advances its column by the bytes of an
        // end tag's name, not its characters, so what follows on that line would be off.
        let root = try node("<r xmlns:p=\"u\">\n  <a>x</a><p:b>y</p:b>\n <c >z</c><d\n>w</d><e k=\"v\">q</e><f/><é>ü</é>\n</r>")
        let (a, b, c, d, e, f, accent) = (root.children[0], root.children[1], root.children[2], root.children[3], root.children[4], root.children[5], root.children[6])
        #expect(a.position == XMLPosition(line: 2, column: 3, endLine: 2, endColumn: 6))
        #expect(a.textPosition == XMLPosition(line: 2, column: 6, endLine: 2, endColumn: 7))
        #expect(b.position == XMLPosition(line: 2, column: 11, endLine: 2, endColumn: 16))
        #expect(b.textPosition == XMLPosition(line: 2, column: 16, endLine: 2, endColumn: 17))
        #expect(c.position == XMLPosition(line: 3, column: 2, endLine: 3, endColumn: 6))
        #expect(c.textPosition == XMLPosition(line: 3, column: 6, endLine: 3, endColumn: 7))
        #expect(d.position.line == 3 && d.position.column == 11)
        #expect(d.textPosition == XMLPosition(line: 4, column: 2, endLine: 4, endColumn: 3))
        #expect(e.position == XMLPosition(line: 4, column: 7, endLine: 4, endColumn: 16))
        #expect(f.position == XMLPosition(line: 4, column: 21, endLine: 4, endColumn: 25))
        #expect(accent.position == XMLPosition(line: 4, column: 25, endLine: 4, endColumn: 28))
        #expect(accent.textPosition.line == 4 && accent.textPosition.column == 28)
    }

    @Test func endTagsWithSpaceOrAPrefixEndTheText() throws {
        var streamed: [XMLNode] = []
        let xml = "<r xmlns:p=\"u\"><i><a>one</a ><p:b>two</p:b><c>three</c\n></i></r>"
        _ = try XMLReader.scanInParallel(bytes: Array(xml.utf8), select: { $0.name == "i" ? 0 : nil }) { streamed.append($0.node) }
        let item = try #require(streamed.first)
        #expect(item.children[0].textPosition == XMLPosition(line: 1, column: 22, endLine: 1, endColumn: 25))
        #expect(item.children[1].textPosition == XMLPosition(line: 1, column: 35, endLine: 1, endColumn: 38))
        #expect(item.children[2].textPosition == XMLPosition(line: 1, column: 47, endLine: 1, endColumn: 52))
        #expect(item == (try XMLReader.parse(string: xml)).children[0])
    }
}

/// `readFileBytes` reads a file into an array of its size: every byte, nothing more, and a file
/// over the limit is refused after reading at most one byte more than the limit.
@Suite("Reading whole files")
struct ReadFileBytesTests {
    @Test func everyByteOfFilesOfSeveralSizes() throws {
        let folder = NSTemporaryDirectory() + "iapdoctor-read-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for size in [0, 1, 4095, 4096, 65_537, 300_001] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let path = folder + "/f\(size)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(try readFileBytes(path) == bytes, "\(size) bytes")
            #expect(try readFileBytes(path, maxBytes: size) == bytes, "\(size) bytes, limit \(size)")
            if size > 0 {
                #expect(throws: XMLReaderError.self, "\(size) bytes over a limit of \(size - 1)") {
                    _ = try readFileBytes(path, maxBytes: size - 1)
                }
            }
        }
    }
}
