/// Where the code asks whether the device may make payments: StoreKit's `canMakePayments`
/// (`SKPaymentQueue.canMakePayments()`, `AppStore.canMakePayments`, Xamarin's
/// `CanMakePayments`, libraries that pass it on) and the `in_app_purchase` plugin's
/// `isAvailable()`, which answers it on iOS. With In-App Purchases off in Screen Time the answer
/// is false, and code that returns early on it requests no products at all.
extension SourceScanner.Summarizer {
    mutating func notePaymentChecks() {
        let dartPlugin = language == .dart && (summary.imports.contains("in_app_purchase") || summary.imports.contains("in_app_purchase_storekit"))
        guard contains("anMakePayments") || (dartPlugin && contains("isAvailable")) else { return }
        for index in tokens.indices where tokens[index].kind == .identifier {
            let asked = isWord(index, "canMakePayments") || isWord(index, "CanMakePayments")
                || (dartPlugin && isWord(index, "isAvailable") && isPunctuation(index - 1, "."))
            guard asked else { continue }
            // The first is enough to ask about the device; the rule names where it is.
            summary.paymentChecks.append(PaymentCheck(name: text(index), location: location(index)))
            return
        }
    }
}

/// A place the code asks whether the device may make payments, and the name it asks by.
public struct PaymentCheck: Hashable, Sendable, Comparable {
    public var name: String
    public var location: CodeLocation

    public static func < (a: PaymentCheck, b: PaymentCheck) -> Bool { a.location < b.location }
}
