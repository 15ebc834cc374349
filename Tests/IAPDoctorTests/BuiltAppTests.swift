import Foundation
@testable import Formats
@testable import Loaders
import Model
import Testing
import TestSupport

/// An archive or app bundle as Xcode lays it out, written by the test: a binary Info.plist, an
/// embedded profile (a CMS container around an XML plist), and a Mach-O executable signed with
/// entitlements.
struct BuiltAppFixture {
    var bundleID = "com.acme.coins"
    var archiveBundleID: String? = "com.acme.coins"
    var profileAppID = "ABCDE12345.com.acme.coins"
    var minimumOS = "15.0"
    /// Code before the executable's signature.
    var executablePadding = 0
    /// Devices and `get-task-allow`: a development profile; neither: an App Store one.
    var development = true
    var signedAppID = "ABCDE12345.com.acme.coins"
    var macOS = false
    /// Files copied into the bundle's resources.
    var resources: [String] = []
    /// The executable's C string constants.
    var strings: [String] = []
    /// Files copied into the bundle's resources with their text.
    var resourceTexts: [(name: String, text: String)] = []

    static func profile(appID: String, development: Bool) -> [UInt8] {
        let devices = development ? "<key>ProvisionedDevices</key><array><string>00008030-001A</string></array>" : ""
        let prefix = appID.prefix { $0 != "." }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>Name</key><string>Coins \(development ? "Development" : "App Store")</string>
            <key>UUID</key><string>5B1C0A3E-0000-4000-8000-000000000001</string>
            <key>ApplicationIdentifierPrefix</key><array><string>\(prefix)</string></array>
            <key>TeamIdentifier</key><array><string>\(prefix)</string></array>
            <key>ExpirationDate</key><date>2027-06-01T00:00:00Z</date>
            <key>Entitlements</key><dict><key>application-identifier</key><string>\(appID)</string>
            <key>get-task-allow</key>\(development ? "<true/>" : "<false/>")</dict>
            \(devices)
            </dict></plist>
            """
        return [0x30, 0x82, 0x10, 0x00, 0x06, 0x09] + Array(xml.utf8) + [0xA0, 0x82, 0x01]
    }

    func entitlements() -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>application-identifier</key><string>\(signedAppID)</string>
        <key>com.apple.developer.team-identifier</key><string>\(signedAppID.prefix(10))</string>
        <key>get-task-allow</key>\(development ? "<true/>" : "<false/>")
        \(development ? "" : "<key>beta-reports-active</key><true/>")
        </dict></plist>
        """
    }

    /// Writes the app bundle at `bundle`.
    func writeApp(at bundle: String) throws {
        let contents = macOS ? bundle + "/Contents" : bundle
        try FileManager.default.createDirectory(atPath: contents + (macOS ? "/MacOS" : ""), withIntermediateDirectories: true)
        let info: [String: Any] = [
            "CFBundleIdentifier": bundleID, "CFBundleShortVersionString": "2.1", "CFBundleVersion": "57",
            "CFBundleExecutable": "Coins", (macOS ? "LSMinimumSystemVersion" : "MinimumOSVersion"): macOS ? "13.0" : minimumOS,
            "CFBundleSupportedPlatforms": [macOS ? "MacOSX" : "iPhoneOS"],
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0).write(to: URL(fileURLWithPath: contents + "/Info.plist"))
        let profile = macOS ? contents + "/embedded.provisionprofile" : bundle + "/embedded.mobileprovision"
        try Data(Self.profile(appID: profileAppID, development: development)).write(to: URL(fileURLWithPath: profile))
        var image = MachOImage()
        image.entitlements = entitlements()
        image.padding = executablePadding
        image.strings = strings
        try Data(image.bytes()).write(to: URL(fileURLWithPath: (macOS ? contents + "/MacOS/" : bundle + "/") + "Coins"))
        for (name, text) in resources.map({ ($0, "{}") }) + resourceTexts {
            try FileManager.default.createDirectory(atPath: contents + "/Resources", withIntermediateDirectories: true)
            try text.write(toFile: contents + "/Resources/" + name, atomically: true, encoding: .utf8)
        }
    }

    /// Exports the app as `Coins.ipa` into `folder` (`Payload/Coins.app/…`, deflated); returns its path.
    func writeIPA(in folder: String) throws -> String {
        let staging = folder + "/staging-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: staging) }
        try writeApp(at: staging + "/Coins.app")
        var entries: [TestZIP.Entry] = []
        for name in try FileManager.default.subpathsOfDirectory(atPath: staging + "/Coins.app").sorted() {
            let file = staging + "/Coins.app/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            entries.append(.file("Payload/Coins.app/" + name, [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))))
        }
        return try TestZIP.write(entries, to: folder + "/Coins.ipa")
    }

    /// Writes an `.xcarchive` named `Coins` into `folder`; returns its path.
    func writeArchive(in folder: String) throws -> String {
        let archive = folder + "/Coins 2026-11-27.xcarchive"
        try writeApp(at: archive + "/Products/Applications/Coins.app")
        var application = "<key>ApplicationPath</key><string>Applications/Coins.app</string>"
            + "<key>SigningIdentity</key><string>Apple Development: Ada Lovelace (XYZ1234567)</string><key>Team</key><string>ABCDE12345</string>"
        if let archiveBundleID { application += "<key>CFBundleIdentifier</key><string>\(archiveBundleID)</string>" }
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>ApplicationProperties</key><dict>\(application)</dict>
            <key>Name</key><string>Coins</string>
            </dict></plist>
            """.write(toFile: archive + "/Info.plist", atomically: true, encoding: .utf8)
        return archive
    }
}

@Suite("Built apps: archives and app bundles")
struct BuiltAppTests {
    @Test func anArchiveSaysWhatWasBuiltAndHowItWasSigned() throws {
        let folder = try makeScratchFolder("built")
        defer { removeScratch(folder) }
        let archive = try BuiltAppFixture().writeArchive(in: folder)
        let app = try BuiltApp.load(path: archive)
        #expect(app.kind == .archive)
        #expect(app.appBundle == archive + "/Products/Applications/Coins.app")
        #expect(app.bundleID?.value == "com.acme.coins")
        #expect(app.bundleID?.source == .build)
        #expect(app.bundleID?.location == SourceLocation(file: archive + "/Products/Applications/Coins.app/Info.plist"))
        #expect(app.version?.value == "2.1" && app.build?.value == "57" && app.minimumOS?.value == "15.0")
        #expect(app.platform == .ios)
        let profile = try #require(app.profile)
        #expect(profile.type == .development)
        #expect(profile.applicationIdentifier?.value == "ABCDE12345.com.acme.coins")
        let signature = try #require(app.signature)
        #expect(signature.isSigned)
        #expect(signature.applicationIdentifier?.value == "ABCDE12345.com.acme.coins")
        #expect(signature.teamIdentifier?.value == "ABCDE12345")
        #expect(signature.getTaskAllow?.value == true && signature.betaReportsActive == nil)
        #expect(app.archive?.signingIdentity?.value == "Apple Development: Ada Lovelace (XYZ1234567)")
        #expect(app.archive?.team?.value == "ABCDE12345")
        #expect(app.archive?.bundleID?.location.line == 3)
        #expect(app.bundledStoreKitFiles.isEmpty)
    }

    @Test func aDistributionSignedMacAppAndAShippedStoreKitFile() throws {
        let folder = try makeScratchFolder("built")
        defer { removeScratch(folder) }
        var fixture = BuiltAppFixture()
        fixture.macOS = true
        fixture.development = false
        fixture.resources = ["Products.storekit", "Icon.png"]
        try fixture.writeApp(at: folder + "/Coins.app")
        let app = try BuiltApp.load(path: folder + "/Coins.app/")
        #expect(app.kind == .app)
        #expect(app.platform == .macos)
        #expect(app.minimumOS?.value == "13.0")
        #expect(app.profile?.type == .appStore)
        #expect(app.signature?.getTaskAllow?.value == false && app.signature?.betaReportsActive?.value == true)
        #expect(app.bundledStoreKitFiles == [folder + "/Coins.app/Contents/Resources/Products.storekit"])
    }

    @Test func whatIsNotABuildIsRefusedWithWhatToName() throws {
        let folder = try makeScratchFolder("built")
        defer { removeScratch(folder) }
        let missing = try #require(throws: InputProblem.self) { try BuiltApp.load(path: folder + "/Nothing.xcarchive") }
        #expect(missing.finding.message.contains("no such archive or app"))
        try FileManager.default.createDirectory(atPath: folder + "/Empty.xcarchive/Products/Applications", withIntermediateDirectories: true)
        let empty = try #require(throws: InputProblem.self) { try BuiltApp.load(path: folder + "/Empty.xcarchive") }
        #expect(empty.finding.message.contains("holds no app"))
        // A damaged executable is named, with what to do.
        let archive = try BuiltAppFixture().writeArchive(in: folder)
        let executable = archive + "/Products/Applications/Coins.app/Coins"
        try Data(Array(MachOImage().bytes().prefix(60))).write(to: URL(fileURLWithPath: executable))
        let damaged = try #require(throws: InputProblem.self) { try BuiltApp.load(path: archive) }
        #expect(damaged.finding.location?.file == executable)
        #expect(damaged.finding.message.contains("cut short or damaged"))
        #expect(BuiltApp.isBuild(archive) && BuiltApp.isBuild("Coins.app/") && !BuiltApp.isBuild("project.yaml"))
    }

    /// An exported .ipa is read in memory: the same facts as the archive, the executable's
    /// signature found past its first 64 KB by a second pass.
    @Test func anExportedIPAIsReadWithoutExtracting() throws {
        let folder = try makeScratchFolder("ipa")
        defer { removeScratch(folder) }
        var fixture = BuiltAppFixture()
        fixture.executablePadding = 300_000
        fixture.resources = ["Products.storekit"]
        let ipa = try fixture.writeIPA(in: folder)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder)
        let app = try BuiltApp.load(path: ipa)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == before, "nothing was extracted")
        #expect(app.kind == .ipa)
        #expect(app.bundleID?.value == "com.acme.coins")
        #expect(app.bundleID?.location == SourceLocation(file: ipa + "/Payload/Coins.app/Info.plist"))
        #expect(app.profile?.type == .development)
        #expect(app.profile?.applicationIdentifier?.location.file == ipa + "/Payload/Coins.app/embedded.mobileprovision")
        #expect(app.signature?.applicationIdentifier?.value == "ABCDE12345.com.acme.coins")
        #expect(app.signature?.getTaskAllow?.value == true)
        #expect(app.bundledStoreKitFiles == [ipa + "/Payload/Coins.app/Resources/Products.storekit"])
    }

    /// Hostile archives are refused with a finding: names that climb out, bombs, no app, two
    /// apps, a link where the Info.plist should be, and a file that is no ZIP at all.
    @Test func hostileIPAsAreRefused() throws {
        let folder = try makeScratchFolder("ipa")
        defer { removeScratch(folder) }
        func ipa(_ name: String, _ entries: [(String, Data, Bool)]) throws -> String {
            try TestZIP.write(entries.map { name, data, isLink in
                isLink ? .link(name, to: String(decoding: data, as: UTF8.self)) : .file(name, [UInt8](data))
            }, to: folder + "/" + name)
        }
        func refusal(_ path: String) -> String {
            do {
                _ = try BuiltApp.load(path: path)
                return "read"
            } catch {
                return error.finding.message
            }
        }
        let info = try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": "com.acme.coins"], format: .binary, options: 0)
        #expect(refusal(try ipa("climb.ipa", [("Payload/../../evil.app/Info.plist", info, false)])).contains("points outside the archive"))
        #expect(refusal(try ipa("bomb.ipa", [("Payload/Coins.app/Info.plist", Data(count: 40 << 20), false)])).contains("inflates"))
        #expect(refusal(try ipa("empty.ipa", [("Payload/readme.txt", Data("hi".utf8), false)])).contains("holds no app"))
        #expect(refusal(try ipa("two.ipa", [("Payload/A.app/Info.plist", info, false), ("Payload/B.app/Info.plist", info, false)])).contains("holds 2 apps"))
        let nested = refusal(try ipa("nested.ipa", [("Coins/Payload/Coins.app/Info.plist", info, false), ("__MACOSX/Coins/Payload/Coins.app/._Info.plist", info, false)]))
        #expect(nested.contains("holds its app one folder down, at `Coins/Payload/Coins.app`"), "\(nested)")
        #expect(refusal(try ipa("link.ipa", [("Payload/Coins.app/Info.plist", Data("/etc/passwd".utf8), true)])).contains("no Info.plist"))
        try "not a zip".write(toFile: folder + "/text.ipa", atomically: true, encoding: .utf8)
        #expect(refusal(folder + "/text.ipa").contains("is not a ZIP archive"))
        var locked = TestZIP.Entry.file("Payload/Coins.app/Info.plist", [UInt8](info))
        locked.flags = 1
        #expect(refusal(try TestZIP.write([locked], to: folder + "/locked.ipa")).contains("Info.plist` is encrypted"))
    }

    /// The embedded profile is checked against the project's team and the check's date.
    @Test func anEmbeddedProfileOfAnotherTeamOrExpiredIsNamed() throws {
        let diagnosis = try diagnose(buildSnippet: """
            checked_at: 2027-07-01T00:00:00Z
            developer_account: { team_id: ZZZZZ99999 }
            ---
            bundle_id: com.greenthumb.pocketgarden
            signed_for: app_store
            """)
        let messages = diagnosis.findings.filter { $0.rule == "build-profile-mismatch" }.map(\.message)
        #expect(messages.contains { $0.contains("belongs to the team `4KQ2H9XW7B`; the project's team is `ZZZZZ99999`") }, "\(messages)")
        #expect(messages.contains { $0.contains("expired on 2027-06-01") }, "\(messages)")
    }
}

/// The commands on a build: the built binary, so the integration tier.
@Suite("init and check on a build")
struct BuildCommandTests {
    /// `init MyApp.xcarchive` writes a descriptor the loader reads without a problem, naming the
    /// build, with the build's facts filled in; checked, it finds the build's problems.
    @Test func initWritesADescriptorFromTheBuild() throws {
        let folder = try makeScratchFolder("init-build")
        defer { removeScratch(folder) }
        let archive = try BuiltAppFixture().writeArchive(in: folder)
        let written = try runIAPDoctor(["init", archive, "-o", folder + "/project.yaml"])
        #expect(written.status == 0, "\(written.errors)")
        let loaded = DescriptorLoader.load(path: folder + "/project.yaml")
        #expect(loaded.problems.isEmpty, "\(loaded.problems.map(\.message))")
        #expect(loaded.project.app.bundleID?.value == "com.acme.coins")
        #expect(loaded.project.app.build?.value == "Coins 2026-11-27.xcarchive")
        #expect(loaded.project.account.teamID?.value == "ABCDE12345")
        #expect(loaded.project.app.deploymentTarget?.value == "15.0")
        let checked = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
        #expect(checked.output.contains("build-signed-for-development"), "\(checked.errors)")
        let again = try runIAPDoctor(["init", archive, "-o", folder + "/project.yaml"])
        #expect(again.status == 2 && again.errors.contains("already exists"))
    }

    /// A list the `.ipa` ships is found by the name of the descriptor's list: what it lists
    /// beyond the repository's copy is requested by the build, and the difference is one warning.
    /// A bundled list that does not parse is an input error at its place, like a list of the repository's.
    @Test func aShippedProductListIsWhatTheBuildRequests() throws {
        let folder = try makeScratchFolder("build-lists")
        defer { removeScratch(folder) }
        func plist(_ ids: [String]) -> String {
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n"
                + ids.map { "  <string>\($0)</string>\n" }.joined() + "</array>\n</plist>\n"
        }
        var fixture = BuiltAppFixture()
        fixture.resourceTexts = [("Products.plist", plist(["com.acme.coins.gold", "com.acme.coins.silver"]))]
        _ = try fixture.writeIPA(in: folder)
        try plist(["com.acme.coins.gold"]).write(toFile: folder + "/Products.plist", atomically: true, encoding: .utf8)
        try """
            version: 1
            environment: sandbox
            app:
              bundle_id: com.acme.coins
              product_id_lists: [Products.plist]
              build: Coins.ipa
            products:
              - product_id: com.acme.coins.gold
            """.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        let checked = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: Any], "\(checked.errors)")
        let findings = report["findings"] as? [[String: Any]] ?? []
        let differs = try #require(findings.first { $0["rule"] as? String == "build-product-list-differs" }, "\(findings.map { $0["rule"] ?? "" })")
        #expect((differs["message"] as? String)?.contains("requests `com.acme.coins.silver`, which the repository's copy does not list") == true)
        #expect((differs["file"] as? String)?.hasSuffix("/Coins.ipa/Payload/Coins.app/Resources/Products.plist") == true && differs["line"] as? Int == 5,
                "\(differs)")
        let products = (report["products"] as? [[String: Any]] ?? []).compactMap { $0["product_id"] as? String }
        #expect(products.contains("com.acme.coins.silver"), "\(products)")

        fixture.resourceTexts = [("Products.plist", "<plist><array><string>com.acme")]
        try FileManager.default.removeItem(atPath: folder + "/Coins.ipa")
        _ = try fixture.writeIPA(in: folder)
        let broken = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
        let brokenReport = try #require(try JSONSerialization.jsonObject(with: Data(broken.output.utf8)) as? [String: Any], "\(broken.errors)")
        let malformed = (brokenReport["findings"] as? [[String: Any]] ?? []).first { $0["rule"] as? String == "input-malformed" }
        #expect((malformed?["file"] as? String)?.hasSuffix("/Coins.ipa/Payload/Coins.app/Resources/Products.plist") == true, "\(malformed ?? [:])")
    }


    /// A profile whose App ID prefix is not shaped like a Team ID (edited by hand, or a test
    /// fixture's): `init` leaves the team and App ID as questions, so `check` accepts what it
    /// wrote, and the profile's own `ApplicationIdentifierPrefix` says what its App ID covers.
    @Test func aProfilePrefixThatIsNoTeamID() throws {
        let folder = try makeScratchFolder("init-prefix")
        defer { removeScratch(folder) }
        var fixture = BuiltAppFixture()
        fixture.profileAppID = "TestFixture.com.acme.coins"
        fixture.signedAppID = "TestFixture.com.acme.coins"
        let archive = try fixture.writeArchive(in: folder)
        let written = try runIAPDoctor(["init", archive, "-o", folder + "/project.yaml"])
        #expect(written.status == 0, "\(written.errors)")
        #expect(written.errors.contains("team `TestFixture`, not a Team ID, left as a question"), "\(written.errors)")
        let text = try String(contentsOfFile: folder + "/project.yaml", encoding: .utf8)
        #expect(text.contains("# team_id:") && text.contains("`TestFixture`, which is not shaped like a Team ID"), "\(text)")
        let checked = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
        #expect(checked.status != 2, "\(checked.output)")
        #expect(!checked.output.contains("does not cover the bundle ID"), "\(checked.output)")
    }

    /// A build named on the command line is read from inside itself, as one under `app.build`
    /// is: a link in it that leads out (to a secret beside the project) is refused on every road
    /// (`check` with the descriptor, `check` and `init` with the archive) with the same words,
    /// and the secret is never printed.
    @Test func aLinkOutOfTheBuildIsRefusedOnEveryRoad() throws {
        let folder = try makeScratchFolder("build-link")
        defer { removeScratch(folder) }
        let secret = "IAPDOCTOR-BUILD-SECRET-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/project", withIntermediateDirectories: true)
        try "<plist><array><string>\(secret)</string></array></plist>\n".write(toFile: folder + "/secret.plist", atomically: true, encoding: .utf8)
        let archive = try BuiltAppFixture().writeArchive(in: folder + "/project")
        let profile = archive + "/Products/Applications/Coins.app/embedded.mobileprovision"
        try FileManager.default.removeItem(atPath: profile)
        try FileManager.default.createSymbolicLink(atPath: profile, withDestinationPath: folder + "/secret.plist")
        try """
            version: 1
            app:
              bundle_id: com.acme.coins
              build: Coins 2026-11-27.xcarchive
            """.write(toFile: folder + "/project/project.yaml", atomically: true, encoding: .utf8)
        let runs = [
            try runIAPDoctor(["check", folder + "/project/project.yaml"]), try runIAPDoctor(["check", archive]),
            try runIAPDoctor(["init", archive, "-o", folder + "/project/new.yaml"]),
        ]
        for run in runs {
            let text = run.output + run.errors
            #expect(run.status == 2, "\(text)")
            #expect(!text.contains(secret), "\(text)")
            #expect(text.contains("embedded.mobileprovision`: it is, or is inside, a symbolic link that leads outside the build"), "\(text)")
        }
        // The archive as Xcode writes it: read on both roads.
        try FileManager.default.removeItem(atPath: profile)
        try Data(BuiltAppFixture.profile(appID: "ABCDE12345.com.acme.coins", development: true)).write(to: URL(fileURLWithPath: profile))
        #expect(try runIAPDoctor(["check", archive]).status != 2)
        #expect(try runIAPDoctor(["check", folder + "/project/project.yaml"]).status != 2)
    }

    /// With a descriptor that names no profile, the profile embedded in the `.ipa` that runs is
    /// the project's: its expiry is one error (`profile-expired`), not two.
    @Test func theShippedIPAsProfileIsTheProjects() throws {
        let folder = try makeScratchFolder("ipa-profile")
        defer { removeScratch(folder) }
        var fixture = BuiltAppFixture()
        fixture.development = false
        _ = try fixture.writeIPA(in: folder)
        try """
            version: 1
            environment: testflight
            checked_at: 2027-07-01T00:00:00Z
            app:
              bundle_id: com.acme.coins
              build: Coins.ipa
            """.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
        let checked = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: Any], "\(checked.errors)")
        let expired = (report["findings"] as? [[String: Any]] ?? []).filter { ($0["message"] as? String)?.contains("expired on 2027-06-01") == true }
        #expect(expired.compactMap { $0["rule"] as? String } == ["profile-expired"], "\(expired)")
        let items = report["checklist"] as? [[String: Any]] ?? []
        let profileItem = items.first { $0["id"] as? String == "provisioning-profile" }
        let questions = (profileItem?["questions"] as? [[String: Any]] ?? []).compactMap { $0["question"] as? String }
        #expect(!questions.contains { $0.contains("Which provisioning profile") }, "\(questions)")
    }

    /// The `MinimumOSVersion` of the build that runs answers the deployment-target item where the
    /// descriptor is silent, once: `deployment-target-too-low` at the build's Info.plist, with the
    /// build-setting fix, and no second finding from the build rule.
    @Test func theRunningBuildsMinimumOSIsTheDeploymentTarget() throws {
        func osItem(minimumOS: String, development: Bool) throws -> (status: String?, findings: [[String: Any]], questions: [String]) {
            let folder = try makeScratchFolder("ipa-minimum-os")
            defer { removeScratch(folder) }
            var fixture = BuiltAppFixture()
            fixture.development = development
            fixture.minimumOS = minimumOS
            _ = try fixture.writeIPA(in: folder)
            try """
                version: 1
                environment: testflight
                checked_at: 2026-07-01T00:00:00Z
                app:
                  bundle_id: com.acme.coins
                  storekit_api: storekit2
                  build: Coins.ipa
                """.write(toFile: folder + "/project.yaml", atomically: true, encoding: .utf8)
            let checked = try runIAPDoctor(["check", folder + "/project.yaml", "--format", "json"])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.output.utf8)) as? [String: Any], "\(checked.errors)")
            let findings = (report["findings"] as? [[String: Any]] ?? []).filter {
                ["deployment-target-too-low", "build-minimum-os-too-low"].contains($0["rule"] as? String)
            }
            let items = report["checklist"] as? [[String: Any]] ?? []
            let item = items.first { $0["id"] as? String == "os-version" }
            let profileItem = items.first { $0["id"] as? String == "provisioning-profile" }
            let questions = (profileItem?["questions"] as? [[String: Any]] ?? []).compactMap { $0["question"] as? String }
            return (item?["status"] as? String, findings, questions)
        }
        let low = try osItem(minimumOS: "14.0", development: false)
        #expect(low.status == "fail")
        #expect(low.findings.map { $0["rule"] as? String } == ["deployment-target-too-low"], "\(low.findings)")
        let message = try #require(low.findings.first?["message"] as? String)
        #expect(message == "the build's `MinimumOSVersion` is iOS 14.0, but StoreKit 2's `Product.products(for:)` needs iOS 15.0; on older systems the app requests no products")
        #expect((low.findings.first?["file"] as? String)?.hasSuffix("Coins.ipa/Payload/Coins.app/Info.plist") == true, "\(low.findings)")
        #expect((low.findings.first?["help"] as? String)?.contains("`IPHONEOS_DEPLOYMENT_TARGET`") == true)
        #expect(try osItem(minimumOS: "16.0", development: false).status == "pass")
        // A development export does not run in TestFlight: it answers neither item, and the
        // profile question says why.
        let development = try osItem(minimumOS: "16.0", development: true)
        #expect(development.status == "unknown")
        #expect(development.questions.contains {
            $0.hasSuffix("`Coins.ipa` is exported with a development profile, so it is not that build.")
        }, "\(development.questions)")
    }
}
