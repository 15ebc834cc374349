import Foundation
import Testing
import TestSupport

/// The malicious-input corpus, run through the real binary: every input ends with exit code 2, a
/// positioned error, bounded memory, and no byte of a referenced local file in any output. The
/// inputs are generated here (some are tens of megabytes) in a folder of each test's own, removed
/// when the test ends; the time limit guards against a hang, and each run prints its time in the
/// test log.
@Suite("Malicious inputs through the CLI", .serialized, .timeLimit(.minutes(2)))
final class MaliciousInputTests {
    static let secret = "IAPDOCTOR-SECRET-\(UUID().uuidString)"

    /// This test's folder, holding a secret file that hostile inputs try to pull in.
    let folder: String

    init() throws {
        folder = try makeScratchFolder("iapdoctor-malicious")
        try Self.secret.write(toFile: folder + "/secret.txt", atomically: true, encoding: .utf8)
    }

    deinit { removeScratch(folder) }

    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let path = folder + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }

    /// Peak memory allowed to one run of the binary.
    static let memoryLimit = 256 << 20

    /// Runs the binary under a small Python parent that waits for it with `wait4` and writes the
    /// child's own peak resident memory, in bytes, to `report`. Measured this way because
    /// `getrusage(RUSAGE_CHILDREN)` in the test process sums every child it ever had (the browser
    /// tests' included), and on Linux a child's peak also counts the memory of the process that
    /// spawned it, up to its `exec` (the test process itself, hundreds of megabytes here).
    /// `ru_maxrss` is in bytes on Darwin and in KiB on Linux.
    static let memoryProbe = [
        "python3", "-c",
        """
        import os, sys
        report, argv = sys.argv[1], sys.argv[2:]
        pid = os.posix_spawn(argv[0], argv, os.environ)
        _, status, usage = os.wait4(pid, 0)
        with open(report, "w") as f:
            f.write(str(usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)))
        sys.exit(os.waitstatus_to_exitcode(status))
        """,
    ]

    /// Runs `check` on `path` in text and JSON; expects exit 2, a positioned finding, no secret.
    func expectRefused(_ path: String, extra: [String] = [], rule: String = "input-malformed") throws {
        for format in ["text", "json"] {
            let start = Date()
            let report = folder + "/peak-memory.txt"
            let run = try runIAPDoctor(["check", path, "--format", format] + extra, launcher: Self.memoryProbe + [report])
            let seconds = Date().timeIntervalSince(start)
            #expect(run.status == 2, "\(path) (\(format)) exited \(run.status):\n\(run.output.prefix(2000))")
            #expect(!run.output.contains(Self.secret), "\(path) leaked the secret file's content")
            // Everything goes through the findings: nothing from libxml2 or libyaml on stderr.
            #expect(run.errors.isEmpty, "\(path) (\(format)) wrote to stderr:\n\(run.errors.prefix(500))")
            #expect(run.output.contains(rule), "\(path) (\(format)) did not report \(rule)")
            let peak = try #require(Int(readText(report)), "no peak memory reported for \(path) (\(format))")
            print("\(path.split(separator: "/").last!) [\(format)]: exit \(run.status) in \(String(format: "%.3f", seconds)) s, peak \(peak >> 20) MB")
            #expect(peak > 0 && peak < Self.memoryLimit, "\(path) (\(format)) used \(peak >> 20) MB at its peak")
            if format == "json" {
                let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
                let findings = object?["findings"] as? [[String: Any]] ?? []
                #expect(findings.contains { ($0["line"] as? Int ?? 0) >= 1 || $0["rule"] as? String == "input-unreadable" },
                        "\(path): no positioned finding")
            }
        }
    }

    // MARK: XML (bulk product XML)

    @Test func billionLaughs() throws {
        let entities = ["<!ENTITY lol0 \"lol\">"] + (1..<10).map { "<!ENTITY lol\($0) \"\(String(repeating: "&lol\($0 - 1);", count: 10))\">" }
        try expectRefused(write("billion.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n" + entities.joined(separator: "\n") + "\n]>\n<package>&lol9;</package>\n"))
    }

    @Test func quadraticBlowup() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY a \"" + String(repeating: "x", count: 50_000) + "\">]>\n<package>"
            + String(repeating: "&a;", count: 20_000) + "</package>\n"
        try expectRefused(write("quadratic.xml", text))
    }

    @Test func externalEntitiesToAFileAndAURL() throws {
        try expectRefused(write("xxe-file.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"file://\(folder)/secret.txt\">]>\n<package>&x;</package>\n"))
        try expectRefused(write("xxe-url.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"http://127.0.0.1:9/x\">]>\n<package>&x;</package>\n"))
        try expectRefused(write("xxe-param.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM \"file://\(folder)/secret.txt\"> %p;]>\n<package/>\n"))
    }

    @Test func deepNestingHugeTextAndBrokenEncodings() throws {
        try expectRefused(write("deep.xml", String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)))
        try expectRefused(write("huge-text.xml", "<package>\n<provider>" + String(repeating: "x", count: 50 << 20) + "</provider></package>"))
        try expectRefused(write("bad-utf8.xml", Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<package>".utf8) + [0xFF, 0xFE, 0xC3, 0x28] + Array("</package>".utf8)))
        var utf16: [UInt8] = []
        for unit in "<package><provider>x</provider></package>".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try expectRefused(write("utf16-no-bom.xml", utf16))
        // A byte the declared encoding cannot convert: libxml2 reports it on its context-free
        // channels too, which the reader silences.
        try expectRefused(write("shift-jis.xml", Array("<?xml version=\"1.0\" encoding=\"SHIFT_JIS\"?><a>".utf8) + [0x81] + Array("</a>".utf8)))
        // 90,000 attributes in one start tag: libxml2 2.9 compares them pairwise (10 s).
        try expectRefused(write("many-attributes.xml", "<package>\n<item " + (0..<90_000).map { "a\($0)=\"\"" }.joined(separator: " ") + "/></package>"))
        try expectRefused(write("truncated.xml", "<?xml version=\"1.0\"?>\n<package>\n  <software>\n    <vendor_id>com.x"))
        try expectRefused(write("binary.xml", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }))
        try expectRefused(write("empty.xml", ""), rule: "input-malformed")
    }

    // MARK: YAML (descriptor)

    @Test func yamlAliasBombDeepNestingAndHugeScalars() throws {
        var lines = ["version: 1", #"a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]")
            previous = name
        }
        try expectRefused(write("bomb.yaml", lines.joined(separator: "\n") + "\n"))
        try expectRefused(write("deep.yaml", "version: 1\nx: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "\n"))
        try expectRefused(write("huge-scalar.yaml", "version: 1\napp:\n  name: " + String(repeating: "x", count: 20 << 20) + "\n"))
    }

    @Test func yamlDuplicateKeysTabsInvalidUTF8AndBinary() throws {
        try expectRefused(write("duplicate.yaml", "version: 1\nenvironment: sandbox\nenvironment: production\n"))
        try expectRefused(write("tabs.yaml", "version: 1\napp:\n\tbundle_id: com.x\n"))
        try expectRefused(write("bad-utf8.yaml", Array("version: 1\napp:\n  name: caf".utf8) + [0xE9, 0x0A]))
        try expectRefused(write("binary.yaml", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0xFF, 0xD8]))
    }

    // MARK: Files a descriptor points at

    func descriptor(_ name: String, pointingAt key: String, _ file: String) -> String {
        write(name, "version: 1\nenvironment: sandbox\napp:\n  \(key): \(file)\n")
    }

    @Test func hostilePropertyListsStoreKitFilesAndProjects() throws {
        let bombPlist = write("Bomb-Info.plist", "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY x SYSTEM \"file://\(folder)/secret.txt\">]>\n<plist><dict><key>CFBundleIdentifier</key><string>&x;</string></dict></plist>\n")
        try expectRefused(descriptor("plist-xxe.yaml", pointingAt: "info_plist", bombPlist))
        let deepPlist = write("Deep.plist", "<plist>" + String(repeating: "<array>", count: 100_000) + "</plist>")
        try expectRefused(descriptor("plist-deep.yaml", pointingAt: "info_plist", deepPlist))
        let deepStoreKit = write("Deep.storekit", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
        try expectRefused(deepStoreKit)
        let truncatedStoreKit = write("Truncated.storekit", "{ \"products\": [ { \"productID\": \"com.x")
        try expectRefused(truncatedStoreKit)
        let unterminatedString = folder + "/Unterminated.xcodeproj"
        try FileManager.default.createDirectory(atPath: unterminatedString, withIntermediateDirectories: true)
        _ = write("Unterminated.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{\n  archiveVersion = \"1;\n}\n")
        try expectRefused(descriptor("pbx-string.yaml", pointingAt: "xcodeproj", unterminatedString))
        let unterminatedComment = folder + "/Comment.xcodeproj"
        try FileManager.default.createDirectory(atPath: unterminatedComment, withIntermediateDirectories: true)
        _ = write("Comment.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{\n  /* never closed\n  archiveVersion = 1;\n}\n")
        try expectRefused(descriptor("pbx-comment.yaml", pointingAt: "xcodeproj", unterminatedComment))
    }
}
