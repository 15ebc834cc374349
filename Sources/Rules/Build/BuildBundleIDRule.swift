import Formats
import Model
import Loaders
import RuleEngine

/// The bundle ID a build has, against the one the project says: the build is what StoreKit sees.
struct BuildBundleIDRule: Rule {
    let id = RuleID.buildBundleIdMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var outcomes: [Outcome] = []
        for built in context.project.builtApps {
            let what = ["archive": "the archive", "app": "the app", "ipa": "the .ipa"][built.kind.rawValue] ?? "the build"
            guard let builtID = built.bundleID else {
                outcomes.append(context.fail(context.finding(
                    "\(what) `\(Paths.shown(built.path))` has no `CFBundleIdentifier` in its Info.plist", at: SourceLocation(file: built.infoPlist),
                    help: "build the app again; Xcode writes the bundle ID from `PRODUCT_BUNDLE_IDENTIFIER`")))
                continue
            }
            guard let stated = context.project.app.bundleID else {
                outcomes.append(context.unknown(
                    "\(what) was built as `\(builtID.value)`: is that the bundle ID of the app record that holds the products?",
                    key: .appBundleID))
                continue
            }
            guard builtID.value != stated.value else {
                outcomes.append(context.pass())
                continue
            }
            let running = context.project.evidence.runningBundleID
            let isRunningBuild = context.project.runningBuild?.path == built.path
            // The source tree builds the same wrong ID: running-bundle-id-mismatch reports it at
            // the line to change, and says the build confirms it.
            if isRunningBuild, running?.value == builtID.value { continue }
            var notes: [String] = []
            var related: [RelatedSpan] = []
            if let running, running.value != builtID.value {
                let note = "the source tree builds `\(running.value)` (\(running.location)); the build was made with another value"
                notes.append(note)
                related.append(RelatedSpan(running.location, label: "the source tree builds `\(running.value)`", note: note))
            } else if running == nil, let reason = context.project.evidence.unresolvedReason("PRODUCT_BUNDLE_IDENTIFIER") {
                notes.append("the source tree leaves the bundle ID open (\(reason)); the build answers it")
            }
            if let archived = built.archive?.bundleID, archived.value != builtID.value {
                notes.append("the archive's own Info.plist says `\(archived.value)`")
            }
            if builtID.value.lowercased() == stated.value.lowercased() {
                notes.append("they differ only in case, and bundle IDs are compared exactly")
            } else if builtID.value.hasPrefix(stated.value + ".") {
                notes.append("`\(builtID.value.dropFirst(stated.value.count))` was appended at build time: a configuration's suffix, or a value CI passes")
            }
            outcomes.append(context.fail(context.finding(
                "\(what) was built as `\(builtID.value)`; the project says `\(stated.value)`",
                at: builtID.location, notes: notes,
                related: [RelatedSpan(stated.location, label: "the project says `\(stated.value)`", note: "the project says `\(stated.value)` at \(stated.location)")] + related)))
        }
        return outcomes
    }
}
