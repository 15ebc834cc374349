import Foundation
@testable import IAPDoctor
@testable import Formats
@testable import Model
@testable import Loaders
@testable import RuleEngine
@testable import Reporters
import Testing
import TestSupport

/// Build settings written to cost time or memory out of all proportion to their size: links to
/// one large `.xcconfig`, modifier chains, long condition patterns, thousands of conditional
/// variants referred to thousands of times. Each is bounded by the work, not by the file.
@Suite("Hostile build settings and profiles", .timeLimit(.minutes(1)))
struct HostileSettingsTests {
    static func project(_ fixture: ProjectFixture, base: String, targetSettings: [String: String] = [:]) throws -> BuildSettings {
        fixture.projectSettings = ["Release": ["SDKROOT": "iphoneos"]]
        fixture.targets = [.init(name: "App", settings: ["Release": targetSettings], baseConfiguration: ["Release": base])]
        fixture.writeProject()
        let project = try XcodeProject.load(path: fixture.folder + "/\(fixture.projectName).xcodeproj")
        return project.settings(target: try #require(project.target(named: "App")), configuration: "Release")
    }

    /// 255 links to one file of almost 1 MiB, each included once: read once, as one file.
    @Test func linksToOneLargeFileAreReadOnce() throws {
        let fixture = ProjectFixture()
        fixture.write("Config/big.xcconfig", (0..<9_500).map { "K\($0) = " + String(repeating: "x", count: 100) }.joined(separator: "\n") + "\nAPP_ID = com.acme.links\n")
        for index in 0..<255 {
            try FileManager.default.createSymbolicLink(atPath: fixture.folder + "/Config/l\(index).xcconfig", withDestinationPath: "big.xcconfig")
        }
        fixture.write("Config/base.xcconfig", (0..<255).map { "#include \"l\($0).xcconfig\"" }.joined(separator: "\n") + "\nPRODUCT_BUNDLE_IDENTIFIER = $(APP_ID)\n")
        let settings = try Self.project(fixture, base: "Config/base.xcconfig")
        #expect(settings.value("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.acme.links")
        #expect(settings.missingFiles.isEmpty)
    }

    /// Past the bytes read for one configuration (4 MiB), the rest is missing, so what it would
    /// define is unknown rather than taken from a partial read.
    @Test func theBytesOfAllIncludesAreBudgeted() throws {
        let fixture = ProjectFixture()
        let filler = (0..<9_000).map { "F\($0) = " + String(repeating: "y", count: 100) }.joined(separator: "\n")
        for index in 0..<6 { fixture.write("Config/part\(index).xcconfig", filler + "\nTEAM_\(index) = T\(index)\n") }
        fixture.write("Config/base.xcconfig", (0..<6).map { "#include \"part\($0).xcconfig\"" }.joined(separator: "\n") + "\nDEVELOPMENT_TEAM = $(TEAM_5)\n")
        let settings = try Self.project(fixture, base: "Config/base.xcconfig")
        #expect(settings.value("DEVELOPMENT_TEAM")?.value == "$(TEAM_5)", "unknown, never a guess")
        #expect(settings.missingFiles.contains { $0.hasSuffix("part5.xcconfig") })
    }

    /// A reference with 150,000 modifiers over a 60,000-character value is left unexpanded.
    @Test func longModifierChainsAreNotApplied() throws {
        let fixture = ProjectFixture()
        fixture.write("Config/base.xcconfig", "A = " + String(repeating: "a", count: 60_000) + "\nB = $(A" + String(repeating: ":lower:upper", count: 75_000) + ")\nC = $(A:upper:lower)\n")
        let settings = try Self.project(fixture, base: "Config/base.xcconfig")
        #expect(settings.value("B").map { BuildSettings.isResolved($0.value) } == false)
        #expect(settings.value("C")?.value == String(repeating: "a", count: 60_000), "a short chain still applies")
    }

    /// `KEY[sdk=*a…ab]` with 30,000 `a` against a 60,000-character SDK: a pattern no SDK name can
    /// need matches nothing, in no time.
    @Test func longConditionPatternsMatchNothing() throws {
        let fixture = ProjectFixture()
        fixture.write("Config/base.xcconfig", "SDKROOT = " + String(repeating: "a", count: 60_000) + "\nDEVELOPMENT_TEAM[sdk=*" + String(repeating: "a", count: 30_000) + "b] = X\nDEVELOPMENT_TEAM[sdk=a*] = Y\n")
        let settings = try Self.project(fixture, base: "Config/base.xcconfig")
        #expect(settings.value("DEVELOPMENT_TEAM")?.value == "Y")
    }

    /// 45,000 conditional variants of one setting, referred to 10,000 times.
    @Test func manyVariantsReferredToManyTimes() throws {
        let fixture = ProjectFixture()
        let variants = (0..<45_000).map { "V[config=C\($0)] = x" }.joined(separator: "\n")
        fixture.write("Config/base.xcconfig", variants + "\nV[config=Release] = y\nW = " + String(repeating: "$(V)", count: 10_000) + "\n")
        let settings = try Self.project(fixture, base: "Config/base.xcconfig")
        #expect(settings.value("W")?.value == String(repeating: "y", count: 10_000))
    }

    /// 300 hard links to one 3.8 MB profile: one file to read, not 300; and the bytes read across
    /// profiles are budgeted.
    @Test func profileLookupsReadEachFileOnceWithinABudget() throws {
        let fixture = ProjectFixture()
        let padding = String(repeating: "<string>padding</string>", count: 150_000)
        fixture.write("Profiles/big.mobileprovision", "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>Name</key><string>Big</string><key>Pad</key><array>\(padding)</array></dict></plist>")
        for index in 0..<300 {
            try FileManager.default.linkItem(atPath: fixture.folder + "/Profiles/big.mobileprovision", toPath: fixture.folder + "/Profiles/l\(index).mobileprovision")
        }
        let files = ["big"] .map { fixture.folder + "/Profiles/\($0).mobileprovision" } + (0..<300).map { fixture.folder + "/Profiles/l\($0).mobileprovision" }
        #expect(InstalledProfiles.readable(files).count == 1)
        #expect(InstalledProfiles(folders: [fixture.folder + "/Profiles"]).find(uuid: nil, name: "Small") == nil)
        // Twenty distinct 3.8 MB profiles: the budget stops the reads past 64 MiB.
        for index in 0..<20 { fixture.write("Distinct/p\(index).mobileprovision", "<plist><dict><key>Name</key><string>P\(index)</string><key>Pad</key><array>\(padding)</array></dict></plist>") }
        let distinct = (0..<20).map { fixture.folder + "/Distinct/p\($0).mobileprovision" }
        #expect(InstalledProfiles.readable(distinct).count < 20)
    }

    /// Thousands of app targets and no scheme: the question lists twenty and counts the rest.
    @Test func aQuestionListsTwentyCandidates() throws {
        let fixture = ProjectFixture()
        fixture.projectSettings = ["Release": ["SDKROOT": "iphoneos"]]
        fixture.targets = (0..<25).map { index in
            .init(name: "App\(index)", settings: ["Release": ["PRODUCT_BUNDLE_IDENTIFIER": "com.acme.app\(index)"]])
        }
        fixture.writeProject()
        let (descriptor, check) = try ProjectShapeTests.initAndCheck(fixture)
        #expect(descriptor.contains("`App19` (bundle ID `com.acme.app19`, iOS); and 5 more application targets"), "\(descriptor)")
        #expect(!descriptor.contains("`App20`"), "\(descriptor)")
        #expect(check.output.contains("and 5 more application targets"), "\(check.output)")
    }

    /// A scheme's StoreKit reference outside the project gets the same answer whether or not a
    /// file is there (two paths of one length: the spans match too): the reference cannot probe
    /// the file system.
    @Test func aStoreKitReferenceOutsideTheProjectProbesNothing() throws {
        var outputs: [String] = []
        for outside in ["/etc/hosts", "/etc/hostz"] {
            let fixture = ProjectShapeTests.birdhouse()
            fixture.writeScheme("Birdhouse", runs: "Birdhouse", storeKit: outside)
            // A fixed `checked_at`: the two runs are compared byte for byte, and "now" may tick between them.
            fixture.write("project.yaml", """
                version: 1
                environment: xcode
                checked_at: 2026-11-22T10:00:00Z
                app: { xcodeproj: Birdhouse.xcodeproj, scheme: Birdhouse.xcodeproj/xcshareddata/xcschemes/Birdhouse.xcscheme }
                """)
            let check = try runIAPDoctor(["check", fixture.folder + "/project.yaml", "--format", "json"])
            #expect(check.output.contains("refusing to read `\(outside)`"), "\(check.output)")
            outputs.append(check.output.replacingOccurrences(of: outside, with: "OUTSIDE").replacingOccurrences(of: fixture.folder, with: "FOLDER"))
        }
        #expect(outputs[0] == outputs[1])
    }
}
