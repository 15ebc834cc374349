import Formats
import Model
import Loaders
import RuleEngine

/// The SDK configured with a secret API key (or an OAuth token): made for servers, it gives
/// whoever has the app write access to the RevenueCat project, and the SDK does not take it as an
/// App Store key. The value is never shown; every output masks it where it quotes the line.
struct RevenueCatSecretKeyRule: Rule {
    let id = RuleID.revenuecatSecretKey.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let keys = context.revenueCat.keys
        guard !keys.isEmpty else { return [] }
        let secret = keys.filter { $0.value.map(RevenueCatKeyKind.init) == .secret }
        guard !secret.isEmpty else { return [context.pass()] }
        return secret.map { use in
            context.fail(context.finding(
                "`\(use.api)` is given a RevenueCat secret API key, which is for servers only",
                at: use.location,
                notes: [
                    "the value is not shown; anyone who has the app can read it and change the RevenueCat project with it",
                    "the SDK takes only a public key: it rejects this one (\"key is not recognized\"), and no offering loads",
                ] + (use.location == use.call ? [] : ["the SDK is configured at \(use.call)"]),
                secret: use.value))
        }
    }
}
