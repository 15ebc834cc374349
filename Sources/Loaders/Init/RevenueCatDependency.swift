import Formats
import Foundation

/// Where an app depends on one of RevenueCat's SDKs, for `init`: the Swift package in the Xcode
/// project, else the first dependency manifest (shallowest first) that names an SDK. Such an app
/// shows the products of its RevenueCat offerings, so its descriptor asks for the snapshot.
public enum RevenueCatDependency {
    /// What names the SDK, by manifest: the file's name (or its path's end) and the words, each
    /// as the manifest writes a dependency.
    static let manifests: [(file: String, words: [String])] = [
        ("Package.swift", ["RevenueCat/purchases-ios"]),
        ("Package.resolved", ["RevenueCat/purchases-ios"]),
        ("Cartfile", ["RevenueCat/purchases-ios"]),
        ("Podfile", ["pod 'RevenueCat", "pod \"RevenueCat", "pod 'Purchases'", "pod \"Purchases\""]),
        ("Podfile.lock", ["- RevenueCat (", "- Purchases ("]),
        ("pubspec.yaml", ["purchases_flutter:"]),
        ("package.json", ["\"react-native-purchases\"", "\"@revenuecat/purchases-capacitor\"", "\"cordova-plugin-purchases\""]),
        ("Packages/manifest.json", ["\"com.revenuecat.purchases-unity\""]),
        ("libs.versions.toml", ["purchases-kmp"]),
        ("build.gradle.kts", ["com.revenuecat.purchases:purchases-kmp"]),
    ]

    /// Manifests read at most: a monorepo has one per package.
    static let maximumReads = 64

    /// "the Swift package `…purchases-ios` in `App.xcodeproj`", "`react-native-purchases` in
    /// `package.json`", or nil.
    public static func find(directory: String, files: [String], project: (path: String, XcodeProject)? = nil) -> String? {
        if let (path, project) = project,
           let package = project.remotePackages.first(where: { $0.value.lowercased().contains("revenuecat/purchases-ios") }) {
            return "the Swift package `\(package.value)` in `\(path)`"
        }
        let candidates = files.filter { file in
            !ProjectSurvey.isTestPath(file) && manifests.contains { file == $0.file || file.hasSuffix("/" + $0.file) }
        }
        let shallowest = candidates.sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
        for file in shallowest.prefix(maximumReads) {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + file, maxBytes: 1 << 20) else { continue }
            // Lines that are not comments (`#` in Podfiles, YAML and TOML; `//` in Swift and Kotlin).
            let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).filter { line in
                let code = line.drop { $0 == " " || $0 == "\t" }
                return !code.hasPrefix("#") && !code.hasPrefix("//")
            }
            for manifest in manifests where file == manifest.file || file.hasSuffix("/" + manifest.file) {
                if let word = manifest.words.first(where: { word in lines.contains { $0.contains(word) } }) {
                    return "`\(shown(word))` in `\(file)`"
                }
            }
        }
        return nil
    }

    /// The SDK's name in a matched word: `pod 'RevenueCat` → `RevenueCat`.
    static func shown(_ word: String) -> String {
        var name = word
        for prefix in ["pod '", "pod \"", "- "] where name.hasPrefix(prefix) { name = String(name.dropFirst(prefix.count)) }
        return name.trimmingCharacters(in: CharacterSet(charactersIn: "\"' (:"))
    }
}
