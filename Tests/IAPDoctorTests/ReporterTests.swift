import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// The CI formats: each one must parse in the tool that reads it, escape whatever the inputs hold,
/// and give the same bytes for the same diagnosis.
@Suite("Reporters")
struct ReporterTests {
    /// The runmonster example: four errors, passing, failing and not-applicable checklist items.
    static func runmonster() -> Diagnosis {
        Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: [repositoryFile("examples/runmonster/project.yaml")]))
    }

    /// Runmonster plus findings that test the edges: markup and control characters in a message
    /// and a related span's label, an unknown line, no location at all, and two findings that
    /// would share a test-case name.
    static func hostile() -> Diagnosis {
        var diagnosis = runmonster()
        let file = diagnosis.findings[wildcardIndex(diagnosis)].location!.file
        diagnosis.findings += [
            Finding(rule: "missing-localization", severity: .warning, checklist: "product-metadata",
                    message: "display name `<script>&\"'` has a\ttab, a\u{1}control, a CR\r\nand 100% more",
                    help: "write <b>plain</b> text & retry", notes: ["a | pipe"],
                    location: SourceLocation(file: file, line: 7, column: 3),
                    related: [RelatedSpan(SourceLocation(file: file, line: 46, column: 13, endLine: 46, endColumn: 40), label: "a <b>label</b> & \u{1}")],
                    productID: "com.example.a|b"),
            Finding(rule: "propagation-window", severity: .note, checklist: "propagation-wait",
                    message: "the product changed recently", location: SourceLocation(file: file, line: 0, column: 0)),
            Finding(rule: "personal-team", severity: .error, checklist: "developer-program",
                    message: "the team is a personal team", location: nil),
            Finding(rule: "personal-team", severity: .error, checklist: "developer-program",
                    message: "the team is a personal team", location: nil),
        ]
        return diagnosis
    }

    /// The example's wildcard App ID finding (project.yaml:38:15), found by rule so that other
    /// findings the example gains do not move it.
    static func wildcardIndex(_ diagnosis: Diagnosis) -> Int {
        diagnosis.findings.firstIndex { $0.rule == "wildcard-app-id" }!
    }

    /// The first finding `hostile()` adds, the one full of markup and control characters.
    static func markupIndex(_ diagnosis: Diagnosis) -> Int {
        diagnosis.findings.firstIndex { $0.message.contains("<script>") }!
    }

    // MARK: SARIF

    @Test func sarifValidatesAgainstTheSchema() throws {
        for diagnosis in [Self.runmonster(), Self.hostile()] {
            let sarif = try temporaryFile(SARIFReporter().report(diagnosis), suffix: ".sarif")
            defer { try? FileManager.default.removeItem(atPath: sarif) }
            // The validator the schema declares (draft-04); no jsonschema means failure, not a skip.
            let result = try python("""
                import json, sys
                import jsonschema
                schema = json.load(open(sys.argv[1]))
                validator = jsonschema.validators.validator_for(schema)
                assert validator in (jsonschema.Draft4Validator, jsonschema.Draft7Validator), validator
                validator.check_schema(schema)
                validator(schema).validate(json.load(open(sys.argv[2])))
                print(validator.__name__)
                """, [repositoryFile("Tests/Fixtures/sarif-schema-2.1.0.json"), sarif])
            #expect(result.status == 0, "jsonschema validation failed: \(result.error)")
            #expect(result.output == "Draft4Validator\n")
        }
    }

    @Test func sarifDescribesTheRulesItUsesAndOmitsUnknownPositions() throws {
        let diagnosis = Self.hostile()
        let log = try jsonObject(SARIFReporter().report(diagnosis)) as! [String: Any]
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String != nil)
        let run = (log["runs"] as! [[String: Any]])[0]
        let driver = (run["tool"] as! [String: Any])["driver"] as! [String: Any]
        #expect(driver["name"] as? String == "iapdoctor")
        #expect(driver["semanticVersion"] as? String == diagnosis.toolVersion)
        #expect(driver["informationUri"] as? String == "https://github.com/iapdoctor/iapdoctor")
        let rules = driver["rules"] as! [[String: Any]]
        let ruleIDs = rules.map { $0["id"] as! String }
        #expect(Set(ruleIDs) == Set(diagnosis.findings.map(\.rule)))
        #expect(ruleIDs.count == Set(ruleIDs).count)
        let wildcard = rules.first { $0["id"] as? String == "wildcard-app-id" }!
        let metadata = diagnosis.ruleSet.rule("wildcard-app-id")!
        #expect((wildcard["shortDescription"] as! [String: Any])["text"] as? String == metadata.title)
        #expect((wildcard["fullDescription"] as! [String: Any])["text"] as? String == metadata.rationale)
        #expect((wildcard["help"] as! [String: Any])["text"] as? String == metadata.help)
        #expect(wildcard["helpUri"] as? String == "https://github.com/iapdoctor/iapdoctor/blob/main/docs/rules/wildcard-app-id.md")
        #expect((wildcard["defaultConfiguration"] as! [String: Any])["level"] as? String == "error")

        let results = run["results"] as! [[String: Any]]
        #expect(results.count == diagnosis.findings.count)
        for (result, finding) in zip(results, diagnosis.findings) {
            #expect(result["ruleId"] as? String == finding.rule)
            #expect(ruleIDs[result["ruleIndex"] as! Int] == finding.rule)
            #expect(result["level"] as? String == finding.severity.rawValue)
            #expect((result["message"] as! [String: Any])["text"] as? String == finding.message)
            guard let location = finding.location else {
                #expect(result["locations"] == nil)
                continue
            }
            let physical = ((result["locations"] as! [[String: Any]])[0])["physicalLocation"] as! [String: Any]
            #expect((physical["artifactLocation"] as! [String: Any])["uri"] as? String == location.file)
            if location.line >= 1 {
                let region = physical["region"] as! [String: Any]
                #expect(region["startLine"] as? Int == location.line)
                #expect(region["startColumn"] as? Int == location.column)
                #expect(region["endLine"] as? Int == (location.hasEnd ? location.endLine : nil))
                #expect(region["endColumn"] as? Int == (location.hasEnd ? location.endColumn : nil))
            } else {
                #expect(physical["region"] == nil)
            }
            let related = result["relatedLocations"] as? [[String: Any]] ?? []
            #expect(related.count == finding.related.count)
            for (entry, span) in zip(related, finding.related) {
                #expect((entry["message"] as? [String: Any])?["text"] as? String == span.label)
                let region = (entry["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
                #expect(region?["startLine"] as? Int == span.location.line)
                #expect(region?["endColumn"] as? Int == span.location.endColumn)
            }
        }
        #expect(results.contains { $0["relatedLocations"] != nil }, "the hostile diagnosis has a related span")
    }

    /// Every example's SARIF gives the end of every region: code scanning underlines the value.
    @Test func sarifRegionsOfTheExamplesHaveEnds() throws {
        let examples = ["runmonster", "catalog-broken", "storekit-broken"]
        for example in examples {
            let log = try jsonObject(readText(repositoryFile("examples/\(example)/expected.sarif"))) as! [String: Any]
            let results = (log["runs"] as! [[String: Any]])[0]["results"] as! [[String: Any]]
            #expect(!results.isEmpty)
            for result in results {
                for location in result["locations"] as? [[String: Any]] ?? [] {
                    let region = try #require((location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])
                    let start = try #require(region["startLine"] as? Int), end = try #require(region["endLine"] as? Int, "\(example): \(result["ruleId"] ?? "")")
                    #expect(end >= start)
                    let startColumn = try #require(region["startColumn"] as? Int), endColumn = try #require(region["endColumn"] as? Int)
                    #expect(end > start || endColumn > startColumn, "\(example): an empty region for \(result["ruleId"] ?? "")")
                }
            }
        }
    }

    // MARK: Text

    /// The example with `findings` in place of its own, and the source lines they point at.
    static func textReport(_ findings: (String) -> [Finding]) -> (text: String, line: (Int) -> String) {
        var diagnosis = runmonster()
        let file = diagnosis.findings[wildcardIndex(diagnosis)].location!.file
        diagnosis.findings = findings(file)
        diagnosis.quoteSources()
        let lines = readText(file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (TextReporter(color: false).report(diagnosis), { lines[$0 - 1] })
    }

    /// The body of finding `[number]`: from its header to the blank line after it.
    static func block(_ text: String, _ number: Int) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasSuffix("  [\(number)]") }) else { return [] }
        return Array(lines[start...].prefix { !$0.isEmpty })
    }

    @Test func textUnderlinesTheSpanAndLabelsTheRelatedOne() {
        let (text, line) = Self.textReport { file in
            let note = "the App ID is at \(file):38:15"
            return [Finding(
                rule: "wildcard-profile", severity: .error, checklist: "explicit-app-id", message: "the profile's App ID",
                notes: [note, "another note"], location: SourceLocation(file: file, line: 46, column: 13, endLine: 46, endColumn: 40),
                related: [RelatedSpan(SourceLocation(file: file, line: 38, column: 15, endLine: 38, endColumn: 42), label: "the App ID", note: note)])]
        }
        let file = text.split(separator: "\n").first { $0.contains("-->") }.map { String($0.split(separator: " ").last!.dropLast(6)) } ?? ""
        #expect(Self.block(text, 1) == [
            "error[wildcard-profile]: the profile's App ID  [1]",
            "  --> \(file):46:13",
            "   |",
            "38 | \(line(38))",
            "   |               --------------------------- the App ID",
            "...",
            "46 | \(line(46))",
            "   |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            // The note the span says already is left out; the other stays.
            "   = note: another note",
            "   = help: run `iapdoctor explain wildcard-profile`",
        ])
    }

    @Test func textJoinsASpanOverSeveralLinesToTheMargin() {
        let (text, line) = Self.textReport { file in
            [Finding(rule: "wildcard-profile", severity: .error, checklist: nil, message: "the profile",
                     location: SourceLocation(file: file, line: 44, column: 3, endLine: 47, endColumn: 22))]
        }
        #expect(Self.block(text, 1).dropFirst(2) == [
            "   |",
            "44 | /   \(line(44).dropFirst(2))",
            "45 | |   \(line(45).dropFirst(2))",
            "...",
            "47 | |   \(line(47).dropFirst(2))",
            "   | |_____________________^",
            "   = help: run `iapdoctor explain wildcard-profile`",
        ][...])
        // Started inside a line, the span is joined from its first character.
        let (inside, insideLine) = Self.textReport { file in
            [Finding(rule: "wildcard-profile", severity: .error, checklist: nil, message: "from the value",
                     location: SourceLocation(file: file, line: 45, column: 11, endLine: 46, endColumn: 12))]
        }
        #expect(Self.block(inside, 1).dropFirst(2) == [
            "   |",
            "45 |   \(insideLine(45))",
            "   |  ___________^",
            "46 | | \(insideLine(46))",
            "   | |___________^",
            "   = help: run `iapdoctor explain wildcard-profile`",
        ][...])
    }

    @Test func textShowsARelatedSpanInAnotherFileAfterThreeColons() {
        var diagnosis = Self.runmonster()
        let catalogFinding = diagnosis.findings.first { $0.location?.file.hasSuffix("metadata.xml") == true }!
        let catalog = catalogFinding.location!.file
        let file = diagnosis.findings[Self.wildcardIndex(diagnosis)].location!.file
        diagnosis.findings = [Finding(
            rule: "catalog-descriptor-mismatch", severity: .error, checklist: "catalog-valid", message: "they disagree",
            location: SourceLocation(file: file, line: 59, column: 17, endLine: 59, endColumn: 59),
            related: [RelatedSpan(SourceLocation(file: catalog, line: 2, column: 60, endLine: 2, endColumn: 72), label: "the package says")])]
        diagnosis.quoteSources()
        let block = Self.block(TextReporter(color: false).report(diagnosis), 1)
        let xmlLine = readText(catalog).split(separator: "\n")[1]
        #expect(Array(block.dropFirst(5)) == [
            "  ::: \(catalog):2:60",
            "   |",
            " 2 | \(xmlLine)",
            "   |                                                            ------------ the package says",
            "   = help: run `iapdoctor explain catalog-descriptor-mismatch`",
        ])
    }

    /// The lines a report quotes are read with the check, so a report written after the file
    /// changed or went away still shows what was checked; a format that quotes none reads none.
    @Test func reportsQuoteTheLinesReadWithTheCheckAndOpenNoFile() throws {
        let folder = try makeScratchFolder("quotes")
        defer { removeScratch(folder) }
        for name in ["project.yaml", "catalog"] {
            try FileManager.default.copyItem(atPath: repositoryFile("examples/runmonster/" + name), toPath: folder + "/" + name)
        }
        let doctor = Doctor(engine: BuiltinRules.engine())
        let quoted = doctor.check(Doctor.Request(paths: [folder + "/project.yaml"]))
        let located = try #require(quoted.findings.first { $0.location?.file.hasSuffix("project.yaml") == true && $0.location!.line > 0 })
        let line = try #require(quoted.sourceQuotes.line(located.location!.line, in: located.location!.file))
        #expect(!line.isEmpty)
        let before = TextReporter(color: false).report(quoted)
        try FileManager.default.removeItem(atPath: folder + "/project.yaml")
        #expect(TextReporter(color: false).report(quoted) == before)
        #expect(before.contains(line))
        let unquoted = doctor.check(Doctor.Request(paths: [repositoryFile("examples/runmonster/project.yaml")], quotesSources: false))
        #expect(unquoted.linesToQuote.isEmpty == false)
        #expect(unquoted.sourceQuotes.line(located.location!.line, in: repositoryFile("examples/runmonster/project.yaml")) == nil)
    }

    /// At a terminal's width, prose wraps at spaces under its own text; quoted source lines are
    /// never wrapped, and no word is changed, lost or split, with colour or without.
    @Test(arguments: [false, true])
    func textWrapsProseToTheWidthAndLeavesSourceWhole(_ color: Bool) {
        var diagnosis = Self.runmonster()
        diagnosis.quoteSources()
        let plain = TextReporter(color: color).report(diagnosis)
        let wrapped = TextReporter(color: color, width: 60).report(diagnosis)
        func visible(_ text: String) -> String {
            text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
        func words(_ text: String) -> [Substring] { visible(text).split(whereSeparator: { $0 == " " || $0 == "\n" }) }
        #expect(words(wrapped) == words(plain))
        #expect(wrapped.split(separator: "\n").count > plain.split(separator: "\n").count)
        // Source quotes and the paths they come from (`-->`, `:::`) are never wrapped.
        let quote = #"^ *([0-9]* \||-->|:::)"#
        let quoted = visible(plain).split(separator: "\n").filter { $0.range(of: quote, options: .regularExpression) != nil }
        #expect(!quoted.isEmpty)
        for line in wrapped.split(separator: "\n").map({ visible(String($0)) }) {
            let isQuote = line.range(of: quote, options: .regularExpression) != nil
            let isOneWord = line.trimmingCharacters(in: .whitespaces).split(separator: " ").count == 1
            #expect(isQuote || isOneWord || line.count <= 60, "\(line)")
        }
        // Each quoted line is there whole.
        for line in quoted { #expect(visible(wrapped).contains(String(line))) }
        // The checklist's continuation lines start under the question.
        let lines = visible(wrapped).split(separator: "\n").map(String.init)
        let first = lines.firstIndex { $0.contains("provisioning-profile  Is the build") }!
        let column = lines[first].range(of: "Is the build")!.lowerBound.utf16Offset(in: lines[first])
        #expect(lines[first + 1].prefix(column).allSatisfy { $0 == " " } && lines[first + 1].dropFirst(column).first != " ")
    }

    /// By default the checklist lists only the items that need something and counts the others;
    /// `--verbose` lists every item.
    @Test func textFoldsPassingItemsUnlessVerbose() {
        let diagnosis = Self.runmonster()
        let folded = TextReporter(color: false).report(diagnosis)
        let verbose = TextReporter(color: false, verbose: true).report(diagnosis)
        let passing = diagnosis.checklist.filter { $0.status == .pass || $0.status == .notApplicable }
        #expect(!passing.isEmpty)
        for entry in diagnosis.checklist {
            let shown = folded.contains(" \(entry.item.id) ")
            #expect(shown == !passing.contains { $0.item.id == entry.item.id }, "\(entry.item.id)")
            #expect(verbose.contains(" \(entry.item.id) "), "\(entry.item.id)")
        }
        #expect(folded.contains("(`--verbose` lists the \(passing.count) passing and not-applicable items)"))
    }

    @Test func textMarksAPointWithOneCaretAndOmitsTheHelpOfACustomRule() {
        let (text, line) = Self.textReport { file in
            [Finding(rule: "my-custom-rule", severity: .warning, checklist: nil, message: "custom",
                     location: SourceLocation(file: file, line: 38, column: 15))]
        }
        #expect(Array(Self.block(text, 1).dropFirst(3)) == ["38 | \(line(38))", "   |               ^"])
    }

    // MARK: JUnit and Checkstyle

    @Test func junitIsXMLWithUniqueNamesAndEscapedText() throws {
        let diagnosis = Self.hostile()
        let xml = JUnitReporter().report(diagnosis)
        #expect(!xml.contains("<script>"))
        #expect(!xml.contains("<b>"))
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let path = try temporaryFile(xml, suffix: ".xml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try python("""
            import json, sys, xml.dom.minidom
            document = xml.dom.minidom.parse(sys.argv[1])
            suites = document.documentElement
            cases = suites.getElementsByTagName("testcase")
            print(json.dumps({
                "root": suites.tagName,
                "tests": suites.getAttribute("tests"),
                "failures": suites.getAttribute("failures"),
                "cases": [[c.getAttribute("classname"), c.getAttribute("name")] for c in cases],
                "failureMessages": [f.getAttribute("message") for f in document.getElementsByTagName("failure")],
                "failureTypes": [f.getAttribute("type") for f in document.getElementsByTagName("failure")],
                "failureBodies": [f.firstChild.data for f in document.getElementsByTagName("failure")],
            }))
            """, [path])
        try #require(result.status == 0, "not well-formed XML: \(result.error)")
        let parsed = try jsonObject(result.output) as! [String: Any]
        let cases = parsed["cases"] as! [[String]]
        #expect(parsed["root"] as? String == "testsuites")
        #expect(parsed["tests"] as? String == String(cases.count))
        #expect(parsed["failures"] as? String == String(diagnosis.findings.count))
        #expect(Set(cases.map { $0[0] + "\u{0}" + $0[1] }).count == cases.count, "test-case names repeat: \(cases)")
        let passing = diagnosis.checklist.filter { $0.status == .pass }
        #expect(cases.filter { $0[0] == "checklist" }.count >= passing.count)
        for entry in passing {
            #expect(cases.contains { $0[0] == "checklist" && $0[1].contains(entry.item.id) })
        }
        #expect(Array(cases.prefix(diagnosis.findings.count).map { $0[0] }) == diagnosis.findings.map(\.rule))

        let messages = parsed["failureMessages"] as! [String]
        let markup = Self.markupIndex(diagnosis)
        // The message survives the round trip exactly, except its control characters, which are
        // shown escaped (`\u{1}`, `\u{D}`) as in every text format.
        let hostile = diagnosis.findings[markup].message.replacingOccurrences(of: "\u{1}", with: "\\u{1}")
            .replacingOccurrences(of: "\r", with: "\\u{D}")
        #expect(messages[markup] == hostile)
        #expect((parsed["failureTypes"] as! [String])[markup] == "warning")
        let body = (parsed["failureBodies"] as! [String])[markup]
        #expect(body.contains("write <b>plain</b> text & retry"))
        #expect(body.contains("note: a | pipe"))
        #expect(body.contains("help: run `iapdoctor explain missing-localization`"))
    }

    @Test func checkstyleIsXMLWithSortedFiles() throws {
        var diagnosis = Self.hostile()
        diagnosis.findings.append(Finding(rule: "missing-price", severity: .error, checklist: "product-metadata",
                                          message: "no price", location: SourceLocation(file: "zz/last.yaml", line: 2, column: 1)))
        let xml = CheckstyleReporter().report(diagnosis)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"))
        #expect(xml.contains(#"source="iapdoctor.wildcard-app-id""#))
        #expect(xml.contains(#"severity="info""#))
        let path = try temporaryFile(xml, suffix: ".xml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try python("""
            import sys, xml.dom.minidom
            document = xml.dom.minidom.parse(sys.argv[1])
            for file in document.getElementsByTagName("file"):
                print(file.getAttribute("name"), len(file.getElementsByTagName("error")))
            """, [path])
        try #require(result.status == 0, "not well-formed XML: \(result.error)")
        let files = result.output.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(files == files.sorted())
        #expect(files.last == "zz/last.yaml")
        #expect(Set(files).count == files.count)
        let paths = Set(diagnosis.findings.map { $0.location?.file ?? diagnosis.inputs[0] })
        #expect(Set(files) == paths)
    }

    // MARK: Line formats

    @Test func githubCommandsEscapeLikeTheActionsToolkit() {
        var diagnosis = Self.runmonster()
        diagnosis.findings = [
            Finding(rule: "missing-price", severity: .warning, checklist: "product-metadata",
                    message: "100% sure:\na,b\r", help: "set it", location: SourceLocation(file: "dir,x/a:b%.yaml", line: 4, column: 2)),
            Finding(rule: "propagation-window", severity: .note, checklist: "propagation-wait",
                    message: "wait", location: SourceLocation(file: "p.yaml", line: 0, column: 0)),
            Finding(rule: "personal-team", severity: .error, checklist: "developer-program", message: "personal", location: nil),
        ]
        let lines = GitHubReporter().report(diagnosis).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines == [
            "::warning file=dir%2Cx/a%3Ab%25.yaml,line=4,col=2,title=missing-price::100%25 sure:%0Aa,b%0D%0Ahelp: set it",
            "::notice file=p.yaml,title=propagation-window::wait",
            "::error title=personal-team::personal",
            diagnosis.summaryLine,
            "",
        ])
    }

    @Test func githubCommandsForTheExample() {
        let diagnosis = Self.runmonster()
        let lines = GitHubReporter().report(diagnosis).split(separator: "\n").map(String.init)
        let wildcard = Self.wildcardIndex(diagnosis)
        let file = diagnosis.findings[wildcard].location!.file.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
        #expect(lines.count == diagnosis.findings.count + 1)
        // GitHub's end column is the last character's: `7DW89RZKLY.com.runmonster.*` is columns 15 to 41.
        #expect(lines[wildcard].hasPrefix(
            "::error file=\(file),line=38,endLine=38,col=15,endColumn=41,title=wildcard-app-id::App ID `7DW89RZKLY.com.runmonster.*` is a wildcard"))
        #expect(lines.last == diagnosis.summaryLine)
    }

    @Test func xcodeLinesHaveThePathLineColumnShape() {
        let diagnosis = Self.runmonster()
        let lines = XcodeReporter().report(diagnosis).split(separator: "\n").map(String.init)
        let wildcard = Self.wildcardIndex(diagnosis)
        let finding = diagnosis.findings[wildcard]
        #expect(lines[wildcard] == "\(finding.location!.file):38:15: error: \(finding.message) [wildcard-app-id]")
        #expect(lines.last == diagnosis.summaryLine)

        var edges = diagnosis
        edges.findings = [
            Finding(rule: "missing-price", severity: .warning, checklist: nil, message: "two\nlines",
                    location: SourceLocation(file: "./examples/a.yaml", line: 3, column: 0)),
            Finding(rule: "propagation-window", severity: .note, checklist: nil, message: "wait",
                    location: SourceLocation(file: "examples/a.yaml", line: 0, column: 0)),
            Finding(rule: "personal-team", severity: .error, checklist: nil, message: "personal", location: nil),
        ]
        #expect(XcodeReporter(baseDirectory: "/repo").report(edges) == """
            /repo/examples/a.yaml:3: warning: two lines [missing-price]
            /repo/examples/a.yaml: note: wait [propagation-window]
            error: personal [personal-team]
            \(edges.summaryLine)

            """)
    }

    // MARK: GitLab

    @Test func gitlabFingerprintsIgnoreLinesButNotContent() throws {
        let diagnosis = Self.hostile()
        var moved = diagnosis
        for index in moved.findings.indices {
            if var location = moved.findings[index].location, location.line > 0 {
                location.line += 10
                moved.findings[index].location = location
            }
        }
        let wildcard = Self.wildcardIndex(diagnosis)
        var reworded = diagnosis
        reworded.findings[wildcard].message += " (reworded)"

        func issues(_ diagnosis: Diagnosis) throws -> [[String: Any]] {
            try jsonObject(GitLabReporter().report(diagnosis)) as! [[String: Any]]
        }
        let original = try issues(diagnosis)
        let fingerprints = original.map { $0["fingerprint"] as! String }
        #expect(try issues(moved).map { $0["fingerprint"] as! String } == fingerprints)
        #expect(try issues(reworded).map { $0["fingerprint"] as! String }[wildcard] != fingerprints[wildcard])
        #expect(Set(fingerprints).count == fingerprints.count, "the two identical findings need distinct fingerprints")
        #expect(fingerprints.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })

        let issue = original[wildcard]
        #expect(issue["check_name"] as? String == "wildcard-app-id")
        #expect(issue["description"] as? String == diagnosis.findings[wildcard].message)
        #expect(issue["severity"] as? String == "major")
        let location = issue["location"] as! [String: Any]
        #expect(location["path"] as? String == diagnosis.findings[wildcard].location!.file)
        #expect((location["lines"] as! [String: Any])["begin"] as? Int == 38)
        #expect(original.map { $0["severity"] as! String }.suffix(4) == ["minor", "info", "major", "major"])
        // Unknown lines and project-level findings still carry a path and line 1.
        for issue in original.suffix(3) {
            let location = issue["location"] as! [String: Any]
            #expect(!(location["path"] as! String).isEmpty)
            #expect((location["lines"] as! [String: Any])["begin"] as? Int == 1)
        }
    }

    // MARK: Markdown

    @Test func markdownEscapesTableCellsAndHTML() {
        var diagnosis = Self.hostile()
        diagnosis.appName = Fact("<img src=x onerror=alert(1)>", at: SourceLocation(file: "project.yaml", line: 1, column: 1))
        diagnosis.products[0].productID = "com.example.a|b"
        let markdown = MarkdownCheckReporter().report(diagnosis)
        #expect(!markdown.contains("<img"))
        #expect(!markdown.contains("<b>"))
        #expect(!markdown.contains("<script>"))
        #expect(markdown.contains("<code>&lt;script&gt;&amp;\"'</code>"))
        #expect(markdown.contains("**\(diagnosis.summaryLine)**"))
        #expect(markdown.contains("| # | Item | Question | Status | Findings |"))
        #expect(markdown.contains("| Product ID | Requested as | Verdict | Failing | At risk |"))
        #expect(markdown.contains("`com.example.a\\|b`"))
        // Every table row has exactly as many unescaped pipes as its header.
        let lines = markdown.split(separator: "\n").map(String.init)
        for (header, columns) in [("| # | Item |", 5), ("| Product ID |", 5)] {
            let start = lines.firstIndex { $0.hasPrefix(header) }!
            for row in lines[start...].prefix(while: { $0.hasPrefix("|") }) {
                #expect(unescapedPipes(row) == columns + 1, "broken row: \(row)")
            }
        }
        for entry in diagnosis.checklist where entry.status == .pass {
            #expect(lines.contains { $0.hasPrefix("| \(entry.item.number) | `\(entry.item.id)` |") && $0.contains("✅ pass") })
        }
        #expect(markdown.contains("\(Self.markupIndex(diagnosis) + 1). **warning** `missing-localization` at "))
        #expect(markdown.contains("help: write &lt;b&gt;plain&lt;/b&gt; text &amp; retry"))
    }

    // MARK: All formats

    @Test(arguments: OutputFormat.allCases)
    func everyFormatIsDeterministicAndEndsWithANewline(_ format: OutputFormat) {
        for make in [Self.runmonster, Self.hostile] {
            let first = format.reporter(color: false).report(make())
            let second = format.reporter(color: false).report(make())
            #expect(Array(first.utf8) == Array(second.utf8))
            #expect(first.hasSuffix("\n"))
            #expect(!first.hasSuffix("\n\n"))
        }
    }

    @Test func formatNamesMatchTheReporters() {
        for format in OutputFormat.allCases {
            #expect(type(of: format.reporter(color: false)).identifier == format.rawValue)
        }
    }
}

// MARK: Helpers

private func unescapedPipes(_ row: String) -> Int {
    var count = 0, escaped = false
    for character in row {
        if character == "|" && !escaped { count += 1 }
        escaped = character == "\\" && !escaped
    }
    return count
}

private func jsonObject(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
}

private func temporaryFile(_ contents: String, suffix: String) throws -> String {
    let path = scratchPath("iapdoctor", suffix: suffix)
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    return path
}

