import Formats
import Model
import Loaders
import RuleEngine

/// The minimum OS the build was made for, against the StoreKit API the app calls: a build whose
/// `MinimumOSVersion` is below StoreKit 2's first OS requests no products there when it uses
/// StoreKit 2 alone, whatever the project's deployment target says.
struct BuildMinimumOSRule: Rule {
    let id = RuleID.buildMinimumOsTooLow.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        // StoreKit 1, or both, runs on every OS a build supports; unknown is the
        // deployment-target rule's question.
        guard context.project.app.storeKitAPI?.value == .storekit2 else { return [] }
        var outcomes: [Outcome] = []
        for built in context.project.builtApps {
            guard let minimumOS = built.minimumOS else { continue }
            // Adopted as the project's deployment target: `deployment-target-too-low` judges it.
            if context.project.app.deploymentTarget?.location == minimumOS.location { continue }
            let platform = built.platform ?? context.project.app.platform?.value ?? .ios
            let needed = platform.storeKit2Minimum
            let uses = context.project.evidence.storeKit2Uses
            // Every scanned StoreKit 2 use behind an availability check never runs on older systems.
            let guarded = !uses.isEmpty && uses.allSatisfy { DeploymentTargetRule.isChecked($0, on: platform, minimum: needed) }
            guard compareVersions(minimumOS.value, needed) < 0, !guarded else {
                outcomes.append(context.pass())
                continue
            }
            var notes: [String] = []
            var related: [RelatedSpan] = []
            if let stated = context.project.app.deploymentTarget, stated.value != minimumOS.value {
                let note = "the project says \(platform.displayName) \(stated.value) at \(stated.location); the build was made for \(minimumOS.value)"
                notes.append(note)
                related.append(RelatedSpan(stated.location, label: "the project says \(stated.value)", note: note))
            }
            outcomes.append(context.fail(context.finding(
                "the build runs on \(platform.displayName) \(minimumOS.value) and later, but StoreKit 2's `Product.products(for:)` needs \(platform.displayName) \(needed); on older systems it requests no products",
                at: minimumOS.location,
                help: "raise the deployment target to \(needed) in the build settings CI uses (`IPHONEOS_DEPLOYMENT_TARGET`, `MACOSX_DEPLOYMENT_TARGET`), or add a StoreKit 1 path for older systems",
                notes: notes, related: related)))
        }
        return outcomes
    }
}
