import IAPDoctor

/// StoreKit 2 (`Product.products(for:)`) exists only from iOS 15, macOS 12, tvOS 15, watchOS 8 and
/// visionOS 1: an app that uses only StoreKit 2 requests nothing on older systems.
struct DeploymentTargetRule: Rule {
    let id = RuleID.deploymentTargetTooLow.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let app = context.project.app
        // A deployment target that already has StoreKit 2 supports either API: nothing to ask.
        if let target = app.deploymentTarget, compareVersions(target.value, (app.platform?.value ?? .ios).storeKit2Minimum) >= 0 {
            return [context.pass()]
        }
        guard let api = app.storeKitAPI else {
            return [context.unknown(
                "Which StoreKit API does the code call: StoreKit 1 (`SKProductsRequest`), StoreKit 2 (`Product.products(for:)`) or both?",
                key: .appStoreKitAPI)]
        }
        // StoreKit 1 runs on every supported OS; with both, StoreKit 1 covers older systems.
        guard api.value == .storekit2 else { return [context.pass()] }
        guard let target = app.deploymentTarget else {
            return [context.unknown("What is the app's minimum deployment target?", key: .appDeploymentTarget)]
        }
        let platform = app.platform?.value ?? .ios
        let minimum = platform.storeKit2Minimum
        guard compareVersions(target.value, minimum) < 0 else { return [context.pass()] }
        return [context.fail(context.finding(
            "the deployment target is \(platform.displayName) \(target.value), but StoreKit 2's `Product.products(for:)` needs \(platform.displayName) \(minimum); on older systems the app requests no products",
            at: target.location,
            help: "raise the deployment target to \(minimum) (`deployment_target: \"\(minimum)\"`), or add a StoreKit 1 path (`SKProductsRequest`) for older systems and set `storekit_api: both`"))]
    }
}
