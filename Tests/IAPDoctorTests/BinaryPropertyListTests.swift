import Foundation
import IAPDoctor
import Testing
import TestSupport

/// The binary property list reader: what Foundation writes reads as the same list written as XML
/// does, and shared objects, cycles and lying trailers are refused in bounded time.
@Suite("Binary property lists")
struct BinaryPropertyListTests {
    /// A value's shape without locations, to compare two readings.
    static func shape(_ value: PlistValue) -> String {
        switch value {
        case .string(let text, _): return "s(\(text.debugDescription))"
        case .integer(let number, _): return "i(\(number))"
        case .real(let number, _): return "r(\(number))"
        case .bool(let flag, _): return "b(\(flag))"
        case .date(let date, _): return "d(\(date))"
        case .data: return "data"
        case .array(let values, _): return "[" + values.map(shape).joined(separator: ",") + "]"
        case .dictionary(let entries, _):
            return "{" + entries.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\(shape($0.value))" }.joined(separator: ",") + "}"
        }
    }

    static func randomValue(_ random: inout SplitMix, depth: Int) -> Any {
        let pick = depth >= 4 ? Int.random(in: 0..<7, using: &random) : Int.random(in: 0..<9, using: &random)
        switch pick {
        case 0: return ["", "com.acme.coins", "Grüße 🎉", "a\"b<c>&", String(repeating: "x", count: 40)][Int.random(in: 0..<5, using: &random)]
        case 1: return [0, 1, 15, 255, 65_535, 1 << 40, -1, -300][Int.random(in: 0..<8, using: &random)]
        case 2: return [0.5, -2.25, 1e-3, 123_456.75][Int.random(in: 0..<4, using: &random)]
        case 3: return Int.random(in: 0..<2, using: &random) == 0
        case 4: return Date(timeIntervalSince1970: [0, 1_700_000_000, 978_307_200, 4_102_444_800][Int.random(in: 0..<4, using: &random)])
        case 5: return Data((0..<Int.random(in: 0..<20, using: &random)).map { UInt8($0) })
        case 6: return String(repeating: "é", count: Int.random(in: 0..<20, using: &random))
        case 7: return (0..<Int.random(in: 0..<20, using: &random)).map { _ in randomValue(&random, depth: depth + 1) }
        default:
            var dictionary: [String: Any] = [:]
            for index in 0..<Int.random(in: 0..<18, using: &random) { dictionary["key\(index)-\(Int.random(in: 0..<1000, using: &random))"] = randomValue(&random, depth: depth + 1) }
            return dictionary
        }
    }

    @Test func foundationsListsReadAsTheirXMLDoes() throws {
        var random = SplitMix(seed: 0xB1157)
        for round in 0..<200 {
            var top: [String: Any] = [:]
            for index in 0..<Int.random(in: 0..<12, using: &random) { top["k\(index)"] = Self.randomValue(&random, depth: 0) }
            let binary = try PropertyListSerialization.data(fromPropertyList: top, format: .binary, options: 0)
            let xml = try PropertyListSerialization.data(fromPropertyList: top, format: .xml, options: 0)
            let fromBinary = try PropertyList.parse(bytes: [UInt8](binary), file: "b.plist", what: "Info.plist")
            let fromXML = try PropertyList.parse(bytes: [UInt8](xml), file: "x.plist", what: "Info.plist")
            #expect(Self.shape(fromBinary) == Self.shape(fromXML), "round \(round)")
        }
    }

    /// `bplist00`, the objects, a table of 1-byte offsets, and the trailer.
    static func list(objects: [[UInt8]], top: Int = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        func eight(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + eight(objects.count) + eight(top) + eight(table)
        return bytes
    }

    static func refusal(_ bytes: [UInt8]) throws -> String {
        let problem = try #require(throws: InputProblem.self) { try PropertyList.parse(bytes: bytes, file: "Info.plist", what: "built app's Info.plist") }
        #expect(problem.finding.rule == "input-malformed")
        return problem.finding.message
    }

    /// 28 arrays, each holding the next twice: 500 bytes that Foundation expands to 2^28 values.
    @Test func sharedObjectsAreCountedAsExpanded() throws {
        let levels = 28
        let objects = (0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x51, UInt8(ascii: "x")]]
        let bytes = Self.list(objects: objects)
        #expect(bytes.count < 200)
        #expect(try Self.refusal(bytes).contains("more than 1000000 values once its shared objects are expanded"))
        // Shared, and small once expanded: read.
        let small = Self.list(objects: [[0xA2, 1, 1], [0xA2, 2, 2], [0x51, UInt8(ascii: "x")]])
        let value = try PropertyList.parse(bytes: small, file: "Info.plist", what: "Info.plist")
        #expect(Self.shape(value) == #"[[s("x"),s("x")],[s("x"),s("x")]]"#)
    }

    @Test func cyclesAndLyingTrailersAreRefused() throws {
        #expect(try Self.refusal(Self.list(objects: [[0xA1, 0]])).contains("nests deeper than 64 levels"))
        #expect(try Self.refusal(Self.list(objects: [[0xA1, 7]])).contains("points at object 7, past the last"))
        #expect(try Self.refusal(Self.list(objects: [[0x5F, 0x10, 0xFF]])).contains("runs past the end"))
        #expect(try Self.refusal(Self.list(objects: [[0x51, 0x41]], top: 3)).contains("trailer"))
        var lying = Self.list(objects: [[0x51, 0x41]])
        lying[lying.count - 17] = 0xFF
        #expect(try Self.refusal(lying).contains("trailer"))
        #expect(try Self.refusal(Self.list(objects: [[0xD1, 1, 1], [0x10, 3]])).contains("key is not a string"))
        #expect(try Self.refusal(Array("bplist00".utf8) + [0xD1]).contains("too short"))
    }

    /// White space before `<?xml` (Apple's parser skips it, and Xcode builds the file) is read,
    /// with the lines after it where they are.
    @Test func whiteSpaceBeforeTheXMLDeclarationIsSkipped() throws {
        let text = "\n  \n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\n<key>CFBundleIdentifier</key>\n<string>com.acme.coins</string>\n</dict></plist>\n"
        let value = try PropertyList.parse(bytes: Array(text.utf8), file: "Info.plist", what: "Info.plist")
        guard case .string(let id, let location)? = value["CFBundleIdentifier"] else {
            Issue.record("no CFBundleIdentifier in \(Self.shape(value))")
            return
        }
        #expect(id == "com.acme.coins")
        #expect(location.line == 6)
        // A later fault is still named at its own line.
        let broken = "\n\n<?xml version=\"1.0\"?>\n<plist><dict><key>a</key></plist>\n"
        #expect(throws: InputProblem.self) { try PropertyList.parse(bytes: Array(broken.utf8), file: "Info.plist", what: "Info.plist") }
    }
}
