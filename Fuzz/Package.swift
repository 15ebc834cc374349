// swift-tools-version:6.0
// Fuzz targets for iapdoctor's readers of hostile files. Not part of the root package: build and run
// them with `scripts/fuzz.sh` (which passes `--sanitize=fuzzer --sanitize=address`, so the root
// package's sources and Yams are instrumented too, in a separate scratch path `.build-fuzz`).
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which is whatever the checkout is called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let names = ["xml", "descriptor", "pbxproj", "storekit", "typo", "pattern", "resolver", "manifest", "xcconfig", "snapshot", "json", "scripts", "codesign", "bplist", "fix", "zip"]

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: "fuzz-\(name)",
        dependencies: products.map { .product(name: $0, package: rootIdentity) },
        path: "Targets",
        exclude: names.filter { $0 != name }.map { "\($0).swift" },
        sources: ["\(name).swift"],
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

let package = Package(
    name: "iapdoctor-fuzz",
    platforms: [.macOS(.v13)],
    products: [],
    dependencies: [.package(path: "..")],
    targets: [
        fuzzTarget("xml", ["XMLReader"]),
        fuzzTarget("descriptor", ["IAPDoctor"]),
        fuzzTarget("pbxproj", ["IAPDoctor"]),
        fuzzTarget("storekit", ["IAPDoctor"]),
        fuzzTarget("typo", ["IAPDoctor"]),
        fuzzTarget("pattern", ["IAPDoctor"]),
        fuzzTarget("resolver", ["CodeScanner"]),
        fuzzTarget("manifest", ["CodeScanner"]),
        fuzzTarget("xcconfig", ["IAPDoctor"]),
        fuzzTarget("snapshot", ["IAPDoctor"]),
        fuzzTarget("json", ["JSONReader"]),
        fuzzTarget("scripts", ["CodeScanner"]),
        fuzzTarget("codesign", ["IAPDoctor"]),
        fuzzTarget("bplist", ["IAPDoctor"]),
        fuzzTarget("fix", ["IAPDoctor"]),
        fuzzTarget("zip", ["IAPDoctor"]),
    ],
    swiftLanguageModes: [.v6]
)
