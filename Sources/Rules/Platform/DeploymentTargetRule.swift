import Formats
import Model
import Loaders
import RuleEngine

/// StoreKit 2 (`Product.products(for:)`) exists only from iOS 15, macOS 12, tvOS 15, watchOS 8 and
/// visionOS 1: an app that uses only StoreKit 2 requests nothing on older systems. Code inside
/// `if #available(iOS 15, *)`, after `guard #available(iOS 15, *)`, or in a declaration marked
/// `@available(iOS 15, *)` never runs there, so only the scanned uses outside such checks count.
struct DeploymentTargetRule: Rule {
    let id = RuleID.deploymentTargetTooLow.rawValue
    /// Unchecked uses named one by one; the rest are counted.
    static let maxListedUses = 3

    func check(_ context: RuleContext) -> [Outcome] {
        let app = context.project.app
        // A deployment target that already has StoreKit 2 supports either API: nothing to ask.
        if let target = app.deploymentTarget, compareVersions(target.value, (app.platform?.value ?? .ios).storeKit2Minimum) >= 0 {
            return [context.pass()]
        }
        guard let api = app.storeKitAPI else {
            // A cross-platform app's plugin calls StoreKit; its version and setup choose which.
            let plugins = context.project.evidence.sources.crossPlatformLibraries
            // Libraries that call StoreKit 1 (all Objective-C and C# ones: StoreKit 2 is Swift
            // only), or fall back to it below iOS 15 (RevenueCat's): products load on every OS.
            if !plugins.isEmpty, context.project.evidence.sources.pluginsUseStoreKit1, context.project.evidence.storeKit2Uses.isEmpty {
                return [context.pass()]
            }
            let switches = context.project.evidence.sources.storeKitSwitches
            let question = plugins.isEmpty
                ? "Which StoreKit API does the code call: StoreKit 1 (`SKProductsRequest`), StoreKit 2 (`Product.products(for:)`) or both?"
                : "Which StoreKit does \(plugins.map { "`\($0)`" }.joined(separator: ", ")) call in this build: StoreKit 1, StoreKit 2 or both? The library's version and setup decide, not the app's code"
                    + (switches.isEmpty ? "." : ": " + switches.joined(separator: "; ") + ".")
            return [context.unknown(question, key: .appStoreKitAPI)]
        }
        // StoreKit 1 runs on every supported OS; with both, StoreKit 1 covers older systems.
        guard api.value == .storekit2 else { return [context.pass()] }
        guard let target = app.deploymentTarget else {
            return [context.unknown("What is the app's minimum deployment target?", key: .appDeploymentTarget)]
        }
        let platform = app.platform?.value ?? .ios
        let minimum = platform.storeKit2Minimum
        guard compareVersions(target.value, minimum) < 0 else { return [context.pass()] }
        let uses = context.project.evidence.storeKit2Uses
        // Read from the build that runs: the fix is in the build settings that made it.
        let fromBuild = target.source == .build
        let subject = fromBuild ? "the build's `MinimumOSVersion` is" : "the deployment target is"
        let raise = fromBuild
            ? "raise the deployment target to \(minimum) in the build settings the build is made with (`\(EvidenceLoader.deploymentTargetKey(platform))`)"
            : "raise the deployment target to \(minimum) (`deployment_target: \"\(minimum)\"`)"
        guard !uses.isEmpty else {
            return [context.fail(context.finding(
                "\(subject) \(platform.displayName) \(target.value), but StoreKit 2's `Product.products(for:)` needs \(platform.displayName) \(minimum); on older systems the app requests no products",
                at: target.location,
                help: "\(raise), or add a StoreKit 1 path (`SKProductsRequest`) for older systems and set `storekit_api: both`"))]
        }
        let unchecked = uses.filter { !Self.isChecked($0, on: platform, minimum: minimum) }
        // Every use sits behind an availability check: older systems never reach StoreKit 2.
        guard !unchecked.isEmpty else { return [context.pass()] }
        let check = "if #available(\(platform.availabilityName) \(minimum), *)"
        var notes: [String] = []
        var related: [RelatedSpan] = []
        for use in unchecked.prefix(Self.maxListedUses) {
            let why = use.guardedMinimum(on: platform).map {
                "its availability check asks only for \(platform.availabilityName) \($0)"
            } ?? "it is not inside `\(check)`"
            let note = "`\(use.api)` at \(use.location) runs on \(platform.displayName) \(target.value) too: \(why)"
            notes.append(note)
            related.append(RelatedSpan(use.location, label: "runs on \(platform.displayName) \(target.value) too", note: note))
        }
        if unchecked.count > Self.maxListedUses {
            notes.append("and \(unchecked.count - Self.maxListedUses) more StoreKit 2 use\(unchecked.count - Self.maxListedUses == 1 ? "" : "s") outside `\(check)`")
        }
        let count = unchecked.count == 1 ? "1 StoreKit 2 use runs" : "\(unchecked.count) StoreKit 2 uses run"
        return [context.fail(context.finding(
            "\(subject) \(platform.displayName) \(target.value), but StoreKit 2 needs \(platform.displayName) \(minimum), and \(count) on older systems too: there the app requests no products",
            at: target.location,
            help: "\(raise), or put each StoreKit 2 use inside `\(check) { … }` (or mark its function `@available(\(platform.availabilityName) \(minimum), *)`)",
            notes: notes, related: related))]
    }

    /// The use runs only where StoreKit 2 exists on `platform`.
    static func isChecked(_ use: Evidence.StoreKit2Use, on platform: Platform, minimum: String) -> Bool {
        if use.isUnavailable(on: platform) { return true }
        guard let guarded = use.guardedMinimum(on: platform) else { return false }
        return compareVersions(guarded, minimum) >= 0
    }
}
