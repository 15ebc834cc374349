import Foundation

/// App Store shared secrets, known by use: a value shaped like one (32 hexadecimal digits) is a
/// shared secret when its name says so (`sharedSecret`, `kIAPSecret`, `APPSTORE_SECRET`), or when
/// it flows to receipt validation: the file posts to `verifyReceipt` (its body's `password`, beside
/// `receipt-data`), or the name is passed as a `sharedSecret:` or `password` value. Any other hex
/// string under a name with `secret` in it (an AES key for the app's own settings, an analytics
/// token) is not one.
extension SourceScanner {
    /// Words that, beside `secret`, tie a name to the App Store.
    static let storeWords = ["shared", "itunes", "appstore", "iap", "inapp", "receipt", "purchase", "subscription", "revenuecat", "storekit"]

    /// Whether `name` by itself says App Store shared secret.
    public static func namesSharedSecret(_ name: String) -> Bool {
        let word = String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
        guard word.contains("secret") else { return false }
        return storeWords.contains { word.contains($0) }
    }

    /// Whether a key or argument label receives a receipt validation's secret.
    static func receivesSecret(_ key: String) -> Bool {
        key.lowercased() == "password" || namesSharedSecret(key)
    }
}

extension SourceScanner.Summarizer {
    /// Whether the file's bytes contain `needle` (ASCII).
    func contains(_ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { pattern in
            guard let first = pattern.first, bytes.count >= pattern.count else { return false }
            var start = 0
            while start + pattern.count <= bytes.count {
                guard let found = bytes[start...(bytes.count - pattern.count)].firstIndex(of: first) else { return false }
                if (1..<pattern.count).allSatisfy({ bytes[found + $0] == pattern[$0] }) { return true }
                start = found + 1
            }
            return false
        }
    }

    /// Keeps the secrets the file uses for receipts (see ``SourceScanner/namesSharedSecret(_:)``),
    /// and adds the `password` of a `verifyReceipt` body written as a literal.
    mutating func keepSecretsUsedForReceipts() {
        let validates = contains("verifyReceipt") || contains("receipt-data")
        if validates { passwordLiterals() }
        guard !validates, summary.secrets.contains(where: { !SourceScanner.namesSharedSecret($0.name) }) else { return }
        // Names passed where a receipt's secret goes: `sharedSecret: name`, `"password": name`.
        var passed: Set<String> = []
        for index in tokens.indices where isIdentifier(index) && index >= 2 && (isPunctuation(index - 1, ":") || isOperator(index - 1, "=")) {
            guard let key = keyText(index - 2), SourceScanner.receivesSecret(key) else { continue }
            passed.insert(text(index))
        }
        summary.secrets.removeAll { !SourceScanner.namesSharedSecret($0.name) && !passed.contains($0.name) }
    }

    /// An identifier's text or a string literal's value, as a key.
    func keyText(_ index: Int) -> String? {
        guard index >= 0, index < tokens.count else { return nil }
        switch tokens[index].kind {
        case .identifier: return text(index)
        case .string: return stringValue(tokens[index])
        default: return nil
        }
    }

    /// `password: "…"`, `"password": "…"`, `password = "…"` with a value shaped like a secret.
    mutating func passwordLiterals() {
        for index in tokens.indices where index + 2 < tokens.count && tokens[index + 2].kind == .string
            && (isPunctuation(index + 1, ":") || isOperator(index + 1, "=")) {
            guard tokens[index].end - tokens[index].start <= 10, let key = keyText(index), key.lowercased() == "password",
                  let value = stringValue(tokens[index + 2]), SourceScanner.looksLikeSharedSecret(value)
            else { continue }
            let location = location(index + 2)
            guard !summary.secrets.contains(where: { $0.location == location }) else { continue }
            summary.secrets.append(SecretSighting(location: location, name: key, value: value))
        }
    }
}
