import Formats
import Model
import Loaders
import RuleEngine

/// Screen Time's "In-app Purchases: Don't Allow" makes `canMakePayments` false. StoreKit still
/// returns products, so it matters to loading only where the app's code asks first: code that
/// returns early on a false answer (the `in_app_purchase` plugin's `isAvailable()` in Flutter's
/// own example) requests nothing, and every product looks invalid.
struct PurchasesRestrictedRule: Rule {
    let id = RuleID.purchasesRestricted.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let sources = context.project.evidence.sources
        let checks = sources.paymentChecks
        let asked = checks.first.map { "the app asks `\($0.value)` at \($0.location)" }
        guard let allowed = context.project.testing.inAppPurchasesAllowed else {
            guard sources.filesScanned > 0 || !checks.isEmpty else {
                return [context.unknown(
                    "Does Screen Time allow In-App Purchases on the test device (Settings → Screen Time → Content & Privacy Restrictions → iTunes & App Store Purchases → In-app Purchases)?",
                    key: .testingInAppPurchasesAllowed)]
            }
            guard let asked else { return [context.pass()] }
            return [context.unknown(
                "Does Screen Time allow In-App Purchases on the test device (Settings → Screen Time → Content & Privacy Restrictions → iTunes & App Store Purchases → In-app Purchases)? \(Self.capitalized(asked)); with them off the answer is false, and code that returns there requests no products.",
                key: .testingInAppPurchasesAllowed)]
        }
        guard !allowed.value else { return [context.pass()] }
        let allow = "allow them on the device: Settings → Screen Time → Content & Privacy Restrictions → iTunes & App Store Purchases → In-app Purchases → Allow"
        guard let asked, let first = checks.first else {
            var note = context.finding(
                "Screen Time does not allow In-App Purchases on the test device: StoreKit returns the products, but no purchase can be made",
                at: allowed.location, help: allow)
            note.severity = .note
            return [context.passWithNotes([note])]
        }
        let others = checks.dropFirst().map(\.location.description)
        return [context.fail(context.finding(
            "Screen Time does not allow In-App Purchases on the test device, so `\(first.value)` answers false where the app asks it: code that returns there requests no products",
            at: allowed.location,
            help: "\(allow); in the app, load products whatever the answer and check it only before a purchase",
            notes: [asked + (others.isEmpty ? "" : "; also at " + others.joined(separator: ", "))],
            related: [RelatedSpan(first.location, label: "asked here", note: "the app asks here")]))]
    }

    static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
