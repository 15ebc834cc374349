// swift-tools-version:5.9
import PackageDescription
let package = Package(
    name: "replay",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(name: "iapdoctor", path: "../.."),
    ],
    targets: [.executableTarget(name: "replay", dependencies: [
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "AppStoreConnect", package: "iapdoctor"),
    ])]
)
