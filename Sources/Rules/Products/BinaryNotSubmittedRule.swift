import Formats
import Model
import Loaders
import RuleEngine

/// For review and production, the first In-App Purchase of each type (and the first subscription
/// group) must be submitted with an app version; an uploaded binary is needed for that.
struct BinaryNotSubmittedRule: Rule {
    let id = RuleID.binaryNotSubmitted.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        var outcomes: [Outcome] = []
        if let uploaded = project.appStoreConnect.binaryUploaded {
            if !uploaded.value {
                outcomes.append(context.fail(context.finding(
                    "no app binary is uploaded, and In-App Purchases reach \(context.environment == .review ? "App Review" : "the App Store") only with an app version",
                    at: uploaded.location,
                    help: "archive and upload a build (Xcode → Product → Archive → Distribute), select it for the version, then set `binary_uploaded: true`")))
            } else {
                outcomes.append(context.pass())
            }
        } else {
            outcomes.append(context.unknown("Is an app binary uploaded to App Store Connect?", key: .appStoreConnectBinaryUploaded))
        }
        for product in project.products where product.status?.value != .approved {
            let id = product.productID?.value
            guard let submitted = product.submittedWithAppVersion else {
                outcomes.append(context.unknown(
                    "Is `\(product.name)` attached to the app version's submission?",
                    key: project.keyPath(.submittedWithAppVersion, of: product), product: id))
                continue
            }
            if submitted.value {
                outcomes.append(context.pass(product: id))
            } else {
                outcomes.append(context.fail(context.finding(
                    "product `\(product.name)` is not attached to the app version's submission; the first In-App Purchase of each type must be submitted with an app version",
                    at: submitted.location,
                    help: "in the app version's page in App Store Connect, add `\(product.name)` under In-App Purchases and Subscriptions, submit them together, then set `submitted_with_app_version: true`",
                    notes: ["do not submit the product on its own first: App Review then finds no binary to test it with"],
                    product: id)))
            }
        }
        return outcomes
    }
}
