import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// Every example, by the input `iapdoctor report` takes for it: its descriptor, or for a
/// catalog-only example its `.itmsp` package.
let reportExamples: [ReportExample] = {
    let folder = repositoryFile("examples")
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    return names.compactMap { name in
        let base = "examples/\(name)"
        if FileManager.default.fileExists(atPath: repositoryFile(base + "/project.yaml")) {
            return ReportExample(name: name, input: base + "/project.yaml")
        }
        let packages = ((try? FileManager.default.contentsOfDirectory(atPath: repositoryFile(base))) ?? []).filter { $0.hasSuffix(".itmsp") }.sorted()
        return packages.first.map { ReportExample(name: name, input: base + "/" + $0) }
    }
}()

struct ReportExample: Sendable, CustomStringConvertible {
    var name: String
    /// Relative to the repository root (the executable runs from there).
    var input: String
    var description: String { name }

    func diagnosis(environment: Environment? = nil) -> Diagnosis {
        Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: [repositoryFile(input)], environment: environment))
    }
}

func reportExample(_ name: String) -> ReportExample {
    reportExamples.first { $0.name == name } ?? ReportExample(name: name, input: "examples/\(name)/project.yaml")
}

@Suite("iapdoctor report: content, escaping and the command")
struct ReportTests {
    @Test func theExamplesIncludeEveryStoryAndTheInjection() {
        let names = reportExamples.map(\.name)
        for name in ["runmonster", "healthy", "subscriptions", "production-propagation", "injection"] {
            #expect(names.contains(name), "examples/\(name) is missing")
        }
    }

    @Test func theDocumentCountsItemsAndProductsAndKeepsTheChecklistOrder() {
        let document = ReportDocument(reportExample("runmonster").diagnosis())
        #expect(document.title == "RunMonster Free")
        #expect(document.bundleID == "com.runmonster.runmonsterfree")
        #expect(document.platform == "iOS")
        #expect(document.checkedAt == "2026-11-22T10:00:00Z")
        #expect(document.checklist.map(\.number) == Array(1...23))
        #expect(document.checklist.map(\.id) == Checklist.items.map(\.id))
        #expect(document.tally.pass == 15)
        #expect(document.tally.fail == 5)
        #expect(document.tally.unknown == 0)
        #expect(document.tally.notApplicable == 3)
        #expect(document.tally.invalidProducts == 2)
        #expect(document.tally.errors == 4 && document.tally.notes == 1)
        #expect(document.readiness == .notReady)
        #expect(document.readinessLabel == "Not ready")
        #expect(document.readinessDetail == "5 checklist items fail; 2 of 2 products are invalid.")
        // A finding that answers two items is under both.
        let explicit = document.checklist.first { $0.id == "explicit-app-id" }
        #expect(explicit?.findings.map(\.rule) == ["wildcard-app-id", "wildcard-profile"])
        #expect(explicit?.findings.first?.location?.sourceLine?.contains("identifier: 7DW89RZKLY.com.runmonster.*") == true)
        #expect(explicit?.findings.first?.docsURL == "https://github.com/iapdoctor/iapdoctor/blob/main/docs/rules/wildcard-app-id.md")
        // The catalog's retired-feed note is a note: the package passes.
        #expect(document.catalogs.count == 1)
        #expect(document.catalogs.first?.status == .pass)
        #expect(document.catalogs.first?.notes == 1)
        #expect(document.inputProblems.isEmpty)
        #expect(document.rules.ruleCount == RuleSet.builtin.rules.count)
        #expect(document.rules.configurationFile == nil && document.rules.disabledRules.isEmpty)
    }

    @Test func productRowsCarryTheDescriptorsFactsAndTheReasons() throws {
        let document = ReportDocument(reportExample("runmonster").diagnosis())
        let pro = try #require(document.products.first { $0.productID == "com.runmonster.runmonsterfree.upgradetopro" })
        #expect(pro.referenceName == "Pro Upgrade")
        #expect(pro.requestedAs == ["upgradetopro"])
        #expect(pro.type == "non-consumable")
        #expect(pro.status == "ready to submit")
        #expect(pro.clearedForSale == "no")
        #expect(pro.price == "tier 3")
        #expect(pro.localizations.map(\.locale) == ["en-US"])
        #expect(pro.localizations.first?.displayName == "Upgrade to Pro")
        #expect(pro.verdict == .invalid)
        #expect(pro.reasons.map(\.itemID) == ["app-id-iap-enabled", "cleared-for-sale", "provisioning-profile", "full-product-id", "explicit-app-id"])
        let cleared = try #require(pro.reasons.first { $0.itemID == "cleared-for-sale" })
        let finding = try #require(document.checklist.first { $0.id == "cleared-for-sale" }?.findings.first)
        #expect(cleared.findingNumbers == [finding.number])
        #expect(pro.anchor == "product-com.runmonster.runmonsterfree.upgradetopro")
    }

    @Test func unknownItemsAskTheirQuestionAndNotApplicableItemsSayWhy() throws {
        let document = ReportDocument(reportExample("injection").diagnosis())
        let keys = document.openQuestions.map(\.key)
        for key in ["testing.device", "testing.os_version", "testing.sandbox_account", "testing.jailbroken"] {
            #expect(keys.contains(key), "no question for \(key)")
        }
        let binary = try #require(document.notApplicable.first { $0.itemID == "binary-submitted" })
        #expect(!binary.reasons.isEmpty)
        #expect(document.tally.unknownProducts == 1 && document.tally.invalidProducts == 1)
        let beakers = try #require(document.products.first { $0.productID == "com.markuplab.app.beakers" })
        #expect(beakers.verdict == .unknown)
        #expect(beakers.reasons.allSatisfy { $0.status == .unknown })
        #expect(beakers.referenceName == "<script>alert(1)</script> Beakers")
    }

    @Test func reviewIsThePreSubmissionProfile() throws {
        let document = ReportDocument(reportExample("runmonster").diagnosis(environment: .review))
        #expect(document.isPreSubmission)
        #expect(document.environment == .review)
        #expect(document.readinessLabel == "Not ready to submit")
        // Submission-only items apply (and fail) here; in the sandbox they are not applicable.
        #expect(document.checklist.first { $0.id == "binary-submitted" }?.status == .fail)
        #expect(ReportDocument(reportExample("runmonster").diagnosis()).checklist.first { $0.id == "binary-submitted" }?.status == .notApplicable)
        let html = HTMLReport().render(document)
        #expect(html.contains("In-App Purchase pre-submission checklist"))
        #expect(MarkdownReport().render(document).contains("(pre-submission profile)"))
    }

    @Test func theRulesConfigurationUsedIsReported() throws {
        let file = scratchPath("iapdoctor-report-rules", suffix: ".yml")
        try "rules:\n  short-product-id: off\n  product-id-typo: warning\n  display-name-length: { options: { max_length: 35 } }\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(
            Doctor.Request(paths: [repositoryFile("examples/runmonster/project.yaml")], rulesFile: file))
        let rules = ReportDocument(diagnosis).rules
        #expect(rules.configurationFile == file)
        #expect(rules.disabledRules == ["short-product-id"])
        #expect(rules.ruleCount == RuleSet.builtin.rules.count - 1)
        #expect(rules.changes.map { "\($0.rule) \($0.option ?? "severity") \($0.value) \($0.defaultValue)" }
            == ["product-id-typo severity warning error", "display-name-length max_length 35 30"])
        let markdown = MarkdownReport().report(diagnosis)
        #expect(markdown.contains("- Rules turned off: `short-product-id`"))
        #expect(markdown.contains("  - `display-name-length` option `max_length`: `35` (default `30`)"))
        #expect(HTMLReport().report(diagnosis).contains("<dt>Rules turned off</dt><dd><code>short-product-id</code></dd>"))
    }

    @Test func aCatalogOnlyRunReportsThePackage() throws {
        let document = ReportDocument(reportExample("catalog-broken").diagnosis())
        #expect(!document.hasDescriptor)
        #expect(document.products.isEmpty)
        let catalog = try #require(document.catalogs.first)
        #expect(catalog.status == .fail)
        #expect(catalog.errors > 0)
        #expect(catalog.findingNumbers.count == catalog.errors + catalog.warnings + catalog.notes)
    }

    @Test func htmlEscapesEverythingFromTheInputs() {
        let html = HTMLReport().report(reportExample("injection").diagnosis())
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(html.contains("Markup Lab &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; Beakers"))
        #expect(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(HTMLReport.escape("a\"b'c<d>&\u{1}\u{1B}]52;c;\u{7}") == "a&quot;b&#39;c&lt;d&gt;&amp;\\u{1}\\u{1B}]52;c;\\u{7}")
        // The code spans of a message become <code>, with what is inside them escaped.
        #expect(html.contains("display name <code>&lt;script&gt;alert(1)&lt;/script&gt; Lab Pass Monthly</code> of <code>com.markuplab.app.pass.monthly</code>"))
    }

    @Test func markdownEscapesEverythingFromTheInputs() {
        let markdown = MarkdownReport().report(reportExample("injection").diagnosis())
        #expect(!markdown.contains("<script"))
        #expect(!markdown.contains("<img"))
        #expect(markdown.hasPrefix("# iapdoctor report: Markup Lab &lt;script&gt;alert(1)&lt;/script&gt;\n"))
        #expect(markdown.contains("| `com.markuplab.app.beakers` · &lt;script&gt;alert(1)&lt;/script&gt; Beakers |"))
    }

    @Test("the HTML fetches nothing: no external src, href, style sheet or font", arguments: reportExamples)
    func htmlMakesNoNetworkRequest(example: ReportExample) {
        let html = HTMLReport().report(example.diagnosis())
        #expect(networkReferences(in: html).isEmpty, "\(example.name): \(networkReferences(in: html))")
    }

    @Test func theNetworkCheckCatchesWhatItShould() {
        let page = """
            <img src="https://example.com/a.png"><link rel="stylesheet" href="//cdn.example.com/x.css">
            <a href="https://example.com/elsewhere">x</a><a href="\(ReportDocument.docsBaseURL)wildcard-app-id.md">ok</a>
            <style>@import "https://x"; body { background: url(http://y/z.png) }</style><a href="#finding-1">ok</a>
            """
        #expect(networkReferences(in: page).count == 5)
    }

    @Test func htmlIsStableAndItsOnlyTimeIsCheckedAt() {
        let diagnosis = reportExample("healthy").diagnosis()
        let html = HTMLReport().report(diagnosis)
        #expect(html == HTMLReport().report(diagnosis))
        let times = matches(of: "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z", in: html)
        #expect(!times.isEmpty)
        #expect(times.allSatisfy { $0 == "2026-11-22T10:00:00Z" })
    }

    @Test func htmlIsAccessible() {
        let html = HTMLReport().report(reportExample("runmonster").diagnosis())
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<h1>RunMonster Free</h1>"))
        #expect(html.contains("<th scope=\"col\">Question</th>"))
        #expect(html.contains("<th scope=\"row\">"))
        #expect(html.contains("@media print"))
        #expect(html.contains("name=\"viewport\""))
        // Status is a word beside the icon, and the icon is hidden from screen readers.
        #expect(html.contains("aria-hidden=\"true\" focusable=\"false\""))
        #expect(html.contains("</svg>fail</span>"))
        #expect(html.contains("</svg>not applicable</span>"))
        // Each checklist row is an anchor named after its item.
        for item in Checklist.items {
            #expect(html.contains("<tr id=\"\(item.id)\""), "no anchor for \(item.id)")
        }
    }

    @Test func markdownHasTheSameSections() {
        let diagnosis = reportExample("runmonster").diagnosis()
        let markdown = MarkdownReport().report(diagnosis)
        for heading in ["# iapdoctor report: RunMonster Free", "## At a glance", "## Checklist", "## Products",
                        "## Bulk product XML catalogs", "## What no rule could check", "### Questions to answer",
                        "### Not applicable here", "## Version and rules"] {
            #expect(markdown.contains("\n" + heading + "\n") || markdown.hasPrefix(heading + "\n"), "no \(heading)")
        }
        for item in Checklist.items { #expect(markdown.contains("| `\(item.id)` |"), "no row for \(item.id)") }
        #expect(markdown.contains("**❌ Not ready:** 5 checklist items fail; 2 of 2 products are invalid."))
        #expect(markdown.contains("- fix: request `com.runmonster.runmonsterfree.upgradetopro` instead of `upgradetopro`"))
        #expect(markdown.contains("| `com.runmonster.runmonsterfree.coins100` · Coins 100 | consumable | ready to submit | yes | tier 1 | en-US: 100 Coins | ❌ invalid |"))
        #expect(markdown.contains("- iapdoctor: `\(IAPDoctorVersion.current)`"))
        #expect(markdown.contains("- Rules turned off: none"))
    }

    // MARK: The command

    @Test func reportWritesMarkdownToStandardOutput() throws {
        let run = try runReport(["report", "examples/runmonster/project.yaml", "--format", "markdown", "-o", "-"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("# iapdoctor report: RunMonster Free\n"))
        #expect(run.output.contains("`examples/runmonster/project.yaml:63:23`"))
    }

    @Test func reportWritesTheDefaultHTMLFileInTheCurrentFolder() throws {
        let folder = scratchPath("iapdoctor-report")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try runReport(["report", repositoryFile("examples/healthy/project.yaml")], in: folder)
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
        #expect(readText(folder + "/iapdoctor-report.html").hasPrefix("<!DOCTYPE html>"))
        // Written through a temporary file that is renamed into place: nothing else is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["iapdoctor-report.html"])
    }

    @Test func findingsDoNotFailTheReportButInputErrorsDo() throws {
        let folder = scratchPath("iapdoctor-report")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try runReport(["report", "examples/runmonster/project.yaml", "-o", folder + "/runmonster.html"]).status == 0)
        #expect(readText(folder + "/runmonster.html").contains("data-checklist-item=\"cleared-for-sale\""))

        let malformed = folder + "/malformed.yaml"
        try "version: 1\napp: [unclosed\n".write(toFile: malformed, atomically: true, encoding: .utf8)
        let run = try runReport(["report", malformed, "--format", "markdown", "-o", folder + "/malformed.md"])
        #expect(run.status == 2)
        let markdown = readText(folder + "/malformed.md")
        #expect(markdown.contains("## Problems with the inputs"))
        #expect(markdown.contains("`input-malformed`"))
        #expect(markdown.contains("**❌ Not checked:**"))

        #expect(try runReport(["report", "examples/healthy/project.yaml", "-o", folder + "/no/such/folder/r.html"]).status == 2)
        #expect(try runReport(["report"]).status == 2)
        #expect(try runReport(["report", "examples/healthy/project.yaml", "--format", "pdf"]).status == 2)
    }
}

/// Renders each example's report in headless Chromium (Debian's `chromium`, which `.ci/run`
/// installs through `scripts/bootstrap.sh`; Google Chrome or Chromium on a Mac) and checks the DOM
/// the browser built, not the text we wrote. Under CI these tests always run, and fail without a
/// browser: they are the proof that the page works. Elsewhere, with no browser, they are skipped
/// by name.
@Suite("iapdoctor report in a real browser", .serialized,
       .enabled(if: HeadlessChromium.find() != nil || toolsRequired, "no Chromium or Google Chrome found (IAPDOCTOR_REQUIRE_TOOLS=1 runs these tests)"))
struct ReportBrowserTests {
    static let screenshotFolder = repositoryFile(".build/report-screenshots")

    @Test("the checklist and product rows are in the rendered DOM; a screenshot is taken", arguments: reportExamples)
    func rendersInChromium(example: ReportExample) throws {
        let browser = try #require(HeadlessChromium.find(), "no Chromium or Google Chrome found; run scripts/bootstrap.sh --tests (apt-get install chromium), or on a Mac install Google Chrome")
        try FileManager.default.createDirectory(atPath: Self.screenshotFolder, withIntermediateDirectories: true)
        let page = Self.screenshotFolder + "/\(example.name).html"
        let run = try runReport(["report", example.input, "-o", page])
        #expect(run.status == 0, "iapdoctor report \(example.input) exited \(run.status)")

        let dom = try browser.dumpDOM(of: page)
        let diagnosis = example.diagnosis()
        #expect(dom.contains("</html>"), "Chromium printed no DOM for \(example.name)")
        #expect(matches(of: "<tr[^>]* data-checklist-item=\"", in: dom).count == Checklist.items.count)
        #expect(matches(of: "<tr[^>]* data-product=\"", in: dom).count == diagnosis.products.count)
        for product in diagnosis.products {
            #expect(dom.contains("data-product=\"\(HTMLReport.escape(product.productID))\""), "no row for \(product.productID)")
        }
        #expect(dom.contains("<h1>"))

        let screenshot = Self.screenshotFolder + "/\(example.name).png"
        try? FileManager.default.removeItem(atPath: screenshot)
        try browser.screenshot(of: page, to: screenshot, width: 1200, height: 3000)
        let png = try #require(FileManager.default.contents(atPath: screenshot), "no screenshot at \(screenshot)")
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(screenshot) is not a PNG")
        #expect(png.count > 10_000, "\(screenshot) is suspiciously small (\(png.count) bytes)")
    }

    @Test func markupFromTheInputsStaysInertInTheBrowser() throws {
        let browser = try #require(HeadlessChromium.find(), "no Chromium or Google Chrome found; run scripts/bootstrap.sh --tests (apt-get install chromium), or on a Mac install Google Chrome")
        let folder = scratchPath("iapdoctor-report")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = folder + "/injection.html"
        #expect(try runReport(["report", "examples/injection/project.yaml", "-o", page]).status == 0)

        let dom = try browser.dumpDOM(of: page)
        #expect(dom.contains("</html>"))
        // The page has no script or image of its own, so any such element would come from the inputs.
        #expect(matches(of: "<script", in: dom.lowercased()).isEmpty)
        #expect(matches(of: "<img", in: dom.lowercased()).isEmpty)
        #expect(!dom.contains("onerror=\"alert"))
        // The markup is there as text, in the title, the heading, the products and a finding.
        #expect(dom.contains("<h1>Markup Lab &lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        #expect(dom.contains("<title>iapdoctor report: Markup Lab &lt;script&gt;alert(1)&lt;/script&gt;</title>"))
        #expect(matches(of: "\"&gt;&lt;img src=x onerror=alert\\(1\\)&gt;", in: dom).count >= 2)
        #expect(matches(of: "&lt;script&gt;alert\\(1\\)&lt;/script&gt; Lab Pass Monthly", in: dom).count >= 2)
    }
}

// MARK: Helpers

/// Absolute URLs the page would fetch: any in `src`, `srcset`, `href` (other than a rule page in
/// `<a href>`), `action`, `poster` or `data`, and any `url(…)` or `@import` in CSS that is not
/// a fragment. Returns what it found, for the failure message.
func networkReferences(in html: String) -> [String] {
    var found: [String] = []
    // A URL with a scheme, or a protocol-relative one, leaves the page; a fragment or a relative path does not.
    let isRemote = { (value: String) -> Bool in
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("//") || !matches(of: "^[a-zA-Z][a-zA-Z0-9+.-]*:", in: trimmed).isEmpty
    }
    for tag in matches(of: "<[a-zA-Z][^>]*>", in: html) {
        let name = matches(of: "^<[a-zA-Z0-9]+", in: tag).first?.dropFirst().lowercased() ?? ""
        for attribute in matches(of: "\\s(src|srcset|href|action|formaction|poster|data|xlink:href)=\"[^\"]*\"", in: tag) {
            let parts = attribute.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            let key = String(parts[0]).lowercased()
            let value = String(parts[1].dropFirst().dropLast())
            guard isRemote(value) else { continue }
            if name == "a" && key == "href" && value.hasPrefix(ReportDocument.docsBaseURL) { continue }
            found.append(tag)
        }
    }
    for style in matches(of: "<style[^>]*>[^<]*</style>", in: html) {
        found += matches(of: "url\\([^)#]*\\)|@import", in: style)
    }
    return found
}

func matches(of pattern: String, in text: String) -> [String] {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    return expression.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
}

/// The `iapdoctor` built with these tests: beside the test bundle or executable (so a build with
/// `--scratch-path` runs its own binary), else `.build/debug`.
let builtIAPDoctor: URL = {
    var folders: [URL] = []
    if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
        folders.append(bundle.bundleURL.deletingLastPathComponent())
    }
    if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
    folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    for folder in folders {
        let candidate = folder.appendingPathComponent("iapdoctor")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return URL(fileURLWithPath: repositoryFile(".build/debug/iapdoctor"))
}()

/// Runs the built `iapdoctor` in `folder` (the repository root unless told); returns its standard
/// output and exit code.
func runReport(_ arguments: [String], in folder: String = repositoryRoot) throws -> (output: String, status: Int32) {
    let process = Process()
    process.executableURL = builtIAPDoctor
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus)
}

/// Headless Chromium, run the way a container allows: no sandbox (no user namespaces), no GPU, a
/// fresh profile in a temporary folder each time, and a time limit.
struct HeadlessChromium {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var executable: String

    /// `IAPDOCTOR_CHROME` if set; `chromium` (Debian), else the names other systems use, from
    /// PATH; else the applications a Mac installs Chrome and Chromium as, which are not on PATH.
    static func find() -> HeadlessChromium? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["IAPDOCTOR_CHROME"], !chosen.isEmpty {
            return FileManager.default.isExecutableFile(atPath: chosen) ? HeadlessChromium(executable: chosen) : nil
        }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return HeadlessChromium(executable: candidate) }
            }
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        for applications in ["/Applications", home + "/Applications"] {
            for app in ["Google Chrome.app/Contents/MacOS/Google Chrome", "Chromium.app/Contents/MacOS/Chromium",
                        "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"] {
                let candidate = applications + "/" + app
                if FileManager.default.isExecutableFile(atPath: candidate) { return HeadlessChromium(executable: candidate) }
            }
        }
        return nil
    }

    func dumpDOM(of page: String) throws -> String {
        try run(["--dump-dom", URL(fileURLWithPath: page).absoluteString])
    }

    func screenshot(of page: String, to file: String, width: Int, height: Int) throws {
        _ = try run(["--screenshot=\(file)", "--window-size=\(width),\(height)", "--hide-scrollbars", URL(fileURLWithPath: page).absoluteString])
    }

    /// Runs Chromium; returns its standard output. Output goes to files, not pipes: Chromium's
    /// helper processes can keep a pipe open after the browser exits.
    func run(_ arguments: [String], timeLimit: TimeInterval = 120) throws -> String {
        let folder = scratchPath("iapdoctor-chromium")
        try FileManager.default.createDirectory(atPath: folder + "/profile", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stdoutPath = folder + "/stdout", stderrPath = folder + "/stderr"
        #expect(FileManager.default.createFile(atPath: stdoutPath, contents: nil))
        #expect(FileManager.default.createFile(atPath: stderrPath, contents: nil))
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--user-data-dir=\(folder)/profile",
        ] + arguments
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeLimit)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure(description: "chromium took longer than \(Int(timeLimit)) s: \(arguments)")
        }
        try stdout.close()
        try stderr.close()
        let output = readText(stdoutPath)
        guard process.terminationStatus == 0 else {
            let log = readText(stderrPath).split(separator: "\n").suffix(15).joined(separator: "\n")
            throw Failure(description: "chromium exited \(process.terminationStatus): \(arguments)\n\(log)")
        }
        return output
    }
}
