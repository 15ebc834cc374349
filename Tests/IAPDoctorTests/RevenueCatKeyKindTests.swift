import Loaders
import Testing

/// What a key the code hands the SDK is, by its text alone.
@Suite("RevenueCat key kinds")
struct RevenueCatKeyKindTests {
    @Test(arguments: [
        ("appl_SiqQIDSQDozpSgtDZictXnJimTa", RevenueCatKeyKind.apple),
        ("mac_AbCdEfGhIjKlMnOpQrStUvWxYz1", .apple),
        ("goog_lTDQFwqDJzbxUrzLXQZoQexzQQa", .otherStore("Play Store")),
        ("test_raiNZrZyBhaajSqPIwgrUyVBdYa", .testStore),
        ("sk_5aF3bC1d2E3f4G5h6I7j8K9l0MnOp", .secret),
        ("a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6", .legacy),
        // Where a key goes, but no key.
        ("appl_YOUR_PUBLIC_API_KEY", .placeholder),
        ("<revenuecat_project_apple_api_key>", .placeholder),
        ("appl_xxxxxxxxxxxxxxxxxxxxxxxx", .placeholder),
        ("appl_***REDACTED***", .placeholder),
        ("REVENUECAT_API_KEY", .placeholder),
        ("YOUR_REVENUECAT_KEY", .placeholder),
        ("appl_", .placeholder),
        ("appl_123", .placeholder),
        ("appl_replace_me_with_the_key", .placeholder),
        ("${REVENUECAT_IOS_KEY}", .placeholder),
        ("myAPIKey", .placeholder),
        ("api_key", .placeholder),
        ("public_sdk_key", .placeholder),
        ("", .placeholder),
    ])
    func kind(_ key: String, _ expected: RevenueCatKeyKind) {
        #expect(RevenueCatKeyKind(key) == expected, "\(key)")
    }
}
