import Foundation
@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
@testable import RuleEngine
@testable import Reporters
import Rules
import Testing
import TestSupport

/// What the checklist and the verdicts say: an item is `pass` only when nothing answers its
/// question "no", whatever the severity; a warning puts a product at risk; a project that uses no
/// In-App Purchase gets notes, not errors; open questions are grouped by where the answer lives.
@Suite("Answers: statuses, verdicts, next steps")
struct AnswerTests {
    static let answeringRules = RuleExampleTests.rulesWithExamples.filter { $0.checklist != nil && !$0.triggering.isEmpty }

    static func diagnosis(of snippet: String, rule: RuleMetadata) throws -> Diagnosis {
        switch rule.input {
        case .descriptor: return diagnose(snippet: snippet)
        case .asc: return diagnose(ascSnippet: snippet).diagnosis
        case .catalog: return try diagnose(catalogSnippet: snippet, rule: rule).0
        case .storekit: return try diagnose(storeKitSnippet: snippet)
        case .build: return try diagnose(buildSnippet: snippet)
        }
    }

    /// Every rule's triggering examples: each finding of a rule that answers its item leaves the
    /// item `fail` (an error) or `warn` (a warning or a note), never `pass`; the product it names
    /// is `invalid` for an error and at least `at_risk` for a warning. A context-only rule's
    /// findings sit under an item the other rules answer.
    @Test("no item passes while a finding answers it no", arguments: answeringRules.map(\.id))
    func noItemPassesWhileAFindingAnswersNo(ruleID: String) throws {
        let rule = try #require(RuleSet.builtin.rule(ruleID))
        for snippet in rule.triggering {
            let diagnosis = try Self.diagnosis(of: snippet, rule: rule)
            let fired = diagnosis.findings.filter { $0.rule == ruleID }
            #expect(!fired.isEmpty, "\(ruleID) did not fire on:\n\(snippet)")
            for finding in fired {
                let item = try #require(finding.checklist)
                let entry = try #require(diagnosis.checklist.first { $0.item.id == item })
                let number = try #require(diagnosis.findings.firstIndex { $0 == finding })
                #expect(entry.findings.contains(number), "\(ruleID): finding not listed under `\(item)`")
                if rule.contextOnly { continue }
                if finding.severity == .error {
                    #expect(entry.status == .fail, "\(ruleID): `\(item)` is \(entry.status.rawValue) with an error\n\(snippet)")
                } else {
                    #expect(entry.status == .fail || entry.status == .warn,
                            "\(ruleID): `\(item)` is \(entry.status.rawValue) while a \(finding.severity.rawValue) answers it no\n\(snippet)")
                }
                guard !entry.item.isAdvice, let product = diagnosis.products.first(where: { $0.productID == finding.productID }) else { continue }
                switch finding.severity {
                case .error: #expect(product.verdict == .invalid, "\(ruleID): \(product.productID) is \(product.verdict.rawValue)")
                case .warning: #expect(product.verdict == .invalid || product.verdict == .atRisk, "\(ruleID): \(product.productID) is \(product.verdict.rawValue)")
                case .note: break
                }
            }
        }
    }

    @Test func aJailbrokenDeviceIsAWarnNotAPass() throws {
        let diagnosis = diagnose(snippet: "testing:\n  jailbroken: true\n")
        let entry = try #require(diagnosis.checklist.first { $0.item.id == ChecklistID.deviceNotJailbroken.rawValue })
        #expect(entry.status == .warn)
        // Community advice: it never changes a product's verdict.
        #expect(diagnosis.products.allSatisfy { !$0.atRisk.contains(entry.item.id) })
    }

    @Test func aProductChangedWithinTheWindowIsAtRisk() throws {
        let diagnosis = diagnose(snippet: "products:\n  - updated_at: 2026-11-22T09:40:00Z\n")
        let entry = try #require(diagnosis.checklist.first { $0.item.id == ChecklistID.propagationWait.rawValue })
        #expect(entry.status == .warn)
        let changed = try #require(diagnosis.products.first { $0.atRisk.contains(ChecklistID.propagationWait.rawValue) })
        #expect(changed.verdict == .atRisk)
        #expect(diagnosis.exitCode == 0)
        let json = JSONReporter().report(diagnosis)
        #expect(json.contains("\"status\": \"warn\""))
        #expect(json.contains("\"verdict\": \"at_risk\""))
    }

    /// A context-only rule's finding is reported under its item without answering it.
    @Test func aContextOnlyFindingLeavesTheItemToTheOtherRules() throws {
        let rule = try #require(RuleSet.builtin.rule(RuleID.descriptorFileMismatch.rawValue))
        #expect(rule.contextOnly)
        let diagnosis = diagnose(snippet: rule.triggering[0])
        let finding = try #require(diagnosis.findings.first { $0.rule == rule.id })
        let entry = try #require(diagnosis.checklist.first { $0.item.id == finding.checklist })
        #expect(entry.status != .warn, "a disagreement between sources is not an answer")
    }

    // MARK: A project that sells nothing

    /// A tiny app on disk: a descriptor, one Swift file, an in-house profile.
    static func appWithoutPurchases(swift: String) throws -> String {
        let folder = try makeScratchFolder("no-purchase")
        try FileManager.default.createDirectory(atPath: folder + "/App", withIntermediateDirectories: true)
        try swift.write(toFile: folder + "/App/App.swift", atomically: true, encoding: .utf8)
        try """
            version: 1
            environment: sandbox
            checked_at: 2026-11-22T10:00:00Z
            app:
              name: Lighthouse
              bundle_id: com.example.lighthouse
              platform: macos
              sources: [App]
            signing:
              profile:
                type: enterprise
            """.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func anAppThatSellsNothingGetsNotesAndExitsZero() throws {
        let folder = try Self.appWithoutPurchases(swift: "import SwiftUI\nstruct ContentView: View { var body: some View { Text(\"hi\") } }\n")
        defer { removeScratch(folder) }
        let run = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
        #expect(run.status == 0, "\(run.output)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let profile = try #require(findings.first { $0["rule"] as? String == RuleID.profileCannotUseIap.rawValue })
        #expect(profile["severity"] as? String == "note")
        #expect((profile["notes"] as? [String])?.contains { $0.hasPrefix("if you add In-App Purchase") } == true)
        #expect(!findings.contains { $0["severity"] as? String == "error" })
        // One next step, not a wall of App Store Connect questions.
        let steps = try #require(report["next_steps"] as? [[String: Any]])
        #expect(steps.count == 1)
        #expect((steps.first?["text"] as? String)?.contains("nothing in the project uses In-App Purchase yet") == true)
    }

    @Test func theSameAppWithStoreKitGetsTheError() throws {
        let folder = try Self.appWithoutPurchases(swift: "import StoreKit\nfunc load() async throws { _ = try await Product.products(for: [\"com.example.lighthouse.tip\"]) }\n")
        defer { removeScratch(folder) }
        let run = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("\"rule\": \"\(RuleID.profileCannotUseIap.rawValue)\",\n      \"severity\": \"error\""))
    }

    // MARK: Next steps

    @Test func keysAreGroupedByWhereTheAnswerLives() {
        #expect(AnswerSource.of(key: "products") == .ascPull)
        #expect(AnswerSource.of(key: "products[3].updated_at") == .ascPull)
        #expect(AnswerSource.of(key: "app.bundle_id") == .ascPull)
        #expect(AnswerSource.of(key: "app.xcodeproj") == .project)
        #expect(AnswerSource.of(key: "app_id.in_app_purchase") == .ascPull)
        #expect(AnswerSource.of(key: "app_id.in_app_purchase_enabled_at") == .developerAccount)
        #expect(AnswerSource.of(key: "app_store_connect.released_at") == .appStoreConnect)
        #expect(AnswerSource.of(key: "developer_account.agreements.paid_apps") == .business)
        #expect(AnswerSource.of(key: "developer_account.membership") == .developerAccount)
        #expect(AnswerSource.of(key: "testing.sandbox_account.storefront") == .testDevice)
        #expect(AnswerSource.of(key: "environment") == .descriptor)
        #expect(AnswerSource.of(key: "testingx") == .descriptor)
    }

    /// One file answers every fact of the profile: the questions about them are one step.
    @Test func theProfilesQuestionsBecomeOne() throws {
        func entry(_ id: ChecklistID, _ keys: [String]) -> Diagnosis.ChecklistEntry {
            Diagnosis.ChecklistEntry(
                item: Checklist.item(id.rawValue)!, status: .unknown, findings: [],
                questions: keys.map { Diagnosis.Question(question: "Q \($0)?", key: $0, productID: nil) }, reasons: [])
        }
        let steps = Diagnosis.nextSteps(checklist: [
            entry(.bundleIdMatches, ["app.target"]),
            entry(.provisioningProfile, ["signing.profile.app_id", "signing.profile.type", "signing.profile.installed"]),
            entry(.fullProductId, ["requests"]),
        ], findings: [], bundleID: nil, hasSnapshot: false)
        let project = try #require(steps.first { $0.source == .project })
        // What the code requests first; the profile's questions as one.
        #expect(project.action.hasPrefix("Q requests? Set `requests`. Q app.target? Set `app.target`. Which provisioning profile signs the failing build? Set `signing.profile.file`"))
        #expect(project.action.hasSuffix("it answers `signing.profile.app_id`, `signing.profile.type`, `signing.profile.installed`."))
        #expect(project.items.map(\.number) == [4, 5, 8])
    }

    /// Without a bundle ID no command is printed with a placeholder, and the project's step,
    /// which can find the ID, comes before App Store Connect's.
    @Test func noPlaceholderInAPrintedCommand() throws {
        func entry(_ id: ChecklistID, _ keys: [String], status: Diagnosis.ItemStatus = .unknown, findings: [Int] = []) -> Diagnosis.ChecklistEntry {
            Diagnosis.ChecklistEntry(
                item: Checklist.item(id.rawValue)!, status: status, findings: findings,
                questions: keys.map { Diagnosis.Question(question: "Q \($0)?", key: $0, productID: nil) }, reasons: [])
        }
        let checklist = [
            entry(.appIdIapEnabled, ["app_id.in_app_purchase"]), entry(.clearedForSale, ["products"]),
            entry(.bundleIdMatches, ["app.target"]), entry(.productExists, ["products"]),
        ]
        let steps = Diagnosis.nextSteps(checklist: checklist, findings: [], bundleID: nil, hasSnapshot: false)
        #expect(steps.map(\.source) == [.project, .ascPull])
        let pull = try #require(steps.last)
        #expect(!pull.sentence.contains("<") && pull.sentence.contains("`iapdoctor check --asc-pull`"), "\(pull.sentence)")
        let known = Diagnosis.nextSteps(checklist: checklist, findings: [], bundleID: "com.acme.coins", hasSnapshot: false)
        #expect(known.map(\.source) == [.ascPull, .project])
        #expect(known[0].sentence.contains("`iapdoctor asc pull --bundle-id com.acme.coins -o asc-snapshot.json`"))
        // A failing item comes first, with its first error, where it is, and its help.
        let error = Finding(
            rule: "x", severity: .error, checklist: ChecklistID.fullProductId.rawValue, message: "`coin` is not a full product ID",
            help: "write `com.acme.coins.coin`", location: SourceLocation(file: "Store.swift", line: 4, column: 9))
        let failing = checklist + [entry(.fullProductId, [], status: .fail, findings: [0])]
        let fixed = Diagnosis.nextSteps(checklist: failing, findings: [error], bundleID: "com.acme.coins", hasSnapshot: false)
        #expect(fixed.first?.sentence == "Fix item 8 first: [1] `coin` is not a full product ID (Store.swift:4:9); write `com.acme.coins.coin`")
    }

    /// The device's questions come last even when they span more items: what the app requests
    /// decides which products there are to test.
    @Test func theDevicesQuestionsComeLast() {
        func entry(_ id: ChecklistID, _ keys: [String]) -> Diagnosis.ChecklistEntry {
            Diagnosis.ChecklistEntry(
                item: Checklist.item(id.rawValue)!, status: .unknown, findings: [],
                questions: keys.map { Diagnosis.Question(question: "Q \($0)?", key: $0, productID: nil) }, reasons: [])
        }
        let steps = Diagnosis.nextSteps(checklist: [
            entry(.fullProductId, ["requests"]),
            entry(.appReinstalled, ["testing.app_reinstalled"]), entry(.deviceNotJailbroken, ["testing.jailbroken"]),
            entry(.sandboxAccount, ["testing.sandbox_account"]), entry(.bankDetails, ["developer_account.banking"]),
        ], findings: [], bundleID: "com.acme.coins", hasSnapshot: false)
        #expect(steps.map(\.source) == [.business, .project, .testDevice])
    }

    @Test func itemListsJoinRuns() {
        #expect(Diagnosis.NextStep.itemList([10]) == "item 10")
        #expect(Diagnosis.NextStep.itemList([1, 2, 4, 9, 13, 14, 15, 16, 17, 22]) == "items 1, 2, 4, 9, 13–17, 22")
    }

    /// The Xcode example with no App Store Connect data: one pull answers most of what is open,
    /// and every open question is in exactly the steps of its key's place.
    @Test func anXcodeProjectWithoutAppStoreConnectDataIsToldToPull() throws {
        let run = try runIAPDoctor(["check", "examples/runmonster-xcode/project.yaml", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let steps = try #require(report["next_steps"] as? [[String: Any]])
        // A failing item leads, with its first error's fix; then the pull answers most of what is open.
        let first = try #require(steps.first)
        #expect(first["source"] as? String == AnswerSource.findings.rawValue)
        #expect((first["text"] as? String)?.hasPrefix("Fix items 1, 5, 6, 8, 13 first: [") == true, "\(first)")
        let pull = try #require(steps.dropFirst().first)
        #expect(pull["source"] as? String == AnswerSource.ascPull.rawValue)
        // The Run builds Debug (`….dev`); App Store Connect knows the app by the archived Release's ID.
        #expect((pull["text"] as? String)?.contains("iapdoctor asc pull --bundle-id com.runmonster.runmonsterfree -o") == true, "\(pull)")
        let checklist = try #require(report["checklist"] as? [[String: Any]])
        for entry in checklist {
            for question in entry["questions"] as? [[String: Any]] ?? [] {
                let key = question["key"] as? String ?? ""
                let source = key.isEmpty ? AnswerSource.descriptor : AnswerSource.of(key: key)
                let step = steps.first { $0["source"] as? String == source.rawValue }
                #expect((step?["items"] as? [String])?.contains(entry["id"] as! String) == true, "\(key) is in no step")
            }
        }
    }

    /// The header's facts come from the files when the descriptor does not state them.
    @Test func theHeaderNamesWhereEachFactCameFrom() throws {
        let run = try runIAPDoctor(["check", "examples/runmonster-xcode/project.yaml"])
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "iapdoctor \(IAPDoctorVersion.current): RunMonster (com.runmonster.runmonsterfree.dev)")
        #expect(lines.dropFirst().first?.contains("bundle ID from examples/runmonster-xcode/RunMonster.xcodeproj/project.pbxproj:313:33") == true)
        #expect(!run.output.contains("          ? "), "the per-item questions are for --verbose")
        let verbose = try runIAPDoctor(["check", "examples/runmonster-xcode/project.yaml", "--verbose"])
        #expect(verbose.output.contains("          ? Which In-App Purchases exist for this app? Set `products`."))
    }
}
