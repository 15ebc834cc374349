import Formats
import Model
import Loaders
import RuleEngine

/// The In-App Purchase capability must be enabled on the (explicit) App ID.
struct IAPCapabilityRule: Rule {
    let id = RuleID.iapCapabilityDisabled.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        // A wildcard App ID cannot have the capability at all; `wildcard-app-id` says so once.
        if context.project.appID.isWildcard { return [] }
        guard let enabled = context.project.appID.inAppPurchase else {
            return [context.unknown(
                "Is In-App Purchase enabled for the App ID in Certificates, Identifiers & Profiles?",
                key: .appIDInAppPurchase)]
        }
        guard !enabled.value else { return [context.pass()] }
        let appID = context.project.appID.identifier.map { " `\($0.value)`" } ?? ""
        return [context.fail(context.finding(
            "In-App Purchase is not enabled for the App ID\(appID)",
            at: enabled.location,
            help: "enable In-App Purchase for the App ID in Certificates, Identifiers & Profiles (or Xcode → Signing & Capabilities), regenerate the provisioning profile, and \(enabled.recordFix("set `in_app_purchase: true` and `in_app_purchase_enabled_at`"))"))]
    }
}
