import Foundation
import IAPDoctor
import JSONReader
import Rules
import Testing
import TestSupport

/// The project's own files: each reader, its positioned errors, and the example diagnosed from
/// files alone.
@Suite("Evidence from the project's files", .timeLimit(.minutes(1)))
struct EvidenceTests {
    func temporary(_ text: String, named name: String) throws -> String {
        let folder = try makeScratchFolder("iapdoctor-evidence")
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func xmlPropertyListsKeepPositions() throws {
        let plist = try PropertyList.load(path: repositoryFile("examples/runmonster-xcode/RunMonster/Info.plist"), what: "Info.plist")
        let identifier = try #require(plist["CFBundleIdentifier"])
        #expect(identifier.string == "$(PRODUCT_BUNDLE_IDENTIFIER)")
        // The string's text, not its `<string>` tag.
        #expect(identifier.location == SourceLocation(file: identifier.location.file, line: 12, column: 10, endLine: 12, endColumn: 38))
        #expect(plist["LSRequiresIPhoneOS"]?.bool == true)
        #expect(plist["UIRequiredDeviceCapabilities"]?.elements.count == 1)
    }

    /// A binary property list (a built app's Info.plist, or one Xcode saved so) reads as the XML
    /// one does, its values pointing at the file; a damaged one is refused with the tool to check it.
    @Test func binaryPropertyListsAreRead() throws {
        let dictionary: [String: Any] = [
            "CFBundleIdentifier": "com.acme.coins", "LSRequiresIPhoneOS": true, "CFBundleVersion": "42",
            "UIDeviceFamily": [1, 2], "Count": 3, "Scale": 1.5, "Built": Date(timeIntervalSince1970: 1_700_000_000),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
        let path = try temporary(String(decoding: [UInt8](data), as: UTF8.self), named: "Binary.plist")
        try data.write(to: URL(fileURLWithPath: path))
        let plist = try PropertyList.load(path: path, what: "Info.plist")
        #expect(plist["CFBundleIdentifier"]?.stringFact(.infoPlist)?.value == "com.acme.coins")
        #expect(plist["CFBundleIdentifier"]?.location == SourceLocation(file: path))
        #expect(plist["LSRequiresIPhoneOS"]?.bool == true)
        #expect(plist["UIDeviceFamily"]?.elements.count == 2)
        if case .integer(3, _)? = plist["Count"] {} else { Issue.record("Count is \(String(describing: plist["Count"]))") }
        if case .real(1.5, _)? = plist["Scale"] {} else { Issue.record("Scale is \(String(describing: plist["Scale"]))") }
        #expect(plist["Built"]?.date == Timestamp(secondsSince1970: 1_700_000_000))
        #expect(plist.keys.map(\.key) == ["Built", "CFBundleIdentifier", "CFBundleVersion", "Count", "LSRequiresIPhoneOS", "Scale", "UIDeviceFamily"])

        let damaged = try temporary("bplist00\u{00}\u{01}garbage", named: "Info.plist")
        let problem = try #require(throws: InputProblem.self) { try PropertyList.load(path: damaged, what: "Info.plist") }
        #expect(problem.finding.rule == "input-malformed")
        #expect(problem.finding.message.contains("binary property list that cannot be read"))
        #expect(problem.finding.help?.contains("plutil -lint") == true)
    }

    @Test func malformedPropertyListsArePositioned() throws {
        let unclosed = try temporary("<plist>\n<dict>\n  <key>A</key>\n  <string>x</dict>\n</plist>\n", named: "A.plist")
        let error = try #require(throws: InputProblem.self) { try PropertyList.load(path: unclosed, what: "Info.plist") }
        #expect(error.finding.location?.line == 4)
        let dangling = try temporary("<plist><dict>\n<key>A</key>\n</dict></plist>", named: "B.plist")
        let second = try #require(throws: InputProblem.self) { try PropertyList.load(path: dangling, what: "Info.plist") }
        #expect(second.finding.message == "the key `A` has no value")
        #expect(second.finding.location?.line == 2)
    }

    @Test func provisioningProfilesAreReadFromTheirCMSContainer() throws {
        let profile = try ProvisioningProfile.load(path: repositoryFile("examples/runmonster-xcode/profiles/RunMonster_Development.mobileprovision"))
        #expect(profile.name?.value == "RunMonster Development")
        #expect(profile.applicationIdentifier?.value == "7DW89RZKLY.*")
        #expect(profile.teamIdentifier?.value == "7DW89RZKLY")
        #expect(profile.creationDate?.value.description == "2026-11-02T09:14:11Z")
        #expect(profile.expirationDate?.value.description == "2027-11-02T09:14:11Z")
        #expect(profile.provisionedDeviceCount == 2)
        #expect(profile.type == .development)
    }

    @Test func aFileWithoutAPropertyListIsNotAProfile() throws {
        let path = try temporary("\u{30}\u{82}not a profile", named: "X.mobileprovision")
        let error = try #require(throws: InputProblem.self) { try ProvisioningProfile.load(path: path) }
        #expect(error.finding.message.contains("holds no property list"))
    }

    @Test func schemesNameTheirStoreKitConfiguration() throws {
        let path = repositoryFile("examples/runmonster-xcode/RunMonster.xcodeproj/xcshareddata/xcschemes/RunMonster.xcscheme")
        let scheme = try XcodeScheme.load(path: path)
        let reference = try #require(scheme.storeKitConfiguration)
        #expect(reference.value == "../../RunMonster/Products.storekit")
        // The attribute's value, on the second line of the start tag.
        #expect(reference.location == SourceLocation(file: path, line: 46, column: 24, endLine: 46, endColumn: 58))
        #expect(scheme.resolve(reference.value) == repositoryFile("examples/runmonster-xcode/RunMonster/Products.storekit"))
    }

    @Test
    func storeKitFilesOfEveryVersionLoad() throws {
        let samples = SharedFolder.file("samples")
        for name in ["russell-archer__StoreHelper__Products.storekit", "RevenueCat__purchases-ios__UnitTestsConfiguration.storekit",
                     "RevenueCat__purchases-ios__PurchaseTesterStoreKitConfiguration.storekit"] {
            let path = samples + "/" + name
            try #require(FileManager.default.fileExists(atPath: path), "\(path) is missing")
            let configuration = try StoreKitConfiguration.load(path: path)
            #expect(!configuration.products.isEmpty, "\(name) has no products")
            #expect(configuration.products.allSatisfy { $0.productID != nil && $0.location.line > 0 })
        }
        let storeHelperPath = samples + "/russell-archer__StoreHelper__Products.storekit"
        let storeHelper = try StoreKitConfiguration.load(path: storeHelperPath)
        #expect(storeHelper.productIDs.contains("com.rarcher.subscription.vip.gold"))
        #expect(storeHelper.groups.first?.name?.value == "VIP")
    }

    /// An empty `.entitlements` file is a warning, and the checklist still runs: In-App Purchase
    /// needs no entitlement, so nothing else waits for the file. Signing may fail on it: at risk.
    @Test func anUnreadableEntitlementsFileDoesNotStopTheCheck() {
        let diagnosis = diagnose(snippet: "app:\n  entitlements: ../runmonster-xcode/variants/Empty.entitlements\n")
        let warning = diagnosis.findings.first { $0.rule == "entitlements-unreadable" }
        #expect(warning?.severity == .warning)
        #expect(!diagnosis.findings.contains { $0.rule == "input-malformed" })
        #expect(!diagnosis.products.isEmpty && diagnosis.products.allSatisfy { $0.verdict == .atRisk }, "\(diagnosis.products.map { ($0.productID, $0.verdict) })")
    }

    @Test func brokenStoreKitJSONIsPositioned() throws {
        let path = try temporary("{\n  \"products\" : [\n    { \"productID\" : \"a\" \n  ]\n}\n", named: "Broken.storekit")
        let error = try #require(throws: InputProblem.self) { try StoreKitConfiguration.load(path: path) }
        #expect(error.finding.rule == "input-malformed")
        #expect(error.finding.location?.line == 4)
        #expect(error.finding.message.contains("expected `,` or `}`"))
    }

    /// A product that says `productID` twice is refused at the second, not read as either.
    @Test func aRepeatedStoreKitKeyIsRefused() throws {
        let path = try temporary("{\n  \"products\" : [\n    { \"productID\" : \"com.x.a\",\n      \"productID\" : \"com.x.b\" }\n  ]\n}\n", named: "Twice.storekit")
        let error = try #require(throws: InputProblem.self) { try StoreKitConfiguration.load(path: path) }
        #expect(error.finding.rule == "input-malformed")
        #expect(error.finding.location?.line == 4 && error.finding.location?.column == 7)
        #expect(error.finding.message == "the key `productID` appears twice in one object; it was first set at line 3")
        let once = try temporary("{\n  \"products\" : [\n    { \"productID\" : \"com.x.a\" }, { \"productID\" : \"com.x.b\" }\n  ]\n}\n", named: "Once.storekit")
        #expect(try StoreKitConfiguration.load(path: once).productIDs == ["com.x.a", "com.x.b"])
    }

    @Test func productIDListsInJSONAndPlist() throws {
        let json = try temporary("[\"com.x.a\",\n \"com.x.b\"]", named: "ids.json")
        let ids = try ProductIDList.load(path: json)
        #expect(ids.map(\.value) == ["com.x.a", "com.x.b"])
        #expect(ids[1].location.line == 2 && ids[1].location.column == 2)
        let plist = try temporary("<plist><array>\n<string>com.x.c</string>\n</array></plist>", named: "ids.plist")
        #expect(try ProductIDList.load(path: plist).map(\.value) == ["com.x.c"])
    }

    @Test func jsonParserRefusesDeepNestingAndBadEscapes() throws {
        let deep = Array((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        #expect(throws: JSONInputError.self) { try JSONNode.parse(bytes: deep, file: "deep.json") }
        let escape = Array("{\"a\": \"\\q\"}".utf8)
        let error = try? #require(throws: JSONInputError.self) { try JSONNode.parse(bytes: escape, file: "e.json") }
        #expect(error?.message.contains("unknown escape") == true)
        let unicode = try JSONNode.parse(bytes: Array("{\"k\": \"\\u00e9\\ud83d\\ude00\"}".utf8), file: "u.json")
        #expect(unicode["k"]?.string == "é😀")
    }

    @Test func theRunMonsterProjectIsDiagnosedFromItsFilesAlone() throws {
        let diagnosis = Doctor(engine: BuiltinRules.engine()).check(
            Doctor.Request(paths: [repositoryFile("examples/runmonster-xcode/project.yaml")]))
        let rules = Set(diagnosis.findings.map(\.rule))
        #expect(rules.isSuperset(of: ["wildcard-app-id", "wildcard-profile", "short-product-id", "product-id-case-mismatch",
                                      "bundle-id-per-configuration", "storekit-configuration-active", "wrong-iap-entitlement"]))
        let short = try #require(diagnosis.findings.first { $0.rule == "short-product-id" })
        #expect(short.location?.file.hasSuffix("examples/runmonster-xcode/RunMonster/Store.swift") == true)
        #expect(short.location?.line == 11 && short.location?.column == 13)
        #expect(diagnosis.products.first { $0.productID == "com.runmonster.runmonsterfree.upgradetopro" }?.requestedAs == ["upgradetopro"])
        #expect(!diagnosis.hasInputErrors)
    }

    @Test func initWritesADescriptorThatCheckAccepts() throws {
        let folder = scratchPath("iapdoctor-init")
        defer { removeScratch(folder) }
        try FileManager.default.copyItem(atPath: repositoryFile("examples/runmonster-xcode"), toPath: folder)
        try? FileManager.default.removeItem(atPath: folder + "/project.yaml")
        let first = try runIAPDoctor(["init", folder])
        #expect(first.status == 0)
        #expect(first.output.contains("wrote \(folder)/project.yaml"))
        let written = readText(folder + "/project.yaml")
        #expect(written.contains("xcodeproj: RunMonster.xcodeproj"))
        #expect(written.contains("file: profiles/RunMonster_Development.mobileprovision"))
        #expect(written.contains("# team_type:"))
        let check = try runIAPDoctor(["check", folder + "/project.yaml"])
        #expect(check.status == 1, "check must accept the starter descriptor (findings, not input errors): \(check.output)")
        #expect(check.output.contains("error[short-product-id]"))
        // It never overwrites without --force.
        #expect(try runIAPDoctor(["init", folder]).status == 2)
        #expect(readText(folder + "/project.yaml") == written)
        #expect(try runIAPDoctor(["init", folder, "--force"]).status == 0)
    }
}
