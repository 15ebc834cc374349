import Foundation
import Testing
import TestSupport

/// The committed man page (docs/man/iapdoctor.1, from scripts/generate-manual.sh) documents every
/// subcommand and every option the commands' own help lists: a new option without a regenerated
/// page fails here.
@Suite("Man page") struct ManualTests {
    @Test(arguments: ["check", "report", "init", "rules", "explain", "asc pull"])
    func everyOptionIsInTheManPage(subcommand: String) throws {
        let page = readText(repositoryFile("docs/man/iapdoctor.1"))
        #expect(page.contains(".Sh NAME"), "docs/man/iapdoctor.1 is an mdoc page")
        let help = try runIAPDoctor(subcommand.split(separator: " ").map(String.init) + ["--help"])
        #expect(help.status == 0)
        let options = Set(help.output.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "[" || $0 == "]" || $0 == "=" || $0 == "<" })
            .map(String.init).filter { $0.hasPrefix("--") && $0.count > 2 && $0.dropFirst(2).allSatisfy { $0.isLetter || $0 == "-" } })
        #expect(!options.isEmpty, "\(subcommand) --help lists its options")
        for option in options.sorted() where option != "--help" && option != "--version" {
            // mdoc writes `--root` as `Fl -root`, and `-f, --format` as `Fl f , -format`.
            let name = option.dropFirst(2)
            #expect(page.contains(" -\(name) ") || page.contains(" -\(name)\n"), "`\(option)` of `\(subcommand)` is not in docs/man/iapdoctor.1; run scripts/generate-manual.sh")
        }
        for word in subcommand.split(separator: " ") {
            #expect(page.contains(word), "`\(subcommand)` is not in docs/man/iapdoctor.1")
        }
    }
}

/// `action.yml` is a composite action whose `iapdoctor` command lines use only options the tool has.
@Suite("GitHub Action") struct ActionTests {
    @Test(.enabled(if: SchemaTests.pythonIsReady || toolsRequired, "python3 with PyYAML not found (IAPDOCTOR_REQUIRE_TOOLS=1 runs this test)"))
    func actionParsesAndUsesRealOptions() throws {
        let script = """
            import json, sys, yaml
            action = yaml.safe_load(open(sys.argv[1]))
            print(json.dumps({"name": action.get("name"), "description": action.get("description"),
                              "using": action["runs"]["using"], "inputs": sorted(action["inputs"]),
                              "required": [k for k, v in action["inputs"].items() if v.get("required")],
                              "runs": [s.get("run", "") for s in action["runs"]["steps"]],
                              "shells": [s.get("shell") for s in action["runs"]["steps"] if "run" in s]}))
            """
        let result = try python(script, [repositoryFile("action.yml")])
        #expect(result.status == 0, "\(result.error)")
        let action = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(action["name"] as? String == "iapdoctor")
        #expect((action["description"] as? String)?.isEmpty == false)
        #expect(action["using"] as? String == "composite")
        #expect(action["required"] as? [String] == ["paths"])
        #expect((action["shells"] as? [String?])?.allSatisfy { $0 == "bash" } == true, "every run step of a composite action names its shell")
        let runs = (action["runs"] as? [String] ?? []).joined(separator: "\n")
        for subcommand in ["check", "report"] {
            let help = try runIAPDoctor([subcommand, "--help"]).output
            // Every `--option` written after `"$IAPDOCTOR" <subcommand>` exists in that subcommand's help.
            for line in runs.split(separator: "\n") where line.contains("\"$IAPDOCTOR\" \(subcommand) ") {
                for word in line.split(separator: " ") where word.hasPrefix("--") {
                    #expect(help.contains(String(word)), "action.yml uses `\(word)` with `\(subcommand)`, which has no such option")
                }
            }
        }
        #expect(runs.contains("--format github") && runs.contains("--format sarif") && runs.contains("--format markdown"))
    }
}

/// The Action's `paths` input, one path per line (`paths: |`) or on one line: every path is
/// checked. Each `read` line of `action.yml` is run by bash as the step runs it (`-eo pipefail`).
@Suite("The Action's paths")
struct ActionPathsTests {
    @Test func everyLineOfPathsIsChecked() throws {
        let action = try String(contentsOfFile: repositoryFile("action.yml"), encoding: .utf8)
        let reads = action.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("read ") }
        #expect(reads.count == 3)
        for read in reads {
            for paths in ["a.yaml\nb/metadata.xml\nc.storekit\n", "a.yaml b/metadata.xml c.storekit"] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/bash")
                process.arguments = ["--noprofile", "--norc", "-eo", "pipefail", "-c", read + "\nprintf '%s|' \"${paths[@]}\""]
                process.environment = ["PATHS": paths, "PATH": "/usr/bin:/bin"]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                process.waitUntilExit()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                #expect(process.terminationStatus == 0)
                #expect(text == "a.yaml|b/metadata.xml|c.storekit|", "\(read) with \(paths.debugDescription)")
            }
        }
    }
}
