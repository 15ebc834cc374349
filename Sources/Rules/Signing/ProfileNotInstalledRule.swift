import Formats
import Model
import Loaders
import RuleEngine

/// A profile that is not installed cannot sign the build.
struct ProfileNotInstalledRule: Rule {
    let id = RuleID.profileNotInstalled.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let profile = context.project.signing.profile
        guard profile.isStated else { return [] }
        let committed = context.project.evidence.committedProfile
        guard let installed = profile.installed else {
            // A profile embedded in a signed build was installed on the Mac that signed it.
            if let built = context.project.runningBuild, built.signature?.isSigned == true, let embedded = built.profile,
               (profile.name != nil && embedded.name?.value == profile.name?.value)
                || (context.project.evidence.profile?.uuid != nil && embedded.uuid?.value == context.project.evidence.profile?.uuid?.value)
            {
                var note = context.finding(
                    "the profile\(embedded.name.map { " `\($0.value)`" } ?? "") is embedded in the signed build `\(Paths.shown(built.path))`: it was installed on the Mac that signed it",
                    at: SourceLocation(file: embedded.file), help: "nothing to change for that Mac; another Mac that builds needs it too")
                note.severity = .note
                return [context.passWithNotes([note])]
            }
            let copy = committed.map { " A copy is committed at `\($0)`: is it installed on the Mac that builds?" } ?? ""
            return [context.unknown("Is the provisioning profile installed in Xcode (Settings → Accounts)?" + copy, key: .signingProfileInstalled)]
        }
        guard !installed.value else { return [context.pass()] }
        let name = profile.name.map { " `\($0.value)`" } ?? ""
        let searched = context.project.evidence.profileSearch
        return [context.fail(context.finding(
            "the provisioning profile\(name) is not installed, so Xcode cannot sign the build with it",
            at: installed.location,
            help: committed.map { "double-click the committed copy `\($0)` to install it (or download it in Xcode → Settings → Accounts → Download Manual Profiles)" } ?? (searched.isEmpty
                ? "download it in Xcode → Settings → Accounts → Download Manual Profiles (or double-click the .mobileprovision), then set `installed: true`"
                : "download it in Xcode → Settings → Accounts → Download Manual Profiles (or double-click the .mobileprovision)"),
            notes: searched.isEmpty ? [] : ["looked for it in " + searched.map { "`\($0)`" }.joined(separator: " and ")]))]
    }
}
