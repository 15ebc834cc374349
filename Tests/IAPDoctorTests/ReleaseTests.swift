import Foundation
import Testing
import TestSupport

/// `scripts/release.sh`: the artifacts, byte for byte the same each time; the artifact bundle is
/// one SwiftPM takes, and the plugins run from it without compiling iapdoctor; the formula parses.
@Suite("Release artifacts", .serialized)
struct ReleaseTests {
    /// A source build resolves wherever its packages come from: no recorded revisions in the
    /// repository, each direct dependency pinned by exact version, and a clean resolution of the
    /// manifest alone gives those versions (`scripts/check-pins.sh`).
    @Test func theManifestPinsExactVersionsAndResolvesAlone() throws {
        let manifest = readText(repositoryFile("Package.swift"))
        let dependencies = manifest.components(separatedBy: "\n").filter { $0.contains(".package(url:") }
        #expect(dependencies.count == 3, "\(dependencies)")
        #expect(dependencies.allSatisfy { $0.contains("exact: \"") }, "\(dependencies)")
        let ignored = readText(repositoryFile(".gitignore")).components(separatedBy: "\n")
        #expect(ignored.contains("/Package.resolved"))
        let checked = try runProgram(["bash", repositoryFile("scripts/check-pins.sh")])
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.contains("https://github.com/apple/swift-argument-parser 1.8.2"), "\(checked.output)")
    }

    /// The bundle and tarballs of the built (debug) binary, written twice.
    @Test func theArtifactsAreDeterministicAndListed() throws {
        let folder = try makeScratchFolder("release")
        defer { removeScratch(folder) }
        var sums: [String] = []
        for round in 1...2 {
            let packed = try runProgram(["bash", repositoryFile("scripts/release.sh"), "--binary", iapdoctorExecutable().path, "--out", folder + "/dist\(round)"])
            #expect(packed.status == 0, "\(packed.output)")
            sums.append(readText(folder + "/dist\(round)/SHA256SUMS"))
        }
        #expect(sums[0] == sums[1], "two runs packed different bytes:\n\(sums[0])\n\(sums[1])")
        let names = sums[0].split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(names.contains("iapdoctor.artifactbundle.zip") && names.contains { $0.hasPrefix("iapdoctor-") && $0.hasSuffix("-source.tar.gz") })
        #expect(names.contains { $0.contains("-linux-") || $0.hasSuffix("-macos.tar.gz") }, "\(names)")

        let info = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/dist1/iapdoctor.artifactbundle/info.json"))) as? [String: Any])
        #expect(info["schemaVersion"] as? String == "1.0")
        let artifact = try #require((info["artifacts"] as? [String: Any])?["iapdoctor"] as? [String: Any])
        #expect(artifact["type"] as? String == "executable")
        let variants = try #require(artifact["variants"] as? [[String: Any]])
        for variant in variants {
            let path = folder + "/dist1/iapdoctor.artifactbundle/" + (variant["path"] as? String ?? "")
            #expect(FileManager.default.isExecutableFile(atPath: path), "\(path)")
            #expect(!(variant["supportedTriples"] as? [String] ?? []).isEmpty)
        }
        // The zip holds the bundle folder itself, as SwiftPM expects.
        let listing = try runProgram(["unzip", "-l", folder + "/dist1/iapdoctor.artifactbundle.zip"])
        #expect(listing.output.contains("iapdoctor.artifactbundle/info.json"), "\(listing.output)")
    }

    /// A package that uses the plugin package with the bundle beside it: its build runs
    /// `iapdoctor check` on the target's `.storekit` file and fails on its errors, and passes once
    /// the file is right; `swift package iapdoctor` runs the same binary. Nothing compiles iapdoctor.
    @Test func aConsumerBuildsWithThePluginOnTheBundle() throws {
        let folder = try makeScratchFolder("release-consumer")
        defer { removeScratch(folder) }
        let packed = try runProgram(["bash", repositoryFile("scripts/release.sh"), "--binary", iapdoctorExecutable().path, "--out", folder + "/dist"])
        #expect(packed.status == 0, "\(packed.output)")
        let plugin = folder + "/iapdoctor-plugin"
        try FileManager.default.copyItem(atPath: repositoryFile("iapdoctor-plugin"), toPath: plugin)
        try? FileManager.default.removeItem(atPath: plugin + "/iapdoctor.artifactbundle")
        try FileManager.default.copyItem(atPath: folder + "/dist/iapdoctor.artifactbundle", toPath: plugin + "/iapdoctor.artifactbundle")

        let consumer = folder + "/Consumer"
        try FileManager.default.createDirectory(atPath: consumer + "/Sources/Shop", withIntermediateDirectories: true)
        try """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "Consumer",
                dependencies: [.package(path: "../iapdoctor-plugin")],
                targets: [
                    .target(
                        name: "Shop",
                        resources: [.copy("Shop.storekit")],
                        plugins: [.plugin(name: "IAPDoctorBuildPlugin", package: "iapdoctor-plugin")]
                    ),
                ]
            )
            """.write(toFile: consumer + "/Package.swift", atomically: true, encoding: .utf8)
        try "public let shop = 1\n".write(toFile: consumer + "/Sources/Shop/Shop.swift", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: repositoryFile("examples/storekit-broken/Products.storekit"), toPath: consumer + "/Sources/Shop/Shop.storekit")

        let failing = try runProgram(["swift", "build"], in: consumer)
        #expect(failing.status != 0)
        #expect(failing.output.contains("Shop.storekit:31:20: error: product ID `com.greenthumb.pocketgarden.seeds50` appears twice"), "\(failing.output)")
        #expect(!failing.output.contains("Compiling IAPDoctor"), "the consumer's build compiled iapdoctor")

        try FileManager.default.removeItem(atPath: consumer + "/Sources/Shop/Shop.storekit")
        try FileManager.default.copyItem(atPath: repositoryFile("examples/catalog/PocketGarden.storekit"), toPath: consumer + "/Sources/Shop/Shop.storekit")
        let passing = try runProgram(["swift", "build"], in: consumer)
        #expect(passing.status == 0, "\(passing.output)")

        let command = try runProgram(["swift", "package", "--allow-writing-to-package-directory", "iapdoctor", "check", "Sources/Shop/Shop.storekit", "--format", "github"], in: consumer)
        #expect(command.status == 0 && command.output.contains("0 errors"), "\(command.output)")

        // The published package: the same manifest with the release's URL and the bundle's checksum.
        let published = try python(
            "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
            [repositoryFile("scripts/release-pack.py"), "plugin", repositoryFile("iapdoctor-plugin"), folder + "/published", "0.1.0", folder + "/dist/iapdoctor.artifactbundle.zip"])
        #expect(published.status == 0, "\(published.error)")
        let manifest = readText(folder + "/published/Package.swift")
        let checksum = readText(folder + "/dist/SHA256SUMS").split(separator: "\n").first { $0.hasSuffix("iapdoctor.artifactbundle.zip") }?.prefix(64)
        #expect(manifest.contains("url: \"https://github.com/iapdoctor/iapdoctor/releases/download/v0.1.0/iapdoctor.artifactbundle.zip\""))
        #expect(checksum.map { manifest.contains("checksum: \"\($0)\"") } == true, "\(manifest)")
        let dumped = try runProgram(["swift", "package", "dump-package"], in: folder + "/published")
        #expect(dumped.status == 0 && dumped.output.contains("\"IAPDoctorBinary\""), "\(dumped.output)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ruby") || toolsRequired, "no ruby (IAPDOCTOR_REQUIRE_TOOLS=1 runs this test)"))
    func theFormulaParses() throws {
        let checked = try runProgram(["ruby", "-c", repositoryFile("Formula/iapdoctor.rb")])
        #expect(checked.status == 0 && checked.output.contains("Syntax OK"), "\(checked.output)")
    }

    /// The formula's `test do` block, run outside Homebrew (`scripts/formula-test.rb`) against the
    /// built binary: `check` on a `.storekit` with a duplicate product ID exits 1 and names the rule.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ruby") || toolsRequired, "no ruby (IAPDOCTOR_REQUIRE_TOOLS=1 runs this test)"))
    func theFormulasTestFindsARealFault() throws {
        let binDirectory = iapdoctorExecutable().deletingLastPathComponent().path
        let tested = try runProgram(["ruby", repositoryFile("scripts/formula-test.rb"), binDirectory])
        #expect(tested.status == 0 && tested.output.contains("formula test: passed"), "\(tested.output)")
    }

    #if os(Linux)
    /// What a user of a Linux release gets (`scripts/test-release-install.sh`, offline): the Action,
    /// run by `scripts/run-workflow.py --action` against a local release folder of the built binary,
    /// downloads and checks the tarball and runs a clean and a broken example; a tarball that differs
    /// from SHA256SUMS is refused; without a release it builds from source; and the tarball's
    /// launcher runs the binary where only libxml2.so.16 is installed.
    @Test func theActionInstallsTheCheckedReleaseBinary() throws {
        let checked = try runProgram(["bash", repositoryFile("scripts/test-release-install.sh"), iapdoctorExecutable().path])
        #expect(checked.status == 0 && checked.output.contains("all 4 checks passed"), "\(checked.output)")
    }
    #endif
}
