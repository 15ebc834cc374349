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

/// `schemas/project.schema.json` (the descriptor, for editors) and
/// `schemas/report.schema.json` (`iapdoctor-report/1`, for consumers). The descriptor schema
/// lists the loader's own key table and enumerations, compared here, so neither can change alone.
/// Validation uses Python's `jsonschema` and PyYAML (scripts/bootstrap.sh installs both); without
/// them these tests are skipped, by name, except with `IAPDOCTOR_REQUIRE_TOOLS=1`, where they run and fail.
@Suite("Schemas")
struct SchemaTests {
    static let descriptorSchema = repositoryFile("schemas/project.schema.json")
    static let reportSchema = repositoryFile("schemas/report.schema.json")
    static let revenueCatSchema = repositoryFile("schemas/revenuecat-snapshot.schema.json")

    // MARK: The descriptor schema follows the loader

    /// The schema's property names at one level: `path` walks `properties` and `$defs`
    /// (`"#product"` starts at `$defs/product`), and follows `items` and `$ref`.
    static func propertyNames(_ path: [String]) throws -> Set<String> {
        let schema = try #require(JSONSerialization.jsonObject(with: Data(readText(descriptorSchema).utf8)) as? [String: Any])
        var node = schema
        for step in path {
            if step.hasPrefix("#") {
                let defs = try #require(schema["$defs"] as? [String: Any])
                node = try #require(defs[String(step.dropFirst())] as? [String: Any], "no $defs/\(step.dropFirst())")
            } else {
                let properties = try #require(node["properties"] as? [String: Any], "no properties at \(path)")
                node = try #require(properties[step] as? [String: Any], "no property \(step) in \(path)")
            }
        }
        #expect(node["additionalProperties"] as? Bool == false, "\(path) must refuse unknown keys")
        let properties = try #require(node["properties"] as? [String: Any], "no properties at \(path)")
        return Set(properties.keys)
    }

    /// `Generated/DescriptorKeys.swift` is what the schema says, at every level (a key added to the
    /// schema alone, or to the file alone, fails until scripts/generate.sh runs).
    @Test func generatedDescriptorKeysAreTheSchemasAtEveryLevel() throws {
        var levels: [([String], [String])] = [([], DescriptorKey.keys(in: nil).map(\.name))]
        for key in DescriptorKey.allCases where !DescriptorKey.keys(in: key).isEmpty {
            levels.append((key.rawValue.split(separator: ".").map(String.init), DescriptorKey.keys(in: key).map(\.name)))
        }
        levels += [
            (["#subscriptionGroup"], SubscriptionGroupKey.allCases.map(\.name)),
            (["#product"], ProductKey.allCases.map(\.name)),
            (["#localization"], LocalizationKey.allCases.map(\.name)),
        ]
        for (path, keys) in levels {
            #expect(try Self.propertyNames(path) == Set(keys), "schema keys at \(path.isEmpty ? "the top level" : path.joined(separator: "."))")
        }
        // The name lists the loader checks mappings with are the cases' names, in order.
        for mapping in [nil] + DescriptorKey.allCases.map(Optional.some) {
            #expect(DescriptorKey.names(in: mapping) == DescriptorKey.keys(in: mapping).map(\.name), "\(mapping?.rawValue ?? "top")")
        }
        #expect(ProductKey.names == ProductKey.allCases.map(\.name))
        #expect(SubscriptionGroupKey.names == SubscriptionGroupKey.allCases.map(\.name))
        #expect(LocalizationKey.names == LocalizationKey.allCases.map(\.name))
        // Every mapping level of the schema is one of these (a level added to the schema alone fails).
        let schema = try #require(JSONSerialization.jsonObject(with: Data(readText(Self.descriptorSchema).utf8)) as? [String: Any])
        #expect(Self.closedObjectCount(schema) == levels.count)
    }

    /// Every key of the schema is read by the loader (a key added to the schema and generated, but
    /// never read, would be accepted and silently ignored).
    @Test func theLoaderReadsEveryKeyOfTheSchema() {
        let loader = readText(repositoryFile("Sources/Loaders/DescriptorLoader.swift"))
        let names = DescriptorKey.allCases.map { "\($0)" } + ProductKey.allCases.map { "\($0)" }
            + SubscriptionGroupKey.allCases.map { "\($0)" } + LocalizationKey.allCases.map { "\($0)" }
        for name in names {
            #expect(loader.contains(".\(name))") || loader.contains(".\(name),") || loader.contains(".\(name)]"),
                    "DescriptorLoader.swift does not read `.\(name)`")
        }
    }

    /// Questions and disagreements name descriptor keys only through the generated enums: no
    /// `key: "…"` string is left in the sources for a misspelling to hide in.
    @Test func noSourceNamesADescriptorKeyAsAString() {
        var found: [String] = []
        for folder in ["Sources/Rules", "Sources/IAPDoctor", "Sources/Formats", "Sources/Model", "Sources/Loaders", "Sources/RuleEngine", "Sources/Reporters"] {
            let root = repositoryFile(folder)
            for case let file as String in FileManager.default.enumerator(atPath: root)! where file.hasSuffix(".swift") {
                for (number, line) in readText(root + "/" + file).split(separator: "\n").enumerated()
                where line.contains("key: \"") && !line.contains("key: \"\"") {
                    found.append("\(folder)/\(file):\(number + 1)")
                }
            }
        }
        #expect(found.isEmpty, "descriptor keys spelt as strings: \(found)")
    }

    /// Every key `init` writes, commented or not, is a key of the schema at its level: the
    /// commented ones are what a user uncomments, and a misspelt one would be a warning then.
    @Test func initWritesOnlySchemaKeys() throws {
        let folder = scratchPath("iapdoctor-init-keys")
        defer { removeScratch(folder) }
        try FileManager.default.copyItem(atPath: repositoryFile("examples/runmonster-xcode"), toPath: folder)
        try? FileManager.default.removeItem(atPath: folder + "/project.yaml")
        let run = try runIAPDoctor(["init", folder])
        #expect(run.status == 0, "\(run.output)")
        let paths = Self.keyPaths(inUncommented: readText(folder + "/project.yaml"))
        #expect(paths.count > 40, "\(paths)")
        for path in paths {
            let known: Bool
            if path.hasPrefix("products[].") {
                known = ProductKey(rawValue: String(path.dropFirst("products[].".count))) != nil
            } else {
                known = DescriptorKey(rawValue: path) != nil
            }
            #expect(known, "init writes `\(path)`, which is not a key of schemas/project.schema.json")
        }
    }

    /// The block keys of a descriptor with its comments' keys uncommented (`  #   snapshot: x` →
    /// `  snapshot: x`), as paths; list entries are `[]`, flow mappings are not entered.
    static func keyPaths(inUncommented text: String) -> [String] {
        var paths: [String] = []
        var stack: [(indent: Int, key: String)] = []
        for raw in text.split(separator: "\n") {
            var line = Substring(raw)
            let leading = line.prefix(while: { $0 == " " }).count
            line = line.dropFirst(leading)
            var indent = leading
            if line.hasPrefix("#") {
                // `# key:` and `#   key:` keep the column the key would have once uncommented.
                let afterHash = line.dropFirst()
                let spaces = afterHash.prefix(while: { $0 == " " }).count
                indent += max(0, spaces - 1)
                line = afterHash.dropFirst(spaces)
            }
            var isItem = false
            if line.hasPrefix("- ") { isItem = true; line = line.dropFirst(2); indent += 2 }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon]
            guard !key.isEmpty, key.allSatisfy({ $0.isLowercase || $0 == "_" }) else {
                // A label over alternatives (`# other schemes that run an app:`): the keys under it
                // belong to the label's own level.
                if line.hasSuffix(":") && key.contains(" ") {
                    while let last = stack.last, last.indent >= indent { stack.removeLast() }
                    stack.append((indent, ""))
                }
                continue
            }
            let after = line[line.index(after: colon)...]
            guard after.isEmpty || after.first == " " else { continue }
            while let last = stack.last, last.indent >= indent { stack.removeLast() }
            if isItem, let parent = stack.last { stack[stack.count - 1].key = parent.key.hasSuffix("[]") ? parent.key : parent.key + "[]" }
            let path = (stack.map(\.key).filter { !$0.isEmpty } + [String(key)]).joined(separator: ".")
            paths.append(path)
            stack.append((indent, String(key)))
        }
        return paths
    }

    /// Objects with `additionalProperties: false`, anywhere in the schema.
    static func closedObjectCount(_ node: Any) -> Int {
        if let array = node as? [Any] { return array.reduce(0) { $0 + closedObjectCount($1) } }
        guard let object = node as? [String: Any] else { return 0 }
        return (object["additionalProperties"] as? Bool == false ? 1 : 0) + object.values.reduce(0) { $0 + closedObjectCount($1) }
    }

    /// The values of one enumeration in the schema (without `null`, which means "absent").
    static func enumValues(_ path: [String]) throws -> [String] {
        let schema = try #require(JSONSerialization.jsonObject(with: Data(readText(descriptorSchema).utf8)) as? [String: Any])
        var node = schema
        for step in path {
            if step.hasPrefix("#") {
                node = try #require((schema["$defs"] as? [String: Any])?[String(step.dropFirst())] as? [String: Any])
            } else {
                node = try #require((node["properties"] as? [String: Any])?[step] as? [String: Any], "no property \(step) in \(path)")
            }
        }
        let values = try #require(node["enum"] as? [Any], "no enum at \(path)")
        #expect(node["description"] as? String != nil && (node["description"] as! String).contains("also accepts"),
                "\(path): the description must say that App Store Connect spellings are accepted")
        return values.compactMap { $0 as? String }
    }

    static func cases<E: DescriptorEnumeration>(_ type: E.Type) -> [String] { E.allCases.map(\.rawValue) }

    @Test func descriptorSchemaEnumsAreTheLoadersValues() throws {
        let enums: [([String], [String])] = [
            (["environment"], Self.cases(Environment.self)),
            (["app", "platform"], Self.cases(Platform.self)),
            (["app", "storekit_api"], Self.cases(StoreKitAPI.self)),
            (["developer_account", "team_type"], Self.cases(TeamType.self)),
            (["developer_account", "membership"], Self.cases(MembershipStatus.self)),
            (["developer_account", "program_license"], Self.cases(LicenseStatus.self)),
            (["developer_account", "agreements", "paid_apps"], Self.cases(AgreementStatus.self)),
            (["developer_account", "banking"], Self.cases(SetupStatus.self)),
            (["developer_account", "tax"], Self.cases(SetupStatus.self)),
            (["signing", "style"], Self.cases(SigningStyle.self)),
            (["signing", "profile", "type"], Self.cases(ProfileType.self)),
            (["app_store_connect", "version_state"], Self.cases(VersionState.self)),
            (["#product", "type"], Self.cases(ProductType.self)),
            (["#product", "status"], Self.cases(ProductStatus.self)),
            (["#product", "subscription_duration"], Self.cases(SubscriptionDuration.self)),
            (["testing", "device"], Self.cases(DeviceKind.self)),
        ]
        for (path, values) in enums {
            #expect(try Self.enumValues(path) == values, "enum at \(path.joined(separator: "."))")
        }
    }

    // MARK: Validation (jsonschema)

    /// Whether `python3` imports `jsonschema` and `yaml`.
    static let pythonIsReady: Bool = {
        (try? python("import jsonschema, yaml", []).status) == 0
    }()

    /// YAML to JSON as an editor's YAML 1.2 reader sees it: dates stay text (as the loader reads
    /// them). Validates with draft 2020-12 and, to the same result, draft 7. Prints one line per document: its path and the number of schema errors, then the errors.
    static let validateYAML = """
        import json, sys, yaml, jsonschema
        class Loader(yaml.SafeLoader): pass
        Loader.yaml_implicit_resolvers = {
            key: [(tag, regexp) for tag, regexp in resolvers if tag != 'tag:yaml.org,2002:timestamp']
            for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        # Editors whose YAML server knows draft 7 only read the schema the same way.
        jsonschema.Draft7Validator.check_schema(schema)
        draft7 = jsonschema.Draft7Validator(schema)
        for path in sys.argv[2:]:
            with open(path) as f:
                document = yaml.load(f, Loader=Loader) if path.endswith(('.yaml', '.yml')) else json.load(f)
            errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
            assert len(list(draft7.iter_errors(document))) == len(errors), 'draft 7 reads ' + path + ' differently'
            print(path, len(errors))
            for error in errors:
                print('  at', '/'.join(map(str, error.absolute_path)) or '(root)', ':', error.message)
        """

    /// The number of schema errors of each document.
    static func errorCounts(schema: String, _ documents: [String]) throws -> [String: Int] {
        let result = try python(validateYAML, [schema] + documents)
        #expect(result.status == 0, "python failed: \(result.error)")
        var counts: [String: Int] = [:]
        for line in result.output.split(separator: "\n") where !line.hasPrefix(" ") {
            let parts = line.split(separator: " ")
            counts[parts.dropLast().joined(separator: " ")] = Int(parts.last!)
        }
        #expect(counts.count == documents.count, "\(result.output)")
        return counts
    }

    static func examples(_ name: String) throws -> [String] {
        let folder = repositoryFile("examples")
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            .map { "\(folder)/\($0)/\(name)" }
            .filter { FileManager.default.fileExists(atPath: $0) }
    }

    @Test(.enabled(if: pythonIsReady || toolsRequired, "python3 with jsonschema and PyYAML not found (IAPDOCTOR_REQUIRE_TOOLS=1 runs these tests)"))
    func bothSchemasAreValidDraft202012() throws {
        let result = try python("""
            import json, sys, jsonschema
            for path in sys.argv[1:]:
                schema = json.load(open(path))
                assert schema['$schema'] == 'https://json-schema.org/draft/2020-12/schema', path
                assert jsonschema.validators.validator_for(schema) is jsonschema.Draft202012Validator, path
                jsonschema.Draft202012Validator.check_schema(schema)
            print('ok')
            """, [Self.descriptorSchema, Self.reportSchema, Self.revenueCatSchema])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "ok\n")
    }

    @Test(.enabled(if: pythonIsReady || toolsRequired, "python3 with jsonschema and PyYAML not found (IAPDOCTOR_REQUIRE_TOOLS=1 runs these tests)"))
    func everyExampleDescriptorValidates() throws {
        var descriptors = try Self.examples("project.yaml")
        #expect(descriptors.count >= 6)
        descriptors.append(SharedFolder.file("spec/project.example.yaml"))
        let result = try python(Self.validateYAML, [Self.descriptorSchema] + descriptors)
        #expect(result.status == 0, "\(result.error)")
        for descriptor in descriptors {
            #expect(result.output.contains("\(descriptor) 0\n"), "\(result.output)")
        }
    }

    /// What the pull writes (RevenueCatTests reads each example back from a loopback pull) and
    /// what `check` reads; a snapshot the reader refuses is refused by the schema too.
    @Test(.enabled(if: pythonIsReady || toolsRequired, "python3 with jsonschema and PyYAML not found (IAPDOCTOR_REQUIRE_TOOLS=1 runs these tests)"))
    func everyRevenueCatSnapshotValidates() throws {
        let folder = repositoryFile("examples/revenuecat/snapshots")
        var snapshots = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { folder + "/" + $0 }
        #expect(snapshots.count >= 9)
        let broken = scratchPath("revenuecat-broken", suffix: ".json")
        defer { removeScratch(broken) }
        try Data(#"{"format": "iapdoctor-revenuecat-snapshot/1", "apps": [{"id": "app1"}], "products": [], "offerings": {}}"#.utf8).write(to: URL(fileURLWithPath: broken))
        snapshots.append(broken)
        let counts = try Self.errorCounts(schema: Self.revenueCatSchema, snapshots)
        for snapshot in snapshots.dropLast() { #expect(counts[snapshot] == 0, "\(snapshot)") }
        #expect(counts[broken] == 2, "an app without `type`, offerings that are no list")
        #expect(throws: InputProblem.self) { try RevenueCatSnapshot.load(path: broken) }
    }

    @Test(.enabled(if: pythonIsReady || toolsRequired, "python3 with jsonschema and PyYAML not found (IAPDOCTOR_REQUIRE_TOOLS=1 runs these tests)"))
    func everyExampleReportValidates() throws {
        var reports = try Self.examples("expected.json")
        #expect(reports.count >= 8)
        // And a report with the edges: findings without a line, without a file, with markup.
        let hostile = scratchPath("iapdoctor-hostile", suffix: ".json")
        defer { removeScratch(hostile) }
        try Data(JSONReporter().report(ReporterTests.hostile()).utf8).write(to: URL(fileURLWithPath: hostile))
        reports.append(hostile)
        let counts = try Self.errorCounts(schema: Self.reportSchema, reports)
        for report in reports { #expect(counts[report] == 0, "\(report)") }
        // The schema admits added fields (the contract allows them), so check here that the
        // reporter writes none the schema does not describe.
        let names = try python("""
            import json, sys
            schema = json.load(open(sys.argv[1]))
            def resolve(node):
                while '$ref' in node: node = schema['$defs'][node['$ref'].split('/')[-1]]
                return node
            def walk(value, node, where):
                node = resolve(node)
                if isinstance(value, dict):
                    for key, item in value.items():
                        if key not in node.get('properties', {}): print(where + '.' + key)
                        else: walk(item, node['properties'][key], where + '.' + key)
                elif isinstance(value, list) and 'items' in node:
                    for item in value: walk(item, node['items'], where + '[]')
            for path in sys.argv[2:]: walk(json.load(open(path)), schema, path)
            """, [Self.reportSchema] + reports)
        #expect(names.status == 0, "\(names.error)")
        #expect(names.output == "", "fields the report schema does not describe")
    }

    /// The keys spans added: every finding with a position has its end, and a finding that names
    /// a second place lists it under `related` with a label.
    @Test func exampleReportsGiveEveryPositionItsEnd() throws {
        var relatedSeen = 0
        for path in try Self.examples("expected.json") {
            let report = try #require(JSONSerialization.jsonObject(with: Data(readText(path).utf8)) as? [String: Any])
            for finding in report["findings"] as? [[String: Any]] ?? [] {
                let line = finding["line"] as? Int, column = finding["column"] as? Int
                let endLine = finding["end_line"] as? Int, endColumn = finding["end_column"] as? Int
                #expect(finding.keys.contains("end_line") && finding.keys.contains("end_column") && finding["related"] is [Any], "\(path)")
                if let line, let column {
                    let end = try #require(endLine.flatMap { l in endColumn.map { (l, $0) } }, "\(path): \(finding["rule"] ?? "") has no end")
                    #expect(end.0 > line || (end.0 == line && end.1 >= column), "\(path): \(finding["rule"] ?? "") ends before it starts")
                }
                for related in finding["related"] as? [[String: Any]] ?? [] {
                    relatedSeen += 1
                    #expect(!(related["label"] as? String ?? "").isEmpty)
                    #expect(related["end_column"] is Int, "\(path): a related span without an end")
                }
            }
        }
        #expect(relatedSeen >= 2, "the duplicate product IDs of catalog-broken and storekit-broken name their first use")
    }

    @Test(.enabled(if: pythonIsReady || toolsRequired, "python3 with jsonschema and PyYAML not found (IAPDOCTOR_REQUIRE_TOOLS=1 runs these tests)"))
    func brokenDescriptorsAreRejectedByTheSchemaAndTheLoader() throws {
        let broken: [(name: String, yaml: String, rule: String)] = [
            ("misspelt-top", "version: 1\nenviroment: sandbox\n", "descriptor-unknown-key"),
            ("misspelt-app", "version: 1\napp:\n  bundle_identifier: com.example.app\n", "descriptor-unknown-key"),
            ("misspelt-product", "version: 1\nproducts:\n  - product_id: com.example.pro\n    cleared_for_sales: true\n", "descriptor-unknown-key"),
            ("misspelt-localization", "version: 1\nproducts:\n  - product_id: com.example.pro\n    localizations:\n      en-US: { display: Pro }\n", "descriptor-unknown-key"),
            ("bad-environment", "version: 1\nenvironment: staging\n", "descriptor-invalid-value"),
            ("bad-type", "version: 1\nproducts:\n  - product_id: com.example.pro\n    type: non_renewable_subscription_plus\n", "descriptor-invalid-value"),
            ("bad-status", "version: 1\nproducts:\n  - product_id: com.example.pro\n    status: live\n", "descriptor-invalid-value"),
            ("bad-version", "version: 2\n", "descriptor-invalid-value"),
            ("no-version", "environment: sandbox\n", "descriptor-missing-version"),
        ]
        let folder = scratchPath("iapdoctor-schema")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { removeScratch(folder) }
        var paths: [String] = []
        for item in broken {
            let path = "\(folder)/\(item.name).yaml"
            try Data(item.yaml.utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            // The loader agrees: the same mistake is a problem there.
            let loaded = DescriptorLoader.load(bytes: Array(item.yaml.utf8), file: path)
            #expect(loaded.problems.contains { $0.rule == item.rule }, "\(item.name): \(loaded.problems.map(\.message))")
        }
        // A good one beside them, so a schema that rejects everything fails.
        let good = "\(folder)/good.yaml"
        try Data("version: 1\nenvironment: Production\napp: { bundle_id: com.example.app, deployment_target: 15.0 }\nproducts:\n  - product_id: com.example.pro\n    type: non_consumable\n    price: 0.99\n    created_at: 2026-11-22\n    subscription_group: null\n".utf8)
            .write(to: URL(fileURLWithPath: good))
        let counts = try Self.errorCounts(schema: Self.descriptorSchema, paths + [good])
        for (item, path) in zip(broken, paths) { #expect((counts[path] ?? 0) > 0, "\(item.name) must be rejected") }
        // `Production` is an accepted spelling the schema does not list: editors flag it, the loader reads it.
        #expect(counts[good] == 1)
        #expect(!DescriptorLoader.load(bytes: Array(readText(good).utf8), file: good).hasErrors)
    }

    // MARK: init

    @Test func initWritesTheSchemaLineFirst() throws {
        #expect(StarterDescriptor.schemaLine == "# yaml-language-server: $schema=https://raw.githubusercontent.com/iapdoctor/iapdoctor/main/schemas/project.schema.json")
        // The URL names the file in this repository.
        #expect(StarterDescriptor.schemaURL.hasSuffix("/main/schemas/project.schema.json"))
        #expect(FileManager.default.fileExists(atPath: Self.descriptorSchema))
        let schema = try #require(JSONSerialization.jsonObject(with: Data(readText(Self.descriptorSchema).utf8)) as? [String: Any])
        #expect(schema["$id"] as? String == StarterDescriptor.schemaURL)
    }

    @Test(.enabled(if: pythonIsReady || toolsRequired, "python3 with jsonschema and PyYAML not found (IAPDOCTOR_REQUIRE_TOOLS=1 runs these tests)"))
    func initOutputCarriesTheSchemaLineAndValidates() throws {
        let folder = scratchPath("iapdoctor-init-schema")
        defer { removeScratch(folder) }
        try FileManager.default.copyItem(atPath: repositoryFile("examples/runmonster-xcode"), toPath: folder)
        try? FileManager.default.removeItem(atPath: folder + "/project.yaml")
        let run = try runIAPDoctor(["init", folder])
        #expect(run.status == 0, "\(run.output)")
        let written = readText(folder + "/project.yaml")
        #expect(written.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) == StarterDescriptor.schemaLine)
        let counts = try Self.errorCounts(schema: Self.descriptorSchema, [folder + "/project.yaml"])
        #expect(counts[folder + "/project.yaml"] == 0)
    }
}

