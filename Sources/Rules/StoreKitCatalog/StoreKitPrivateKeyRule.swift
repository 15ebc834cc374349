import IAPDoctor

/// `subscriptionOffersKeyPair.privateKey` signs subscription offers; committed with the
/// configuration file, it is a secret in the repository.
struct StoreKitPrivateKeyRule: Rule {
    let id = "storekit-private-key"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for configuration in context.project.storeKitCatalogs {
            guard let key = configuration.privateKey else { continue }
            findings.append(context.finding(
                "the StoreKit configuration carries a subscription offer signing key (`subscriptionOffersKeyPair.privateKey`)",
                at: key,
                help: "remove the key pair from the file before committing it (Xcode recreates a local one), and rotate the key if it was ever a real one",
                notes: ["anyone who can read the repository can sign offers with it"]))
        }
        return context.outcomes(findings)
    }
}
