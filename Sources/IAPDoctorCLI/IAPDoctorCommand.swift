import ArgumentParser
import Foundation
import IAPDoctor
import Rules

@main
struct IAPDoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iapdoctor",
        abstract: "Finds out why StoreKit says your In-App Purchase products are invalid.",
        discussion: """
            StoreKit never says why a product ID came back in `invalidProductIdentifiers` (or is \
            missing from `Product.products(for:)`); iapdoctor answers the invalid-product-ID \
            checklist item by item from a project descriptor and your project files.

            Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 usage, \
            configuration or input error; 3 internal error.
            """,
        version: IAPDoctorVersion.current,
        subcommands: [Check.self, Report.self, Init.self, RulesCommand.self, Explain.self, ASC.self, RevenueCatCommand.self]
    )

    /// Usage errors exit with 2 (not ArgumentParser's 64), as the exit-code table promises.
    /// Anything else thrown by a command is an internal error: one line, exit 3 (a runtime trap
    /// ends the same way, through `InternalFailure`'s signal handlers).
    static func main() {
        InternalFailure.installHandlers()
        MallocArenas.useOne()
        StartupWarmUp.begin()
        if let quick = QuickCheckArguments.parse(Array(CommandLine.arguments.dropFirst())) {
            run { try quick.run() }
            return
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                IAPDoctorCommand.exit(withError: error)
            }
            writeError(fullMessage(for: error))
            terminate(2)
        }
        run { try command.run() }
    }

    /// Runs a parsed command, ending the process on every exit code it throws.
    private static func run(_ body: () throws -> Void) {
        do {
            try InternalFailure.simulateIfAsked()
            try body()
        } catch let exit as ExitCode {
            terminate(exit.rawValue)
        } catch let error as ValidationError {
            writeError(fullMessage(for: error))
            terminate(2)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                IAPDoctorCommand.exit(withError: error)
            }
            let line = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
            writeError("iapdoctor: internal error: \(line); this is a bug in iapdoctor: please report it with the input that caused it")
            terminate(3)
        }
    }
}

/// Ends the process with `code`. The C library's `exit`, which Foundation re-exports on every
/// platform; called from here because inside a command type `exit` names ArgumentParser's
/// `exit(withError:)`.
func terminate(_ code: Int32) -> Never {
    exit(code)
}

/// The terminal's width when standard output is one (its window size, else `COLUMNS`, else 80);
/// nil for a pipe or a file, whose text is not wrapped.
func terminalColumns() -> Int? {
    guard isatty(1) == 1 else { return nil }
    var size = winsize()
    if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
    return 80
}

func writeError(_ message: String) {
    let text = message.hasSuffix("\n") ? message : message + "\n"
    FileHandle.standardError.write(Data(text.utf8))
}

/// The `--fail-on` threshold.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Answers the invalid-product-ID checklist; checks bulk product XML, StoreKit files and builds.",
        discussion: """
            Takes a project descriptor (project.yaml, schema version 1) and the files it points at, \
            and any number of bulk product XML packages (metadata.xml files or .itmsp folders), \
            StoreKit configuration files (.storekit) and built apps (.ipa, .xcarchive, .app), in \
            any mix. A descriptor's `catalogs` are checked too, and cross-checked against its products.
            """)

    @Argument(help: "A project descriptor (.yaml), metadata.xml files, .itmsp folders, .storekit files, and .ipa, .xcarchive or .app builds.")
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format: text, json, sarif, junit, github, xcode, gitlab, checkstyle or markdown.")
    var format: OutputFormat = .text

    @Option(help: "Lowest severity that makes the exit code 1: error, warning, note or never.")
    var failOn: FailOn = .error

    @Flag(help: "Fail on warnings too (the same as --fail-on warning).")
    var strict = false

    @Flag(help: "Text: list every checklist item (by default passing and not-applicable ones are counted), each item's open questions and each product's unknown items (by default summed up under \"Next steps\").")
    var verbose = false

    @Option(name: .shortAndLong, help: "Write the report to this file (atomically) instead of standard output.")
    var output: String?

    @Option(help: "all: list every finding (json and sarif do by default); limited: at most 2,000 per rule, the rest counted in one note, as the other formats do (GitHub code scanning rejects a SARIF run of more than 25,000 results).")
    var listing: Listing?

    @OptionGroup var inputs: CheckInputOptions


    @Flag(name: .customLong("asc-pull"), help: "Pull the App Store Connect snapshot first (as `iapdoctor asc pull`, with the API key options below or their environment variables) and check with it.")
    var ascPull = false

    @Option(name: .customLong("bundle-id"), help: "With --asc-pull: the app's bundle ID (default: the descriptor's app.bundle_id).")
    var bundleID: String?

    @OptionGroup var ascKey: ASCKeyOptions

    @Option(help: "Colour: auto (only on a terminal, and never with NO_COLOR), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Apply the fixes that are certain (a short, differently cased or padded product ID where exactly one product matches; a misspelt descriptor key with one near key), then check again and report what is left. Only the literal's or the key's bytes change; links and files outside the project are never written.")
    var fix = false

    @Flag(help: "With --fix: print the edits as a unified diff instead of writing them; exit 1 when there is something to fix.")
    var diff = false

    @Option(help: "Accept the findings this baseline file lists (by rule, file and message, whatever their line): only new ones are reported and fail the check.")
    var baseline: String?

    @Option(name: .customLong("write-baseline"), help: "Write every finding of this check to this baseline file (atomically) and exit 0: adopt iapdoctor on an existing app, then check with --baseline.")
    var writeBaseline: String?

    func validate() throws {
        if diff && !fix { throw ValidationError("--diff is for --fix: `iapdoctor check --fix --diff project.yaml`") }
        if writeBaseline != nil && (fix || baseline != nil) { throw ValidationError("--write-baseline records every finding: leave out --fix and --baseline") }
        if fix && output != nil && diff { throw ValidationError("--fix --diff prints the diff; leave out --output") }
        guard !paths.isEmpty else {
            throw ValidationError("give a project descriptor (project.yaml), or metadata.xml files or .itmsp folders")
        }
        if ascPull && inputs.ascSnapshot != nil { throw ValidationError("give --asc FILE or --asc-pull, not both") }
        if bundleID != nil && !ascPull { throw ValidationError("--bundle-id is for --asc-pull") }
        if listing == .all && !type(of: format.reporter(color: false)).listsEveryFinding {
            throw ValidationError("--listing all is for --format json and sarif; --format \(format.rawValue) lists at most 2,000 findings per rule")
        }
    }

    /// What was given, as plain values (without `--asc-pull`'s key, which only `run` uses).
    var settings: CheckSettings {
        CheckSettings(
            paths: paths, format: format, failOn: failOn, strict: strict, verbose: verbose, output: output, listing: listing,
            color: color, inputs: inputs.values, fix: fix ? (diff ? .diff : .write) : .off, baseline: baseline, writeBaseline: writeBaseline)
    }

    func run() throws {
        let pulled = ascPull ? try PulledSnapshot.pull(paths: paths, bundleID: bundleID, key: ascKey) : nil
        defer { pulled?.remove() }
        try settings.run(pulledSnapshot: pulled?.path)
    }
}

/// A `check` once its arguments are read, by ArgumentParser (`Check.settings`) or by the quick
/// reading of its common forms (`QuickCheckArguments`).
struct CheckSettings: Equatable {
    var paths: [String]
    var format: OutputFormat = .text
    var failOn: FailOn = .error
    var strict = false
    var verbose = false
    var output: String? = nil
    var listing: Listing? = nil
    var color: ColorChoice = .auto
    var inputs = CheckInputs()
    var fix: FixMode = .off
    var baseline: String? = nil
    var writeBaseline: String? = nil

    /// `--fix`: off, write the edits, or print them as a diff.
    enum FixMode: Equatable { case off, write, diff }

    /// Checks, writes the report and ends by throwing the exit code.
    func run(pulledSnapshot: String? = nil) throws {
        let doctor = Doctor(engine: BuiltinRules.engine())
        if fix != .off { try applyFixes(doctor, pulledSnapshot: pulledSnapshot) }
        let useColor = output == nil && color.enabled(isTerminal: isatty(1) == 1)
        let reporter = format.reporter(color: useColor, verbose: verbose, width: output == nil ? terminalColumns() : nil)
        var request = inputs.request(paths: paths, failOn: strict ? .warning : failOn, pulledSnapshot: pulledSnapshot)
        request.listsEveryFinding = type(of: reporter).listsEveryFinding && listing != .limited
        request.quotesSources = type(of: reporter).quotesSources
        if let baseline {
            do throws(Baseline.Problem) {
                request.baseline = try Baseline.load(path: baseline)
            } catch {
                writeError("error: \(error.message)\nhelp: \(error.help)")
                throw ExitCode(2)
            }
        }
        let workspace = Workspace()
        if let writeBaseline {
            request.listsEveryFinding = true
            let diagnosis = workspace.run { doctor.check(request) }
            guard !diagnosis.hasInputErrors else {
                writeError("error: the baseline was not written: an input or the configuration could not be used\nhelp: run `iapdoctor check` without --write-baseline to see why")
                throw ExitCode(2)
            }
            do {
                try OutputFile.writeAtomically(Baseline.text(of: diagnosis), to: writeBaseline, in: workspace)
            } catch {
                writeError("error: \(error.message)\nhelp: \(error.help)")
                throw ExitCode(2)
            }
            writeError("wrote \(FindingListing(diagnosis).count) findings to \(Paths.displayPath(writeBaseline)): check with `--baseline \(Paths.displayPath(writeBaseline))` to fail only on new ones")
            throw ExitCode(0)
        }
        let diagnosis = workspace.run { doctor.check(request) }
        // Streamed: a report of every finding of a large catalog is never one string in memory.
        do {
            try OutputFile.writeAtomically(to: output ?? "/dev/stdout", in: workspace) { reporter.write(diagnosis, to: $0) }
        } catch {
            writeError("error: \(error.message)\nhelp: \(error.help)")
            throw ExitCode(2)
        }
        throw ExitCode(diagnosis.exitCode)
    }
}

extension CheckSettings {
    /// `--fix`: checks, plans the certain edits, and writes them (then the check below reports
    /// what is left) or, with `--diff`, prints them and ends.
    func applyFixes(_ doctor: Doctor, pulledSnapshot: String?) throws {
        var request = inputs.request(paths: paths, failOn: .error, pulledSnapshot: pulledSnapshot)
        request.listsEveryFinding = true
        let diagnosis = Workspace().run { doctor.check(request) }
        let root = inputs.root ?? Paths.directoryName(of: paths[0])
        let plan = Fixer.plan(diagnosis.findings, root: root)
        for refusal in plan.refused {
            writeError("not fixed: \(refusal.fix.location): \(refusal.reason)")
        }
        if fix == .diff {
            FileHandle.standardOutput.write(Data(Fixer.diff(plan)))
            throw ExitCode(plan.files.isEmpty ? 0 : 1)
        }
        do {
            try Fixer.apply(plan)
        } catch {
            writeError("error: \(error.message)\nhelp: \(error.help)")
            throw ExitCode(2)
        }
        let fixes = plan.fixCount
        writeError(fixes == 0
            ? "nothing to fix"
            : "fixed \(fixes) \(fixes == 1 ? "problem" : "problems") in \(plan.files.count) \(plan.files.count == 1 ? "file" : "files"): "
                + plan.files.map { Paths.displayPath($0.path) }.joined(separator: ", "))
        // The descriptor describes the app; fixing what it says does not change what the app does.
        let descriptors = Set(paths.filter { Doctor.kind(of: $0) == .descriptor }.map(Paths.normalize))
        for edit in plan.files where descriptors.contains(Paths.normalize(edit.path)) {
            writeError("note: `\(Paths.displayPath(edit.path))` is the descriptor: it only describes the app; "
                + "make the same change where the app's code or files say it, or the app still does what the descriptor said before")
        }
    }
}

/// `--listing`: every finding, or the per-rule limit and its note.
enum Listing: String, ExpressibleByArgument, CaseIterable {
    case all, limited
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    func enabled(isTerminal: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto: return isTerminal && getenv("NO_COLOR") == nil && getenv("TERM").map { String(cString: $0) } != "dumb"
        }
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension Environment: ExpressibleByArgument {
    public init?(argument: String) { self.init(spelling: argument) }
}

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Lists every rule with its checklist item and severity.")

    @Option(help: "Write the generated docs pages (one per rule, and README.md) into this folder.")
    var writeDocs: String?

    func run() throws {
        let ruleSet = RuleSet.builtin
        if let folder = writeDocs {
            for rule in ruleSet.rules {
                try write(RuleDocs.page(for: rule), to: "\(folder)/\(rule.id).md")
            }
            try write(RuleDocs.index(for: ruleSet), to: "\(folder)/README.md")
            print("wrote \(ruleSet.rules.count + 1) pages to \(folder)")
            return
        }
        let width = ruleSet.rules.map(\.id.count).max() ?? 0
        for rule in ruleSet.rules {
            let item = rule.checklist ?? "(inputs)"
            print("\(rule.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(rule.severity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0))  \(item.padding(toLength: 23, withPad: " ", startingAt: 0))  \(rule.title)")
        }
    }

    func write(_ text: String, to path: String) throws {
        do {
            // Generated from the built-in rules: this run has no inputs to spare.
            try OutputFile.writeAtomically(text, to: path, in: nil)
        } catch {
            writeError("error: \(error.message)\nhelp: \(error.help)")
            throw ExitCode(2)
        }
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Prints one rule's documentation, or one checklist item's rules.")

    @Argument(help: "A rule id (e.g. wildcard-app-id), or a checklist item's id or number (e.g. bank-details, 10).")
    var rule: String

    func run() throws {
        let ruleSet = RuleSet.builtin
        if let metadata = ruleSet.rule(rule) {
            print(RuleDocs.page(for: metadata), terminator: "")
            return
        }
        if let item = Checklist.items.first(where: { $0.id == rule || String($0.number) == rule }) {
            print(RuleDocs.page(for: item, in: ruleSet), terminator: "")
            return
        }
        var message = "error: there is no rule or checklist item `\(rule)`"
        let names = ruleSet.rules.map(\.id) + Checklist.items.map(\.id)
        if let suggestion = closestMatch(to: rule, in: names) { message += "; did you mean `\(suggestion)`?" }
        writeError(message + "\nhelp: `iapdoctor rules` lists every rule; checklist items are numbered 1–\(Checklist.items.count)")
        throw ExitCode(2)
    }
}
