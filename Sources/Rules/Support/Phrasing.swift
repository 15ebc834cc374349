import Formats
import Model
import Loaders
import RuleEngine

/// Small helpers for writing messages the same way in every rule.
extension String {
    /// `` `value` `` — identifiers and values are quoted in backticks (rustc style).
    var quoted: String { "`\(self)`" }
}

extension Array where Element == String {
    /// "`a`, `b` and `c`".
    var quotedList: String {
        let items = map(\.quoted)
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}

extension Project {
    /// The bundle ID the app most likely has: the descriptor's, else the App ID's (when explicit).
    var expectedBundleID: String? {
        if let bundle = app.bundleID?.value { return bundle }
        if let part = appID.bundlePart?.value, !part.hasSuffix("*") { return part }
        return evidence.runningBundleID?.value
    }

    /// The team the account belongs to: the account's Team ID, else the App ID's prefix.
    var expectedTeamID: String? { account.teamID?.value ?? appID.teamPrefix }

    /// The descriptor path of product `index` (`products[2]`), for unknown-item keys.
    func productPath(_ product: Product) -> String {
        // A product only App Store Connect lists has no descriptor entry yet.
        if product.location.file != descriptorFile { return "products[] (product_id: \(product.productID?.value ?? "?"))" }
        guard let index = products.firstIndex(where: { $0.location == product.location }) else { return "products[]" }
        return "products[\(index)]"
    }

    /// `key` of `product`'s descriptor entry, for a question about it.
    func keyPath(_ key: ProductKey, of product: Product) -> DescriptorKeyPath {
        DescriptorKeyPath(key, in: productPath(product))
    }
}

/// Each repeated value with the place it was first stated, in order: the shared core of the
/// duplicate-ID and duplicate-name rules of every catalog kind.
func repeats<Item>(in items: [Item], key: (Item) -> Fact<String>?) -> [(item: Item, repeated: Fact<String>, first: Fact<String>)] {
    var first: [String: Fact<String>] = [:]
    var result: [(item: Item, repeated: Fact<String>, first: Fact<String>)] = []
    for item in items {
        guard let fact = key(item), !fact.value.isEmpty else { continue }
        if let earlier = first[fact.value] {
            result.append((item, fact, earlier))
        } else {
            first[fact.value] = fact
        }
    }
    return result
}

extension Evidence {
    /// "`PRODUCT_BUNDLE_IDENTIFIER` of the Debug configuration is `$(BUNDLE_ID_PREFIX).App`, and
    /// `App.xcconfig`, which would define it, is not there" — the reason a setting the files name is
    /// unknown, for a question; nil when the setting is not unresolved.
    func unresolvedReason(_ setting: String) -> String? {
        guard let value = unresolvedSettings[setting] else { return nil }
        let names = BuildSettings.unresolvedNames(in: value.value).map { "`\($0)`" }.joined(separator: ", ")
        var reason = "`\(setting)`" + (configurationName.map { " of the \($0) configuration" } ?? "") + " (\(value.location)) uses \(names)"
        if !missingConfigurationFiles.isEmpty {
            let files = missingConfigurationFiles.map { "`\($0)`" }.joined(separator: ", ")
            reason += ", defined in \(files), which \(missingConfigurationFiles.count == 1 ? "is" : "are") not in the project (kept out of version control, or made from a template?)"
        } else {
            reason += ", which no file of the project defines"
        }
        if let hint = templateHints[setting] { reason += "; \(hint)" }
        return reason
    }

    /// The Info.plist line that takes the bundle ID from the build setting `running` is defined
    /// by, as a related place (the setting's line is where the fix goes, Info.plist why it counts).
    func infoPlistReference(for running: Fact<String>) -> RelatedSpan? {
        guard running.source != .infoPlist, let plist = infoPlistBundleID else { return nil }
        return RelatedSpan(plist.location, label: "takes the setting",
                           note: "Info.plist's `CFBundleIdentifier` is `\(plist.value)` (\(plist.location)), which takes this setting")
    }

    /// Notes on how `setting`'s value was read where Xcode's rules, not the files, decided it:
    /// references no file defines (empty in Xcode) and generated files that are not there.
    func settingNotes(_ setting: String) -> [String] {
        var notes: [String] = []
        if let names = undefinedReferences[setting], !names.isEmpty {
            let listed = names.map { "`\($0)`" }.joined(separator: ", ")
            let example = names[0]
            notes.append("`\(setting)` uses \(listed), which no file of the project defines: Xcode expands \(names.count == 1 ? "it" : "them") to nothing, as iapdoctor does (a build command can set \(names.count == 1 ? "it" : "them"): `xcodebuild \(example)=…`)")
        }
        if !absentGeneratedFiles.isEmpty {
            let files = absentGeneratedFiles.map { "`\($0.file)` (\($0.generator.tool) writes it: \($0.generator.command))" }.joined(separator: ", ")
            notes.append("read without \(files), which \(absentGeneratedFiles.count == 1 ? "is" : "are") generated and not in the project; generated files set no bundle ID, team or signing setting")
        }
        if let (tool, manifest) = projectGenerator {
            let command = tool == "Tuist" ? "tuist generate" : "xcodegen generate"
            notes.append("read from the \(tool) manifest `\(manifest)`, as `\(command)` would write the project (the repository commits no `project.pbxproj`)")
        }
        for mismatch in caseMismatches where mismatch.written.hasSuffix(".xcconfig") {
            notes.append("`\(mismatch.written)` is read from `\(mismatch.actual)`: the names differ only in letter case, which a Mac ignores and a case-sensitive file system (a Linux CI runner, a case-sensitive APFS volume) does not")
        }
        return notes
    }
}

extension Fact {
    /// How to record a fix: the descriptor's edit for a typed fact; pulling the App Store Connect
    /// snapshot again for one that came from it (editing the descriptor would change nothing).
    func recordFix(_ descriptorEdit: String) -> String {
        source == .appStoreConnect ? "pull the App Store Connect snapshot again" : descriptorEdit
    }
}
