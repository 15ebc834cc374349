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
