// swift-tools-version:6.0
import PackageDescription

// Runtime exclusivity checks cost 5–7% of a catalog check (callgrind: swift_beginAccess on the
// streaming state of the reader, the item scan and the rules, all private to one run). Release
// builds drop them; debug builds, which the tests run, keep them, so a violation still traps there.
let releaseSpeed: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "iapdoctor",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "iapdoctor", targets: ["IAPDoctorCLI"]),
        .library(name: "IAPDoctor", targets: ["IAPDoctor"]),
        .library(name: "XMLReader", targets: ["XMLReader"]),
        .library(name: "CodeScanner", targets: ["CodeScanner"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // libxml2 from the system (Debian: libxml2-dev; macOS: the SDK's copy).
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // The XML-to-dictionary reader: no In-App Purchase knowledge in it.
        .target(
            name: "XMLReader",
            dependencies: ["CLibXML2"],
            swiftSettings: releaseSpeed
        ),
        // Finds the product IDs Swift and Objective-C code hands to StoreKit: no file formats, no rules.
        .target(name: "CodeScanner", swiftSettings: releaseSpeed),
        .target(
            name: "IAPDoctor",
            dependencies: ["XMLReader", "CodeScanner", .product(name: "Yams", package: "Yams")],
            swiftSettings: releaseSpeed
        ),
        .target(name: "Rules", dependencies: ["IAPDoctor"], swiftSettings: releaseSpeed),
        .executableTarget(
            name: "IAPDoctorCLI",
            dependencies: [
                "IAPDoctor", "Rules",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Times the reader for scripts/bench-reader.sh; not shipped.
        .executableTarget(name: "XMLReaderBench", dependencies: ["XMLReader"]),
        .testTarget(name: "XMLReaderTests", dependencies: ["XMLReader"]),
        .testTarget(name: "IAPDoctorTests", dependencies: ["IAPDoctor", "Rules", "CodeScanner"]),
    ],
    swiftLanguageModes: [.v6]
)
