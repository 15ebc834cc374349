import Foundation
import IAPDoctor
import Rules
import Testing
import TestSupport

/// A package's items are checked once, as they stream by, by the rules the run's
/// configuration leaves on, with its severities and options; nothing of one run reaches another.
@Suite("Catalog items are checked with the configured rules") struct CatalogFlowTests {
    /// Two items: titles of 16 and 11 characters (both within rules.yaml's 30), the first with the
    /// `.storekit` spelling of its locale.
    static let metadata = catalogEnvelopeHead + """
                <in_app_purchase>
                  <product_id>com.greenthumb.pocketgarden.seeds50</product_id>
                  <reference_name>Seeds 50</reference_name>
                  <type>consumable</type>
                  <products><product><cleared_for_sale>true</cleared_for_sale><wholesale_price_tier>1</wholesale_price_tier></product></products>
                  <locales><locale name="en_US"><title>Fifty Seed Packs</title><description>Fifty packs of seeds for the garden.</description></locale></locales>
                </in_app_purchase>
                <in_app_purchase>
                  <product_id>com.greenthumb.pocketgarden.seeds10</product_id>
                  <reference_name>Seeds 10</reference_name>
                  <type>consumable</type>
                  <products><product><cleared_for_sale>true</cleared_for_sale><wholesale_price_tier>1</wholesale_price_tier></product></products>
                  <locales><locale name="en-US"><title>Ten Packets</title><description>Ten packs of seeds for the garden.</description></locale></locales>
                </in_app_purchase>
        """ + catalogEnvelopeTail

    /// The lines of the two titles in ``metadata`` (each item's `<locale>` starts on its title's line).
    static let titleLines: [Int] = metadata.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .filter { $0.element.contains("<title>") }.map { $0.offset + 1 }

    /// A project folder: a descriptor listing `Store.itmsp` (which holds ``metadata``), and
    /// `.iapdoctor.yml` beside it when `configuration` is given.
    static func makeProject(configuration: String?) throws -> (folder: String, descriptor: String) {
        let folder = try makeScratchFolder("iapdoctor-catalog-flow")
        try FileManager.default.createDirectory(atPath: folder + "/Store.itmsp", withIntermediateDirectories: true)
        try metadata.write(toFile: folder + "/Store.itmsp/metadata.xml", atomically: true, encoding: .utf8)
        let descriptor = folder + "/project.yaml"
        try """
            version: 1
            environment: sandbox
            app: { name: Pocket Garden, platform: ios, bundle_id: com.greenthumb.pocketgarden }
            catalogs: [Store.itmsp]

            """.write(toFile: descriptor, atomically: true, encoding: .utf8)
        if let configuration {
            try configuration.write(toFile: folder + "/" + Configuration.defaultFileName, atomically: true, encoding: .utf8)
        }
        return (folder, descriptor)
    }

    static func check(_ paths: [String], rulesFile: String? = nil) -> Diagnosis {
        Doctor(engine: BuiltinRules.engine()).check(Doctor.Request(paths: paths, rulesFile: rulesFile))
    }

    /// `(line, severity)` of each finding of `rule`.
    static func found(_ rule: String, in diagnosis: Diagnosis) -> [String] {
        diagnosis.findings.filter { $0.rule == rule }.map { "line \($0.location?.line ?? 0) \($0.severity.rawValue)" }
    }

    static func summary(_ diagnosis: Diagnosis) -> [String] {
        found("catalog-title-length", in: diagnosis) + found("catalog-locale-code", in: diagnosis)
    }

    @Test func anOptionAndASeverityInIapdoctorYmlReachTheStreamedItems() throws {
        let defaults = try #require(RuleSet.builtin.rule("catalog-locale-code")).severity
        #expect(defaults != .warning, "the test configures `warning`, so the default must differ")
        #expect(Self.titleLines.count == 2)

        let plain = try Self.makeProject(configuration: nil)
        defer { removeScratch(plain.folder) }
        let before = Self.check([plain.descriptor])
        #expect(!before.hasInputErrors, "\(before.findings.filter { $0.checklist == nil })")
        #expect(Self.found("catalog-title-length", in: before).isEmpty)
        #expect(Self.found("catalog-locale-code", in: before) == ["line \(Self.titleLines[0]) \(defaults.rawValue)"])

        let configured = try Self.makeProject(configuration: """
            rules:
              catalog-title-length:
                options: { max_length: 12 }
              catalog-locale-code: warning
            """)
        defer { removeScratch(configured.folder) }
        let after = Self.check([configured.descriptor])
        #expect(after.configurationFile?.hasSuffix(Configuration.defaultFileName) == true)
        // The 16-character title breaks the configured limit; the 11-character one does not.
        #expect(Self.found("catalog-title-length", in: after) == ["line \(Self.titleLines[0]) error"])
        let title = try #require(after.findings.first { $0.rule == "catalog-title-length" })
        #expect(title.message.contains("has 16 characters; App Store Connect accepts 2 to 12"), "\(title.message)")
        #expect(Self.found("catalog-locale-code", in: after) == ["line \(Self.titleLines[0]) warning"])
    }

    @Test func twoConfigurationsInOneProcessEachGetTheirOwnFindings() async throws {
        let project = try Self.makeProject(configuration: nil)
        defer { removeScratch(project.folder) }
        let strict = project.folder + "/strict.yml", lenient = project.folder + "/lenient.yml"
        try "rules:\n  catalog-title-length: { options: { max_length: 10 } }\n  catalog-locale-code: note\n"
            .write(toFile: strict, atomically: true, encoding: .utf8)
        try "rules:\n  catalog-title-length: { options: { max_length: 12 } }\n  catalog-locale-code: off\n"
            .write(toFile: lenient, atomically: true, encoding: .utf8)
        let lines = Self.titleLines
        let expected: [String: [String]] = [
            strict: ["line \(lines[0]) error", "line \(lines[1]) error", "line \(lines[0]) note"],
            lenient: ["line \(lines[0]) error"],
        ]
        // One after the other, and then both at once, several times over: each run sees only its own.
        #expect(Self.summary(Self.check([project.descriptor], rulesFile: strict)) == expected[strict])
        #expect(Self.summary(Self.check([project.descriptor], rulesFile: lenient)) == expected[lenient])
        #expect(Self.summary(Self.check([project.descriptor], rulesFile: strict)) == expected[strict])
        let runs = try await withThrowingTaskGroup(of: (String, [String]).self) { group in
            for index in 0..<8 {
                let file = index.isMultiple(of: 2) ? strict : lenient
                group.addTask { (file, Self.summary(Self.check([project.descriptor], rulesFile: file))) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(runs.count == 8)
        for (file, found) in runs {
            #expect(found == expected[file], "\(file)")
        }
    }

    /// The scan runs the rules the configuration leaves on, and only those: a rule turned off is
    /// not run on the items at all, and a custom `each: in_app_purchase` rule is.
    @Test func theScanRunsTheEnabledItemChecksOfTheConfiguration() throws {
        let project = try Self.makeProject(configuration: nil)
        defer { removeScratch(project.folder) }
        let path = project.folder + "/Store.itmsp"
        let engine = BuiltinRules.engine()
        let plain = try engine.scanCatalog(path: path, configuration: Configuration())
        #expect(plain.results.findingsByRule["catalog-locale-code"]?.count == 1)
        #expect(plain.results.findingsByRule["catalog-title-length"]?.isEmpty == true)
        #expect(plain.results.findingsByRule["seed-titles"] == nil)

        let configuration = try Configuration.parse(bytes: Array("""
            rules:
              catalog-locale-code: off
            custom_rules:
              - id: seed-titles
                checklist: catalog-valid
                input: catalog
                severity: warning
                title: titles name the seeds
                rationale: our convention
                check: { each: in_app_purchase, field: locales.locale.title }
                options: { pattern: '.*Seed.*' }
                message: "title `{value}` of `{product}` does not say Seed"
            """.utf8), file: ".iapdoctor.yml", ruleSet: engine.ruleSet)
        let configured = try engine.scanCatalog(path: path, configuration: configuration)
        #expect(configured.results.findingsByRule["catalog-locale-code"] == nil)
        let custom = try #require(configured.results.findingsByRule["seed-titles"])
        #expect(custom.map(\.message) == ["title `Ten Packets` of `com.greenthumb.pocketgarden.seeds10` does not say Seed"])
        #expect(custom.first?.severity == .warning)
        // The package's facts do not depend on the rules.
        #expect(configured.package.items.map { $0.productID?.value } == plain.package.items.map { $0.productID?.value })
    }

    /// The items stream to a thread of their own (`XMLReader.scanInParallel`): what the caller's
    /// thread confines reading to must hold there too, and the items come in document order.
    @Test func eachItemSeesTheCallersConfinementInDocumentOrder() throws {
        let project = try Self.makeProject(configuration: nil)
        var roots: [String?] = []
        var ids: [String?] = []
        let package = try Workspace.withConfinement(root: project.folder) { () throws(InputProblem) in
            try CatalogPackage.load(path: project.folder + "/Store.itmsp") { streamed in
                roots.append(Workspace.confinement?.root)
                ids.append(streamed.item.productID?.value)
            }
        }
        #expect(roots == [project.folder, project.folder])
        #expect(ids == ["com.greenthumb.pocketgarden.seeds50", "com.greenthumb.pocketgarden.seeds10"])
        #expect(package.items.map { $0.productID?.value } == ids)
    }

    /// The duplicate rules' fast path (`repeats(of: .referenceName)`, from the table's bytes)
    /// finds exactly what comparing the facts as strings finds: ASCII, composed and decomposed
    /// `é`, the Kelvin sign and `K`, empty values (never repeats), missing elements.
    @Test func repeatsFromTheTableAreTheRepeatsOfTheFacts() throws {
        let names = ["Seeds 50", "Café", "Cafe\u{301}", "Seeds 50", "\u{212A}elvin", "Kelvin", "", "", "seeds 50", "Café", nil, "Kelvin"]
        var items = ""
        for (index, name) in names.enumerated() {
            let id = index % 4 == 3 ? "com.example.dup" : (index == 5 ? "com.example.\u{212A}" : (index == 6 ? "com.example.K" : "com.example.p\(index)"))
            items += "<in_app_purchase><product_id>\(id)</product_id>"
                + (name.map { "<reference_name>\($0)</reference_name>" } ?? "") + "<type>consumable</type></in_app_purchase>\n"
        }
        let package = try loadCatalog(items: items, folder: "iapdoctor-repeats")
        let fastNames = shape(package.repeats(of: .referenceName))
        #expect(fastNames == shape(package.repeats { $0.referenceName }))
        #expect(fastNames.count == 5, "\(fastNames)")
        let fastIDs = shape(package.repeats(of: .productID))
        #expect(fastIDs == shape(package.repeats { $0.productID }))
        #expect(fastIDs.count == 3, "\(fastIDs)")
        // Items that are not the table's rows in order (a caller's own list) take the general path.
        var reordered = package
        reordered.items.reverse()
        #expect(shape(reordered.repeats(of: .referenceName)) == shape(reordered.repeats { $0.referenceName }))
        #expect(shape(reordered.repeats(of: .productID)) == shape(reordered.repeats { $0.productID }))
        #expect(reordered.repeats(of: .referenceName).count == 5)
    }

    /// A catalog package of `items` (`<in_app_purchase>` elements), written to a scratch folder and loaded.
    private func loadCatalog(items: String, folder name: String) throws -> CatalogPackage {
        let folder = try makeScratchFolder(name)
        try (catalogEnvelopeHead + items + catalogEnvelopeTail).write(toFile: folder + "/metadata.xml", atomically: true, encoding: .utf8)
        return try CatalogPackage.load(path: folder + "/metadata.xml") { _ in }
    }

    /// Each repeat as its value, place and first place, for comparing two ways of finding them.
    private func shape(_ found: [(item: CatalogPackage.Item, repeated: Fact<String>, first: Fact<String>)]) -> [String] {
        found.map { "\($0.repeated.value)@\($0.repeated.location.line):\($0.repeated.location.column) first \($0.first.location.line):\($0.first.location.column)" }
    }

    /// The same over enough items that the table of values grows many times while they are read
    /// (repeats near and far apart, composed and decomposed forms).
    @Test func repeatsFoundWhileReadingSurviveTheTableGrowing() throws {
        var items = ""
        for index in 0..<1_500 {
            let name = index % 5 == 0 ? "Caf\u{E9} \(index % 211)" : (index % 5 == 1 ? "Cafe\u{301} \(index % 211)" : "Pack \(index % 613)")
            items += "<in_app_purchase><product_id>com.example.p\(index % 997)</product_id><reference_name>\(name)</reference_name><type>consumable</type></in_app_purchase>\n"
        }
        let package = try loadCatalog(items: items, folder: "iapdoctor-repeats-many")
        let names = shape(package.repeats(of: .referenceName))
        #expect(names == shape(package.repeats { $0.referenceName }))
        let ids = shape(package.repeats(of: .productID))
        #expect(ids == shape(package.repeats { $0.productID }))
        #expect(ids.count == 1_500 - 997)
        #expect(names.count > 600)
    }
}
