import Foundation
@testable import Loaders
import Model
import IAPDoctor
import Rules
import Testing
import TestSupport

/// The build that runs in the environment checked answers what the source tree leaves open (a
/// setting CI injects, an xcconfig kept out of version control, a profile automatic signing
/// chose), and where both speak and disagree, one finding says both.
@Suite("Build facts beside the source tree")
struct BuildFactsTests {
    /// The healthy project with `overlay`, `adjust`ed, beside the fixture's build.
    func diagnose(_ fixture: BuiltAppFixture, ipa: Bool = false, overlay: String = "environment: testflight",
                  adjust: (inout Project) -> Void = { _ in }) throws -> Diagnosis {
        let folder = try makeScratchFolder("build-facts")
        defer { removeScratch(folder) }
        let path = ipa ? try fixture.writeIPA(in: folder) : try fixture.writeArchive(in: folder)
        var (project, problems) = healthyProject(overlay: overlay)
        project.builtApps.append(try BuiltApp.load(path: path))
        adjust(&project)
        return BuiltinRules.engine().diagnose(project, inputProblems: problems, options: Engine.Options())
    }

    func pocketGarden(_ bundleID: String = "com.greenthumb.pocketgarden") -> BuiltAppFixture {
        var fixture = BuiltAppFixture()
        fixture.bundleID = bundleID
        fixture.archiveBundleID = bundleID
        fixture.profileAppID = "4KQ2H9XW7B." + bundleID
        fixture.signedAppID = "4KQ2H9XW7B." + bundleID
        return fixture
    }

    func questions(_ diagnosis: Diagnosis, item: String) -> [String] {
        diagnosis.checklist.first { $0.item.id == item }?.questions.map(\.question) ?? []
    }

    /// The source tree cannot resolve `PRODUCT_BUNDLE_IDENTIFIER`: the build's says which it is.
    func unresolvedBundleID(_ project: inout Project) {
        project.app.xcodeproj = Fact("PocketGarden.xcodeproj", at: SourceLocation(file: "project.yaml", line: 1, column: 1), source: .descriptor)
        project.evidence.runningBundleID = nil
        project.evidence.unresolvedSettings["PRODUCT_BUNDLE_IDENTIFIER"] = Fact(
            "$(BUNDLE_ID)", at: SourceLocation(file: "App.xcconfig", line: 3, column: 1), source: .xcconfig)
    }

    @Test func theBuildAnswersTheBundleIDTheSourceTreeLeavesOpen() throws {
        let right = try diagnose(pocketGarden(), adjust: unresolvedBundleID)
        #expect(questions(right, item: "bundle-id-matches").isEmpty, "\(questions(right, item: "bundle-id-matches"))")
        #expect(!right.findings.contains { $0.rule.contains("bundle-id") })

        let wrong = try diagnose(pocketGarden("com.greenthumb.pocketgarden.beta"), adjust: unresolvedBundleID)
        let found = wrong.findings.filter { $0.rule.contains("bundle-id") }
        #expect(found.map(\.rule) == ["build-bundle-id-mismatch"])
        #expect(found.first?.notes.contains { $0.contains("the source tree leaves the bundle ID open") } == true, "\(found.map(\.notes))")
        #expect(questions(wrong, item: "bundle-id-matches").isEmpty)

        // An .ipa exported for the App Store does not run in the sandbox: the question stays.
        var store = pocketGarden()
        store.development = false
        let sandbox = try diagnose(store, ipa: true, overlay: "environment: sandbox", adjust: unresolvedBundleID)
        #expect(questions(sandbox, item: "bundle-id-matches").contains { $0.contains("PRODUCT_BUNDLE_IDENTIFIER") },
                "\(questions(sandbox, item: "bundle-id-matches"))")
    }

    /// The source tree and the build make the same wrong bundle ID: one error, at the line to
    /// change, that says the build confirms it.
    @Test func oneWrongBundleIDIsOneError() throws {
        let beta = "com.greenthumb.pocketgarden.beta"
        let diagnosis = try diagnose(pocketGarden(beta)) { project in
            project.evidence.runningBundleID = Fact(beta, at: SourceLocation(file: "Release.xcconfig", line: 2, column: 29), source: .xcconfig)
        }
        let found = diagnosis.findings.filter { $0.rule.contains("bundle-id") }
        #expect(found.map(\.rule) == ["running-bundle-id-mismatch"], "\(found.map(\.message))")
        #expect(found.first?.notes.contains { $0.contains("was built as `\(beta)` too") } == true, "\(found.map(\.notes))")
    }

    /// The source tree builds the right ID and the build has another: the build's finding says both.
    @Test func aDisagreementIsShownBothWays() throws {
        let diagnosis = try diagnose(pocketGarden("com.greenthumb.pocketgarden.beta")) { project in
            project.evidence.runningBundleID = Fact(
                "com.greenthumb.pocketgarden", at: SourceLocation(file: "Release.xcconfig", line: 2, column: 29), source: .xcconfig)
        }
        let found = diagnosis.findings.filter { $0.rule.contains("bundle-id") }
        #expect(found.map(\.rule) == ["build-bundle-id-mismatch"])
        let finding = try #require(found.first)
        #expect(finding.message.contains("built as `com.greenthumb.pocketgarden.beta`; the project says `com.greenthumb.pocketgarden`"))
        #expect(finding.notes.contains { $0.contains("the source tree builds `com.greenthumb.pocketgarden` (Release.xcconfig:2:29)") }, "\(finding.notes)")
        #expect(finding.related.contains { $0.location.file == "Release.xcconfig" })
    }

    /// No `DEVELOPMENT_TEAM` in the source tree: the signature says which team signed.
    @Test func theBuildSaysWhichTeamSigned() throws {
        let same = try diagnose(pocketGarden()) { $0.signing.teamID = nil }
        #expect(questions(same, item: "code-signing").isEmpty, "\(questions(same, item: "code-signing"))")
        let note = same.findings.first { $0.rule == "signing-team-mismatch" }
        #expect(note?.severity == .note && note?.message.contains("signed by the team `4KQ2H9XW7B`") == true)

        var other = pocketGarden()
        other.profileAppID = "ZZZZZ99999.com.greenthumb.pocketgarden"
        other.signedAppID = "ZZZZZ99999.com.greenthumb.pocketgarden"
        let elsewhere = try diagnose(other) { $0.signing.teamID = nil }
        // One cause, one error: the embedded profile's team.
        #expect(elsewhere.findings.filter { $0.severity == .error && $0.message.contains("ZZZZZ99999") }.map(\.rule) == ["build-profile-mismatch"],
                "\(elsewhere.findings.map(\.message))")
        #expect(questions(elsewhere, item: "code-signing").isEmpty)
    }

    /// "Is the profile installed?" is answered by a signed build that embeds it.
    @Test func anEmbeddedProfileWasInstalledWhereItSigned() throws {
        let diagnosis = try diagnose(pocketGarden()) { project in
            project.signing.profile.installed = nil
            project.signing.profile.name = Fact("Coins Development", at: SourceLocation(file: "project.yaml", line: 43, column: 11), source: .descriptor)
        }
        #expect(questions(diagnosis, item: "provisioning-profile").isEmpty, "\(questions(diagnosis, item: "provisioning-profile"))")
        let note = diagnosis.findings.first { $0.rule == "profile-not-installed" }
        #expect(note?.severity == .note && note?.message.contains("embedded in the signed build") == true)

        let unnamed = try diagnose(pocketGarden()) { project in
            project.signing.profile.installed = nil
            project.signing.profile.name = Fact("Another Profile", at: SourceLocation(file: "project.yaml", line: 43, column: 11), source: .descriptor)
        }
        #expect(questions(unnamed, item: "provisioning-profile").contains { $0.contains("installed") })
    }

    /// Where each build runs: an `.ipa` where its profile lets it, an archive anywhere but Xcode's Run.
    @Test func whereABuildRuns() throws {
        let folder = try makeScratchFolder("build-runs")
        defer { removeScratch(folder) }
        var fixture = pocketGarden()
        let archive = try BuiltApp.load(path: fixture.writeArchive(in: folder))
        #expect(Environment.allCases.filter { archive.runs(in: $0) } == [.sandbox, .testflight, .review, .production])
        let development = try BuiltApp.load(path: fixture.writeIPA(in: folder))
        #expect(Environment.allCases.filter { development.runs(in: $0) } == [.sandbox])
        fixture.development = false
        try FileManager.default.removeItem(atPath: folder + "/Coins.ipa")
        let store = try BuiltApp.load(path: fixture.writeIPA(in: folder))
        #expect(Environment.allCases.filter { store.runs(in: $0) } == [.testflight, .review, .production])
    }
}
