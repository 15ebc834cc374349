import Foundation
import Formats
import Model

/// `iapdoctor init`: surveys an Xcode project's folder (``ProjectSurvey``) and writes a starter
/// descriptor with what the files settle filled in, and every choice they leave open, and every
/// fact they cannot show, as a commented question.
public enum StarterDescriptor {
    /// The descriptor's JSON Schema (`schemas/project.schema.json`), by the address it will have
    /// once the repository is public: the same placeholder repository as SARIF's `informationUri`.
    /// A path would only resolve inside this checkout; editors that cannot fetch the URL simply
    /// do not validate.
    public static let schemaURL = "https://raw.githubusercontent.com/iapdoctor/iapdoctor/main/schemas/project.schema.json"

    /// The first line: the YAML language server (VS Code's YAML extension, and editors that use
    /// it) completes and checks the descriptor against the schema as it is typed.
    public static let schemaLine = "# yaml-language-server: $schema=\(schemaURL)"

    /// The descriptor text. Paths in `survey` are relative to `surveyedFolder`; they are written
    /// relative to `descriptorFolder`, where the descriptor goes (check resolves them from there).
    /// `projectRoot`: written as `project_root` for a descriptor kept outside the project (see
    /// `Doctor`: it counts only outside any git checkout).
    public static func render(
        _ survey: ProjectSurvey, name: String, surveyedFolder: String, descriptorFolder: String, projectRoot: String? = nil
    ) -> String {
        func path(_ relative: String) -> String {
            Paths.relativePath(Paths.resolve(relative, relativeTo: surveyedFolder), from: descriptorFolder)
        }
        func quote(_ value: String) -> String { yamlScalar(value) }
        func line(_ key: DescriptorKey, _ value: String?, _ comment: String, indent: String = "  ") -> String {
            let comment = commentText(comment)
            if let value { return "\(indent)\(key.name): \(quote(value))" + (comment.isEmpty ? "" : "   # \(comment)") }
            return "\(indent)# \(key.name):   # \(comment)"
        }
        func alternatives(_ key: DescriptorKey, _ values: [String], _ label: String) -> [String] {
            values.isEmpty ? [] : ["  # \(label):"] + values.map { value in
                let parts = value.components(separatedBy: "   # ")
                return "  #   \(key.name): \(quote(path(parts[0])))" + (parts.count > 1 ? "   # \(commentText(parts[1...].joined(separator: "   # ")))" : "")
            }
        }
        // The scheme's reference decides what Xcode's Run serves, even when it leads nowhere useful.
        // A framework app launched with its own command asks the sandbox: xcode only if you use Xcode's Run.
        let schemeFile = survey.schemeRunsStoreKit
        let servesStoreKit = schemeFile && survey.frameworkLaunch == nil
        let environmentNote = servesStoreKit
            ? "\n# (xcode: the scheme runs a StoreKit configuration file; set sandbox if you test against the sandbox)"
            : schemeFile ? "\n# (the scheme's StoreKit configuration file applies only when Xcode runs the app; launched with \(survey.frameworkLaunch ?? "the framework's command") it asks the sandbox: set xcode if you run it from Xcode)" : ""
        var out = """
            \(schemaLine)
            # iapdoctor project descriptor (schema version 1), written by `iapdoctor init`.
            # Paths are relative to this file. Every commented key is a choice the files left open or
            # a fact iapdoctor cannot see in files: answer it (uncomment and set the value) and the
            # checklist item it feeds stops being "unknown". Keys: `iapdoctor explain`, docs/rules.

            version: 1
            environment: \(servesStoreKit ? "xcode " : "sandbox")      # where the products came back invalid: xcode | sandbox | testflight | review | production\(environmentNote)
            # checked_at: 2026-01-01T00:00:00Z   # "now" for time-based checks (default: the current time)
            \(projectRoot.map { "project_root: \(quote(path($0)))   # this descriptor lives outside the project; files are read inside this folder only\n" } ?? "")
            app:

            """
        var app: [String] = []
        app.append(line(.appName, name, ""))
        app.append(line(.appPlatform, survey.platform?.rawValue, survey.platform == nil ? (survey.platformQuestion.map { $0 + ": " } ?? "") + "ios | ipados | macos | tvos | visionos | watchos" : ""))
        // An app on RevenueCat shows its offerings' products: which they are is the question.
        let revenueCat = survey.revenueCat.map { found in
            """
            # RevenueCat (\(commentText(found))): the app shows the products of its RevenueCat
            # offerings. Which are they? `iapdoctor revenuecat pull -o revenuecat-snapshot.json` (a
            # secret API key of API v2 in $REVENUECAT_SECRET_API_KEY) saves the project; then uncomment it.
            # revenuecat:
            #   snapshot: revenuecat-snapshot.json
            #   app_id:             # this build's RevenueCat app (app…), when the project has several App Store apps
            #   public_api_key:     # the SDK key the build is configured with (appl_…), when the code reads it at run time


            """
        } ?? ""
        func undefined(_ key: String) -> String {
            var text = ""
            if let names = survey.undefinedReferences[key] {
                text += "; " + names.map { "`\($0)`" }.joined(separator: ", ") + " defined in no file: empty, as in Xcode"
            }
            if let files = survey.localOverrides[key] {
                text += "; committed value: a local " + files.map { "`\(commentText($0))`" }.joined(separator: " or ") + " (`#include?`, not in the folder) may override it on a developer's Mac"
            }
            return text
        }
        if let bundleID = survey.bundleID, let reason = survey.bundleIDReason {
            app.append(line(.appBundleID, bundleID, reason))
        } else if let bundleID = survey.bundleID {
            app.append(line(.appBundleID, bundleID, "`\(survey.conditionalKeys[XcodeProject.SettingKey.productBundleIdentifier] ?? XcodeProject.SettingKey.productBundleIdentifier)` of \(survey.archiveConfiguration ?? "Release"), the build that ships"
                + undefined(XcodeProject.SettingKey.productBundleIdentifier)))
        } else {
            app.append(line(.appBundleID, nil, survey.unresolved[XcodeProject.SettingKey.productBundleIdentifier]
                .map { "bundle ID of the App Store Connect app record: \($0)" } ?? "bundle ID of the App Store Connect app record"))
        }
        if let project = survey.xcodeproj {
            app.append(line(.appXcodeproj, path(project.value), project.alternatives.isEmpty && survey.generator == nil ? "" : project.reason))
            app += alternatives(.appXcodeproj, project.alternatives, "other projects with app targets")
            if !survey.absentGeneratedFiles.isEmpty {
                let commands = survey.absentGeneratedFiles.map(\.command).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                app.append("  # generated, not in the folder (they set no bundle ID or team; \(commentText(commands.joined(separator: ", "))) writes them): "
                    + survey.absentGeneratedFiles.map { quote(path($0.file)) }.joined(separator: ", "))
            }
        } else {
            app.append(line(.appXcodeproj, nil, "path to the .xcodeproj that builds the app"))
        }
        if !survey.otherProjects.isEmpty {
            app.append("  # also in the folder (not read): " + survey.otherProjects.map { path($0) }.joined(separator: ", "))
        }
        if let scheme = survey.scheme {
            app.append(line(.appScheme, path(scheme.value), scheme.alternatives.isEmpty ? "" : scheme.reason + "; the others are below"))
            app += alternatives(.appScheme, scheme.alternatives, "other schemes that run an app (use the one you run)")
        } else if let tool = survey.generator {
            app.append(line(.appScheme, nil, "\(tool) writes the schemes with the project (`\(tool == "Tuist" ? "tuist generate" : "xcodegen generate")`); read here: Debug to run, Release to archive"))
        } else {
            app.append(line(.appScheme, nil, "path to the .xcscheme you run (no shared scheme runs an app target: Xcode makes one that runs Debug and archives Release, as read here)"))
        }
        if let target = survey.target, survey.scheme == nil {
            app.append(line(.appTarget, target.value, target.reason))
        } else if !survey.targetQuestion.isEmpty {
            app.append("  # target:   # which application target is the app? " + commentText(survey.targetQuestion.joined(separator: "; ")))
        }
        if let run = survey.runConfiguration {
            let note = survey.runBundleID.map { "it builds `\($0)`; \(survey.archiveConfiguration ?? "Release") ships" } ?? "the configuration a Run builds"
            app.append(line(.appConfiguration, run, note))
        }
        if let plist = survey.infoPlist {
            app.append(line(.appInfoPlist, path(plist), ""))
        } else if survey.infoPlistGenerated {
            app.append("  # info_plist:   # none: Xcode generates it from the build settings (GENERATE_INFOPLIST_FILE)")
        }
        if let entitlements = survey.entitlements {
            app.append(line(.appEntitlements, path(entitlements), ""))
        } else if survey.target != nil {
            app.append(line(.appEntitlements, nil, "the app target sets no `CODE_SIGN_ENTITLEMENTS`"))
        }
        if let shipping = survey.archiveEntitlements {
            app.append("  #   (\(commentText(survey.archiveConfiguration ?? "Release")) signs with \(quote(path(shipping))) instead)")
        }
        if let storeKit = survey.storeKit {
            app.append(line(.appStoreKitConfiguration, path(storeKit.value), storeKit.reason))
        } else if let missing = survey.missingStoreKitReference {
            let whose = survey.storeKitPackage.map { "a testing file of the Swift package `\(commentText($0))`, not the app's: choose the app's own in the scheme" } ?? "which is not in the folder"
            app.append("  # storekit_configuration:   # the scheme names `\(commentText(missing))`, \(whose)")
        }
        if !survey.otherStoreKitFiles.isEmpty {
            app.append("  # other .storekit files (not used by the scheme): " + survey.otherStoreKitFiles.map { quote(path($0)) }.joined(separator: ", "))
        }
        if survey.productIDLists.isEmpty {
            app.append("  # product_id_lists: []   # plist or JSON files listing the product IDs the app requests")
        } else {
            app.append("  product_id_lists:")
            app += survey.productIDLists.map { "    - \(quote(path($0)))" }
        }
        if !survey.unnamedProductIDLists.isEmpty {
            app.append("  # not listed, since no source file names them: " + survey.unnamedProductIDLists.map { quote(path($0)) }.joined(separator: ", "))
        }
        if survey.sources.isEmpty {
            app.append("  # sources: []   # folders scanned for the product IDs the code requests")
        } else {
            app.append("  sources: [\(survey.sources.map { quote(path($0)) }.joined(separator: ", "))]")
        }
        out += app.joined(separator: "\n") + "\n"
        let team: String
        if let teamID = survey.teamID, !teamID.isEmpty {
            team = line(.developerAccountTeamID, teamID, (survey.teamReason ?? "`\(survey.conditionalKeys[XcodeProject.SettingKey.developmentTeam] ?? XcodeProject.SettingKey.developmentTeam)` of \(survey.archiveConfiguration ?? "Release")") + undefined(XcodeProject.SettingKey.developmentTeam))
        } else if survey.teamID != nil {
            team = line(.developerAccountTeamID, nil, "10-character Team ID (the project sets `DEVELOPMENT_TEAM` to nothing)")
        } else {
            team = line(.developerAccountTeamID, nil, survey.unresolved[XcodeProject.SettingKey.developmentTeam].map { "10-character Team ID: \($0)" } ?? "10-character Team ID")
        }
        let profile: String
        if let chosen = survey.profile {
            // A committed copy is not necessarily what signs: the installed profile of that name
            // does, and a renewal changes the dates. Check reads its App ID and team by the name.
            profile = "  # profile:\n  #   file: \(quote(path(chosen.value)))   # \(commentText(chosen.reason)), committed: check reads its App ID and team; "
                + "uncomment if this copy is what signs (its dates then count)"
                + (chosen.alternatives.isEmpty ? "" : "; also in the folder: " + chosen.alternatives.prefix(3).map { quote(path($0)) }.joined(separator: ", ")
                    + (chosen.alternatives.count > 3 ? " and \(chosen.alternatives.count - 3) more" : ""))
        } else if !survey.profileCandidates.isEmpty {
            profile = "  # profile:\n  #   file:   # which one signs the failing build? " + survey.profileCandidates.map { quote(path($0)) }.joined(separator: ", ")
        } else {
            profile = "  # profile:\n  #   file:   # the .mobileprovision the failing build is signed with"
        }
        out += """

            developer_account:
            \(team)
              # team_type:          # individual | organization | enterprise | personal
              # membership:         # active | expired
              # program_license:    # accepted | pending
              # agreements:
              #   paid_apps:        # active | pending | new_version_pending | expired | missing
              # banking:            # active | processing | missing
              # tax:                # active | processing | missing

            # app_id:
            #   identifier:         # TEAMID.bundle.id as registered in Certificates, Identifiers & Profiles
            #   in_app_purchase:    # true | false
            #   in_app_purchase_enabled_at:   # when In-App Purchase was enabled on it

            signing:
            \(profile)

            # App Store Connect's own answers (app record, App ID, products, groups, testers):
            # `iapdoctor asc pull --bundle-id \(survey.bundleID ?? "BUNDLE_ID") -o asc-snapshot.json`, then
            # uncomment `snapshot`; its facts win over the ones typed here.
            # app_store_connect:
            #   snapshot: asc-snapshot.json
            #   app_record:         # true | false
            #   version_state:      # prepare_for_submission | waiting_for_review | … | ready_for_sale
            #   released_at:        # when the app was first released
            #   binary_uploaded:    # true | false

            \(revenueCat)# products:             # the In-App Purchases in App Store Connect, one entry each:
            #   - product_id:
            #     reference_name:
            #     type:             # consumable | non_consumable | auto_renewable | non_renewing
            #     status:           # ready_to_submit | approved | …
            #     cleared_for_sale: # true | false
            #     price_tier:
            #     localizations: { en-US: { display_name: …, description: … } }

            # testing:
            #   device:             # physical | simulator
            #   os_version:
            #   in_app_purchases_allowed:   # Screen Time → Content & Privacy Restrictions → In-app Purchases: Allow?
            #   sandbox_account: { storefront: USA, team_id: … }

            """
        return out
    }

    /// A YAML scalar that reads back as exactly `value`: plain when that is unambiguous (letters,
    /// digits, `._-/`, starting with a letter, `_`, `.` or `/`, and not a word YAML reads as a
    /// boolean or null), else double-quoted with every `\`, `"` and control character escaped (YAML
    /// 1.2 §5.7), so a folder named `My\`, `a"b: c` or `x\n- y` cannot break the file or add keys.
    public static func yamlScalar(_ value: String) -> String {
        let plainBytes = value.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x5F
                || byte == 0x2D || byte == 0x2F
        }
        let keywords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", ".inf", ".nan", "~"]
        if plainBytes, let first = value.first, first.isLetter || first == "_" || first == "." || first == "/",
            !keywords.contains(value.lowercased()), !value.hasPrefix("..") || value.contains("/")
        {
            return value
        }
        return "\"" + escaped(value) + "\""
    }

    /// Text for a `#` comment: one line, with control characters (a newline above all, which would
    /// end the comment and start a key) escaped the way a double-quoted scalar writes them.
    static func commentText(_ text: String) -> String {
        text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || [0x2028, 0x2029, 0xFEFF].contains($0.value) })
            ? escaped(text) : text
    }

    /// The inside of a YAML double-quoted scalar.
    static func escaped(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\0": out += "\\0"
            case "\u{7}": out += "\\a"
            case "\u{8}": out += "\\b"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\u{B}": out += "\\v"
            case "\u{C}": out += "\\f"
            case "\r": out += "\\r"
            case "\u{1B}": out += "\\e"
            case "\u{85}": out += "\\N"
            case "\u{A0}": out += "\\_"
            case "\u{2028}": out += "\\L"
            case "\u{2029}": out += "\\P"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            case "\u{FEFF}": out += "\\uFEFF"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
