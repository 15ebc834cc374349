import ArgumentParser
import Foundation
import IAPDoctor
import Rules

/// `iapdoctor report`: the checklist as a document for people (a self-contained HTML page, or
/// Markdown for a pull request or a job summary), rather than a CI format.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Writes the pre-submission checklist report (HTML page or Markdown).",
        discussion: """
            Runs the same check as `iapdoctor check` and writes what it found for people: the app, \
            a readiness summary, every checklist item with its findings and fixes, a verdict per \
            product, the catalogs, what no rule could check, and the version and rules used. \
            `--environment review` gives the pre-submission profile.

            The HTML page is one file with no external assets. For a GitHub job summary: \
            `iapdoctor report project.yaml --format markdown -o - >> "$GITHUB_STEP_SUMMARY"`.

            Exit codes: 0 the report was written (whatever it says); 2 usage, configuration or \
            input error (the report is still written, and says what could not be used).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, markdown

        var defaultFileName: String { self == .html ? "iapdoctor-report.html" : "iapdoctor-report.md" }
    }

    @Argument(help: "A project descriptor (.yaml), and any metadata.xml files or .itmsp folders to check with it.")
    var paths: [String]

    @Option(name: .shortAndLong, help: "Report format: html or markdown.")
    var format: Format = .html

    @Option(name: .shortAndLong, help: "Write the report to this file, atomically; `-` for standard output. Default: iapdoctor-report.html (or .md).")
    var output: String?

    @OptionGroup var inputs: CheckInputOptions

    @Option(help: "The threshold the report's `iapdoctor check` summary is stated against: error, warning, note or never.")
    var failOn: FailOn = .error

    func validate() throws {
        guard !paths.isEmpty else {
            throw ValidationError("give a project descriptor (project.yaml), or metadata.xml files or .itmsp folders")
        }
    }

    func run() throws {
        let doctor = Doctor(engine: BuiltinRules.engine())
        let workspace = Workspace()
        let diagnosis = workspace.run { doctor.check(inputs.values.request(paths: paths, failOn: failOn)) }
        let document = ReportDocument(diagnosis)
        let text = format == .html ? HTMLReport().render(document) : MarkdownReport().render(document)
        let destination = output ?? format.defaultFileName
        if destination == "-" {
            print(text, terminator: "")
        } else {
            do {
                try OutputFile.writeAtomically(text, to: destination, in: workspace)
            } catch {
                writeError("error: \(error.message)\nhelp: \(error.help)")
                throw ExitCode(2)
            }
            // Standard error, so standard output stays empty unless the report goes there.
            writeError("wrote \(destination): \(document.readinessLabel): \(document.readinessDetail)")
        }
        if diagnosis.hasInputErrors {
            writeError("error: an input or the configuration could not be used; the report lists the problems")
            throw ExitCode(2)
        }
    }
}
