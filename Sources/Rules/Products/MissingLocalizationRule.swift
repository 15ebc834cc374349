import Formats
import Model
import Loaders
import RuleEngine

/// At least one localization with a display name is part of the sandbox minimum.
///
/// App Store Connect's state outranks the localizations read: a product it reports past Missing
/// Metadata has one, so there a list without a named localization is at most a warning.
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
            let unnamed = localizations.value.first { $0.displayName == nil }
            if let state = product.store?.metadataComplete, localizations.value.isEmpty || unnamed != nil {
                return complete(product, state: state, localizations: localizations, unnamed: unnamed, in: context)
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
            if let unnamed {
                return context.fail(context.finding(
                    "the `\(unnamed.locale.value)` localization of `\(product.name)` has no display name",
                    at: unnamed.locale.location,
                    help: "add `display_name` to the `\(unnamed.locale.value)` localization (2 to 30 characters)", product: id))
            }
            return context.pass(product: id)
        }
    }

    /// App Store Connect reports the product complete (`state`), which it does only with a named
    /// localization: the snapshot's list (or a stale descriptor's) is what is short. A warning.
    private func complete(
        _ product: Product, state: Fact<String>, localizations: Fact<[Localization]>, unnamed: Localization?, in context: RuleContext
    ) -> Outcome {
        let shownBy = localizations.source == .appStoreConnect ? "the snapshot" : "the descriptor"
        let gap = unnamed.map { "the `\($0.locale.value)` localization of `\(product.name)` has no display name in \(shownBy)" }
            ?? "\(shownBy) shows no localization for `\(product.name)`"
        let finding = context.finding(
            "\(gap), although App Store Connect reports it \(StoreRecord.displayName(ofState: state.value)) (metadata complete): \(shownBy) may be partial or out of date",
            at: unnamed?.locale.location ?? localizations.location,
            help: "check the product's localizations in App Store Connect: if one with a display name is there, \(localizations.recordFix("add it under this product's `localizations` (`en-US: { display_name: … }`)")); if not, add one (a product needs it to load, even in the sandbox)",
            product: product.productID?.value)
        return context.fail(finding.deferring(to: state), product: product.productID?.value)
    }
}
