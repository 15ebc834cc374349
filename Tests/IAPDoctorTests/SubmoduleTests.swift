import Foundation
import Testing
import TestSupport

/// Submodules a clone did not check out, as the check meets them: an empty folder inside the
/// sources, and a source root that is missing because it is one.
@Suite("Git submodules")
struct SubmoduleTests {
    static func project(sources: String) -> FixtureFolder {
        let fixture = FixtureFolder("submodules")
        fixture.write(".gitmodules", "[submodule \"shared\"]\n    path = Shared\n    url = ../shared.git\n[submodule \"docs\"]\n    path = Docs\n    url = ../docs.git\n")
        fixture.write("App/Shop.swift", "import StoreKit\nfunc load() async throws -> [Product] { try await Product.products(for: Catalog.ids) }\n")
        fixture.write("Docs/README.md", "not a submodule folder that matters\n")
        var descriptor = readText(repositoryFile("examples/healthy/project.yaml"))
        descriptor = descriptor.replacingOccurrences(of: "  storekit_api: storekit2\n", with: "  storekit_api: storekit2\n  sources: \(sources)\n")
        fixture.write("project.yaml", descriptor)
        return fixture
    }

    @Test func anEmptySubmoduleInTheSourcesIsNamed() throws {
        let fixture = Self.project(sources: "[.]")
        try FileManager.default.createDirectory(atPath: fixture.folder + "/Shared", withIntermediateDirectories: true)
        let (output, _, _) = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        #expect(output.contains("warning[submodule-not-checked-out]: the git submodule `Shared` is not checked out"), "\(output)")
        #expect(output.contains(".gitmodules:2:12"), "\(output)")
        #expect(!output.contains("submodule `Docs`"), "a checked-out submodule is not named")
    }

    @Test func aMissingSourceRootThatIsASubmoduleSaysSo() throws {
        let fixture = Self.project(sources: "[App, Shared]")
        let (output, status, _) = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        #expect(status == 2)
        #expect(output.contains("`Shared` is a git submodule"), "\(output)")
        #expect(output.contains("run `git submodule update --init --recursive`"), "\(output)")
    }

    @Test func sourcesOutsideEverySubmoduleAreNotAffected() throws {
        let fixture = Self.project(sources: "[App]")
        let (output, _, _) = try runIAPDoctor(["check", fixture.folder + "/project.yaml"])
        #expect(!output.contains("submodule-not-checked-out"), "\(output)")
    }
}
