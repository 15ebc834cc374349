import Formats
import Model
import Loaders
import RuleEngine

/// A profile made before In-App Purchase was enabled on the App ID does not carry the capability.
struct ProfilePredatesIAPRule: Rule {
    let id = RuleID.profilePredatesIap.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard project.signing.profile.isStated, project.appID.inAppPurchase?.value != false, !project.appID.isWildcard else {
            return []
        }
        guard let created = project.signing.profile.createdAt else {
            return [context.unknown("When was the provisioning profile created (`CreationDate`)?", key: .signingProfileCreatedAt)]
        }
        guard let enabled = project.appID.inAppPurchaseEnabledAt else {
            return [context.unknown(
                "When was In-App Purchase enabled on the App ID? A profile made before that is stale.",
                key: .appIDInAppPurchaseEnabledAt)]
        }
        guard created.value < enabled.value else { return [context.pass()] }
        let note = "`app_id.in_app_purchase_enabled_at` is at \(enabled.location)"
        return [context.fail(context.finding(
            "the provisioning profile was created on \(created.value), before In-App Purchase was enabled on the App ID on \(enabled.value), so it does not carry the capability",
            at: created.location,
            help: "regenerate the provisioning profile (or let automatic signing refresh it), reinstall it, and update `signing.profile.created_at`",
            notes: [note], related: [RelatedSpan(enabled.location, label: "In-App Purchase enabled then", note: note)]))]
    }
}
