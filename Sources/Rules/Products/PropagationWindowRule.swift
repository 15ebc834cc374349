import Formats
import Model
import Loaders
import RuleEngine

/// Changes need time to reach the store: up to an hour for the sandbox, 24–48 hours in
/// production after approval and release. Both windows are options.
struct PropagationWindowRule: Rule {
    let id = RuleID.propagationWindow.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        let production = context.environment == .production
        let hours = production
            ? context.number("production_hours", default: 48) : context.number("sandbox_hours", default: 1)
        var outcomes: [Outcome] = []
        for product in project.products {
            let id = product.productID?.value
            var changes: [(what: String, fact: Fact<Timestamp>)] = []
            if let created = product.createdAt { changes.append(("was created", created)) }
            if let updated = product.updatedAt { changes.append(("was last changed", updated)) }
            if production, let released = project.appStoreConnect.releasedAt { changes.append(("app was released", released)) }
            guard let latest = changes.max(by: { $0.fact.value < $1.fact.value }) else {
                outcomes.append(context.unknown(
                    "When was `\(product.name)` last created or changed in App Store Connect?",
                    key: project.keyPath(.updatedAt, of: product), product: id))
                continue
            }
            let ready = latest.fact.value.adding(hours: hours)
            guard context.now < ready else {
                outcomes.append(context.pass(product: id))
                continue
            }
            let elapsed = describeDuration(seconds: context.now - latest.fact.value)
            let subject = latest.what == "app was released" ? "the app was released" : "`\(product.name)` \(latest.what)"
            let place = production ? "the App Store" : "the \(context.environment.rawValue) environment"
            outcomes.append(context.fail(context.finding(
                "\(subject) \(elapsed) before this check, and changes take up to \(hours == 1 ? "1 hour" : "\(OptionValue.number(hours)) hours") to reach \(place)",
                at: latest.fact.location,
                help: "wait until \(ready) and try again; nothing needs to change",
                notes: production
                    ? ["after approval and release, products reach storefronts one by one over 24–48 hours (TN3188)"]
                    : ["App Store Connect changes take up to an hour to reach the sandbox (TN3186)"],
                product: id)))
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }
}
