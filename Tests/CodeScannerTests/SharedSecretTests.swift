import CodeScanner
import Testing

/// A committed shared secret is known by its use, not by the shape of its value: an encryption key
/// for the app's own settings has the same 32 hexadecimal digits.
@Suite("Shared secrets by use")
struct SharedSecretTests {
    static let hex = "0123456789abcdef0123456789abcdef"

    static func names(_ source: String, file: String) -> [String] {
        SourceScanner.scan(source: source, file: file).secrets.map { "\($0.location.line) \($0.name)" }
    }

    @Test("a name that says shared secret is enough", arguments: [
        ("Store.swift", "let iapSharedSecret = \"\(hex)\"\n"),
        ("Store.swift", "static let kAppStoreSecret = \"\(hex)\"\n"),
        ("store.dart", "const String iapSecret = '\(hex)';\n"),
        ("store.js", "export const RECEIPT_SECRET = '\(hex)';\n"),
        ("Store.cs", "const string PurchaseSecret = \"\(hex)\";\n"),
        ("Store.m", "#define kSharedSecret @\"\(hex)\"\n"),
    ])
    func namedSecrets(file: String, source: String) {
        #expect(Self.names(source, file: file).count == 1, "\(file)")
    }

    @Test("another secret is not one", arguments: [
        ("Settings.swift", "let settingsSecretKey = \"\(hex)\"\nfunc seal(_ d: Data) { _ = AES.GCM.seal(d, using: SymmetricKey(data: Data(hex: settingsSecretKey))) }\n"),
        ("crypto.dart", "const secretKey = '\(hex)';\nfinal encrypter = Encrypter(AES(Key.fromBase16(secretKey)));\n"),
        ("crypto.js", "const SECRET = '\(hex)';\nconst cipher = crypto.createCipheriv('aes-128-cbc', Buffer.from(SECRET, 'hex'), iv);\n"),
        ("Crypto.cs", "static string Secret = \"\(hex)\";\n"),
    ])
    func otherSecrets(file: String, source: String) {
        #expect(Self.names(source, file: file).isEmpty, "\(file)")
    }

    @Test func aSecretPassedToReceiptValidationIsOne() {
        let swifty = """
            import SwiftyStoreKit
            let secret = "\(Self.hex)"
            let validator = AppleReceiptValidator(service: .production, sharedSecret: secret)
            """
        #expect(Self.names(swifty, file: "Receipts.swift") == ["2 secret"])
        let body = """
            const secretValue = '\(Self.hex)';
            await validateReceiptIos({ receiptBody: { 'receipt-data': receipt, password: secretValue }, isTest: true });
            """
        #expect(Self.names(body, file: "receipts.js") == ["1 secretValue"])
    }

    @Test func theVerifyReceiptPasswordIsOne() {
        let source = """
            let url = URL(string: "https://sandbox.itunes.apple.com/verifyReceipt")!
            let body: [String: Any] = ["receipt-data": receipt, "password": "\(Self.hex)"]
            """
        #expect(Self.names(source, file: "Validate.swift") == ["2 password"])
        // A password beside no receipt validation is the app's own business.
        #expect(Self.names("let login = [\"user\": name, \"password\": \"\(Self.hex)\"]\n", file: "Login.swift").isEmpty)
    }
}
