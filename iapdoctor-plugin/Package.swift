// swift-tools-version: 6.1
// iapdoctor's plugins on its released binary, so that using them never compiles iapdoctor:
// a build-tool plugin (SwiftPM targets and Xcode projects) that runs `iapdoctor check` and fails
// the build on errors, and the `swift package iapdoctor …` command.
//
// Published as its own package (github.com/iapdoctor/iapdoctor-plugin) by the release workflow,
// with the artifact bundle's release URL and checksum in place of the local path below; here, in
// the repository, `scripts/release.sh` builds the bundle and `scripts/release.sh --plugin` puts it
// beside this file.
import PackageDescription

let package = Package(
    name: "iapdoctor-plugin",
    products: [
        .plugin(name: "IAPDoctorBuildPlugin", targets: ["IAPDoctorBuildPlugin"]),
        .plugin(name: "IAPDoctorCommand", targets: ["IAPDoctorCommand"]),
    ],
    targets: [
        .binaryTarget(name: "IAPDoctorBinary", path: "iapdoctor.artifactbundle"),
        .plugin(
            name: "IAPDoctorBuildPlugin",
            capability: .buildTool(),
            dependencies: ["IAPDoctorBinary"]
        ),
        .plugin(
            name: "IAPDoctorCommand",
            capability: .command(
                intent: .custom(verb: "iapdoctor", description: "Runs iapdoctor (check, report, init, rules, explain) in this package's folder"),
                permissions: [.writeToPackageDirectory(reason: "`iapdoctor report`, `init` and `check --fix` write into the package folder")]
            ),
            dependencies: ["IAPDoctorBinary"]
        ),
    ]
)
