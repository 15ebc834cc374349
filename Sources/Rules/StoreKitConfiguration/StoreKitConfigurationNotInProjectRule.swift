import Formats
import Model
import Loaders
import RuleEngine

/// The scheme names a `.storekit` file that is on disk but not in the Xcode project: Xcode does
/// not find it, so a Run serves none of its products (the file was copied into the folder, or
/// removed from the project and left behind).
struct StoreKitConfigurationNotInProjectRule: Rule {
    let id = RuleID.storekitConfigurationNotInProject.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let evidence = context.project.evidence
        guard let reference = evidence.schemeUsesStoreKit else {
            return [context.notApplicable("the scheme runs no StoreKit configuration file")]
        }
        guard let outside = evidence.storeKitOutsideProject else { return [context.pass()] }
        let name = Paths.fileName(of: outside.file)
        let projectName = Paths.fileName(of: Paths.directoryName(of: outside.project))
        let appName = projectName.hasSuffix(".xcodeproj") ? String(projectName.dropLast(".xcodeproj".count)) : projectName
        let scheme = evidence.scheme.map(StoreKitConfigurationRule.schemeName) ?? "the scheme"
        let note = "no file reference in `\(projectName)` leads to `\(Paths.shown(outside.file))`, and no folder the project holds contains it"
        return [context.fail(context.finding(
            "the scheme `\(scheme)` runs with the StoreKit configuration `\(name)`, which is not in `\(projectName)`, so Xcode serves none of its products",
            at: reference.location,
            help: "add `\(name)` to the project (File → Add Files to “\(appName)”…; it needs no target), then choose it again in Edit Scheme → Run → Options → StoreKit Configuration",
            notes: [note],
            related: [RelatedSpan(SourceLocation(file: outside.project), label: "the project", note: note)]))]
    }
}
