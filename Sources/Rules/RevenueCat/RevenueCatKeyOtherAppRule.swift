import Formats
import Model
import Loaders
import RuleEngine

/// The code's App Store key is not a public key of this build's RevenueCat app: another app's (the
/// Android one, a second iOS app) or another project's. RevenueCat answers with the offerings of
/// the app the key belongs to.
struct RevenueCatKeyOtherAppRule: Rule {
    let id = RuleID.revenuecatKeyOtherApp.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let (snapshot, app): (RevenueCatSnapshot, RevenueCatSnapshot.App)
        switch context.revenueCatApp() {
        case .settled(let outcomes): return outcomes
        case .judged(let s, let a): (snapshot, app) = (s, a)
        }
        let keys = context.revenueCat.keys.filter { $0.value.map(RevenueCatKeyKind.init).map { $0 == .apple || $0 == .legacy } ?? false }
        if let unread = context.revenueCat.keys.first(where: { $0.value == nil }), keys.isEmpty {
            return [context.unknown(
                "Which public key does `\(unread.api)` at \(unread.location) get (the code passes `\(unread.written)`)? It must be one of \(app.shown)'s: \(app.keys.map { "`\($0.key.value)`" }.joined(separator: ", "))",
                key: .revenuecatPublicAPIKey)]
        }
        guard !keys.isEmpty else {
            return [context.notApplicable("the code configures no App Store key")]
        }
        if let missing = snapshot.unavailable.first(where: { $0.path.contains("public_api_keys") }) {
            return [context.unknown("The snapshot lists the apps' public API keys as unavailable (\(missing.path)): is the code's key one of \(app.shown)'s? Read them with a key that has `project_configuration:apps:read`", key: .revenuecatSnapshot)]
        }
        let ours = app.keys.map(\.key.value)
        var outcomes: [Outcome] = []
        for use in keys {
            guard let value = use.value, !ours.contains(value) else { continue }
            let help = ours.isEmpty
                ? "create a public API key for \(app.shown) in RevenueCat (Project settings → API keys) and configure the SDK with it"
                : "configure the SDK with \(app.shown)'s public key `\(ours[0])`"
            let message: String
            var related: [RelatedSpan] = []
            if let owner = snapshot.apps.first(where: { $0.keys.contains { $0.key.value == value } }) {
                message = "`\(use.api)` is given the public key of \(owner.shown), not of this build's app \(app.shown)"
                if let key = owner.keys.first(where: { $0.key.value == value }) { related.append(RelatedSpan(key.key.location, label: "that app's key")) }
            } else {
                let project = snapshot.projectName.map { "`\($0)`" } ?? "of the snapshot"
                message = "`\(use.api)` is given `\(value)`, which is no public key of the RevenueCat project \(project)"
            }
            outcomes.append(context.fail(context.finding(
                message, at: use.location, help: help,
                notes: ["RevenueCat answers with the offerings of the app the key belongs to; their products are not this app's, and StoreKit returns them as invalid",
                        "this build's app is \(app.shown): \(context.revenueCat.appChoice ?? "")"],
                related: related)))
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }
}
