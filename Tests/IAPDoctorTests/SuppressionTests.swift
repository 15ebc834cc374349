import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// `iapdoctor:ignore` directives as read from a file's text.
@Suite("Suppression directives")
struct SuppressionDirectiveTests {
    @Test func eachCommentFormCoversItsLineOrTheNext() {
        let text = """
            let a = "gold" // iapdoctor:ignore short-product-id — legacy build
            // iapdoctor:ignore short-product-id, product-id-case-mismatch: two rules
            let b = "Gold"
              identifier: x.*   # iapdoctor:ignore wildcard-app-id
            <!-- iapdoctor:ignore catalog-xml-feed-retired — archived -->
            /* iapdoctor:ignore */
            """
        let found = Suppressions.directives(in: text, file: "F")
        #expect(found.map(\.location.line) == [1, 2, 4, 5, 6])
        #expect(found.map(\.coveredLine) == [1, 3, 4, 6, 7])
        #expect(found.map(\.rules) == [
            ["short-product-id"], ["short-product-id", "product-id-case-mismatch"], ["wildcard-app-id"], ["catalog-xml-feed-retired"], [],
        ])
        #expect(found.map(\.reason) == ["legacy build", "two rules", nil, "archived", nil])
        #expect(found[0].location.column == 19)
    }

    @Test func onlyFilesThatMentionTheMarkerAreScanned() {
        #expect(Suppressions.mentionsDirective(Array("x // iapdoctor:ignore r".utf8)))
        #expect(!Suppressions.mentionsDirective(Array("iapdoctor:ignor".utf8)))
        #expect(!Suppressions.mentionsDirective([]))
    }
}

/// Directives and baselines through the binary, on a copy of the RunMonster example.
@Suite("Suppressions and baselines")
struct SuppressionTests {
    /// A copy of RunMonster with `edit` applied to its descriptor's text.
    func project(_ name: String, _ edit: (String) -> String = { $0 }) throws -> String {
        let folder = try makeScratchFolder(name)
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.copyItem(atPath: repositoryFile("examples/runmonster"), toPath: folder)
        let text = try String(contentsOfFile: folder + "/project.yaml", encoding: .utf8)
        try edit(text).write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        return folder
    }

    func json(_ run: (output: String, status: Int32, errors: String)) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.errors)")
    }

    func rules(_ report: [String: Any]) -> [String] {
        (report["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
    }

    static let wildcardLine = "  identifier: 7DW89RZKLY.com.runmonster.*   # FAULT(wildcard-app-id): wildcard App ID"

    @Test func aDirectiveAtTheEndOfTheLineSuppressesThatFinding() throws {
        let folder = try project("suppress-inline") {
            $0.replacingOccurrences(of: Self.wildcardLine, with: "  identifier: 7DW89RZKLY.com.runmonster.*   # iapdoctor:ignore wildcard-app-id — kept on purpose")
        }
        defer { removeScratch(folder) }
        let before = try json(runIAPDoctor(["check", repositoryFile("examples/runmonster/project.yaml"), "--format", "json"]))
        let run = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
        let after = try json(run)
        #expect(rules(before).contains("wildcard-app-id"))
        #expect(!rules(after).contains("wildcard-app-id"))
        #expect(rules(after).filter { $0 != "wildcard-app-id" }.sorted() == rules(before).filter { $0 != "wildcard-app-id" }.sorted(), "\(rules(after))")
        let text = try runIAPDoctor(["check", folder + "/project.yaml"])
        #expect(text.output.contains("(1 suppressed)"), "\(text.output)")
        // The profile's finding still fails the wildcard item: one suppression, not the item.
        let item = (after["checklist"] as? [[String: Any]])?.first { $0["id"] as? String == "explicit-app-id" }
        #expect(item?["status"] as? String == "fail")
    }

    @Test func aDirectiveOnItsOwnLineCoversTheNextAndOneWithoutReasonIsANote() throws {
        let folder = try project("suppress-own-line") {
            $0.replacingOccurrences(of: Self.wildcardLine, with: "  # iapdoctor:ignore wildcard-app-id\n" + Self.wildcardLine)
        }
        defer { removeScratch(folder) }
        let report = try json(runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"]))
        #expect(!rules(report).contains("wildcard-app-id"))
        let note = (report["findings"] as? [[String: Any]])?.first { $0["rule"] as? String == "suppression-without-reason" }
        #expect(note?["severity"] as? String == "note")
        #expect(note?["line"] as? Int == 38, "\(String(describing: note))")
    }

    @Test func aDirectiveThatMatchesNothingIsANote() throws {
        let folder = try project("suppress-unused") {
            $0.replacingOccurrences(of: Self.wildcardLine, with: Self.wildcardLine.replacingOccurrences(of: "# FAULT(wildcard-app-id): wildcard App ID", with: "# iapdoctor:ignore wildcard-profile — wrong line"))
        }
        defer { removeScratch(folder) }
        let run = try runIAPDoctor(["check", folder + "/project.yaml"])
        #expect(run.output.contains("note[suppression-unused]: `iapdoctor:ignore wildcard-profile` suppresses nothing on line 38"), "\(run.output)")
        #expect(run.output.contains("error[wildcard-app-id]"))
        #expect(!run.output.contains("suppressed)"))
    }

    @Test func aDirectiveInCodeAndInXML() throws {
        let folder = try makeScratchFolder("suppress-code")
        defer { removeScratch(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/App", withIntermediateDirectories: true)
        try """
            import StoreKit
            func load() async throws {
                // iapdoctor:ignore short-product-id — the server maps it
                _ = try await Product.products(for: ["gold100"])
                _ = try await Product.products(for: ["silver"])
            }
            """.write(toFile: folder + "/App/Store.swift", atomically: true, encoding: .utf8)
        try """
            version: 1
            environment: sandbox
            app:
              bundle_id: com.acme.coins
              sources: [App]
            products:
              - product_id: com.acme.coins.gold100
              - product_id: com.acme.coins.silver
            """.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        let report = try json(runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"]))
        let short = (report["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "short-product-id" }
        #expect(short.count == 1 && (short.first?["message"] as? String)?.contains("`silver`") == true, "\(short)")

        let catalog = folder + "/Cat.itmsp"
        try FileManager.default.copyItem(atPath: repositoryFile("examples/catalog/PocketGarden.itmsp"), toPath: catalog)
        let metadata = try String(contentsOfFile: catalog + "/metadata.xml", encoding: .utf8)
        let plain = try runIAPDoctor(["check", catalog])
        #expect(plain.output.contains("note[catalog-xml-feed-retired]"))
        let lines = metadata.components(separatedBy: "\n")
        let package = try #require(lines.firstIndex { $0.hasPrefix("<package") })
        var edited = lines
        edited.insert("<!-- iapdoctor:ignore catalog-xml-feed-retired — an archived catalog -->", at: package)
        try edited.joined(separator: "\n").write(toFile: catalog + "/metadata.xml", atomically: true, encoding: .utf8)
        let suppressed = try runIAPDoctor(["check", catalog])
        #expect(!suppressed.output.contains("catalog-xml-feed-retired"), "\(suppressed.output)")
        #expect(suppressed.output.contains("(1 suppressed)"))
    }

    /// `.iapdoctor.yml` `ignore:` by rule and path (globs from the configuration's folder), from
    /// any current folder; an entry that matches nothing and one without a reason are notes; an
    /// unknown rule id is a configuration error.
    @Test func configurationIgnoresByRuleAndPath() throws {
        let folder = try project("suppress-config")
        defer { removeScratch(folder) }
        try """
            ignore:
              - { rule: wildcard-app-id, path: project.yaml, reason: on purpose }
              - { path: "catalog/*", reason: an archived catalog }
              - { rule: short-product-id, path: "Sources/*" }
            """.write(toFile: folder + "/.iapdoctor.yml", atomically: true, encoding: .utf8)
        let report = try json(runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"]))
        let found = rules(report)
        #expect(!found.contains("wildcard-app-id") && !found.contains("catalog-xml-feed-retired"), "\(found)")
        #expect(found.contains("wildcard-profile") && found.contains("short-product-id"))
        #expect(found.filter { $0 == "suppression-unused" }.count == 1 && found.filter { $0 == "suppression-without-reason" }.count == 1, "\(found)")
        #expect((report["summary"] as? [String: Any])?["suppressed"] as? Int == 2)

        try "ignore:\n  - { rule: wildcard-app-idd, reason: typo }\n".write(toFile: folder + "/.iapdoctor.yml", atomically: true, encoding: .utf8)
        let wrong = try runIAPDoctor(["check", folder + "/project.yaml"])
        #expect(wrong.status == 2 && wrong.output.contains("unknown rule `wildcard-app-idd`; did you mean `wildcard-app-id`?"), "\(wrong.output)")
    }

    /// A baseline accepts today's findings: lines inserted above them keep them accepted; a new
    /// finding is reported alone and fails the check.
    @Test func aBaselineSurvivesMovedLinesAndReportsOnlyNewFindings() throws {
        let folder = try project("baseline")
        defer { removeScratch(folder) }
        let baseline = folder + "/iapdoctor-baseline.json"
        let written = try runIAPDoctor(["check", folder + "/project.yaml", "--write-baseline", baseline])
        #expect(written.status == 0 && written.errors.contains("wrote 5 findings to "), "\(written.errors)")
        let first = try String(contentsOfFile: baseline, encoding: .utf8)
        _ = try runIAPDoctor(["check", folder + "/project.yaml", "--write-baseline", baseline])
        #expect(try String(contentsOfFile: baseline, encoding: .utf8) == first, "the same check wrote another baseline")

        let text = try String(contentsOfFile: folder + "/project.yaml", encoding: .utf8)
        try text.replacingOccurrences(of: "version: 1\n", with: "version: 1\n\n\n# moved\n")
            .write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        let accepted = try runIAPDoctor(["check", folder + "/project.yaml", "--baseline", baseline])
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(accepted.output.contains("0 errors, 0 warnings, 0 notes (5 suppressed)"), "\(accepted.output)")

        // A new fault: a second short request.
        let moved = try String(contentsOfFile: folder + "/project.yaml", encoding: .utf8)
        try moved.replacingOccurrences(of: "requests:\n", with: "requests:\n  - coins100\n")
            .write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        let fresh = try json(runIAPDoctor(["check", folder + "/project.yaml", "--baseline", baseline, "--format", "json"]))
        let messages = (fresh["findings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(messages.count == 1 && messages.first?.contains("coins100") == true, "\(messages)")
        #expect((fresh["summary"] as? [String: Any])?["exit_code"] as? Int == 1)
        #expect((fresh["summary"] as? [String: Any])?["suppressed"] as? Int == 5)
    }

    @Test func aBaselineThatIsNotOneIsRefused() throws {
        let folder = try makeScratchFolder("baseline-bad")
        defer { removeScratch(folder) }
        try "{\"schema\": \"other\"}".write(toFile: folder + "/b.json", atomically: true, encoding: .utf8)
        let run = try runIAPDoctor(["check", repositoryFile("examples/healthy/project.yaml"), "--baseline", folder + "/b.json"])
        #expect(run.status == 2 && run.errors.contains("is not one iapdoctor wrote: its `schema` is not `iapdoctor-baseline/1`"), "\(run.errors)")
        #expect(run.errors.contains("b.json:1:12: the baseline"), "\(run.errors)")
        try "{\"schema\": \"iapdoctor-baseline/1\",\n \"findings\": [\n  {\"rule\": 1}]}".write(toFile: folder + "/c.json", atomically: true, encoding: .utf8)
        let entry = try runIAPDoctor(["check", repositoryFile("examples/healthy/project.yaml"), "--baseline", folder + "/c.json"])
        #expect(entry.status == 2 && entry.errors.contains("c.json:3:3: the baseline is not one iapdoctor wrote: finding 1 lacks"), "\(entry.errors)")
        try "{\"schema\": ".write(toFile: folder + "/d.json", atomically: true, encoding: .utf8)
        let truncated = try runIAPDoctor(["check", repositoryFile("examples/healthy/project.yaml"), "--baseline", folder + "/d.json"])
        #expect(truncated.status == 2 && truncated.errors.contains("d.json:1:") && truncated.errors.contains("is not valid JSON"), "\(truncated.errors)")
        let missing = try runIAPDoctor(["check", repositoryFile("examples/healthy/project.yaml"), "--baseline", folder + "/none.json"])
        #expect(missing.status == 2 && missing.errors.contains("cannot read the baseline"), "\(missing.errors)")
    }
}
