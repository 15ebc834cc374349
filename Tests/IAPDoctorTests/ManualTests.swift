import Foundation
import Testing

/// The committed man page (docs/man/iapdoctor.1, from scripts/generate-manual.sh) documents every
/// subcommand and every option the commands' own help lists: a new option without a regenerated
/// page fails here.
@Suite("Man page") struct ManualTests {
    @Test(arguments: ["check", "report", "init", "rules", "explain"])
    func everyOptionIsInTheManPage(subcommand: String) throws {
        let page = readText(repositoryFile("docs/man/iapdoctor.1"))
        #expect(page.contains(".Sh NAME"), "docs/man/iapdoctor.1 is an mdoc page")
        let help = try runIAPDoctor([subcommand, "--help"])
        #expect(help.status == 0)
        let options = Set(help.output.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "[" || $0 == "]" || $0 == "=" || $0 == "<" })
            .map(String.init).filter { $0.hasPrefix("--") && $0.count > 2 && $0.dropFirst(2).allSatisfy { $0.isLetter || $0 == "-" } })
        #expect(!options.isEmpty, "\(subcommand) --help lists its options")
        for option in options.sorted() where option != "--help" && option != "--version" {
            // mdoc writes `--root` as `Fl -root`, and `-f, --format` as `Fl f , -format`.
            let name = option.dropFirst(2)
            #expect(page.contains(" -\(name) ") || page.contains(" -\(name)\n"), "`\(option)` of `\(subcommand)` is not in docs/man/iapdoctor.1; run scripts/generate-manual.sh")
        }
        #expect(page.contains(subcommand), "`\(subcommand)` is not in docs/man/iapdoctor.1")
    }
}
