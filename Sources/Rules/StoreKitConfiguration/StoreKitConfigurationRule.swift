import IAPDoctor

/// When Xcode serves products from a StoreKit configuration file, only that file counts: every
/// requested product must be in it, and the simulated "Load Products" failure must be off.
struct StoreKitConfigurationRule: Rule {
    let id = "storekit-configuration-incomplete"

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard let named = project.app.storeKitConfiguration else {
            return [context.unknown(
                "Which StoreKit configuration file (.storekit) does the scheme's Run action use?",
                key: "app.storekit_configuration")]
        }
        let path = FileSystem.resolve(named.value, relativeTo: project.baseDirectory)
        let configuration: StoreKitConfiguration
        do {
            configuration = try StoreKitConfiguration.load(path: path)
        } catch {
            return [context.fail(context.finding(
                error.message, at: named.location,
                help: "\(error.help); `app.storekit_configuration` is resolved from the descriptor's folder"))]
        }
        var findings: [Finding] = []
        if configuration.loadProductsFailureEnabled {
            findings.append(context.finding(
                "`\(named.value)` simulates a \"Load Products\" failure, so StoreKit returns no products while it is on",
                at: named.location,
                help: "in Xcode, open `\(named.value)` → Editor → Simulated StoreKit Failures (Configuration Settings) and turn off Load Products"))
        }
        let available = Set(configuration.productIDs)
        for request in context.requests {
            let wanted = request.productID ?? request.request.value
            guard !available.contains(wanted) else { continue }
            var help = "add `\(wanted)` to `\(named.value)` in Xcode (or sync the file with App Store Connect), or set the scheme's StoreKit Configuration to None to use the sandbox"
            if let suggestion = closestMatch(to: wanted, in: configuration.productIDs) {
                help = "did you mean `\(suggestion)`? The file has \(configuration.productIDs.count) products; " + help
            }
            findings.append(context.finding(
                "`\(wanted)` is not in `\(named.value)`, and Xcode serves only the products of that file",
                at: request.request.location, help: help, product: request.verdictID))
        }
        return context.outcomes(findings)
    }
}
