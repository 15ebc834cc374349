import Formats
import Model
import Loaders
import RuleEngine

/// `subscriptionOffersKeyPair.privateKey` signs subscription offers; committed with the
/// configuration file, it is a secret in the repository. The finding never shows the key.
///
/// Xcode generates the key pair itself for local offer testing (an 8-hex-digit `id`, as every such
/// file seen has): offers signed with it work only in Xcode, so it is a note. A key of any other
/// shape may be an App Store Connect subscription offer key (10-character key IDs) pasted in, and
/// stays at the rule's severity.
struct StoreKitPrivateKeyRule: Rule {
    let id = RuleID.storekitPrivateKey.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = [], notes: [Finding] = []
        for configuration in context.project.storeKitFiles {
            guard let location = configuration.privateKey else { continue }
            let pair = configuration.root["subscriptionOffersKeyPair"]
            let key = pair?["privateKey"]?.string
            let keyID = pair?["id"]?.string ?? ""
            if Self.isXcodeLocalTestingKeyID(keyID) {
                var finding = context.finding(
                    "the StoreKit configuration carries Xcode's local offer-testing key (`subscriptionOffersKeyPair`, key ID `\(keyID)`)",
                    at: location,
                    help: "nothing to do if it is the key Xcode generated: offers signed with it work only in Xcode's StoreKit testing; remove the key pair before committing if you prefer no key in the repository",
                    notes: ["Xcode generates this key pair for StoreKit testing; App Store Connect does not accept offers signed with it"],
                    secret: key)
                // A configured severity wins; the rule's own one drops to a note for Xcode's own key.
                if context.metadata.severity == context.metadata.defaultSeverity { finding.severity = .note }
                if finding.severity == .note { notes.append(finding) } else { findings.append(finding) }
            } else {
                findings.append(context.finding(
                    "the StoreKit configuration carries a subscription offer signing key (`subscriptionOffersKeyPair.privateKey`) that Xcode did not generate",
                    at: location,
                    help: "remove the key pair from the file before committing it (Xcode recreates a local one), and revoke the key in App Store Connect if it is a real one",
                    notes: ["anyone who can read the repository can sign offers with it"],
                    secret: key))
            }
        }
        if findings.isEmpty && !notes.isEmpty { return [context.passWithNotes(notes)] }
        return context.outcomes(findings + notes)
    }

    /// Xcode's generated key IDs are 8 hexadecimal digits (`5509FCF1`); App Store Connect's
    /// subscription offer key IDs are 10 upper-case letters and digits.
    static func isXcodeLocalTestingKeyID(_ id: String) -> Bool {
        id.count == 8 && id.allSatisfy { $0.isHexDigit }
    }
}
