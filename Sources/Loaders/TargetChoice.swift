import Formats
import Model

/// Which target of an Xcode project is the app the products belong to. Never a guess: the
/// descriptor's `app.target`, else the target the scheme's Run action launches, else the one
/// application target (or the one with the descriptor's bundle ID); otherwise the candidates go
/// back to the user as a question. Extension, widget, watch and test targets are never taken for
/// the app while an iOS, macOS, tvOS or visionOS application target exists.
public enum TargetChoice {
    case chosen(XcodeProject.Target, reason: String)
    /// `app.target` names no target; the application targets, described.
    case unknownName(Fact<String>, candidates: [String])
    /// Several application targets and nothing to choose between them; each described.
    case ambiguous(candidates: [String], reason: String)

    public static func choose(
        in project: XcodeProject, named: Fact<String>?, scheme: XcodeScheme?, bundleID: String?, configuration: String
    ) -> TargetChoice {
        let candidates = mainApplicationTargets(of: project)
        let described = describe(candidates, in: project, configuration: configuration)
        if let named {
            guard let target = project.target(named: named.value) else { return .unknownName(named, candidates: described) }
            return .chosen(target, reason: "`app.target` names it")
        }
        if let scheme, let reference = scheme.runTarget,
           let target = project.targets.first(where: { $0.id == reference.identifier }) ?? project.target(named: reference.name),
           target.isApplication
        {
            let schemeName = scheme.file.split(separator: "/").last.map { String($0.dropLast(".xcscheme".count)) } ?? scheme.file
            return .chosen(target, reason: "the scheme `\(schemeName)` runs it")
        }
        if let bundleID, !bundleID.isEmpty {
            let matches = project.applicationTargets.filter { project.bundleIdentifier(target: $0, configuration: configuration)?.value == bundleID }
            if matches.count == 1, let only = matches.first {
                return .chosen(only, reason: "its `PRODUCT_BUNDLE_IDENTIFIER` in \(configuration) is `\(bundleID)`")
            }
            // The shipping bundle ID while diagnosing Debug (`.dev`): found through the other configuration, and said so.
            let elsewhere = project.applicationTargets.compactMap { target -> (XcodeProject.Target, String)? in
                target.configurationNames.first { project.bundleIdentifier(target: target, configuration: $0)?.value == bundleID }.map { (target, $0) }
            }
            if matches.isEmpty, elsewhere.count == 1, let (target, other) = elsewhere.first {
                let here = project.bundleIdentifier(target: target, configuration: configuration)?.value
                let contrast = here.map { "; in \(configuration) it is `\($0)`" } ?? ""
                return .chosen(target, reason: "its `PRODUCT_BUNDLE_IDENTIFIER` in the \(other) configuration is `\(bundleID)`\(contrast)")
            }
        }
        if candidates.count == 1, let only = candidates.first {
            return .chosen(only, reason: "it is the only application target")
        }
        if candidates.isEmpty, project.applicationTargets.count == 1, let only = project.applicationTargets.first {
            return .chosen(only, reason: "it is the only application target")
        }
        let reason = candidates.isEmpty
            ? "the project has no application target"
            : "the project has \(candidates.count) application targets and no scheme or `app.target` says which one is the app"
        return .ambiguous(candidates: described.isEmpty ? describe(project.applicationTargets, in: project, configuration: configuration) : described,
                          reason: reason)
    }

    /// Candidates listed in a question: past this many, the rest are counted.
    static let maxListed = 20

    /// Each target described, the first ``maxListed``, then how many more there are.
    static func describe(_ targets: [XcodeProject.Target], in project: XcodeProject, configuration: String) -> [String] {
        let listed = targets.prefix(maxListed).map { describe($0, in: project, configuration: configuration) }
        return targets.count > maxListed ? listed + ["and \(targets.count - maxListed) more application targets"] : listed
    }

    /// Application targets that can be the app the products belong to: not watch apps, App Clips
    /// or iMessage apps (their own product types or a watchOS SDK).
    public static func mainApplicationTargets(of project: XcodeProject) -> [XcodeProject.Target] {
        project.applicationTargets.filter { target in
            guard target.productType?.value == XcodeProject.applicationProductType else { return false }
            let sdk = target.configurations.lazy.compactMap { project.settings(target: target, configuration: $0.name).value(XcodeProject.SettingKey.sdkRoot)?.value }.first
            return sdk.flatMap { Platform(sdkFamily: $0) } != .watchos
        }
    }

    /// "`Name` (bundle ID `com.x`, iOS)".
    public static func describe(_ target: XcodeProject.Target, in project: XcodeProject, configuration: String) -> String {
        let settings = project.settings(target: target, configuration: configuration)
        var parts: [String] = []
        if let bundle = settings.value(XcodeProject.SettingKey.productBundleIdentifier)?.value {
            parts.append(BuildSettings.isResolved(bundle) ? "bundle ID `\(bundle)`" : "bundle ID not resolvable from the files")
        }
        if let platform = platformName(settings) { parts.append(platform) }
        return "`\(target.name)`" + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
    }

    /// The platform a target's SDK belongs to, by name; a simulator SDK counts as its platform.
    static func platformName(_ settings: BuildSettings) -> String? {
        Platform(sdkFamily: settings.sdk ?? "")?.displayName
    }
}
