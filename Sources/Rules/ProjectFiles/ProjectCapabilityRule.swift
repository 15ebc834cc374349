import Formats
import Model
import Loaders
import RuleEngine

/// Older Xcode records the In-App Purchase capability in project.pbxproj
/// (`TargetAttributes → SystemCapabilities → com.apple.InAppPurchase = { enabled = 0/1; }`);
/// an explicit `enabled = 0` means the capability was switched off in Xcode.
struct ProjectCapabilityRule: Rule {
    let id = RuleID.iapCapabilityOffInProject.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let capability = context.project.evidence.hasInAppPurchaseCapability else { return [] }
        guard !capability.value else { return [context.pass()] }
        let target = context.project.evidence.targetName.map { " of target `\($0)`" } ?? ""
        return [context.fail(context.finding(
            "the In-App Purchase capability\(target) is switched off in the Xcode project (`com.apple.InAppPurchase` has `enabled = 0`)",
            at: capability.location,
            help: "turn on In-App Purchase in Xcode → target → Signing & Capabilities, and let Xcode regenerate the profile"))]
    }
}
