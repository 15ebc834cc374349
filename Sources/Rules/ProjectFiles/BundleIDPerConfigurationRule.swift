import Formats
import Model
import Loaders
import RuleEngine

/// Debug builds often get their own bundle ID (`….dev`); that is another app for StoreKit.
struct BundleIDPerConfigurationRule: Rule {
    let id = RuleID.bundleIdPerConfiguration.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard let running = project.evidence.runningBundleID, let configuration = project.evidence.configurationName,
            let others = project.evidence.otherConfigurationBundleIDs, !others.isEmpty
        else { return [] }
        // The debug/staging pattern: this configuration's bundle ID is another one's plus a suffix.
        let different = others.filter { running.value.hasPrefix($0.value.value + ".") }
        guard !different.isEmpty else { return [context.pass()] }
        // When the App Store Connect app is known, `running-bundle-id-mismatch` decides.
        if let bundle = project.app.bundleID?.value, bundle == running.value { return [context.pass()] }
        if project.app.bundleID != nil { return [] }
        let related = [project.evidence.infoPlistReference(for: running)].compactMap { $0 } + different.sorted { $0.key < $1.key }.map {
            RelatedSpan($0.value.location, label: "\($0.key) builds `\($0.value.value)`", note: "\($0.key) builds `\($0.value.value)` at \($0.value.location)")
        }
        let list = different.map { "\($0.key) builds `\($0.value.value)`" }.sorted().joined(separator: ", ")
        return [context.fail(context.finding(
            "the \(configuration) configuration builds `\(running.value)`, not the bundle ID of the other configurations (\(list)); products of the App Store Connect app for those are invalid in a \(configuration) build",
            at: running.location,
            help: "create the products under the app `\(running.value)` too, test with the configuration whose bundle ID owns them, or set `app.bundle_id` to the App Store Connect app's bundle ID so iapdoctor can tell",
            notes: ["staging and debug suffixes (`.dev`, `.staging`) make a separate app as far as StoreKit is concerned"] + related.compactMap(\.note),
            related: related))]
    }
}
