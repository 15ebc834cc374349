import Foundation
import Testing

/// Runs the built `iapdoctor` on every example and compares its output, byte for byte, and its
/// exit code with the golden files beside the example (`scripts/update-golden.sh` rewrites them).
@Suite("Golden outputs of the examples")
struct GoldenTests {
    static let examples: [(name: String, exitCode: Int32)] = [
        ("runmonster", 1), ("healthy", 0), ("subscriptions", 1), ("production-propagation", 0),
    ]

    @Test("text output", arguments: examples.map(\.name))
    func textOutput(example: String) throws {
        let expectedCode = Self.examples.first { $0.name == example }!.exitCode
        let run = try runIAPDoctor(["check", "examples/\(example)/project.yaml"])
        #expect(run.status == expectedCode)
        let expected = readText(repositoryFile("examples/\(example)/expected.txt"))
        #expect(run.output == expected, "output differs from examples/\(example)/expected.txt; run scripts/update-golden.sh and review the diff")
    }

    @Test("json output", arguments: examples.map(\.name))
    func jsonOutput(example: String) throws {
        let expectedCode = Self.examples.first { $0.name == example }!.exitCode
        let run = try runIAPDoctor(["check", "examples/\(example)/project.yaml", "--format", "json"])
        #expect(run.status == expectedCode)
        let expected = readText(repositoryFile("examples/\(example)/expected.json"))
        #expect(run.output == expected, "output differs from examples/\(example)/expected.json")
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect(object?["schema"] as? String == "iapdoctor-report/1")
        let summary = object?["summary"] as? [String: Any]
        #expect(summary?["exit_code"] as? Int == Int(expectedCode))
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
        let path = NSTemporaryDirectory() + "iapdoctor-malformed-\(UUID().uuidString).yaml"
        try "version: 1\napp: [unclosed\n".write(toFile: path, atomically: true, encoding: .utf8)
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
        let path = NSTemporaryDirectory() + "iapdoctor-out-\(UUID().uuidString).json"
        let run = try runIAPDoctor(["check", "examples/runmonster/project.yaml", "--format", "json", "--output", path])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(readText(path) == readText(repositoryFile("examples/runmonster/expected.json")))
    }

    @Test func explainPrintsTheDocsPage() throws {
        let run = try runIAPDoctor(["explain", "wildcard-app-id"])
        #expect(run.status == 0)
        #expect(run.output == readText(repositoryFile("docs/rules/wildcard-app-id.md")))
    }
}
