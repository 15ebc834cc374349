import Crypto
import Foundation

/// An App Store Connect API key: its Key ID, the team's Issuer ID (a team key) or none (an
/// individual key, whose tokens say `sub: user` instead), and the `.p8` private key.
///
/// The private key never leaves this value: it is not in any error, description, mirror or file
/// iapdoctor writes. Errors about the key file name the file and say what was expected, never
/// what the file holds.
public struct APIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let keyID: String
    /// Nil for an individual key.
    public let issuerID: String?
    private let signingKey: SigningKey

    /// The parsed key, never changed after parsing; swift-crypto does not mark it Sendable.
    private final class SigningKey: @unchecked Sendable {
        let key: P256.Signing.PrivateKey
        init(_ key: P256.Signing.PrivateKey) { self.key = key }
    }

    var privateKey: P256.Signing.PrivateKey { signingKey.key }

    /// Where to make a key, for every message that is about the key.
    public static let whereToMakeOne =
        "a PKCS#8 PEM `-----BEGIN PRIVATE KEY-----` .p8 file downloaded from App Store Connect → Users and Access → Integrations → App Store Connect API"

    /// Reads and checks the key. A `.p8` is a few hundred bytes; anything over 64 KiB is not one.
    public init(keyID: String, issuerID: String?, privateKeyFile path: String) throws(APIKeyError) {
        let pem = try APIKey.readKeyFile(path)
        try self.init(keyID: keyID, issuerID: issuerID, privateKeyPEM: pem, source: "`\(path)`")
    }

    /// `source` names where the PEM came from (a file, an environment variable) in errors.
    public init(keyID: String, issuerID: String?, privateKeyPEM pem: String, source: String) throws(APIKeyError) {
        let trimmedKeyID = keyID.trimmingCharacters(in: .whitespacesAndNewlines)
        let trimmedIssuer = issuerID?.trimmingCharacters(in: .whitespacesAndNewlines)
        // Checked before use because both go into the token's JSON and a wrong one only shows up
        // as the server's 401: a Key ID is 10 letters and digits, an Issuer ID a UUID.
        guard !trimmedKeyID.isEmpty, trimmedKeyID.count <= 64,
              trimmedKeyID.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else {
            throw APIKeyError(
                message: "the Key ID `\(APIKey.printable(trimmedKeyID))` is not an App Store Connect API Key ID",
                help: "give the Key ID shown beside the key in Users and Access → Integrations → App Store Connect API (10 letters and digits, e.g. 2X9R4HXF34)")
        }
        if let trimmedIssuer, UUID(uuidString: trimmedIssuer) == nil {
            throw APIKeyError(
                message: "the Issuer ID `\(APIKey.printable(trimmedIssuer))` is not a UUID",
                help: "give the Issuer ID shown above the keys in Users and Access → Integrations → App Store Connect API (e.g. 57246542-96fe-1a63-e053-0824d011072a)")
        }
        self.keyID = trimmedKeyID
        self.issuerID = trimmedIssuer?.lowercased()
        self.signingKey = SigningKey(try APIKey.parsePrivateKey(pem, source: source))
    }

    static func readKeyFile(_ path: String) throws(APIKeyError) -> String {
        let help = "give --private-key " + whereToMakeOne
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw APIKeyError(message: "the private key file `\(path)` does not exist", help: help)
        }
        guard !isDirectory.boolValue else {
            throw APIKeyError(message: "the private key file `\(path)` is a folder", help: help)
        }
        // Only a file or a pipe. A FIFO (`mkfifo`) is opened without blocking: with no process
        // writing to it, the first read ends at once and it is refused; a shell's `<(…)` is a pipe
        // whose writer is already there, and is given ten seconds to deliver. A device
        // (`/dev/zero`, a terminal) is refused before it is opened.
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw APIKeyError(message: "cannot read the private key file `\(path)` (permission denied?)", help: help)
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFIFO else {
            throw APIKeyError(message: "the private key file `\(path)` is a device or socket, not a file", help: help)
        }
        let isFIFO = type == S_IFIFO
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (isFIFO ? O_NONBLOCK : 0))
        guard descriptor >= 0 else {
            throw APIKeyError(message: "cannot read the private key file `\(path)` (permission denied?)", help: help)
        }
        defer { close(descriptor) }
        let limit = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        let deadline = Date().addingTimeInterval(10)
        while count <= limit {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, limit + 1 - count) }
            if got > 0 {
                count += got
                continue
            }
            if got == 0 { break }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                throw APIKeyError(message: "cannot read the private key file `\(path)`", help: help)
            }
            // A writer is there and has not written yet.
            let wait = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard wait > 0, poll(&poller, 1, wait) > 0 else {
                throw APIKeyError(message: "`\(path)` is a pipe whose writer sent nothing within ten seconds", help: help)
            }
        }
        if isFIFO && count == 0 {
            throw APIKeyError(message: "`\(path)` is a FIFO that no process wrote to: nothing is writing to it", help: help)
        }
        guard count <= limit else {
            throw APIKeyError(message: "`\(path)` is too large to be an App Store Connect API private key (a .p8 is a few hundred bytes)", help: help)
        }
        let bytes = Data(buffer[0..<count])
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw APIKeyError(message: "`\(path)` is not an App Store Connect API private key: it is not text", help: help)
        }
        return text
    }

    static func parsePrivateKey(_ pem: String, source: String) throws(APIKeyError) -> P256.Signing.PrivateKey {
        let help = "expected " + whereToMakeOne
        // The PEM labels say what the file is without showing any of it.
        let labels = pem.components(separatedBy: "\n").compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.hasPrefix("-----BEGIN "), trimmed.hasSuffix("-----") else { return nil }
            return String(trimmed.dropFirst("-----BEGIN ".count).dropLast(5))
        }
        guard let label = labels.first else {
            throw APIKeyError(message: "\(source) is not an App Store Connect API private key: it holds no PEM block", help: help)
        }
        guard label == "PRIVATE KEY" || label == "EC PRIVATE KEY" else {
            let what = label.count <= 40 && label.allSatisfy({ $0.isLetter || $0 == " " }) ? "a PEM `\(label)`" : "another PEM block"
            throw APIKeyError(message: "\(source) is not an App Store Connect API private key: it holds \(what)", help: help)
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            // swift-crypto's error is not shown: it could describe the key's bytes.
            throw APIKeyError(
                message: "\(source) holds a private key that is not an ES256 (P-256) App Store Connect API key, or it is damaged",
                help: help)
        }
    }

    /// What a wrong Key ID or Issuer ID looks like in a message: printable ASCII, at most 64.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(64).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7f ? $0 : "?" }))
    }

    public var isIndividual: Bool { issuerID == nil }

    public var description: String { "APIKey(keyID: \(keyID), issuerID: \(issuerID ?? "none, an individual key"), privateKey: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["keyID": keyID, "issuerID": issuerID ?? "none, an individual key", "privateKey": "<redacted>"])
    }
}

public struct APIKeyError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let help: String

    public init(message: String, help: String) {
        self.message = message
        self.help = help
    }

    public var description: String { message }
}
