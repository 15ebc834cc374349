import CodeScanner
import Testing

/// Where code asks whether the device may pay: the place a Screen Time restriction bites.
@Suite("Payment checks")
struct PaymentCheckTests {
    static func checks(_ files: [(file: String, text: String)]) -> [String] {
        SourceScanner.scan(sources: files).paymentChecks.map { "\($0.location) \($0.name)" }
    }

    @Test func storeKitsQuestionInEachLanguage() {
        #expect(Self.checks([
            ("Store.swift", "import StoreKit\nfunc load() {\n    guard SKPaymentQueue.canMakePayments() else { return }\n}\n"),
            ("Shop.swift", "import StoreKit\nlet can = AppStore.canMakePayments\n"),
            ("Legacy.m", "#import <StoreKit/StoreKit.h>\n- (void)load { if (![SKPaymentQueue canMakePayments]) return; }\n"),
            ("Store.cs", "using StoreKit;\nclass Store { bool Can() => SKPaymentQueue.CanMakePayments; }\n"),
        ]) == [
            "Store.swift:3:26 canMakePayments",
            "Shop.swift:2:20 canMakePayments",
            "Legacy.m:2:37 canMakePayments",
            "Store.cs:2:44 CanMakePayments",
        ])
    }

    /// The `in_app_purchase` plugin's `isAvailable()` answers `canMakePayments` on iOS; another
    /// `isAvailable` (a file without the plugin) is not a question about payments.
    @Test func theFlutterPluginsIsAvailable() {
        #expect(Self.checks([
            ("lib/store.dart", "import 'package:in_app_purchase/in_app_purchase.dart';\nFuture<void> load() async {\n  if (!await InAppPurchase.instance.isAvailable()) return;\n}\n"),
            ("lib/net.dart", "import 'package:connectivity/connectivity.dart';\nbool up(Connection c) => c.isAvailable();\n"),
        ]) == ["lib/store.dart:3:37 isAvailable"])
    }

    @Test func aWordInACommentOrStringIsNoQuestion() {
        #expect(Self.checks([
            ("Store.swift", "// we never call canMakePayments here\nlet text = \"canMakePayments\"\n"),
        ]).isEmpty)
    }
}
