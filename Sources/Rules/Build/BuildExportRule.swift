import Formats
import Model
import Loaders
import RuleEngine

/// An `.ipa` is signed as it will be installed: one exported for development, ad hoc or
/// enterprise distribution is refused by TestFlight, App Review and the App Store.
struct BuildExportRule: Rule {
    let id = RuleID.buildExportedForDevelopment.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var outcomes: [Outcome] = []
        for built in context.project.builtApps where built.kind == .ipa {
            let help = "export the archive again for the App Store: Organizer → Distribute App → App Store Connect, or `xcodebuild -exportArchive` with `method` `app-store-connect` in the export options"
            guard let profile = built.profile else {
                outcomes.append(context.fail(context.finding(
                    "the .ipa has no embedded provisioning profile, so it was not exported for the App Store, the only export TestFlight and App Review accept",
                    at: SourceLocation(file: built.path), help: help)))
                continue
            }
            guard profile.type != .appStore else {
                outcomes.append(context.pass())
                continue
            }
            let kind = ["development": "development", "adHoc": "ad hoc", "enterprise": "enterprise (in-house)"]["\(profile.type)"] ?? profile.type.rawValue
            var notes: [String] = []
            if let name = profile.name?.value { notes.append("the embedded profile is `\(name)`") }
            if profile.type == .development || profile.type == .adHoc {
                notes.append("such a build runs only on the devices its profile lists; its In-App Purchases use the sandbox")
            }
            outcomes.append(context.fail(context.finding(
                "the .ipa is exported for \(kind) distribution; TestFlight, App Review and the App Store accept only an App Store export",
                at: profile.applicationIdentifier?.location ?? SourceLocation(file: profile.file), help: help, notes: notes)))
        }
        return outcomes
    }
}
