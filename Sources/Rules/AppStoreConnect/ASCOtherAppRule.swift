import Formats
import Model
import Loaders
import RuleEngine

/// A snapshot pulled for another bundle ID says nothing about this app's record or products;
/// comparing them would be wrong, and the two IDs differing is often the very mistake.
struct ASCOtherAppRule: Rule {
    let id = RuleID.ascSnapshotOtherApp.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot else { return [] }
        guard let other = facts.otherApp, let ours = facts.bundleID else { return [context.pass()] }
        let bundle = context.project.app.bundleID?.location ?? context.project.evidence.runningBundleID?.location
        return [context.fail(context.finding(
            "the App Store Connect snapshot is of `\(other.value)`, but this app's bundle ID is `\(ours)`",
            at: other.location,
            help: "pull the snapshot for this app (`iapdoctor asc pull --bundle-id \(ours)`), or, if `\(other.value)` is the App Store Connect app, give the app that bundle ID",
            notes: ["the snapshot's app record, App ID and products are not used for this app"]
                + (bundle.map { ["the app's bundle ID is stated at \($0)"] } ?? [])))]
    }
}
