import Foundation
import Formats
import Model

extension StarterDescriptor {
    /// `iapdoctor init MyApp.xcarchive` (or `.app`, `.ipa`): a starter descriptor from what the
    /// build says (bundle ID, platform, minimum OS, the embedded profile's team and App ID), with
    /// `app.build` naming it, and the rest as commented questions.
    public static func render(build: BuiltApp, descriptorFolder: String) -> String {
        func line(_ key: String, _ value: String?, _ comment: String, indent: String = "  ") -> String {
            if let value { return "\(indent)\(key): \(yamlScalar(value))   # \(commentText(comment))" }
            return "\(indent)# \(key):   # \(commentText(comment))"
        }
        let bundleName = build.appBundle.split(separator: "/").last.map { String($0.dropLast($0.hasSuffix(".app") ? 4 : 0)) } ?? "App"
        let what = build.kind == .archive ? "archive" : (build.kind == .ipa ? ".ipa" : "app")
        let appID = build.profile?.applicationIdentifier?.value ?? build.signature?.applicationIdentifier?.value
        let team = build.profile?.teamIdentifier?.value ?? build.signature?.teamIdentifier?.value ?? build.archive?.team?.value
        // What is not shaped like a Team ID (a profile edited by hand, a test fixture) is left as
        // a question: the descriptor would refuse it.
        let teamID = team.flatMap { AppID.looksLikeTeamID($0) ? $0 : nil }
        let appIDPrefix = appID?.split(separator: ".", maxSplits: 1).first.map(String.init)
        let explicitAppID = appID.flatMap { _ in appIDPrefix.map(AppID.looksLikeTeamID) == true ? appID : nil }
        func notTeamID(_ value: String?) -> String {
            value.map { "; the build says `\(Escaping.controlCharacters($0))`, which is not shaped like a Team ID (10 upper-case letters and digits)" } ?? ""
        }
        var lines = [
            schemaLine,
            "# Written by `iapdoctor init` from the \(what) `\(Paths.shown(build.path))`: what the build says is",
            "# filled in; what only you or App Store Connect know is a commented question. For what the",
            "# repository says too, run `iapdoctor init` on the project's folder and add `app.build` there.",
            "version: 1",
            "environment: \(build.kind == .app ? "sandbox" : "testflight")   # \(build.kind == .app ? "where this build runs" : "where the upload goes; `review` before you submit")",
            "",
            "app:",
            line("name", bundleName, "the app bundle's name"),
            line("platform", build.platform?.rawValue, "from the build's CFBundleSupportedPlatforms"),
            line("bundle_id", build.bundleID?.value, "from the build's Info.plist"),
            line("deployment_target", build.minimumOS?.value, "the build's MinimumOSVersion"),
            line("storekit_api", nil, "storekit1, storekit2 or both: the StoreKit API the code calls"),
            line("build", Paths.relativePath(build.path, from: descriptorFolder), "the build this descriptor checks; relative to this file"),
            "",
            "developer_account:",
            line("team_id", teamID, "the embedded profile's team" + (teamID == nil ? notTeamID(team) : "")),
            "",
            "app_id:",
            line("identifier", explicitAppID, "the embedded profile's App ID" + (explicitAppID == nil ? notTeamID(appID) : "")),
            line("in_app_purchase", nil, "true when In-App Purchase is on for the App ID (Certificates, Identifiers & Profiles)"),
            "",
            "# products:   # the In-App Purchases, or `iapdoctor asc pull` and `app_store_connect.snapshot`",
        ]
        if let profile = build.profile, let name = profile.name?.value {
            lines.insert("# The embedded profile is `\(Escaping.controlCharacters(name))` (\(profile.type.rawValue)).", at: 4)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
