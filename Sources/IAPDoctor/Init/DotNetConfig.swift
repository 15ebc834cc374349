import Foundation

/// The iOS identity of an app whose Xcode project is generated at build time: a Unity project
/// (`ProjectSettings/ProjectSettings.asset`: `applicationIdentifier` for iPhone,
/// `appleDeveloperTeamID`) or a .NET MAUI / Xamarin app (`<ApplicationId>` in its `.csproj`,
/// else `CFBundleIdentifier` in its iOS `Info.plist`).
struct DotNetConfig {
    var bundleID: String?
    var bundleIDSource: String?
    var teamID: String?
    var teamSource: String?
    var note: String
    /// Why the bundle ID or the team is not known, when the project says something of it.
    var bundleIDQuestion: String?
    var teamQuestion: String?

    static func read(directory: String, files: [String]) -> DotNetConfig? {
        if files.contains("ProjectSettings/ProjectSettings.asset") { return unity(directory: directory) }
        let projects = files.filter { $0.hasSuffix(".csproj") && !ProjectSurvey.isTestPath($0) }
            .sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
        for project in projects {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + project, maxBytes: 1 << 20) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if let value = element("ApplicationId", in: text), !value.contains("$(") {
                var config = DotNetConfig(note: "the build writes the Xcode project")
                config.bundleID = value
                config.bundleIDSource = "`<ApplicationId>` in \(project); the .NET build writes the Xcode project"
                return config
            }
        }
        let plists = files.filter { path in
            path.hasSuffix("Info.plist") && (path.contains("Platforms/iOS/") || path.split(separator: "/").contains { $0.hasSuffix(".iOS") })
        }.sorted()
        for plist in plists {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + plist, maxBytes: 1 << 20) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let key = text.range(of: "<key>CFBundleIdentifier</key>") else { continue }
            if let value = element("string", in: String(text[key.upperBound...].prefix(300))), !value.contains("$(") {
                var config = DotNetConfig(note: "the build writes the Xcode project")
                config.bundleID = value
                config.bundleIDSource = "`CFBundleIdentifier` in \(plist); the .NET build writes the Xcode project"
                return config
            }
        }
        return nil
    }

    static func unity(directory: String) -> DotNetConfig? {
        let path = directory + "/ProjectSettings/ProjectSettings.asset"
        guard let bytes = try? FileSystem.readBytes(path, maxBytes: 4 << 20) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var config = DotNetConfig(note: "Unity writes the Xcode project when it builds for iOS")
        var otherPlatforms: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == "applicationIdentifier:" {
                for next in lines[(index + 1)...].prefix(12) {
                    let entry = next.trimmingCharacters(in: .whitespaces)
                    guard next.hasPrefix("    ") else { break }
                    if !(entry.hasPrefix("iPhone:") || entry.hasPrefix("iOS:")) {
                        otherPlatforms.append("`" + entry + "`")
                    } else {
                        let value = entry.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                        if !value.isEmpty {
                            config.bundleID = value
                            config.bundleIDSource = "`applicationIdentifier` for iPhone in ProjectSettings/ProjectSettings.asset; Unity writes the Xcode project when it builds for iOS"
                        }
                    }
                }
            } else if trimmed.hasPrefix("appleDeveloperTeamID:") {
                let value = trimmed.dropFirst("appleDeveloperTeamID:".count).trimmingCharacters(in: .whitespaces)
                if !value.isEmpty {
                    config.teamID = value
                    config.teamSource = "`appleDeveloperTeamID` in ProjectSettings/ProjectSettings.asset"
                }
            }
        }
        if config.bundleID == nil {
            config.bundleIDQuestion = "ProjectSettings/ProjectSettings.asset sets no `applicationIdentifier` for iPhone"
                + (otherPlatforms.isEmpty ? "" : " (only " + otherPlatforms.joined(separator: ", ") + ")")
                + ": set Player Settings → iOS → Other Settings → Bundle Identifier to the App Store Connect app's"
        }
        if config.teamID == nil {
            config.teamQuestion = "ProjectSettings/ProjectSettings.asset sets no `appleDeveloperTeamID`: set Player Settings → iOS → Other Settings → Signing Team ID, or choose the team in the Xcode project Unity writes"
        }
        return config
    }

    /// The text of the first `<name>…</name>` in `text`.
    static func element(_ name: String, in text: String) -> String? {
        guard let open = text.range(of: "<\(name)>"), let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex) else { return nil }
        let value = text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }
}
