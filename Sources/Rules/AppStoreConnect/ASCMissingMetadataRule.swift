import Formats
import Model
import Loaders
import RuleEngine

/// App Store Connect says "Missing Metadata" and never why. The snapshot shows what is there, so
/// name what is missing the way a reviewer would: localization, price, review screenshot,
/// availability, the subscription group's localization, prices in every territory.
struct ASCMissingMetadataRule: Rule {
    let id = RuleID.ascMissingMetadata.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard context.project.ascSnapshot != nil else { return [] }
        return context.project.products.compactMap { product -> Outcome? in
            guard let record = product.store else { return nil }
            let id = product.productID?.value
            guard let state = record.state, state.value == "MISSING_METADATA" else { return context.pass(product: id) }
            let (missing, unknown) = Self.whatIsMissing(product, record, in: context.project)
            var notes: [String] = []
            if !unknown.isEmpty { notes.append("the snapshot does not show \(unknown.joined(separator: ", ")), so those may be missing too") }
            let explanation = missing.isEmpty
                ? "the snapshot shows nothing missing" + (product.type?.value == .autoRenewable
                    ? "; a subscription also needs a price in every territory of App Store Connect's equalized price matrix (about 175)" : "")
                : "missing: " + missing.joined(separator: "; ")
            var finding = context.finding(
                "product `\(product.name)` is Missing Metadata in App Store Connect — \(explanation)",
                at: state.location,
                help: missing.isEmpty
                    ? "open the product in App Store Connect: the fields without a value are marked; complete them and save"
                    : "complete it in App Store Connect (\(product.type?.value == .autoRenewable ? "Monetization → Subscriptions" : "Monetization → In-App Purchases") → `\(product.referenceName?.value ?? product.name)`), then pull the snapshot again",
                notes: notes + ["a product in Missing Metadata cannot be submitted; the sandbox still serves it only when it has a localization and a price"],
                product: id)
            // Where a missing localization or price keeps it out of the sandbox, those rules say so;
            // this one explains the status, which blocks only submission.
            if !context.environment.isAppStoreBuild || context.environment == .testflight { finding.severity = .note }
            return context.fail(finding, product: id)
        }
    }

    static func whatIsMissing(_ product: Product, _ record: StoreRecord, in project: Project) -> (missing: [String], unknown: [String]) {
        var missing: [String] = [], unknown: [String] = []
        switch record.localizations {
        case nil: unknown.append("its localizations")
        case let list? where list.isEmpty: missing.append("a localization (display name and description)")
        case let list?:
            if let unnamed = list.first(where: { $0.name == nil }) { missing.append("a display name for `\(unnamed.locale.value)`") }
            if let rejected = list.first(where: { $0.state?.value == "REJECTED" }) { missing.append("a new `\(rejected.locale.value)` localization (App Review rejected it)") }
        }
        switch record.pricedTerritories?.value {
        case nil: unknown.append("its prices")
        case let priced? where priced.isEmpty: missing.append("a price")
        case let priced?:
            // An In-App Purchase's other territories follow its base price automatically; only a
            // subscription needs each territory priced.
            if record.kind == .subscription, let available = record.availableTerritories?.value {
                let unpriced = Set(available).subtracting(priced)
                if !unpriced.isEmpty { missing.append("a price in \(unpriced.count) of its \(available.count) territories (\(Self.sample(unpriced)))") }
            }
        }
        switch record.screenshot {
        case .notFetched: unknown.append("its review screenshot")
        case .none: missing.append("the App Review screenshot")
        case .uploaded(let state, let file, _):
            if state?.value == "FAILED" { missing.append("a review screenshot that processes (`\(file ?? "the upload")` failed)") }
            if state?.value == "AWAITING_UPLOAD" { missing.append("the review screenshot's upload (it is still awaited)") }
        }
        switch record.availableTerritories?.value {
        case nil: unknown.append("its availability")
        case let territories? where territories.isEmpty: missing.append("availability in at least one territory")
        default: break
        }
        if record.kind == .subscription, let name = product.subscriptionGroup?.value,
            let group = project.subscriptionGroup(named: name), let localizations = group.localizations, localizations.value.isEmpty
        {
            missing.append("a localization of its subscription group `\(name)`")
        }
        return (missing, unknown)
    }

    static func sample(_ territories: Set<String>) -> String {
        let sorted = territories.sorted()
        return sorted.prefix(5).joined(separator: ", ") + (sorted.count > 5 ? " and \(sorted.count - 5) more" : "")
    }
}
