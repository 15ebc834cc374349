import Foundation
import Formats
import JSONReader
import Model

/// The versions of the cross-platform purchase plugins the app's manifest or lock file pins,
/// where the version alone says the plugin loads products with StoreKit 1: react-native-iap
/// before 11 (StoreKit 2 arrived with `setup({ storekitMode })` in 11), and Flutter's
/// in_app_purchase with in_app_purchase_storekit before 0.3.18+1 (or none: the plugin before it
/// was federated).
enum LockedVersions {
    /// The libraries among `libraries` that the files beside `roots` (and their parents) pin to a
    /// StoreKit 1-only version, each with where it is pinned.
    static func storeKit1Only(_ libraries: [String], roots: [String]) -> [String: String] {
        var found: [String: String] = [:]
        var folders: [String] = []
        for root in roots {
            let folder = FileSystem.isDirectory(root) ? root : Paths.directoryName(of: root)
            for candidate in [folder, Paths.directoryName(of: folder)] where !folders.contains(candidate) { folders.append(candidate) }
        }
        for folder in folders {
            if libraries.contains("react-native-iap"), found["react-native-iap"] == nil,
               let bytes = try? FileSystem.readBytes(folder + "/package.json", maxBytes: 1 << 20),
               let root = try? JSONDocument.parse(bytes: bytes, file: folder + "/package.json").root,
               let range = (root["dependencies"]?["react-native-iap"] ?? root["devDependencies"]?["react-native-iap"])?.string,
               let major = Self.pinnedMajor(range), major < 11 {
                found["react-native-iap"] = "package.json pins react-native-iap \(range)"
            }
            let flutter = ["in_app_purchase", "in_app_purchase_storekit"].filter(libraries.contains)
            if !flutter.isEmpty, flutter.allSatisfy({ found[$0] == nil }),
               let bytes = try? FileSystem.readBytes(folder + "/pubspec.lock", maxBytes: 4 << 20) {
                let lock = String(decoding: bytes, as: UTF8.self)
                let storeKit = Self.lockedVersion("in_app_purchase_storekit", in: lock)
                let plugin = Self.lockedVersion("in_app_purchase", in: lock)
                var pinned: String?
                if let storeKit, Self.isBefore(storeKit, "0.3.18+1") {
                    pinned = "pubspec.lock locks in_app_purchase_storekit \(storeKit)"
                } else if storeKit == nil, let plugin {
                    pinned = "pubspec.lock locks in_app_purchase \(plugin), from before in_app_purchase_storekit"
                }
                if let pinned { for library in flutter { found[library] = pinned } }
            }
        }
        return found
    }

    /// The major version a range fixes: `^4.4.0`, `~4.4.0`, `4.4.0`, `4.x`; `nil` for ranges
    /// that allow several majors (`>=4`, `*`, `latest`, a URL).
    static func pinnedMajor(_ range: String) -> Int? {
        var text = Substring(range.trimmingCharacters(in: .whitespaces))
        if text.first == "^" || text.first == "~" || text.first == "=" { text = text.dropFirst() }
        let digits = text.prefix { $0.isNumber }
        guard !digits.isEmpty, let major = Int(digits), major > 0 else { return nil }
        let rest = text.dropFirst(digits.count)
        guard rest.isEmpty || rest.first == "." else { return nil }
        return rest.contains(" ") || rest.contains("|") ? nil : major
    }

    /// `version: "0.3.6+1"` of the package `name` in a pubspec.lock.
    static func lockedVersion(_ name: String, in lock: String) -> String? {
        guard let start = lock.range(of: "\n  \(name):\n") else { return nil }
        for line in lock[start.upperBound...].split(separator: "\n").prefix(8) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("version:") {
                let value = trimmed.dropFirst("version:".count).trimmingCharacters(in: .whitespaces)
                return value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
            if !line.hasPrefix("    ") { break }
        }
        return nil
    }

    /// Whether the pub version `a` comes before `b`: `major.minor.patch`, then the `+build`
    /// number; a pre-release (`-dev`) counts as its release.
    static func isBefore(_ a: String, _ b: String) -> Bool {
        func parts(_ version: String) -> [Int] {
            let (core, build) = version.contains("+")
                ? (String(version.prefix { $0 != "+" }), Int(version.drop { $0 != "+" }.dropFirst().prefix { $0.isNumber }) ?? 0)
                : (version, 0)
            let numbers = core.prefix { $0 != "-" }.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
            return (numbers + [0, 0, 0]).prefix(3) + [build]
        }
        return parts(a).lexicographicallyPrecedes(parts(b))
    }
}
