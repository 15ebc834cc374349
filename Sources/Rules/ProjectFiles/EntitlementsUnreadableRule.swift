import Formats
import Model
import Loaders
import RuleEngine

/// The `.entitlements` file the target signs with (`CODE_SIGN_ENTITLEMENTS`) cannot be read as a
/// property list: Xcode reads it when it signs the app. In-App Purchase needs no entitlement, so
/// this is a warning beside the checklist, not a reason to stop it.
struct EntitlementsUnreadableRule: Rule {
    let id = RuleID.entitlementsUnreadable.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let (problem, named) = context.project.evidence.entitlementsProblem else {
            return context.project.app.entitlements == nil ? [context.notApplicable("no entitlements file is named")] : [context.pass()]
        }
        let name = Paths.fileName(of: named.value)
        let note = "the file is named at \(named.location)"
        // The property list reader says "the entitlements file is not valid XML: …".
        let prefix = "the entitlements file "
        let message = problem.message.hasPrefix(prefix)
            ? "the entitlements file `\(name)` " + problem.message.dropFirst(prefix.count)
            : "the entitlements file `\(name)` cannot be read: \(problem.message)"
        return [context.fail(context.finding(
            message,
            at: problem.location ?? named.location,
            help: "write it as a property list (one with no entitlements is `<plist version=\"1.0\"><dict/></plist>`), or clear `CODE_SIGN_ENTITLEMENTS` if the app needs none",
            notes: [note, "In-App Purchase needs no entitlement: the rest of the check does not depend on this file"],
            related: [RelatedSpan(named.location, label: "named here", note: note)]))]
    }
}
