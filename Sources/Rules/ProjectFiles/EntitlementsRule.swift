import Formats
import Model
import Loaders
import RuleEngine

/// In-App Purchase needs no entitlement. `com.apple.developer.in-app-payments` is Apple Pay (it
/// takes merchant IDs) and `com.apple.developer.in-app-purchase` does not exist; either, added
/// "for IAP", breaks signing.
struct EntitlementsRule: Rule {
    let id = RuleID.wrongIapEntitlement.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let evidence = context.project.evidence
        guard evidence.entitlementsFile != nil else { return [] }
        var findings: [Finding] = []
        for key in evidence.entitlementKeys {
            switch key.value {
            case "com.apple.developer.in-app-purchase", "com.apple.InAppPurchase", "com.apple.developer.storekit":
                findings.append(context.finding(
                    "`\(key.value)` is not an entitlement Apple knows; In-App Purchase needs no entitlement",
                    at: key.location,
                    help: "remove the `\(key.value)` key; enable In-App Purchase on the App ID (Signing & Capabilities) instead",
                    notes: ["an unknown entitlement makes the provisioning profile fail to match, so the build cannot be signed"]))
            case "com.apple.developer.in-app-payments":
                findings.append(context.finding(
                    "`com.apple.developer.in-app-payments` is the Apple Pay entitlement (merchant IDs), not In-App Purchase",
                    at: key.location,
                    help: "remove it unless the app takes Apple Pay with a merchant ID; In-App Purchase needs no entitlement",
                    notes: ["with no Apple Pay merchant ID on the App ID, this key makes signing fail"]))
            default:
                continue
            }
        }
        return context.outcomes(findings)
    }
}
