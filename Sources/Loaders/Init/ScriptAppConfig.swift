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
    /// What could make the build use another value: an environment variable it falls back
    /// after (`process.env.BUNDLE_ID ?? "com.acme.app"`), a variant flag.
    var bundleIDCaveat: String?
    /// The app's name: `expo.name`, Capacitor's `appName`, Cordova's `<name>`.
    var appName: String?
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
        let present = configFiles.filter(top.contains)
        guard !present.isEmpty else { return nil }
        // A config script gets `app.json`'s config and returns what applies: what it sets wins,
        // what it leaves out comes from `app.json`.
        var config = ScriptAppConfig()
        for file in present.sorted(by: { ($0.hasSuffix(".json") ? 1 : 0) < ($1.hasSuffix(".json") ? 1 : 0) }) {
            guard let read = readOne(directory + "/" + file, shownAs: folder + file) else { continue }
            if config.bundleID == nil, read.bundleID != nil {
                (config.bundleID, config.bundleIDSource, config.bundleIDCaveat) = (read.bundleID, read.bundleIDSource, read.bundleIDCaveat)
            }
            if config.teamID == nil, read.teamID != nil { (config.teamID, config.teamSource) = (read.teamID, read.teamSource) }
            if config.appName == nil { config.appName = read.appName }
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

    /// What one config file says.
    static func readOne(_ path: String, shownAs file: String) -> ScriptAppConfig? {
        guard let bytes = try? FileSystem.readBytes(path, maxBytes: 1 << 20) else { return nil }
        var config = ScriptAppConfig()
        if file.hasSuffix(".json") {
            guard let root = try? JSONDocument.parse(bytes: bytes, file: path).root else { return nil }
            config.appName = (root["expo"] ?? root)["name"]?.string
            let ios = (root["expo"] ?? root)["ios"]
            if let value = ios?["bundleIdentifier"]?.string {
                config.bundleID = value
                config.bundleIDSource = "`expo.ios.bundleIdentifier` in \(file)"
            }
            if let team = ios?["appleTeamId"]?.string {
                config.teamID = team
                config.teamSource = "`expo.ios.appleTeamId` in \(file)"
            }
        } else {
            let text = String(decoding: bytes, as: UTF8.self)
            config.appName = literal(after: "name", in: text)?.value
            if let (value, caveat) = literal(after: "bundleIdentifier", in: text, file: path) {
                config.bundleID = value
                config.bundleIDSource = "`ios.bundleIdentifier` in \(file)"
                config.bundleIDCaveat = caveat
            }
            if let (team, _) = literal(after: "appleTeamId", in: text) {
                config.teamID = team
                config.teamSource = "`ios.appleTeamId` in \(file)"
            }
        }
        return config
    }

    /// The string literal written as `key: 'value'` in a config script, and what else could
    /// change it: with `process.env.NAME ?? 'value'` (or `||`), "used when `NAME` is not set";
    /// with a name, the `const`/`let` that gives it; with `flag ? 'a' : 'b'`, the branch a
    /// production build takes when the flag names a development or production variant.
    static func literal(after key: String, in text: String, file: String? = nil) -> (value: String, caveat: String?)? {
        guard let keyRange = text.range(of: key + ":") ?? text.range(of: "\"\(key)\":") else { return nil }
        return expression(text[keyRange.upperBound...], in: text, file: file, depth: 0)
    }

    /// The value of the expression that starts `rest`, as `literal(after:in:)` reads it.
    static func expression(_ start: Substring, in text: String, file: String? = nil, depth: Int) -> (value: String, caveat: String?)? {
        var rest = start.prefix(300).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if rest.hasPrefix("process.env.") {
            let name = rest.dropFirst("process.env.".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            rest = rest.dropFirst("process.env.".count + name.count).drop { $0 == " " }
            guard rest.hasPrefix("??") || rest.hasPrefix("||"), let value = quoted(rest.dropFirst(2)) else { return nil }
            return (value, "used when `\(name)` is not set")
        }
        if let value = quoted(rest) { return (value, nil) }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
        guard !name.isEmpty, name.first?.isNumber == false else { return nil }
        let after = rest.dropFirst(name.count).drop { $0 == " " }
        // `flag ? 'a' : 'b'`: the condition is one name (or a negated one).
        if after.hasPrefix("?"), !after.hasPrefix("??") {
            let then = after.dropFirst().drop { $0 == " " || $0 == "\n" }
            guard let first = quoted(then) else { return nil }
            let afterFirst = then.dropFirst(first.count + 2).drop { $0 == " " || $0 == "\n" }
            guard afterFirst.hasPrefix(":"), let second = quoted(afterFirst.dropFirst()) else { return nil }
            let flag = name.lowercased()
            let development = ["dev", "debug", "staging", "preview", "beta", "test", "sandbox"].contains { flag.contains($0) }
            let production = ["prod", "release", "store"].contains { flag.contains($0) }
            guard development != production else { return nil }
            let (chosen, other) = production ? (first, second) : (second, first)
            return (chosen, "the production build's value: `\(name)` \(production ? "is true" : "is false") there; otherwise the app is `\(other)`")
        }
        guard depth < 2 else { return nil }
        // `appJson.expo.ios.bundleIdentifier`: a member path into an imported JSON module.
        var members: [String] = []
        var end = after
        while end.first == "." {
            let member = end.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !member.isEmpty else { break }
            members.append(String(member))
            end = end.dropFirst(member.count + 1)
        }
        guard end.first.map({ $0 == "," || $0 == "\n" || $0 == "}" || $0 == " " || $0 == ";" }) ?? true else { return nil }
        // A name: the `const`/`let`/`var` in the same file that gives it, once.
        if members.isEmpty {
            for keyword in ["const ", "let ", "var "] {
                guard let declaration = text.range(of: keyword + name + " =") ?? text.range(of: keyword + name + "=") else { continue }
                if let value = expression(text[declaration.upperBound...], in: text, file: file, depth: depth + 1) { return value }
            }
        }
        // Or the module it is imported from.
        guard let file, let (module, named) = importSource(of: String(name), in: text) else { return nil }
        let folder = Paths.directoryName(of: file)
        for candidate in ["", ".json", ".ts", ".js", ".mjs"] {
            let path = Paths.resolve(module + candidate, relativeTo: folder)
            guard path != file, let bytes = try? FileSystem.readBytes(path, maxBytes: 1 << 20) else { continue }
            let shown = "`\(Paths.fileName(of: path))`, imported"
            if path.hasSuffix(".json") {
                guard !named, var node = try? JSONDocument.parse(bytes: bytes, file: path).root else { return nil }
                for member in members {
                    guard let next = node[member] else { return nil }
                    node = next
                }
                return node.string.map { ($0, "from \(shown)") }
            }
            guard named, members.isEmpty else { return nil }
            let other = String(decoding: bytes, as: UTF8.self)
            for declaration in ["export const \(name) =", "export const \(name)=", "export let \(name) ="] {
                guard let found = other.range(of: declaration) else { continue }
                return expression(other[found.upperBound...], in: other, file: path, depth: depth + 1).map { ($0.value, $0.caveat ?? "from \(shown)") }
            }
            return nil
        }
        return nil
    }

    /// Where `name` is imported from in `text`, and whether by name (`import { name } from`):
    /// `import name from './x'`, `import { name } from './x'`, `const name = require('./x')`.
    static func importSource(of name: String, in text: String) -> (module: String, named: Bool)? {
        for line in text.split(separator: "\n").prefix(200) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let named: Bool
            if trimmed.hasPrefix("import \(name) from") || trimmed.hasPrefix("import * as \(name) from") {
                named = false
            } else if trimmed.hasPrefix("import {"), let close = trimmed.firstIndex(of: "}"),
                      trimmed[trimmed.index(trimmed.startIndex, offsetBy: 8)..<close].split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == name }) {
                named = true
            } else if trimmed.hasPrefix("const \(name) = require(") || trimmed.hasPrefix("const \(name) = require (") {
                named = false
            } else {
                continue
            }
            guard let quote = trimmed.firstIndex(where: { $0 == "'" || $0 == "\"" }) else { return nil }
            let module = trimmed[trimmed.index(after: quote)...].prefix { $0 != "'" && $0 != "\"" }
            // Only the app's own files: a package import is not followed.
            guard module.hasPrefix("./") || module.hasPrefix("../") else { return nil }
            return (String(module), named)
        }
        return nil
    }

    /// The string in quotes that starts `text` (after spaces), without a `${…}` substitution.
    static func quoted(_ text: Substring) -> String? {
        let rest = text.drop { $0 == " " || $0 == "\t" }
        guard let quote = rest.first, quote == "'" || quote == "\"" || quote == "`" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote && $0 != "\n" && $0 != "$" }
        guard rest.dropFirst(value.count + 1).first == quote, !value.isEmpty else { return nil }
        return String(value)
    }

    /// A Capacitor app (`appId` in `capacitor.config.json`/`.ts`) or a Cordova app (`<widget id>`
    /// in `config.xml`) whose `ios/` platform folder is not committed.
    static let capacitorFiles = ["capacitor.config.json", "capacitor.config.ts", "capacitor.config.js"]

    static func readCapacitorOrCordova(directory: String, files: [String], shownAs folder: String = "") -> ScriptAppConfig? {
        let top = Set(files.filter { !$0.contains("/") })
        for file in capacitorFiles where top.contains(file) {
            guard let bytes = try? FileSystem.readBytes(directory + "/" + file, maxBytes: 1 << 20) else { continue }
            let value: String?
            var config = ScriptAppConfig()
            if file.hasSuffix(".json") {
                let root = try? JSONDocument.parse(bytes: bytes, file: file).root
                value = root?["appId"]?.string
                config.appName = root?["appName"]?.string
            } else {
                let text = String(decoding: bytes, as: UTF8.self)
                value = literal(after: "appId", in: text)?.value
                config.appName = literal(after: "appName", in: text)?.value
            }
            guard let value else { continue }
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
            if let name = text.range(of: "<name>"), let end = text[name.upperBound...].range(of: "</name>") {
                let inner = text[name.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
                config.appName = inner.isEmpty || inner.contains("<") || inner.count > 100 ? nil : inner
            }
            config.bundleID = value
            config.bundleIDSource = "the widget's `\(attribute("ios-CFBundleIdentifier") != nil ? "ios-CFBundleIdentifier" : "id")` in \(folder)config.xml"
            config.nativeProject = "`cordova platform add ios` writes the Xcode project"
            return config
        }
        return nil
    }
}
