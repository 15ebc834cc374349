import Formats
import Model
import Loaders
import RuleEngine

/// The bundle ID the build actually runs with (Info.plist expanded with the configuration's build
/// settings) must be the App Store Connect app's: StoreKit looks products up under it.
struct RunningBundleIDRule: Rule {
    let id = RuleID.runningBundleIdMismatch.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard let running = project.evidence.runningBundleID else {
            guard project.app.infoPlist != nil || project.app.xcodeproj != nil else { return [] }
            // The build that runs in this environment answers the question (build-bundle-id-mismatch).
            if project.runningBuild?.bundleID != nil { return [] }
            if let empty = project.evidence.emptySettings["PRODUCT_BUNDLE_IDENTIFIER"] {
                let what = empty.source == .infoPlist
                    ? "Info.plist's `CFBundleIdentifier` is empty (\(empty.location))"
                    : "`PRODUCT_BUNDLE_IDENTIFIER`" + (project.evidence.configurationName.map { " of the \($0) configuration" } ?? "") + " is empty (\(empty.location))"
                return [context.unknown(
                    "Which bundle ID does the failing build run with? \(what); Xcode builds no app without one, so the build must get it elsewhere (a build command's `PRODUCT_BUNDLE_IDENTIFIER=…`, a CI script).",
                    key: .appBundleID)]
            }
            if let reason = project.evidence.unresolvedReason("PRODUCT_BUNDLE_IDENTIFIER") {
                return [context.unknown("Which bundle ID does the failing build run with? \(reason).", key: .appXcodeproj)]
            }
            if !project.evidence.targetCandidates.isEmpty {
                return [context.unknown(
                    "Which target is the app? \(project.evidence.targetChoice ?? "several application targets"): \(project.evidence.targetCandidates.joined(separator: "; ")).",
                    key: .appTarget)]
            }
            return [context.unknown(
                "Which bundle ID does the failing build run with (`PRODUCT_BUNDLE_IDENTIFIER` of the configuration)?",
                key: .appXcodeproj)]
        }
        guard let expected = project.app.bundleID ?? project.appID.bundlePart.flatMap({ $0.value.hasSuffix("*") ? nil : $0 }) else {
            return []
        }
        let settingNotes = project.evidence.settingNotes("PRODUCT_BUNDLE_IDENTIFIER")
        guard running.value != expected.value else {
            guard !settingNotes.isEmpty else { return [context.pass()] }
            var note = context.finding(
                "the build runs as `\(running.value)`, the bundle ID stated at \(expected.location), read through the project's settings as Xcode reads them", at: running.location,
                help: "nothing to change; the notes say how the value was read", notes: settingNotes)
            note.severity = .note
            return [context.passWithNotes([note])]
        }
        let stated = "`\(expected.value)` is stated at \(expected.location)"
        var notes = [stated] + settingNotes
        if let configuration = project.evidence.configurationName, let target = project.evidence.targetName {
            notes.insert("the \(configuration) configuration of target `\(target)` builds `\(running.value)`", at: 0)
        }
        if running.value.lowercased() == expected.value.lowercased() {
            notes.append("they differ only in letter case, and bundle IDs are case-sensitive")
        }
        var related = [RelatedSpan(expected.location, label: "the App Store Connect app's bundle ID", note: stated)]
        if let built = project.runningBuild, let builtID = built.bundleID, builtID.value == running.value {
            let note = "the build `\(Paths.shown(built.path))` was built as `\(builtID.value)` too"
            notes.append(note)
            related.append(RelatedSpan(builtID.location, label: "the build's bundle ID", note: note))
        }
        if let reference = project.evidence.infoPlistReference(for: running) {
            notes += [reference.note].compactMap { $0 }
            related.append(reference)
        }
        return [context.fail(context.finding(
            "the app runs as `\(running.value)`, but the products belong to the App Store Connect app `\(expected.value)`",
            at: running.location,
            help: project.evidence.configurationName.map {
                "build with the configuration whose bundle ID is `\(expected.value)`, or set `PRODUCT_BUNDLE_IDENTIFIER` of \($0) to `\(expected.value)` (or create the products under `\(running.value)`)"
            } ?? "set `CFBundleIdentifier` to `\(expected.value)`, or create the products under the app `\(running.value)`",
            notes: notes, related: related))]
    }
}
