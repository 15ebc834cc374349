import IAPDoctor

/// At least one localization with a display name is part of the sandbox minimum.
struct MissingLocalizationRule: Rule {
    let id = RuleID.missingLocalization.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.project.products.map { product in
            let id = product.productID?.value
            guard let localizations = product.localizations else {
                if product.store != nil {
                    return context.unknown(
                        "Does `\(product.name)` have a localization with a display name in App Store Connect? (the snapshot does not include its localizations)",
                        key: context.project.keyPath(.localizations, of: product), product: id)
                }
                return context.fail(context.finding(
                    "product `\(product.name)` has no localization, and a product needs at least one (with a display name) to load, even in the sandbox",
                    at: product.anchor,
                    help: "add a localization in App Store Connect and to this product: `localizations: { en-US: { display_name: …, description: … } }`",
                    product: id))
            }
            if localizations.value.isEmpty, product.store != nil {
                return context.fail(context.finding(
                    "product `\(product.name)` has no localization in App Store Connect; it needs at least one with a display name to load, even in the sandbox",
                    at: localizations.location,
                    help: "add a localization (display name and description) to the product in App Store Connect, then pull the snapshot again", product: id))
            }
            if localizations.value.isEmpty {
                return context.fail(context.finding(
                    "product `\(product.name)` has an empty `localizations`; it needs at least one with a display name",
                    at: localizations.location,
                    help: "add `en-US: { display_name: …, description: … }` (and the same in App Store Connect)", product: id))
            }
            if let unnamed = localizations.value.first(where: { $0.displayName == nil }) {
                return context.fail(context.finding(
                    "the `\(unnamed.locale.value)` localization of `\(product.name)` has no display name",
                    at: unnamed.locale.location,
                    help: "add `display_name` to the `\(unnamed.locale.value)` localization (2 to 30 characters)", product: id))
            }
            return context.pass(product: id)
        }
    }
}
