/// A RevenueCat secret API key (v2) for the REST API: `sk_…`, or an OAuth access token `atk_…`.
/// It is sent in the `Authorization` header and nowhere else; its description shows only its
/// kind, so interpolating it by mistake cannot print it.
public struct SecretAPIKey: Sendable, CustomStringConvertible {
    let value: String

    /// Where keys are made, for the messages that ask for one.
    public static let whereToMakeOne =
        "create one in RevenueCat's Project settings → API keys → + New secret API key, with API version V2 and read-only permission for Project configuration"

    /// The key, checked for its shape: a public SDK key or text that is no key is refused with
    /// what to give instead. `source` names where it came from (`$REVENUECAT_SECRET_API_KEY`).
    public init(_ text: String, source: String) throws(KeyProblem) {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw KeyProblem(message: "\(source) is empty", help: SecretAPIKey.whereToMakeOne) }
        // A header value: nothing that could end the header line or hide in it.
        guard key.count <= 512, key.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else {
            throw KeyProblem(message: "\(source) is not a RevenueCat API key: it holds spaces, control or non-ASCII characters, or is longer than 512 characters",
                             help: "set it to the secret key alone (`sk_…`); " + SecretAPIKey.whereToMakeOne)
        }
        if let store = SecretAPIKey.publicPrefixes.first(where: { key.hasPrefix($0.prefix) }) {
            throw KeyProblem(message: "\(source) holds a public SDK key (`\(store.prefix)…`, \(store.name)): the REST API reads the project only with a secret key",
                             help: SecretAPIKey.whereToMakeOne + "; the public key stays in the app")
        }
        guard key.hasPrefix("sk_") || key.hasPrefix("atk_") else {
            throw KeyProblem(message: "\(source) is not a RevenueCat secret API key: those begin with `sk_` (or `atk_` for an OAuth token)",
                             help: SecretAPIKey.whereToMakeOne)
        }
        value = key
    }

    /// `sk_…` or `atk_…`: the kind of key, never the key.
    public var description: String { value.hasPrefix("atk_") ? "atk_…" : "sk_…" }

    /// `text` with every occurrence of the key replaced by its description: for what a server
    /// says back, which may quote the request.
    public func masked(_ text: String) -> String {
        text.replacingOccurrences(of: value, with: description)
    }

    static let publicPrefixes: [(prefix: String, name: String)] = [
        ("appl_", "App Store"), ("mac_", "Mac App Store"), ("goog_", "Play Store"), ("amzn_", "Amazon Appstore"),
        ("test_", "Test Store"), ("rcb_", "Web Billing"), ("roku_", "Roku"), ("strp_", "Stripe"), ("pdl_", "Paddle"),
    ]

    public struct KeyProblem: Error, Sendable {
        public let message: String
        public let help: String
    }
}
