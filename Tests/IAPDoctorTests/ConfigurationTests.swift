import IAPDoctor
import Rules
import Testing
import TestSupport

@Suite("Rules configuration (.iapdoctor.yml)")
struct ConfigurationTests {
    func configuration(_ yaml: String) throws(ConfigurationError) -> Configuration {
        try Configuration.parse(bytes: Array(yaml.utf8), file: ".iapdoctor.yml", ruleSet: .builtin)
    }

    func run(_ snippet: String, with config: Configuration) -> Diagnosis {
        let basePath = repositoryFile("examples/healthy/project.yaml")
        let tree = try! YAMLTreeReader.read(bytes: Array(readText(basePath).utf8), file: basePath).tree!
        let overlay = try! YAMLTreeReader.read(bytes: Array(snippet.utf8), file: "snippet.yaml").tree
        let loaded = DescriptorLoader.load(tree: overlay.map { merge(tree, $0) } ?? tree, file: basePath)
        return BuiltinRules.engine().diagnose(
            loaded.project, inputProblems: loaded.problems, options: Engine.Options(configuration: config))
    }

    @Test func severityOverridesAndOffApply() throws {
        let config = try configuration("""
            rules:
              wildcard-app-id: warning
              wildcard-profile: off
            """)
        let diagnosis = run("app_id: { identifier: 4KQ2H9XW7B.com.greenthumb.* }\nsigning: { profile: { app_id: 4KQ2H9XW7B.* } }", with: config)
        #expect(diagnosis.findings.first { $0.rule == "wildcard-app-id" }?.severity == .warning)
        #expect(!diagnosis.findings.contains { $0.rule == "wildcard-profile" })
        #expect(diagnosis.disabledRules == ["wildcard-profile"])
        #expect(diagnosis.exitCode == 0)
    }

    @Test func optionsChangeLimits() throws {
        let config = try configuration("""
            rules:
              display-name-length:
                options: { max_length: 10 }
            """)
        let diagnosis = run("", with: config)
        let findings = diagnosis.findings.filter { $0.rule == "display-name-length" }
        #expect(findings.count >= 2)
        #expect(findings.first?.message.contains("App Store Connect accepts 2 to 10") == true)
    }

    @Test func customDeclarativeRulesRun() throws {
        let config = try configuration(#"""
            custom_rules:
              - id: product-id-prefix
                checklist: product-metadata
                severity: error
                title: product IDs start with the bundle ID
                rationale: our convention
                check: { each: products, field: product_id }
                options: { pattern: 'com\.greenthumb\.pocketgarden\.[a-z0-9.]+' }
                message: "product ID `{value}` does not follow our naming convention"
                help: "rename it to start with `com.greenthumb.pocketgarden.`"
            """#)
        let clean = run("", with: config)
        #expect(!clean.findings.contains { $0.rule == "product-id-prefix" })
        let dirty = run("products:\n  - product_id: com.other.seeds50\n", with: config)
        let finding = try #require(dirty.findings.first { $0.rule == "product-id-prefix" })
        #expect(finding.message == "product ID `com.other.seeds50` does not follow our naming convention")
        #expect(finding.location?.file == "snippet.yaml" && finding.location?.line == 2)
    }

    @Test func everyConfigurationMistakeIsReportedWithItsPosition() {
        do {
            _ = try configuration("""
                rules:
                  wildcard-app-idd: off
                  short-product-id: loud
                  display-name-length:
                    options: { maximum: 3 }
                custom_rules:
                  - id: no-check
                    title: t
                    message: m
                colour: red
                """)
            Issue.record("expected configuration errors")
        } catch {
            let messages = error.problems.map(\.message)
            #expect(messages.count == 5, "\(messages)")
            #expect(messages.contains("unknown rule `wildcard-app-idd`; did you mean `wildcard-app-id`?"))
            #expect(error.problems.allSatisfy { $0.rule == "config-invalid" && ($0.location?.line ?? 0) > 0 })
        }
    }
}
