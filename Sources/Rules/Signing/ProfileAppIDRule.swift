import Formats
import Model
import Loaders
import RuleEngine

/// The build's provisioning profile must be made for the app's explicit App ID.
struct ProfileAppIDRule: Rule {
    let id = RuleID.profileAppIdMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        let profile = project.signing.profile
        guard profile.isStated else {
            return [context.unknown(Self.profileQuestion(project), key: .signingProfile)]
        }
        guard let profileAppID = profile.appID else {
            return [context.unknown(
                "Which App ID is the provisioning profile made for (`Entitlements.application-identifier`)?",
                key: .signingProfileAppID)]
        }
        // A wildcard profile is `wildcard-profile`'s finding.
        if profileAppID.value.hasSuffix("*") { return [] }
        guard let bundle = project.expectedBundleID else {
            return [context.unknown("What is the app's bundle ID?", key: .appBundleID)]
        }
        let bundlePart: String
        if let read = project.evidence.profile, read.applicationIdentifier?.value == profileAppID.value, let part = read.appIDBundlePart {
            // Read from the profile: its own `ApplicationIdentifierPrefix` says what the prefix is.
            bundlePart = part
        } else {
            let hasPrefix = AppID.looksLikeTeamID(String(profileAppID.value.prefix { $0 != "." }))
            bundlePart = hasPrefix ? String(profileAppID.value.drop { $0 != "." }.dropFirst()) : profileAppID.value
        }
        guard bundlePart != bundle else { return [context.pass()] }
        let team = project.expectedTeamID ?? "TEAMID"
        return [context.fail(context.finding(
            "the provisioning profile is for App ID `\(profileAppID.value)`, but the app's bundle ID is `\(bundle)`",
            at: profileAppID.location,
            help: "create or download a profile for the App ID `\(team).\(bundle)` (automatic signing does this), sign with it, and update `signing.profile`"))]
    }

    /// Which profile to ask for; a given `.ipa` whose profile is for another environment is not
    /// the build that runs here, and the question says so.
    static func profileQuestion(_ project: Project) -> String {
        let environment = project.effectiveEnvironment
        if project.runningBuild == nil,
            let given = project.builtApps.first(where: { $0.kind == .ipa && $0.profile?.type != nil }), let type = given.profile?.type {
            let kind = type == .appStore ? "an App Store" : type == .adHoc ? "an ad hoc" : type == .enterprise ? "an enterprise" : "a development"
            return "Which provisioning profile signs the build that runs in \(environment.rawValue) (its App ID, creation and expiry dates)? "
                + "`\(Paths.fileName(of: given.path))` is exported with \(kind) profile, so it is not that build."
        }
        return "Which provisioning profile signs the failing build (its App ID, creation and expiry dates)?"
    }
}
