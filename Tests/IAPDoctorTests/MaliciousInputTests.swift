import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The malicious-input corpus, run through the real binary: every input ends with exit code 2, a
/// positioned error, bounded memory, and no byte of a referenced local file in any output. The
/// inputs are generated here (some are tens of megabytes); the one-minute limit guards against a
/// hang, and each run prints its time in the test log.
@Suite("Malicious inputs through the CLI", .serialized, .timeLimit(.minutes(2)))
struct MaliciousInputTests {
    static let secret = "IAPDOCTOR-SECRET-\(UUID().uuidString)"

    /// A fresh folder holding a secret file that hostile inputs try to pull in.
    static let folder: String = {
        let folder = NSTemporaryDirectory() + "iapdoctor-malicious-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? secret.write(toFile: folder + "/secret.txt", atomically: true, encoding: .utf8)
        return folder
    }()

    static func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = folder + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    static func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }

    /// Runs `check` on `path` in text and JSON; expects exit 2, a positioned finding, no secret.
    func expectRefused(_ path: String, extra: [String] = [], rule: String = "input-malformed") throws {
        for format in ["text", "json"] {
            let start = Date()
            let run = try runIAPDoctor(["check", path, "--format", format] + extra)
            let seconds = Date().timeIntervalSince(start)
            print("\(path.split(separator: "/").last!) [\(format)]: exit \(run.status) in \(String(format: "%.3f", seconds)) s")
            #expect(run.status == 2, "\(path) (\(format)) exited \(run.status):\n\(run.output.prefix(2000))")
            #expect(!run.output.contains(Self.secret), "\(path) leaked the secret file's content")
            // Everything goes through the findings: nothing from libxml2 or libyaml on stderr.
            #expect(run.errors.isEmpty, "\(path) (\(format)) wrote to stderr:\n\(run.errors.prefix(500))")
            #expect(run.output.contains(rule), "\(path) (\(format)) did not report \(rule)")
            if format == "json" {
                let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
                let findings = object?["findings"] as? [[String: Any]] ?? []
                #expect(findings.contains { ($0["line"] as? Int ?? 0) >= 1 || $0["rule"] as? String == "input-unreadable" },
                        "\(path): no positioned finding")
            }
        }
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #expect(usage.ru_maxrss < 256 * 1024, "a child process used \(usage.ru_maxrss / 1024) MB")
    }

    // MARK: XML (bulk product XML)

    @Test func billionLaughs() throws {
        let entities = ["<!ENTITY lol0 \"lol\">"] + (1..<10).map { "<!ENTITY lol\($0) \"\(String(repeating: "&lol\($0 - 1);", count: 10))\">" }
        try expectRefused(Self.write("billion.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n" + entities.joined(separator: "\n") + "\n]>\n<package>&lol9;</package>\n"))
    }

    @Test func quadraticBlowup() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY a \"" + String(repeating: "x", count: 50_000) + "\">]>\n<package>"
            + String(repeating: "&a;", count: 20_000) + "</package>\n"
        try expectRefused(Self.write("quadratic.xml", text))
    }

    @Test func externalEntitiesToAFileAndAURL() throws {
        try expectRefused(Self.write("xxe-file.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"file://\(Self.folder)/secret.txt\">]>\n<package>&x;</package>\n"))
        try expectRefused(Self.write("xxe-url.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"http://127.0.0.1:9/x\">]>\n<package>&x;</package>\n"))
        try expectRefused(Self.write("xxe-param.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM \"file://\(Self.folder)/secret.txt\"> %p;]>\n<package/>\n"))
    }

    @Test func deepNestingHugeTextAndBrokenEncodings() throws {
        try expectRefused(Self.write("deep.xml", String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)))
        try expectRefused(Self.write("huge-text.xml", "<package>\n<provider>" + String(repeating: "x", count: 50 << 20) + "</provider></package>"))
        try expectRefused(Self.write("bad-utf8.xml", Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<package>".utf8) + [0xFF, 0xFE, 0xC3, 0x28] + Array("</package>".utf8)))
        var utf16: [UInt8] = []
        for unit in "<package><provider>x</provider></package>".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try expectRefused(Self.write("utf16-no-bom.xml", utf16))
        // A byte the declared encoding cannot convert: libxml2 reports it on its context-free
        // channels too, which the reader silences.
        try expectRefused(Self.write("shift-jis.xml", Array("<?xml version=\"1.0\" encoding=\"SHIFT_JIS\"?><a>".utf8) + [0x81] + Array("</a>".utf8)))
        // 90,000 attributes in one start tag: libxml2 2.9 compares them pairwise (10 s).
        try expectRefused(Self.write("many-attributes.xml", "<package>\n<item " + (0..<90_000).map { "a\($0)=\"\"" }.joined(separator: " ") + "/></package>"))
        try expectRefused(Self.write("truncated.xml", "<?xml version=\"1.0\"?>\n<package>\n  <software>\n    <vendor_id>com.x"))
        try expectRefused(Self.write("binary.xml", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }))
        try expectRefused(Self.write("empty.xml", ""), rule: "input-malformed")
    }

    // MARK: YAML (descriptor)

    @Test func yamlAliasBombDeepNestingAndHugeScalars() throws {
        var lines = ["version: 1", #"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
            previous = name
        }
        try expectRefused(Self.write("bomb.yaml", lines.joined(separator: "\n") + "\n"))
        try expectRefused(Self.write("deep.yaml", "version: 1\nx: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"))
        try expectRefused(Self.write("huge-scalar.yaml", "version: 1\napp:\n  name: " + String(repeating: "x", count: 20 << 20) + "\n"))
    }

    @Test func yamlDuplicateKeysTabsInvalidUTF8AndBinary() throws {
        try expectRefused(Self.write("duplicate.yaml", "version: 1\nenvironment: sandbox\nenvironment: production\n"))
        try expectRefused(Self.write("tabs.yaml", "version: 1\napp:\n\tbundle_id: com.x\n"))
        try expectRefused(Self.write("bad-utf8.yaml", Array("version: 1\napp:\n  name: caf".utf8) + [0xE9, 0x0A]))
        try expectRefused(Self.write("binary.yaml", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0xFF, 0xD8]))
    }

    // MARK: Files a descriptor points at

    func descriptor(_ name: String, pointingAt key: String, _ file: String) -> String {
        Self.write(name, "version: 1\nenvironment: sandbox\napp:\n  \(key): \(file)\n")
    }

    @Test func hostilePropertyListsStoreKitFilesAndProjects() throws {
        let bombPlist = Self.write("Bomb-Info.plist", "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY x SYSTEM \"file://\(Self.folder)/secret.txt\">]>\n<plist><dict><key>CFBundleIdentifier</key><string>&x;</string></dict></plist>\n")
        try expectRefused(descriptor("plist-xxe.yaml", pointingAt: "info_plist", bombPlist))
        let deepPlist = Self.write("Deep.plist", "<plist>" + String(repeating: "<array>", count: 100_000) + "</plist>")
        try expectRefused(descriptor("plist-deep.yaml", pointingAt: "info_plist", deepPlist))
        let deepStoreKit = Self.write("Deep.storekit", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        try expectRefused(deepStoreKit)
        let truncatedStoreKit = Self.write("Truncated.storekit", "{ \"products\": [ { \"productID\": \"com.x")
        try expectRefused(truncatedStoreKit)
        let unterminatedString = Self.folder + "/Unterminated.xcodeproj"
        try FileManager.default.createDirectory(atPath: unterminatedString, withIntermediateDirectories: true)
        _ = Self.write("Unterminated.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{\n  archiveVersion = \"1;\n}\n")
        try expectRefused(descriptor("pbx-string.yaml", pointingAt: "xcodeproj", unterminatedString))
        let unterminatedComment = Self.folder + "/Comment.xcodeproj"
        try FileManager.default.createDirectory(atPath: unterminatedComment, withIntermediateDirectories: true)
        _ = Self.write("Comment.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{\n  /* never closed\n  archiveVersion = 1;\n}\n")
        try expectRefused(descriptor("pbx-comment.yaml", pointingAt: "xcodeproj", unterminatedComment))
    }
}
