// swift-tools-version:6.0
import PackageDescription

// Runtime exclusivity checks: the hot state of one parse (the reader's session and item arena,
// the item stream and table, the scan) is marked `@exclusivity(unchecked)` in the source, which
// removes most of their cost in any build (BENCHMARKS.md, "History"). What remains is dropped by
// a release build made with IAPDOCTOR_UNCHECKED_EXCLUSIVITY=1 (the binary you ship, the
// benchmarks); debug builds, which the tests run, keep the other checks. Opt-in, because SwiftPM refuses a package with `unsafeFlags` as another package's
// dependency.
let releaseSpeed: [SwiftSetting] = Context.environment["IAPDOCTOR_UNCHECKED_EXCLUSIVITY"] == "1"
    ? [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
    : []

// libxml2. On Apple platforms the SDK (Xcode's or the Command Line Tools') ships it with a module
// map of its own, `module libxml2`, which `XMLReader` imports directly: declaring a second module
// over the same headers there fails with "redefinition of module 'libxml2'", and pkg-config is
// not needed. Elsewhere (Linux) a system library target finds the headers through pkg-config
// (Debian: libxml2-dev and pkg-config). The manifest is evaluated on the machine that builds, so
// this is decided by the build host; cross-compiling from a Mac to Linux is not supported.
#if canImport(Darwin)
let libxml2Targets: [Target] = []
let libxml2Dependency: [Target.Dependency] = []
#else
let libxml2Targets: [Target] = [
    .systemLibrary(
        name: "CLibXML2",
        path: "Sources/CLibXML2",
        pkgConfig: "libxml-2.0",
        providers: [.apt(["libxml2-dev", "pkg-config"]), .yum(["libxml2-devel", "pkgconf"])]
    ),
]
let libxml2Dependency: [Target.Dependency] = ["CLibXML2"]
#endif

let package = Package(
    name: "iapdoctor",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "iapdoctor", targets: ["IAPDoctorCLI"]),
        .library(name: "IAPDoctor", targets: ["IAPDoctor"]),
        // The built-in rules: with IAPDoctor, what a program needs to run the whole check.
        .library(name: "Rules", targets: ["Rules"]),
        .library(name: "XMLReader", targets: ["XMLReader"]),
        .library(name: "JSONReader", targets: ["JSONReader"]),
        .library(name: "CodeScanner", targets: ["CodeScanner"]),
        .library(name: "AppStoreConnect", targets: ["AppStoreConnect"]),
        .library(name: "RevenueCat", targets: ["RevenueCat"]),
        .plugin(name: "IAPDoctorPlugin", targets: ["IAPDoctorPlugin"]),
    ],
    // Exact versions, and no Package.resolved in the repository: a recorded revision is the commit
    // of the machine that resolved it, and SwiftPM refuses one that another copy of the same tag
    // does not have (docs/development.md, "Dependencies").
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        // ES256 for App Store Connect API tokens, and MD5; on Apple platforms it is CryptoKit,
        // elsewhere BoringSSL. 3.x keeps swift-tools-version 5.9 (4.x needs 6.1).
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
    ],
    targets: libxml2Targets + [
        // The XML-to-dictionary reader: no In-App Purchase knowledge in it.
        .target(
            name: "XMLReader",
            dependencies: libxml2Dependency,
            swiftSettings: releaseSpeed,
            linkerSettings: [.linkedLibrary("xml2")]
        ),
        // Finds the product IDs the app's code (Swift, Objective-C, Dart, JavaScript and TypeScript,
        // C#) hands to StoreKit or a purchase library: no file formats, no rules.
        .target(name: "CodeScanner", swiftSettings: releaseSpeed),
        .target(name: "JSONReader", swiftSettings: releaseSpeed),
        // The stages of a check, each a module whose arrows point one way (CONTRIBUTING.md):
        // Formats ← Model ← Loaders ← RuleEngine ← Reporters ← IAPDoctor.
        // Readers with positions and no In-App Purchase knowledge (YAML, plists, pbxproj, JSON
        // inputs, XML locations, the linear pattern matcher), paths, confinement, atomic output.
        // zlib's raw inflate, for the .ipa reader (`ZIPArchive`): the system's zlib (Debian:
        // zlib1g-dev; on Apple platforms the SDK's).
        .target(name: "CInflate", linkerSettings: [.linkedLibrary("z")]),
        // The read-only ZIP reader for .ipa files. A module of its own, apart from libxml2's: a
        // module importing both C modules failed to build (ICU's `UErrorCode` twice).
        .target(name: "ZIPReader", dependencies: ["CInflate"], swiftSettings: releaseSpeed),
        .target(
            name: "Formats",
            dependencies: [
                "XMLReader", "JSONReader", .product(name: "Yams", package: "Yams"),
                // Insecure.MD5 for review screenshots' checksums.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: releaseSpeed
        ),
        // The words every stage shares: findings, checklist items, rule IDs, descriptor keys.
        .target(name: "Model", dependencies: ["Formats"], swiftSettings: releaseSpeed),
        // Facts read from the app's files, each remembering where it was stated, and `init`.
        .target(
            name: "Loaders",
            dependencies: ["Model", "CodeScanner", "ZIPReader"],
            swiftSettings: releaseSpeed
        ),
        // Runs every rule over the loaded project and turns outcomes into the diagnosis.
        .target(name: "RuleEngine", dependencies: ["Loaders"], swiftSettings: releaseSpeed),
        // Render a diagnosis; they read nothing from disk.
        .target(name: "Reporters", dependencies: ["RuleEngine"], swiftSettings: releaseSpeed),
        // One check from paths to a diagnosis (`Doctor`), and the stages above, re-exported.
        .target(name: "IAPDoctor", dependencies: ["Reporters"], swiftSettings: releaseSpeed),
        .target(name: "Rules", dependencies: ["RuleEngine"], swiftSettings: releaseSpeed),
        // The live App Store Connect pull (`iapdoctor asc pull`): API key tokens, HTTP with retries
        // and rate limits, the snapshot document. The only target that touches the network.
        // Off Apple platforms its HTTP goes through libcurl loaded with dlopen on the first request
        // (CCurlLoader), not URLSession: linking FoundationNetworking loads libcurl and ~30
        // libraries at every start, and a static build would need libcurl's -dev files.
        .target(
            name: "CCurlLoader",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(
            name: "AppStoreConnect",
            dependencies: [
                "JSONReader", .product(name: "Crypto", package: "swift-crypto"),
                .target(name: "CCurlLoader", condition: .when(platforms: [.linux, .android, .openbsd])),
            ]
        ),
        // The RevenueCat pull (`iapdoctor revenuecat pull`): REST API v2 with a secret key, through
        // the App Store Connect pull's transports and retry policy.
        .target(name: "RevenueCat", dependencies: ["AppStoreConnect"]),
        .executableTarget(
            name: "IAPDoctorCLI",
            dependencies: [
                "IAPDoctor", "Rules", "AppStoreConnect", "RevenueCat",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift package plugin iapdoctor check project.yaml`: runs the tool built from this package.
        .plugin(
            name: "IAPDoctorPlugin",
            capability: .command(
                intent: .custom(verb: "iapdoctor", description: "Runs iapdoctor (check, report, init, rules, explain) on this package's files"),
                permissions: [.writeToPackageDirectory(reason: "`iapdoctor report` and `init` write their report or descriptor into the package folder")]
            )
        ),
        // Times the reader for scripts/bench-reader.sh; not shipped.
        .executableTarget(name: "XMLReaderBench", dependencies: ["XMLReader"]),
        .testTarget(name: "XMLReaderTests", dependencies: ["XMLReader", "TestSupport"]),
        .testTarget(name: "JSONReaderTests", dependencies: ["JSONReader", "TestSupport"]),
        .testTarget(name: "FormatsTests", dependencies: ["Formats", "TestSupport"]),
        // The scanner alone: the IDs code in each language requests, from source text.
        .testTarget(name: "CodeScannerTests", dependencies: ["CodeScanner", "TestSupport"]),
        // The command line's own logic (the quick reading of `check`), against ArgumentParser's.
        .testTarget(name: "IAPDoctorCLITests", dependencies: ["IAPDoctorCLI", "AppStoreConnect"]),
        // What the test targets share: scratch folders, the shared folder beside the checkout, the
        // repository's files and the built binary. Foundation only.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "IAPDoctorTests",
            dependencies: [
                "IAPDoctor", "Formats", "Model", "Loaders", "RuleEngine", "Reporters", "Rules", "CodeScanner", "JSONReader", "AppStoreConnect",
                "TestSupport", "ZIPReader", .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The pull against a loopback App Store Connect, its command, and checks of what it wrote.
        .testTarget(
            name: "AppStoreConnectTests",
            dependencies: ["AppStoreConnect", "IAPDoctor", "Rules", "JSONReader", "TestSupport", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The RevenueCat pull against a loopback RevenueCat, its command, and checks of what it wrote.
        .testTarget(name: "RevenueCatTests", dependencies: ["RevenueCat", "AppStoreConnect", "IAPDoctor", "Rules", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
