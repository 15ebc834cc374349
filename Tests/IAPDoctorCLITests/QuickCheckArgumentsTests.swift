import ArgumentParser
import Testing

@testable import IAPDoctorCLI

/// The quick reading of `check` must mean what ArgumentParser means, or decline.
@Suite struct QuickCheckArgumentsTests {
    /// ArgumentParser's reading of `arguments` as `check` settings; nil if it is an error, help,
    /// or another command.
    func parsedInFull(_ arguments: [String]) -> CheckSettings? {
        guard let command = try? IAPDoctorCommand.parseAsRoot(arguments) else { return nil }
        return (command as? Check)?.settings
    }

    @Test func commonFormsAreReadAsArgumentParserReadsThem() throws {
        let forms: [[String]] = [
            ["check", "project.yaml"],
            ["check", "project.yaml", "--format", "json"],
            ["check", "--format=sarif", "a/metadata.xml", "b.itmsp"],
            ["check", "-f", "github", "project.yaml", "-o", "out.txt", "--strict"],
            ["check", "project.yaml", "--fail-on", "never", "--color", "always", "other.xml"],
            ["check", "--output=report.json", "--format", "json", "x=y"],
            ["check", "project.yaml", "--verbose", "--strict"],
        ]
        for form in forms {
            let quick = try #require(QuickCheckArguments.parse(form), "\(form)")
            #expect(quick == parsedInFull(form), "\(form)")
        }
        let read = try #require(QuickCheckArguments.parse(["check", "-f", "github", "p.yaml", "-o", "o.txt", "--strict", "q.xml"]))
        #expect(read == CheckSettings(paths: ["p.yaml", "q.xml"], format: .github, strict: true, output: "o.txt"))
    }

    @Test func everythingElseIsLeftToArgumentParser() {
        let declined: [[String]] = [
            [], ["check"], ["report", "project.yaml"], ["check", "--help"], ["check", "-h"], ["check", "help"],
            ["check", "p.yaml", "--format", "yaml"], ["check", "p.yaml", "--format"], ["check", "p.yaml", "--format="],
            ["check", "p.yaml", "-f", "json", "--format", "sarif"], ["check", "p.yaml", "--strict", "--strict"],
            ["check", "p.yaml", "--strict=yes"], ["check", "p.yaml", "--verbose=yes"], ["check", "p.yaml", "--verbose", "--verbose"], ["check", "p.yaml", "-o", "-"], ["check", "--", "p.yaml"],
            ["check", "p.yaml", "--listing", "all"], ["check", "p.yaml", "--asc-pull"], ["check", "p.yaml", "--root", "."],
            ["check", "p.yaml", "-fjson"], ["check", ""], ["check", "p.yaml", "--generate-completion-script", "bash"],
            ["check", "p.yaml", "--version"],
        ]
        for form in declined {
            #expect(QuickCheckArguments.parse(form) == nil, "\(form)")
        }
    }

    /// Every sequence of up to three pieces (a word, or an option and its value) from a set of
    /// paths, options, values and traps: whatever the quick reading accepts, ArgumentParser reads
    /// the same.
    @Test func noAcceptedSequenceDiffersFromArgumentParser() throws {
        // One of each kind (ArgumentParser in a debug build reads ~50 forms a second).
        let pieces: [[String]] = [
            ["p.yaml"], ["-"], ["help"], ["json"], ["--format", "json"], ["-f", "sarif"], ["--format=bogus"],
            ["--strict"], ["--verbose"], ["-o", "out.txt"], ["--fail-on", "note"], ["--color", "never"], ["--env", "x"], ["--format"],
        ]
        var accepted = 0
        func visit(_ prefix: [String], depth: Int) {
            let arguments = ["check"] + prefix
            if let quick = QuickCheckArguments.parse(arguments) {
                accepted += 1
                #expect(quick == parsedInFull(arguments), "\(arguments)")
            }
            guard depth > 0 else { return }
            for piece in pieces { visit(prefix + piece, depth: depth - 1) }
        }
        visit([], depth: 3)
        #expect(accepted > 200)
    }
}
