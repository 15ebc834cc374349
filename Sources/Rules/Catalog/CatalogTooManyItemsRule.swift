import Formats
import Model
import Loaders
import RuleEngine

/// One package may carry at most 1,000 in-app purchases (an app up to 10,000 in all).
struct CatalogTooManyItemsRule: Rule {
    let id = RuleID.catalogTooManyItems.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let maximum = OptionValue.integer(context.number("max_items", default: 1000)) ?? 1000
        return context.catalogPackages.map { package in
            guard package.items.count > maximum else { return context.pass() }
            return context.fail(context.finding(
                "the package has \(package.items.count) in-app purchases; one upload may carry at most \(maximum)",
                at: package.inAppPurchases.map { package.location(of: $0) } ?? package.rootLocation,
                help: "split the items into packages of at most \(maximum) and upload them one after another",
                notes: ["an app can have up to 10,000 in-app purchases in all"]))
        }
    }
}
