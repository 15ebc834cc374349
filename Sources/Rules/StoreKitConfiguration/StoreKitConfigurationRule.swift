import IAPDoctor

/// When Xcode serves products from a StoreKit configuration file, only that file counts: every
/// requested product must be in it, and the simulated "Load Products" failure must be off.
struct StoreKitConfigurationRule: Rule {
    let id = "storekit-configuration-incomplete"

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        guard let configuration = project.evidence.storeKit else {
            if project.app.storeKitConfiguration != nil || project.evidence.scheme?.storeKitConfiguration != nil {
                // Named but unreadable: the input problem already says why.
                return []
            }
            return [context.unknown(
                "Which StoreKit configuration file (.storekit) does the scheme's Run action use?",
                key: "app.storekit_configuration")]
        }
        let name = configuration.file.split(separator: "/").last.map(String.init) ?? configuration.file
        var findings: [Finding] = []
        if let failure = configuration.loadProductsFailure {
            findings.append(context.finding(
                "`\(name)` simulates a \"Load Products\" failure, so StoreKit returns no products while it is on",
                at: failure,
                help: "in Xcode, open `\(name)` → Editor → Simulated StoreKit Failures (Configuration Settings) and turn off Load Products"))
        }
        let available = Set(configuration.productIDs)
        for request in context.requests {
            let wanted = request.productID ?? request.request.value
            guard !available.contains(wanted) else { continue }
            var help = "add `\(wanted)` to `\(name)` in Xcode (or sync the file with App Store Connect), or set the scheme's StoreKit Configuration to None to use the sandbox"
            if let suggestion = closestMatch(to: wanted, in: configuration.productIDs) {
                help = "did you mean `\(suggestion)`? Otherwise " + help
            }
            findings.append(context.finding(
                "`\(wanted)` is not in `\(name)`, and Xcode serves only the \(configuration.products.count) products of that file",
                at: request.request.location, help: help, product: request.verdictID))
        }
        return context.outcomes(findings)
    }
}
