import Foundation
import IAPDoctor
import Testing
import TestSupport

/// Runs the built `iapdoctor` on every example and compares its output, byte for byte, and its
/// exit code with the golden files beside the example. `IAPDOCTOR_BLESS=1 swift test` (what
/// `scripts/update-golden.sh` runs) rewrites them instead, and still fails when the tool crashes or
/// exits with another code than the table below says.
@Suite("Golden outputs of the examples")
struct GoldenTests {
    static let blessing = !(ProcessInfo.processInfo.environment["IAPDOCTOR_BLESS"] ?? "").isEmpty

    struct Example: Sendable, CustomStringConvertible {
        var folder: String
        var input: String
        var exitCode: Int32
        var formats: [String]
        var description: String { folder }
    }

    static let allFormats = ["text", "json", "sarif", "junit", "github", "xcode", "gitlab", "checkstyle", "markdown"]
    static let extensions = [
        "text": "txt", "json": "json", "sarif": "sarif", "junit": "junit.xml", "github": "github.txt",
        "xcode": "xcode.txt", "gitlab": "gitlab.json", "checkstyle": "checkstyle.xml", "markdown": "md",
        "html": "html", "text-verbose": "verbose.txt",
    ]

    /// The command line of one golden format: `check --format F`, `text-verbose` the text with
    /// every item listed, `html` the report page.
    static func arguments(_ input: String, format: String) -> [String] {
        switch format {
        case "html": return ["report", input, "-o", "-"]
        case "text-verbose": return ["check", input, "--format", "text", "--verbose"]
        default: return ["check", input, "--format", format]
        }
    }

    static let examples: [Example] = [
        Example(folder: "runmonster", input: "examples/runmonster/project.yaml", exitCode: 1, formats: allFormats + ["text-verbose"]),
        Example(folder: "healthy", input: "examples/healthy/project.yaml", exitCode: 0, formats: ["text", "text-verbose", "json"]),
        Example(folder: "subscriptions", input: "examples/subscriptions/project.yaml", exitCode: 1, formats: ["text", "json"]),
        Example(folder: "production-propagation", input: "examples/production-propagation/project.yaml", exitCode: 0, formats: ["text", "json", "html"]),
        Example(folder: "sandbox-just-changed", input: "examples/sandbox-just-changed/project.yaml", exitCode: 0, formats: ["text", "json", "html"]),
        Example(folder: "catalog", input: "examples/catalog/PocketGarden.itmsp", exitCode: 0, formats: ["text", "json"]),
        Example(folder: "catalog-broken", input: "examples/catalog-broken/Garden.itmsp", exitCode: 1, formats: allFormats),
        Example(folder: "runmonster-xcode", input: "examples/runmonster-xcode/project.yaml", exitCode: 1, formats: ["text", "json"]),
        Example(folder: "asc", input: "examples/asc/project.yaml", exitCode: 0, formats: ["text", "json", "sarif", "html"]),
        Example(folder: "storekit-broken", input: "examples/storekit-broken/Products.storekit", exitCode: 1, formats: ["text", "json", "sarif"]),
        Example(folder: "archive", input: "examples/archive/project.yaml", exitCode: 1, formats: ["text", "json", "sarif"]),
    ]

    @Test("every example in every golden format", arguments: examples)
    func goldenOutputs(example: Example) throws {
        for format in example.formats {
            let run = try runIAPDoctor(Self.arguments(example.input, format: format))
            // A crash (a signal, or exit 3 for an internal error) never becomes a golden file. The
            // report exits 0 whatever it found (only unusable inputs stop it).
            let exitCode = format == "html" && example.exitCode != 2 ? 0 : example.exitCode
            try #require(run.status == exitCode,
                         "\(example.folder) --format \(format) exited \(run.status), not \(exitCode):\n\(run.errors.prefix(2000))")
            // The xcode format prints absolute paths; the golden files hold them relative to the repository.
            let output = run.output.replacingOccurrences(of: repositoryRoot + "/", with: "")
            let golden = "examples/\(example.folder)/expected.\(Self.extensions[format]!)"
            if Self.blessing {
                try #require(!output.isEmpty, "\(example.folder) --format \(format) printed nothing")
                try output.write(toFile: repositoryFile(golden), atomically: true, encoding: .utf8)
                print("blessed \(golden)")
            } else {
                #expect(output == readText(repositoryFile(golden)), "output differs from \(golden); run scripts/update-golden.sh (IAPDOCTOR_BLESS=1 swift test) and review the diff")
            }
        }
    }

    /// Every golden file beside an example is one this suite writes and compares (none goes stale).
    @Test func everyGoldenFileIsChecked() throws {
        var checked = Set<String>()
        for example in Self.examples {
            for format in example.formats { checked.insert("examples/\(example.folder)/expected.\(Self.extensions[format]!)") }
        }
        var found = Set<String>()
        for folder in try FileManager.default.contentsOfDirectory(atPath: repositoryFile("examples")) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: repositoryFile("examples/\(folder)"))) ?? []
            for file in files where file.hasPrefix("expected.") { found.insert("examples/\(folder)/\(file)") }
        }
        #expect(!found.isEmpty)
        #expect(found == checked, "golden files nobody checks: \(found.subtracting(checked).sorted()); missing: \(checked.subtracting(found).sorted())")
    }

    /// `FAULT(rule-id): …` comments in the examples name a finding the example must report at that
    /// line. Every `FAULT` comment names its rule; a comment that only explains uses other words.
    @Test func faultCommentsAreFoundAtTheirLines() throws {
        let pattern = try Regex(#"FAULT\(([a-z0-9-]+)\):"#)
        var checkedFaults = 0
        for example in Self.examples {
            let folder = repositoryFile("examples/\(example.folder)")
            let run = try runIAPDoctor(["check", example.input, "--format", "json"])
            let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            let findings = (object?["findings"] as? [[String: Any]] ?? []).map {
                (rule: $0["rule"] as? String ?? "", file: $0["file"] as? String ?? "", line: $0["line"] as? Int ?? 0)
            }
            let enumerator = FileManager.default.enumerator(atPath: folder)
            while let relative = enumerator?.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                guard !name.hasPrefix("expected."), !name.hasSuffix(".md"), !name.hasSuffix(".png") else { continue }
                let text = readText(folder + "/" + relative)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains("FAULT:") || line.contains("FAULT(") {
                    let place = "examples/\(example.folder)/\(relative):\(index + 1)"
                    guard let match = line.firstMatch(of: pattern), let rule = match.output[1].substring.map(String.init) else {
                        Issue.record("\(place): a FAULT comment must name its rule, as FAULT(rule-id): …")
                        continue
                    }
                    checkedFaults += 1
                    #expect(RuleSet.builtin.rule(rule) != nil, "\(place): no rule `\(rule)`")
                    #expect(findings.contains { $0.rule == rule && $0.line == index + 1 && $0.file.hasSuffix("/" + relative) },
                            "\(place): FAULT(\(rule)) but no such finding at that line; found there: \(findings.filter { $0.line == index + 1 && $0.file.hasSuffix("/" + relative) }.map(\.rule))")
                }
            }
        }
        #expect(checkedFaults >= 20, "only \(checkedFaults) FAULT comments found")
    }

    @Test func jsonReportsCarryTheSchemaAndTheExitCode() throws {
        for example in Self.examples {
            let run = try runIAPDoctor(["check", example.input, "--format", "json"])
            let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            #expect(object?["schema"] as? String == "iapdoctor-report/1")
            let summary = object?["summary"] as? [String: Any]
            #expect(summary?["exit_code"] as? Int == Int(example.exitCode))
        }
    }

    @Test func theHealthyExampleIsClean() throws {
        let run = try runIAPDoctor(["check", "examples/healthy/project.yaml", "--strict"])
        #expect(run.status == 0)
        #expect(run.output.contains("0 errors, 0 warnings, 0 notes"))
    }

    @Test func outputIsDeterministic() throws {
        let first = try runIAPDoctor(["check", "examples/runmonster/project.yaml", "--format", "json"])
        let second = try runIAPDoctor(["check", "examples/runmonster/project.yaml", "--format", "json"])
        #expect(first.output == second.output)
    }

    @Test func malformedDescriptorIsExitCodeTwoWithOneJSONReport() throws {
        let path = scratchPath("iapdoctor-malformed", suffix: ".yaml")
        try "version: 1\napp: [unclosed\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { removeScratch(path) }
        let run = try runIAPDoctor(["check", path, "--format", "json"])
        #expect(run.status == 2)
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        let findings = object?["findings"] as? [[String: Any]]
        #expect(findings?.first?["rule"] as? String == "input-malformed")
        #expect(findings?.first?["line"] as? Int != nil)
    }

    @Test func usageErrorsExitWithTwo() throws {
        #expect(try runIAPDoctor(["check"]).status == 2)
        #expect(try runIAPDoctor(["check", "examples/healthy/project.yaml", "--format", "yaml"]).status == 2)
        #expect(try runIAPDoctor(["frobnicate"]).status == 2)
        #expect(try runIAPDoctor(["--version"]).status == 0)
        #expect(try runIAPDoctor(["explain", "no-such-rule"]).status == 2)
    }

    @Test func failOnAndStrictDecideTheExitCode() throws {
        let example = "examples/production-propagation/project.yaml"
        #expect(try runIAPDoctor(["check", example]).status == 0)
        #expect(try runIAPDoctor(["check", example, "--strict"]).status == 1)
        #expect(try runIAPDoctor(["check", example, "--fail-on", "warning"]).status == 1)
        #expect(try runIAPDoctor(["check", "examples/runmonster/project.yaml", "--fail-on", "never"]).status == 0)
    }

    @Test func outputFileIsWrittenAndStdoutStaysEmpty() throws {
        let path = scratchPath("iapdoctor-out", suffix: ".json")
        defer { removeScratch(path) }
        let run = try runIAPDoctor(["check", "examples/runmonster/project.yaml", "--format", "json", "--output", path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(readText(path) == readText(repositoryFile("examples/runmonster/expected.json")))
    }

    /// iapdoctor never writes to its inputs: an output path that names the descriptor, a file the
    /// descriptor points at or a catalog (also through a symlink) is refused and left untouched.
    @Test func outputOverAnInputIsRefused() throws {
        let folder = try makeScratchFolder("iapdoctor-inputs")
        defer { removeScratch(folder) }
        let source = repositoryFile("examples/runmonster-xcode")
        try FileManager.default.copyItem(atPath: source, toPath: folder + "/project")
        let descriptor = folder + "/project/project.yaml"
        let plist = folder + "/project/RunMonster/Info.plist"
        try FileManager.default.createSymbolicLink(atPath: folder + "/alias.yaml", withDestinationPath: descriptor)
        let before = [descriptor: readText(descriptor), plist: readText(plist)]
        for (command, target) in [("check", descriptor), ("check", plist), ("report", descriptor), ("check", folder + "/alias.yaml")] {
            let flag = command == "check" ? "--output" : "-o"
            let run = try runIAPDoctor([command, descriptor, flag, target])
            #expect(run.status == 2, "\(command) \(flag) \(target) exited \(run.status)")
            #expect(run.errors.contains("refusing to write to"), "\(command): \(run.errors)")
        }
        for (path, text) in before { #expect(readText(path) == text, "\(path) was changed") }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/alias.yaml") == descriptor)
        let catalog = repositoryFile("examples/catalog/PocketGarden.itmsp/metadata.xml")
        let copy = folder + "/metadata.xml"
        try FileManager.default.copyItem(atPath: catalog, toPath: copy)
        let run = try runIAPDoctor(["check", copy, "--format", "sarif", "--output", copy])
        #expect(run.status == 2)
        #expect(readText(copy) == readText(catalog))
    }

    @Test func explainPrintsTheDocsPage() throws {
        let run = try runIAPDoctor(["explain", "wildcard-app-id"])
        #expect(run.status == 0)
        #expect(run.output == readText(repositoryFile("docs/rules/wildcard-app-id.md")))
    }

    /// A checklist item by id or number: its question and every rule that answers it; anything
    /// else is a usage error that suggests the nearest name.
    @Test func explainTakesChecklistItems() throws {
        let byNumber = try runIAPDoctor(["explain", "10"])
        let byID = try runIAPDoctor(["explain", "bank-details"])
        #expect(byNumber.status == 0 && byNumber.output == byID.output)
        #expect(byNumber.output.hasPrefix("# 10. bank-details\n\nAre the Paid Apps Agreement, banking and tax all active?"))
        for rule in RuleSet.builtin.rules where rule.checklist == "bank-details" {
            #expect(byNumber.output.contains("| `\(rule.id)` | \(rule.severity.rawValue) |"), "\(rule.id)")
        }
        let wrong = try runIAPDoctor(["explain", "bank-detail"])
        #expect(wrong.status == 2 && wrong.errors.contains("did you mean `bank-details`?"), "\(wrong.errors)")
        #expect(try runIAPDoctor(["explain", "24"]).status == 2)
    }

    /// `check --help` names every kind of input `check` takes.
    @Test func checkHelpNamesEveryInputKind() throws {
        let help = try runIAPDoctor(["check", "--help"])
        for kind in [".yaml", "metadata.xml", ".itmsp", ".storekit", ".ipa", ".xcarchive", ".app"] {
            #expect(help.output.contains(kind), "\(kind)")
        }
    }
}
