import Formats
import Model
import Loaders
import RuleEngine

/// Tax forms must be active in App Store Connect before paid products load.
struct TaxRule: Rule {
    let id = RuleID.taxInactive.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let tax = context.project.account.tax else {
            return [context.unknown("Are the tax forms in App Store Connect → Business active?", key: .developerAccountTax)]
        }
        guard tax.value != .active else { return [context.pass()] }
        let help = tax.value == .processing
            ? "wait until App Store Connect → Business shows the tax forms as active, then set `tax: active`"
            : "complete the tax forms (at least the U.S. form) in App Store Connect → Business, then set `tax: active` once they show active"
        return [context.fail(context.finding(
            "tax is `\(tax.value.rawValue)`, not `active`, so StoreKit returns no paid products",
            at: tax.location, help: help))]
    }
}
