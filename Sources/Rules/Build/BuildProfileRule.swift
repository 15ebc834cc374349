import Formats
import Model
import Loaders
import RuleEngine

/// The profile embedded in a build, against the build and the project: made for the bundle ID
/// the build has, by the project's team, and not expired. A profile embedded in a signed build
/// was installed when it was signed, so "installed" is not asked of it.
struct BuildProfileRule: Rule {
    let id = RuleID.buildProfileMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var outcomes: [Outcome] = []
        for built in context.project.builtApps {
            guard let profile = built.profile else { continue }
            var findings: [Finding] = []
            let name = profile.name.map { "`\($0.value)`" } ?? "the embedded profile"
            // Adopted as the project's profile: the signing rules speak of its App ID and expiry.
            let adopted = context.project.evidence.profile?.file == profile.file
            if !adopted, let appID = profile.applicationIdentifier, let bundleID = built.bundleID, let bundlePart = profile.appIDBundlePart {
                let covers = bundlePart == bundleID.value
                    || (bundlePart.hasSuffix("*") && bundleID.value.hasPrefix(String(bundlePart.dropLast())))
                if bundlePart.hasSuffix("*") {
                    findings.append(context.finding(
                        "\(name) is for the wildcard App ID `\(appID.value)`; In-App Purchase needs an explicit App ID, so the build has no products",
                        at: appID.location,
                        help: "register the explicit App ID `\(bundleID.value)` with In-App Purchase, and sign the build with a profile made for it"))
                } else if !covers {
                    findings.append(context.finding(
                        "\(name) is for the App ID `\(appID.value)`, which does not cover the bundle ID `\(bundleID.value)` the app was built with",
                        at: appID.location,
                        help: "sign the build with a profile made for `\(bundleID.value)`'s explicit App ID"))
                }
            }
            if let team = profile.teamIdentifier, let stated = context.project.account.teamID, team.value != stated.value {
                let note = "the project's team is `\(stated.value)` at \(stated.location)"
                findings.append(context.finding(
                    "\(name) belongs to the team `\(team.value)`; the project's team is `\(stated.value)`",
                    at: team.location,
                    help: "sign with the team that owns the app record and its products (`DEVELOPMENT_TEAM`)",
                    notes: [note], related: [RelatedSpan(stated.location, label: "the project's team", note: note)]))
            }
            if let signed = built.signature?.teamIdentifier, let team = profile.teamIdentifier, signed.value != team.value {
                findings.append(context.finding(
                    "the executable is signed for the team `\(signed.value)`, but \(name) belongs to `\(team.value)`",
                    at: team.location, help: "sign the build again with the profile of the team it is signed for",
                    notes: ["the signed entitlements' `com.apple.developer.team-identifier` is `\(signed.value)`"]))
            }
            if !adopted, let expires = profile.expirationDate, expires.value <= context.now {
                findings.append(context.finding(
                    "\(name) expired on \(expires.value), \(describeDuration(seconds: context.now - expires.value)) before this check; the build no longer launches",
                    at: expires.location,
                    help: "regenerate the profile (or let automatic signing do it) and build again"))
            }
            outcomes += context.outcomes(findings)
        }
        return outcomes
    }
}
