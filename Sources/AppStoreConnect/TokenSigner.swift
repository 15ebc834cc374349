import Crypto
import Foundation

/// Makes the ES256 JSON Web Tokens App Store Connect takes as `Authorization: Bearer …`, and
/// reuses one until it is close to expiry (a token per request would be wasted signing, and the
/// `asc` CLI and fastlane cache theirs too).
///
/// Header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}`; payload `aud` `appstoreconnect-v1`, `iss`
/// the Issuer ID (an individual key: `sub` `user` and no `iss`), `iat` now, `exp` at most 20 minutes later (Apple rejects longer tokens); the
/// signature is the raw 64-byte r‖s, not DER; every part base64url without padding.
public final class TokenSigner: @unchecked Sendable {
    /// Apple's ceiling for `exp − iat`.
    public static let maximumLifetime: TimeInterval = 1200

    let key: APIKey
    private let clock: @Sendable () -> Date
    private let lifetime: TimeInterval
    /// A cached token is renewed this long before it expires, so one never expires in flight
    /// (a retried request may wait a minute or two).
    private let renewalMargin: TimeInterval
    private let lock = NSLock()
    private var cached: (token: String, expiry: Date)?

    public init(key: APIKey, lifetime: TimeInterval = 900, renewalMargin: TimeInterval = 180,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.key = key
        self.clock = clock
        self.lifetime = min(max(lifetime, 60), TokenSigner.maximumLifetime)
        self.renewalMargin = min(renewalMargin, self.lifetime / 2)
    }

    /// A token valid for at least `renewalMargin` more seconds; a new one when `renewed` (after
    /// App Store Connect refused the cached one).
    public func token(renewed: Bool = false) throws(PullFailure) -> String {
        lock.lock()
        defer { lock.unlock() }
        let now = clock()
        if !renewed, let cached, now.addingTimeInterval(renewalMargin) < cached.expiry {
            return cached.token
        }
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let expiry = issuedAt + Int64(lifetime)
        let header = JSONValue.object(["alg": .string("ES256"), "kid": .string(key.keyID), "typ": .string("JWT")])
        var claims: [String: JSONValue] = ["aud": .string("appstoreconnect-v1"), "exp": .integer(expiry), "iat": .integer(issuedAt)]
        if let issuer = key.issuerID { claims["iss"] = .string(issuer) } else { claims["sub"] = .string("user") }
        let payload = JSONValue.object(claims)
        let signingInput = TokenSigner.base64URL(Data(header.serialized().utf8)) + "." + TokenSigner.base64URL(Data(payload.serialized().utf8))
        // P-256 signing fails only when the platform cannot produce randomness.
        guard let signature = try? key.privateKey.signature(for: Data(signingInput.utf8)) else {
            throw PullFailure(message: "cannot sign the App Store Connect API token (ES256 signing failed)",
                              help: "this machine's random number generator is unavailable; run again")
        }
        let token = signingInput + "." + TokenSigner.base64URL(signature.rawRepresentation)
        cached = (token, Date(timeIntervalSince1970: TimeInterval(expiry)))
        return token
    }

    public static func base64URL(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
