import Foundation
@testable import CodeScanner
@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
import Testing
import TestSupport

/// Generated-project manifests written to cost time or memory out of all proportion to their
/// size: Tuist constants that double each other, XcodeGen templates of thousands of settings named
/// again and again, thousands of configurations times thousands of targets, and includes that
/// point outside the project. Each input is generated here; each is bounded by the work, not by
/// the file, and a control keeps an ordinary manifest's answer.
@Suite("Hostile generated-project manifests", .timeLimit(.minutes(2)))
struct HostileManifestTests {
    static func tuist(_ fixture: ProjectFixture, constants: [String], bundleID: String) throws -> String? {
        fixture.write("Project.swift", (["import ProjectDescription"] + constants + ["""
            let project = Project(name: "Kettle", targets: [
                .target(name: "Kettle", destinations: .iOS, product: .app, bundleId: \(bundleID))
            ])
            """]).joined(separator: "\n") + "\n")
        let project = try XcodeProject.load(path: fixture.folder + "/Project.swift")
        let app = try #require(project.target(named: "Kettle"))
        return project.settings(target: app, configuration: "Release").value("PRODUCT_BUNDLE_IDENTIFIER")?.value
    }

    /// `let c1 = c0 + c0` 40 times would be 2^39 bytes: past 4,096 bytes a text is unknown, so
    /// the bundle ID is unknown (never a guess) and nothing large is built. Lists double alike.
    @Test func doublingTuistConstantsStopAtTheTextCap() throws {
        let fixture = ProjectFixture(projectName: "Kettle")
        var strings = ["let c0 = \"x\""]
        for level in 1..<40 { strings.append("let c\(level) = c\(level - 1) + c\(level - 1)") }
        #expect(try Self.tuist(fixture, constants: strings, bundleID: "c39") == nil)
        // Up to the cap the value is known: 2^12 = 4,096 bytes.
        #expect(try Self.tuist(fixture, constants: strings, bundleID: "c12") == String(repeating: "x", count: 4_096))
        #expect(try Self.tuist(fixture, constants: strings, bundleID: "c13") == nil)
        // Interpolation is capped the same way.
        #expect(try Self.tuist(fixture, constants: strings, bundleID: "\"\\(c12)y\"") == nil)

        var lists = ["let l0 = [\"x\"]"]
        for level in 1..<40 { lists.append("let l\(level) = l\(level - 1) + l\(level - 1)") }
        #expect(try Self.tuist(fixture, constants: lists + ["let id = \"com.acme.kettle\""], bundleID: "id") == "com.acme.kettle")
        #expect(ManifestEvaluatorProbe.elements(lists, "l39") == nil)
        #expect(ManifestEvaluatorProbe.elements(lists, "l13") == 8_192)
    }

    /// Ordinary manifests keep their answers: concatenation, interpolation and helpers.
    @Test func ordinaryTuistConstantsAreStillFollowed() throws {
        let fixture = ProjectFixture(projectName: "Kettle")
        let constants = ["let org = \"com.acme\"", "let app = org + \".\" + \"kettle\"", "let tests = \"\\(app).tests\""]
        #expect(try Self.tuist(fixture, constants: constants, bundleID: "app") == "com.acme.kettle")
        #expect(try Self.tuist(fixture, constants: constants, bundleID: "tests") == "com.acme.kettle.tests")
        let long = String(repeating: "a", count: 4_000)
        #expect(try Self.tuist(fixture, constants: ["let a = \"\(long)\""], bundleID: "a + \".b\"") == long + ".b")
    }

    // MARK: XcodeGen

    static func spec(_ fixture: ProjectFixture, _ text: String) throws(InputProblem) -> XcodeProject {
        fixture.write("project.yml", text)
        return try XcodeProject.load(path: fixture.folder + "/project.yml")
    }

    /// 40 targets naming a 5,000-setting template 16 times: each merge finds keys through an
    /// index, and a template named again in a row is merged once.
    @Test func largeTemplatesNamedManyTimesMergeByIndex() throws {
        let fixture = ProjectFixture()
        var lines = ["name: T", "targetTemplates:", "  Big:", "    settings:"]
        lines += (0..<5_000).map { "      SETTING_\($0): value\($0)" }
        lines += ["  Small:", "    settings: { SETTING_1: small, ONLY_SMALL: yes }", "targets:"]
        for index in 0..<40 {
            let names = index % 2 == 0 ? Array(repeating: "Big", count: 16) : Array(repeating: ["Big", "Small"], count: 8).flatMap { $0 }
            lines += ["  T\(index):", "    type: application", "    platform: iOS", "    templates: [\(names.joined(separator: ", "))]"]
        }
        let project = try Self.spec(fixture, lines.joined(separator: "\n") + "\n")
        #expect(project.targets.count == 40)
        let even = project.settings(target: try #require(project.target(named: "T0")), configuration: "Release")
        #expect(even.value("SETTING_4999")?.value == "value4999")
        #expect(even.value("SETTING_1")?.value == "value1")
        let odd = project.settings(target: try #require(project.target(named: "T1")), configuration: "Release")
        #expect(odd.value("SETTING_1")?.value == "small", "the last template named wins")
        #expect(odd.value("ONLY_SMALL")?.value == "YES")
    }

    /// Templates merge in the order named, the target's own keys over them, `${target_name}`
    /// replaced: `[A, B, A]` is A's values over B's.
    @Test func templatesMergeInTheOrderNamed() throws {
        let fixture = ProjectFixture()
        let project = try Self.spec(fixture, """
            name: T
            targetTemplates:
              A: { settings: { K: a, NAME: "${target_name}.a" } }
              B: { settings: { K: b, ONLY_B: b, NAME: b } }
            targets:
              App: { type: application, platform: iOS, templates: [A, B, A], settings: { OWN: own } }
              Other: { type: application, platform: iOS, templates: [A, B] }

            """)
        let app = project.settings(target: try #require(project.target(named: "App")), configuration: "Release")
        #expect(app.value("K")?.value == "a")
        #expect(app.value("ONLY_B")?.value == "b")
        #expect(app.value("NAME")?.value == "App.a")
        #expect(app.value("OWN")?.value == "own")
        let other = project.settings(target: try #require(project.target(named: "Other")), configuration: "Release")
        #expect(other.value("K")?.value == "b")
        #expect(other.value("NAME")?.value == "b")
    }

    static func configurationsTimesTargets(configurations: Int, targets: Int) -> String {
        (["name: C", "configs:"] + (0..<configurations).map { "  C\($0): \($0 % 2 == 0 ? "release" : "debug")" } + ["targets:"]
            + (0..<targets).map { "  T\($0): { type: application, platform: iOS }" }).joined(separator: "\n") + "\n"
    }

    /// 1,000 configurations times 1,000 targets, 60 KB, would be a million build configurations:
    /// past 20,000 the spec is refused with a message that says how many and what to do.
    @Test func configurationsTimesTargetsAreCapped() throws {
        let fixture = ProjectFixture()
        do throws(InputProblem) {
            _ = try Self.spec(fixture, Self.configurationsTimesTargets(configurations: 1_000, targets: 1_000))
            Issue.record("a million build configurations were made")
        } catch {
            #expect(error.finding.rule == RuleID.inputMalformed.rawValue)
            #expect(error.finding.message == "the XcodeGen spec declares 1000 configurations for 1000 targets, 1001000 build configurations in all; iapdoctor reads at most 20000")
            #expect(error.finding.help?.contains("xcodegen generate") == true)
        }
        // At the cap the spec is read.
        let project = try Self.spec(fixture, Self.configurationsTimesTargets(configurations: 100, targets: 199))
        #expect(project.targets.count == 199)
        #expect(project.targets[0].configurations.count == 100)
    }

    /// An include outside the project is refused from its path, the same way whether or not a
    /// file is there: what exists outside the project never changes the answer.
    @Test func anIncludeOutsideTheProjectIsRefusedWhetherItExistsOrNot() throws {
        let fixture = ProjectFixture()
        fixture.write("proj/project.yml", "name: I\ninclude: [../outside.yml, ../missing.yml]\ntargets: { App: { type: application, platform: iOS } }\n")
        func answer() -> String {
            Workspace.withConfinement(root: fixture.folder + "/proj") {
                do throws(InputProblem) {
                    _ = try XcodeProject.load(path: fixture.folder + "/proj/project.yml")
                    return "read"
                } catch {
                    return "\(error.finding.rule) \(error.finding.message) \(error.finding.location?.line ?? 0)"
                        .replacingOccurrences(of: "missing.yml", with: "outside.yml")
                }
            }
        }
        let absent = answer()
        fixture.write("outside.yml", "options: { bundleIdPrefix: com.outside }\n")
        fixture.write("missing.yml", "options: { bundleIdPrefix: com.outside }\n")
        let present = answer()
        #expect(absent == present)
        #expect(absent.hasPrefix("input-unreadable refusing to read"), "\(absent)")
        #expect(absent.contains("outside the project folder"), "\(absent)")
        // Inside the project a missing include is skipped, as before.
        fixture.write("proj/project.yml", "name: I\ninclude: [missing.yml]\ntargets: { App: { type: application, platform: iOS } }\n")
        #expect(answer() == "read")
    }
}

/// The list length a Tuist constant evaluates to, or nil when it is unknown.
enum ManifestEvaluatorProbe {
    static func elements(_ constants: [String], _ name: String) -> Int? {
        var evaluator = ManifestEvaluator()
        evaluator.collect(TuistManifest.tokens(constants.joined(separator: "\n") + "\n", path: "Project.swift"), file: "Project.swift")
        guard let declaration = evaluator.declarations[name]?.first else { return nil }
        guard case .array(let items) = evaluator.body(declaration.tokens, scope: [:], owners: [], file: "Project.swift") else { return nil }
        return items.count
    }
}
