import JSONReader
import Formats
import Model

/// A JavaScript app's iOS identity when its `ios/` folder is not committed (the tool writes it):
/// an Expo app's bundle ID from `app.json` (`expo.ios.bundleIdentifier`) or the literal in
/// `app.config.js`/`.ts`, its team from `expo.ios.appleTeamId` or `eas.json`'s submit profile
/// (`production` first); a Capacitor app's `appId`; a Cordova app's `<widget id>`.
struct ScriptAppConfig {
    var bundleID: String?
    var bundleIDSource: String?
    var teamID: String?
    var teamSource: String?
    /// Set when the value is a fallback after an environment variable
    /// (`process.env.BUNDLE_ID ?? "com.acme.app"`): the build may use another.
    var bundleIDFromEnvironment: String?
    /// The command that writes the Xcode project the app has not committed.
    var nativeProject = "no ios/ folder: `npx expo prebuild` writes the Xcode project"

    static let configFiles = ["app.json", "app.config.json", "app.config.ts", "app.config.js", "app.config.mjs"]

    /// The app's config at the top of `directory`, or, when none is there, in the one folder
    /// below that holds one (a repository whose app is `example/`).
    static func find(directory: String, files: [String]) -> ScriptAppConfig? {
        if let config = read(directory: directory, files: files) ?? readCapacitorOrCordova(directory: directory, files: files) { return config }
        let names = Set(configFiles + capacitorFiles + ["config.xml"])
        let folders = Set(files.compactMap { path -> String? in
            let parts = path.split(separator: "/")
            return parts.count == 2 && names.contains(String(parts[1])) && parts[0] != "node_modules" ? String(parts[0]) : nil
        })
        guard folders.count == 1, let folder = folders.first else { return nil }
        let inner = files.filter { $0.hasPrefix(folder + "/") }.map { String($0.dropFirst(folder.count + 1)) }
        return read(directory: directory + "/" + folder, files: inner, shownAs: folder + "/")
            ?? readCapacitorOrCordova(directory: directory + "/" + folder, files: inner, shownAs: folder + "/")
    }

    static func read(directory: String, files: [String], shownAs folder: String = "") -> ScriptAppConfig? {
        let top = Set(files.filter { !$0.contains("/") })
        guard let file = configFiles.first(where: top.contains) else { return nil }
        var config = ScriptAppConfig()
        let path = directory + "/" + file
        guard let bytes = try? FileSystem.readBytes(path, maxBytes: 1 << 20) else { return nil }
        if file.hasSuffix(".json") {
            guard let root = try? JSONDocument.parse(bytes: bytes, file: path).root else { return nil }
            let ios = (root["expo"] ?? root)["ios"]
            if let value = ios?["bundleIdentifier"]?.string {
                config.bundleID = value
                config.bundleIDSource = "`expo.ios.bundleIdentifier` in \(folder)\(file)"
            }
            if let team = ios?["appleTeamId"]?.string {
                config.teamID = team
                config.teamSource = "`expo.ios.appleTeamId` in \(folder)\(file)"
            }
        } else {
            let text = String(decoding: bytes, as: UTF8.self)
            if let (value, fromEnvironment) = literal(after: "bundleIdentifier", in: text) {
                config.bundleID = value
                config.bundleIDSource = "`ios.bundleIdentifier` in \(folder)\(file)"
                config.bundleIDFromEnvironment = fromEnvironment
            }
            if let (team, _) = literal(after: "appleTeamId", in: text) {
                config.teamID = team
                config.teamSource = "`ios.appleTeamId` in \(folder)\(file)"
            }
        }
        if config.teamID == nil, top.contains("eas.json"),
           let easBytes = try? FileSystem.readBytes(directory + "/eas.json", maxBytes: 1 << 20),
           let eas = try? JSONDocument.parse(bytes: easBytes, file: directory + "/eas.json").root,
           let submit = eas["submit"] {
            let profiles = submit.members.sorted { ($0.key == "production" ? 0 : 1, $0.key) < ($1.key == "production" ? 0 : 1, $1.key) }
            for profile in profiles {
                if let team = profile.value["ios"]?["appleTeamId"]?.string {
                    config.teamID = team
                    config.teamSource = "`submit.\(profile.key).ios.appleTeamId` in \(folder)eas.json"
                    break
                }
            }
        }
        guard config.bundleID != nil || config.teamID != nil else { return nil }
        return config
    }

    /// The string literal written as `key: 'value'` in a config script; with
    /// `process.env.NAME ?? 'value'` (or `||`), the variable's name too.
    static func literal(after key: String, in text: String) -> (value: String, environment: String?)? {
        guard let keyRange = text.range(of: key + ":") ?? text.range(of: "\"\(key)\":") else { return nil }
        var rest = text[keyRange.upperBound...].prefix(200)
        var environment: String?
        rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if rest.hasPrefix("process.env.") {
            let name = rest.dropFirst("process.env.".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            environment = String(name)
            rest = rest.dropFirst("process.env.".count + name.count).drop { $0 == " " }
            guard rest.hasPrefix("??") || rest.hasPrefix("||") else { return nil }
            rest = rest.dropFirst(2).drop { $0 == " " }
        }
        guard let quote = rest.first, quote == "'" || quote == "\"" || quote == "`" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote && $0 != "\n" && $0 != "$" }
        guard rest.dropFirst(value.count + 1).first == quote, !value.isEmpty else { return nil }
        return (String(value), environment)
    }

    /// A Capacitor app (`appId` in `capacitor.config.json`/`.ts`) or a Cordova app (`<widget id>`
    /// in `config.xml`) whose `ios/` platform folder is not committed.
    static let capacitorFiles = ["capacitor.config.json", "capacitor.config.ts", "capacitor.config.js"]

    static func readCapacitorOrCordova(directory: String, files: [String], shownAs folder: String = "") -> ScriptAppConfig? {
        let top = Set(files.filter { !$0.contains("/") })
        for file in capacitorFiles where top.contains(file) {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + file, maxBytes: 1 << 20) else { continue }
            let value: String?
            if file.hasSuffix(".json") {
                value = (try? JSONDocument.parse(bytes: bytes, file: file).root)?["appId"]?.string
            } else {
                value = literal(after: "appId", in: String(decoding: bytes, as: UTF8.self))?.value
            }
            guard let value else { continue }
            var config = ScriptAppConfig()
            config.bundleID = value
            config.bundleIDSource = "`appId` in \(folder)\(file)"
            config.nativeProject = "no ios/ folder: `npx cap add ios` writes the Xcode project"
            return config
        }
        if top.contains("config.xml"), let bytes = try? FileSystem.readBytes(directory + "/config.xml", maxBytes: 1 << 20) {
            let text = String(decoding: bytes, as: UTF8.self)
            // `<widget id="com.acme.app" ios-CFBundleIdentifier="…">`: the iOS override wins.
            guard let widget = text.range(of: "<widget") else { return nil }
            let tag = text[widget.upperBound...].prefix { $0 != ">" }
            func attribute(_ name: String) -> String? {
                guard let start = tag.range(of: " \(name)=\"") ?? tag.range(of: "\n\(name)=\"") ?? tag.range(of: "\t\(name)=\"") else { return nil }
                let value = tag[start.upperBound...].prefix { $0 != "\"" }
                return value.isEmpty ? nil : String(value)
            }
            guard let value = attribute("ios-CFBundleIdentifier") ?? attribute("id") else { return nil }
            var config = ScriptAppConfig()
            config.bundleID = value
            config.bundleIDSource = "the widget's `\(attribute("ios-CFBundleIdentifier") != nil ? "ios-CFBundleIdentifier" : "id")` in \(folder)config.xml"
            config.nativeProject = "`cordova platform add ios` writes the Xcode project"
            return config
        }
        return nil
    }
}
