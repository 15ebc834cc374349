import Formats
import Model
import Loaders
import RuleEngine

/// The bundle ID the app runs with must equal the App ID (minus its team prefix), exactly and
/// case-sensitively: StoreKit looks products up under the running bundle ID.
struct BundleIDMismatchRule: Rule {
    let id = RuleID.bundleIdMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard let bundle = project.app.bundleID else {
            return [context.unknown("What is the bundle ID of the App Store Connect app record?", key: .appBundleID)]
        }
        guard let appID = project.appID.bundlePart, let identifier = project.appID.identifier else {
            return [context.unknown(
                "What is the App ID's identifier in Certificates, Identifiers & Profiles?", key: .appIDIdentifier)]
        }
        if appID.value.hasSuffix("*") {
            // A wildcard covers the bundle ID when its prefix does; `wildcard-app-id` reports the wildcard itself.
            let prefix = String(appID.value.dropLast())
            if prefix.isEmpty || bundle.value.hasPrefix(prefix) { return [context.pass()] }
            let note = "`app.bundle_id` is `\(bundle.value)` at \(bundle.location)"
            return [context.fail(context.finding(
                "bundle ID `\(bundle.value)` does not fall under the wildcard App ID `\(identifier.value)`",
                at: identifier.location,
                help: "register the explicit App ID `\(project.appID.teamPrefix ?? "TEAMID").\(bundle.value)` and set `app_id.identifier` to it",
                notes: [note], related: [RelatedSpan(bundle.location, label: "the bundle ID", note: note)]))]
        }
        guard appID.value != bundle.value else { return [context.pass()] }
        var notes = ["`app.bundle_id` is `\(bundle.value)` at \(bundle.location); the App ID without its team prefix is `\(appID.value)`"]
        if appID.value.lowercased() == bundle.value.lowercased() {
            notes.append("they differ only in letter case, and bundle IDs are case-sensitive")
        }
        return [context.fail(context.finding(
            "the App ID `\(identifier.value)` does not match the bundle ID `\(bundle.value)`",
            at: identifier.location,
            help: "use the App ID `\(project.appID.teamPrefix ?? "TEAMID").\(bundle.value)` (register it if needed), or change the bundle ID to `\(appID.value)` if that is the app the products belong to",
            // The note also says what the App ID comes to, so it stays when the span is drawn.
            notes: notes, related: [RelatedSpan(bundle.location, label: "the bundle ID")]))]
    }
}
