import Formats
import Model
import Loaders
import RuleEngine

/// The SDK is configured with text that stands where a key goes (`appl_YOUR_KEY_HERE`,
/// `<revenuecat_api_key>`): RevenueCat refuses the requests, and no offering is fetched.
struct RevenueCatPlaceholderKeyRule: Rule {
    let id = RuleID.revenuecatPlaceholderKey.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let keys = context.revenueCat.keys
        guard !keys.isEmpty else { return [] }
        let placeholders = keys.filter { $0.value.map(RevenueCatKeyKind.init) == .placeholder }
        guard !placeholders.isEmpty else { return [context.pass()] }
        return placeholders.map { use in
            context.fail(context.finding(
                "`\(use.api)` is given `\(use.value ?? "")`, a placeholder where the App Store app's public key (`appl_…`) goes",
                at: use.location,
                notes: [
                    "RevenueCat refuses requests made with a key it does not know (the SDK logs an invalid-credentials error), so no offering and no product is fetched",
                ] + (use.location == use.call ? [] : ["the SDK is configured at \(use.call)"])))
        }
    }
}
