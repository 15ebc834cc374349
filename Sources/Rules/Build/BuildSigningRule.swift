import Formats
import Model
import Loaders
import RuleEngine

/// An archive signed for development: normal, and the upload re-signs it; say which profile the
/// upload needs (context under `code-signing`, which the project's signing answers).
struct BuildSigningRule: Rule {
    let id = RuleID.buildSignedForDevelopment.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var outcomes: [Outcome] = []
        for built in context.project.builtApps where built.kind == .archive {
            let development = built.profile?.type == .development || built.signature?.getTaskAllow?.value == true
            guard development else {
                outcomes.append(context.pass())
                continue
            }
            let team = built.profile?.teamIdentifier?.value ?? built.signature?.teamIdentifier?.value ?? built.archive?.team?.value
            let bundleID = built.bundleID?.value ?? context.project.app.bundleID?.value
            let appID = [team, bundleID].compactMap { $0 }.joined(separator: ".")
            var notes: [String] = []
            if let identity = built.archive?.signingIdentity { notes.append("signed by `\(identity.value)`") }
            if let profile = built.profile, let name = profile.name?.value { notes.append("with the development profile `\(name)`") }
            let location = built.profile?.applicationIdentifier?.location ?? built.signature.map { SourceLocation(file: $0.file) } ?? SourceLocation(file: built.path)
            outcomes += context.outcomes([context.finding(
                "the archive is signed for development; the upload re-signs it with an App Store profile for `\(appID.isEmpty ? "the app's App ID" : appID)`",
                at: location, notes: notes)])
        }
        return outcomes
    }
}
