import Foundation
import Formats
import Model

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
    /// The iOS head's `Info.plist` and entitlements (`Platforms/iOS/`, `*.iOS/`), and the app's
    /// `<ApplicationTitle>`.
    var infoPlist: String?
    var entitlements: String?
    var appName: String?

    static func read(directory: String, files: [String]) -> DotNetConfig? {
        if files.contains("ProjectSettings/ProjectSettings.asset") { return unity(directory: directory) }
        let projects = files.filter { $0.hasSuffix(".csproj") && !ProjectSurvey.isTestPath($0) }
            .sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
        guard var config = bundleID(directory: directory, files: files, projects: projects) else { return nil }
        signing(directory: directory, projects: projects, into: &config)
        let iOSHead = { (path: String) in path.contains("Platforms/iOS/") || path.split(separator: "/").contains { $0.hasSuffix(".iOS") } }
        config.infoPlist = files.filter { $0.hasSuffix("/Info.plist") && iOSHead($0) && !ProjectSurvey.isTestPath($0) }.sorted().first
        config.entitlements = files.filter { ($0.hasSuffix("/Entitlements.plist") || $0.hasSuffix(".entitlements")) && iOSHead($0) }.sorted().first
        for project in projects {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + project, maxBytes: 1 << 20),
                  let title = element("ApplicationTitle", in: String(decoding: bytes, as: UTF8.self)), !title.contains("$(") else { continue }
            config.appName = title
            break
        }
        return config
    }

    /// The team in a `<CodesignKey>` identity (`Apple Distribution: Acme Inc (Q7XK2L9M3N)`), or
    /// why the project does not say it.
    static func signing(directory: String, projects: [String], into config: inout DotNetConfig) {
        var automatic: String?
        var generic: (identity: String, project: String)?
        for project in projects {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + project, maxBytes: 1 << 20) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            var rest = Substring(text)
            while let open = rest.range(of: "<CodesignKey>"), let close = rest.range(of: "</CodesignKey>", range: open.upperBound..<rest.endIndex) {
                let identity = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
                rest = rest[close.upperBound...]
                if let team = teamID(inIdentity: identity) {
                    config.teamID = team
                    config.teamSource = "the `<CodesignKey>` identity `\(identity)` in \(project)"
                    return
                }
                if !identity.isEmpty, generic == nil { generic = (identity, project) }
            }
            if automatic == nil, element("ProvisioningType", in: text) == "automatic" { automatic = project }
        }
        let key = generic.map { "`<CodesignKey>\($0.identity)</CodesignKey>`" } ?? ""
        if let automatic {
            var settings = "`<ProvisioningType>automatic</ProvisioningType>`"
            if let generic, generic.project == automatic { settings += " and " + key }
            settings += " in \(automatic)"
            if let generic, generic.project != automatic { settings += "; \(key) in \(generic.project)" }
            config.teamQuestion = settings + ": the team is the one chosen in the IDE (iOS Bundle Signing), not written in the project"
        } else if let generic {
            config.teamQuestion = key + " in \(generic.project) names no team: it is the team of the signing identity or profile chosen when building"
        }
    }

    /// `Q7XK2L9M3N` in `Apple Distribution: Acme Inc (Q7XK2L9M3N)`.
    static func teamID(inIdentity identity: String) -> String? {
        guard identity.hasSuffix(")"), let open = identity.lastIndex(of: "(") else { return nil }
        let inside = identity[identity.index(after: open)..<identity.index(before: identity.endIndex)]
        guard inside.count == 10, inside.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else { return nil }
        return String(inside)
    }

    /// A `CFBundleIdentifier` in the iOS `Info.plist` wins: the build maps `<ApplicationId>` to it
    /// only when the Info.plist has none (dotnet/macios, "Single Project").
    static func bundleID(directory: String, files: [String], projects: [String]) -> DotNetConfig? {
        var fromProject: (value: String, project: String)?
        for project in projects {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + project, maxBytes: 1 << 20) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            if let value = element("ApplicationId", in: text), !value.contains("$(") {
                fromProject = (value, project)
                break
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
                config.bundleIDSource = "`CFBundleIdentifier` in \(plist)"
                    + (fromProject.map { $0.value == value ? "" : ", which wins over `<ApplicationId>\($0.value)</ApplicationId>` in \($0.project)" } ?? "")
                    + "; the .NET build writes the Xcode project"
                return config
            }
        }
        guard let fromProject else { return nil }
        var config = DotNetConfig(note: "the build writes the Xcode project")
        config.bundleID = fromProject.value
        config.bundleIDSource = "`<ApplicationId>` in \(fromProject.project); the .NET build writes the Xcode project"
        return config
    }

    static func unity(directory: String) -> DotNetConfig? {
        let path = directory + "/ProjectSettings/ProjectSettings.asset"
        guard let bytes = try? FileSystem.readBytes(path, maxBytes: 4 << 20) else { return nil }
        var config = DotNetConfig(note: "Unity writes the Xcode project when it builds for iOS")
        // Text serialization starts `%YAML 1.1`; the binary one is Unity's own format.
        guard bytes.starts(with: Array("%YAML".utf8)) else {
            let binary = "ProjectSettings/ProjectSettings.asset is in Unity's binary serialization, which iapdoctor does not read"
                + " (Edit → Project Settings → Editor → Asset Serialization → Force Text writes it as text)"
            config.bundleIDQuestion = binary + ": which bundle ID does Player Settings → iOS → Other Settings → Bundle Identifier give?"
            config.teamQuestion = binary + ": which Signing Team ID does Player Settings → iOS give?"
            return config
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
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
