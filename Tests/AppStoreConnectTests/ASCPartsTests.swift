import AppStoreConnect
import Crypto
import Foundation
import Testing
import TestSupport

/// The App Store Connect pull's parts on their own: tokens, the key file, retries and rate limits,
/// the base URL, the JSON writer, the transport's limits.
@Suite("App Store Connect parts")
struct ASCPartsTests {
    final class MutableClock: @unchecked Sendable {
        private let lock = NSLock()
        private var date: Date
        init(_ date: Date) { self.date = date }
        var now: Date { lock.withLock { date } }
        func advance(_ seconds: TimeInterval) { lock.withLock { date += seconds } }
    }

    @Test func tokensAreES256WithApplesClaimsAndAreReusedUntilNearExpiry() throws {
        let key = try TestAPIKey()
        let clock = MutableClock(Date(timeIntervalSince1970: 1_795_024_000.7))
        let signer = TokenSigner(key: try key.apiKey(), clock: { clock.now })
        let token = try signer.token()
        let parts = token.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        let header = try JSONValue.parse(#require(SyntheticAppStoreConnect.base64URLDecode(parts[0])))
        let payload = try JSONValue.parse(#require(SyntheticAppStoreConnect.base64URLDecode(parts[1])))
        #expect(header == ["alg": "ES256", "kid": "SYNTH2KEY9", "typ": "JWT"])
        #expect(payload == ["aud": "appstoreconnect-v1", "iss": .string(TestAPIKey.issuerID), "iat": 1_795_024_000, "exp": 1_795_024_900])
        let signature = try #require(SyntheticAppStoreConnect.base64URLDecode(parts[2]))
        #expect(signature.count == 64, "raw r‖s, not DER")
        #expect(key.privateKey.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature),
                                                         for: Data((parts[0] + "." + parts[1]).utf8)))
        clock.advance(600)
        #expect(try signer.token() == token, "10 minutes into a 15-minute token: reused")
        clock.advance(180)
        let renewed = try signer.token()
        #expect(renewed != token, "within 3 minutes of expiry: a new one")
        let renewedPayload = try JSONValue.parse(#require(SyntheticAppStoreConnect.base64URLDecode(String(renewed.split(separator: ".")[1]))))
        #expect(renewedPayload["iat"] == 1_795_024_780)
        // A longer lifetime than Apple allows is cut to 20 minutes.
        let long = TokenSigner(key: try key.apiKey(), lifetime: 86_400, clock: { clock.now })
        let longPayload = try JSONValue.parse(#require(SyntheticAppStoreConnect.base64URLDecode(String(try long.token().split(separator: ".")[1]))))
        #expect(longPayload["exp"]!.integerValue! - longPayload["iat"]!.integerValue! == 1200)
    }

    @Test func keyFileErrorsNameTheFileAndWhatWasExpectedNeverTheContent() throws {
        let key = try TestAPIKey()
        let expected = "-----BEGIN PRIVATE KEY-----"
        func failure(_ contents: String, issuer: String = TestAPIKey.issuerID, keyID: String = TestAPIKey.keyID) throws -> APIKeyError {
            let path = scratchPath("key", suffix: ".p8")
            try contents.write(toFile: path, atomically: true, encoding: .utf8)
            defer { removeScratch(path) }
            do {
                _ = try APIKey(keyID: keyID, issuerID: issuer, privateKeyFile: path)
            } catch {
                #expect(error.message.contains(path) || error.message.contains("ID"), "names the file: \(error.message)")
                return error
            }
            Issue.record("`\(contents.prefix(30))` was taken for a key")
            return APIKeyError(message: "", help: "")
        }
        let p384 = P384.Signing.PrivateKey().pemRepresentation
        let notP256 = try failure(p384)
        #expect(notP256.message.contains("ES256 (P-256)"))
        #expect(notP256.help.contains(expected) && notP256.help.contains("Integrations → App Store Connect API"))
        let certificate = try failure("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
        #expect(certificate.message.contains("PEM `CERTIFICATE`"))
        let damaged = String(key.pem.dropLast(40)) + "\n-----END PRIVATE KEY-----\n"
        let error = try failure(damaged)
        for secret in key.secrets + [p384] {
            for part in secret.split(separator: "\n") where part.count > 8 && !part.hasPrefix("-----") {
                #expect(!error.message.contains(part) && !error.help.contains(part) && !notP256.message.contains(part))
            }
        }
        #expect(try failure(key.pem, keyID: "not a key id").message.contains("Key ID"))
        #expect(try failure(key.pem, issuer: "issuer").message.contains("Issuer ID"))
        let missing = scratchPath("missing", suffix: ".p8")
        #expect(throws: APIKeyError.self) { try APIKey(keyID: TestAPIKey.keyID, issuerID: TestAPIKey.issuerID, privateKeyFile: missing) }
    }

    /// A FIFO no process writes to: an error at once, never a wait or a hang. A pipe whose writer
    /// is there (a shell's `<(…)`, `/dev/fd/N`) is read like a file; a device is refused unopened.
    @Test func aPrivateKeyFIFOWithoutAWriterIsAnError() throws {
        let fifo = scratchPath("key-fifo", suffix: ".p8")
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let error = try #require(throws: APIKeyError.self) {
            try APIKey(keyID: TestAPIKey.keyID, issuerID: TestAPIKey.issuerID, privateKeyFile: fifo)
        }
        // The refusal of a FIFO without a writer, not the ten-second wait's.
        #expect(error.message.contains("is a FIFO that no process wrote to: nothing is writing to it"), "\(error.message)")

        let pem = try TestAPIKey().pem
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let writeEnd = ends[1]
        let writer = Thread {
            usleep(200_000)
            _ = pem.utf8CString.withUnsafeBufferPointer { write(writeEnd, $0.baseAddress!, $0.count - 1) }
            close(writeEnd)
        }
        writer.start()
        #expect(throws: Never.self) { _ = try APIKey(keyID: TestAPIKey.keyID, issuerID: TestAPIKey.issuerID, privateKeyFile: "/dev/fd/\(ends[0])") }
        writer.cancel()

        let device = try #require(throws: APIKeyError.self) {
            try APIKey(keyID: TestAPIKey.keyID, issuerID: TestAPIKey.issuerID, privateKeyFile: "/dev/zero")
        }
        #expect(device.message.contains("is a device or socket, not a file"))
    }

    @Test func theKeyNeverShowsInDescriptionsOrDumps() throws {
        let key = try TestAPIKey()
        let apiKey = try key.apiKey()
        var dumped = ""
        dump(apiKey, to: &dumped)
        for text in [String(describing: apiKey), String(reflecting: apiKey), dumped, "\(Mirror(reflecting: apiKey).children.map { "\($0)" })"] {
            #expect(key.leaks(in: text) == [])
            #expect(text.contains("SYNTH2KEY9") && text.contains("redacted"))
        }
    }

    @Test func retryAfterIsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_795_024_000) // Wed, 18 Nov 2026 17:46:40 GMT
        #expect(RetryPolicy.parseRetryAfter("7", now: now) == 7)
        #expect(RetryPolicy.parseRetryAfter(" 120 ", now: now) == 120)
        #expect(RetryPolicy.parseRetryAfter("Wed, 18 Nov 2026 17:47:10 GMT", now: now) == 30)
        #expect(RetryPolicy.parseRetryAfter("Wed, 18 Nov 2026 17:00:00 GMT", now: now) == 0, "a date in the past: now")
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.parseRetryAfter("-5", now: now) == nil)

        let policy = RetryPolicy(maximumAttempts: 4, baseDelay: 1, maximumDelay: 5, longestRetryAfter: 60)
        #expect(policy.delay(afterAttempt: 1, retryAfter: nil, now: now, jitter: 0) == 0.5)
        #expect(policy.delay(afterAttempt: 2, retryAfter: nil, now: now, jitter: 1) == 2)
        #expect(policy.delay(afterAttempt: 3, retryAfter: nil, now: now, jitter: 0.5) == 3, "4 s, half of it jittered")
        #expect(policy.delay(afterAttempt: 4, retryAfter: nil, now: now, jitter: 0.5) == nil, "four attempts in all")
        #expect(policy.delay(afterAttempt: 1, retryAfter: "9", now: now, jitter: 0.9) == 9, "Retry-After wins over backoff")
        #expect(policy.delay(afterAttempt: 1, retryAfter: "3600", now: now, jitter: 0) == nil, "an hour is not waited out")
        #expect(RetryPolicy.isRetryable(status: 429) && RetryPolicy.isRetryable(status: 503) && !RetryPolicy.isRetryable(status: 403))
        var long = RetryPolicy(maximumAttempts: 20, baseDelay: 1, maximumDelay: 30)
        long.longestRetryAfter = 10
        #expect(long.delay(afterAttempt: 12, retryAfter: nil, now: now, jitter: 1) == 30, "capped")
    }

    @Test func theRateLimitHeaderIsRead() {
        #expect(RateLimit(header: "user-hour-lim:3600;user-hour-rem:3121;") == RateLimit(limit: 3600, remaining: 3121))
        #expect(RateLimit(header: "user-hour-rem:12; user-hour-lim:3500") == RateLimit(limit: 3500, remaining: 12))
        #expect(RateLimit(header: "user-hour-lim:3600;") == nil)
        #expect(RateLimit(header: "") == nil)
    }

    /// Answers to concurrent requests arrive out of order; the estimate counts every request
    /// outstanding and keeps the lowest reading, until a later request's reading says the hour
    /// has moved on.
    @Test func theQuotaCountsRequestsInFlight() {
        let hour = { (remaining: Int) in RateLimit(limit: 3600, remaining: remaining) }
        // Requests 1, 2 and 3 sent; App Store Connect counted 2 first, whose answer says 100
        // are left, and 1 and 3 are outstanding.
        var quota = QuotaEstimate(hour(100), sequence: 2, outstanding: 2, sent: 3)
        #expect(quota.remaining(sent: 3) == 98)
        #expect(quota.remaining(sent: 4) == 97, "request 4 sent")
        // Request 3 answers with 98, then 4 with 97: the estimate stays.
        quota.update(hour(98), sequence: 3, outstanding: 2, sent: 4, inFlight: 3)
        quota.update(hour(97), sequence: 4, outstanding: 1, sent: 4, inFlight: 3)
        #expect(quota.remaining(sent: 4) == 96)
        // Request 1 was slow: counted when 101 were left, it answers only now. It raises nothing.
        quota.update(hour(101), sequence: 1, outstanding: 0, sent: 4, inFlight: 3)
        #expect(quota.remaining(sent: 4) == 96)
        // Another tool used the key: the lower reading stands.
        quota.update(hour(80), sequence: 5, outstanding: 0, sent: 5, inFlight: 3)
        #expect(quota.remaining(sent: 5) == 80)
        // A later reading a little higher than the estimate is out of order, not a new hour.
        quota.update(hour(82), sequence: 6, outstanding: 0, sent: 6, inFlight: 3)
        #expect(quota.remaining(sent: 6) == 79)
        // The hour moved on.
        quota.update(hour(3599), sequence: 7, outstanding: 0, sent: 7, inFlight: 3)
        #expect(quota.remaining(sent: 8) == 3598)
        #expect(quota.limit == 3600)
    }

    @Test func theTokenGoesOnlyToHTTPSOrThisMachine() throws {
        for accepted in ["https://api.appstoreconnect.apple.com", "https://proxy.example.com/asc", "http://127.0.0.1:8080", "http://localhost:9", "http://[::1]:80"] {
            #expect(throws: Never.self) { _ = try APIClient.validatedBaseURL(accepted) }
        }
        for refused in ["http://example.com", "http://10.0.0.1", "http://127.0.0.1.example.com", "ftp://127.0.0.1", "file:///tmp", "api.appstoreconnect.apple.com",
                        "https://user:pass@example.com", "https://example.com/?q=1"] {
            #expect(throws: PullFailure.self, "\(refused)") { _ = try APIClient.validatedBaseURL(refused) }
        }
    }

    /// Answers every GET with a list whose `links.next` points at another host.
    struct ForeignLinkTransport: HTTPTransport {
        func get(_ url: URL, headers: [String: String]) async throws(TransportError) -> HTTPResponse {
            let body: JSONValue = ["data": [], "links": ["self": .string(url.absoluteString), "next": "https://collector.example.net/v1/apps?cursor=x"]]
            return HTTPResponse(status: 200, headers: [:], body: Data(body.serialized().utf8))
        }
    }

    @Test func aLinkToAnotherHostIsNotFollowed() async throws {
        let client = APIClient(configuration: APIClient.Configuration(), transport: ForeignLinkTransport(),
                               signer: TokenSigner(key: try TestAPIKey().apiKey()), sleep: { _ in })
        do {
            _ = try await SnapshotPull(client: client).run(bundleID: "com.example.synthetic.coins")
            Issue.record("the pull followed a link to another host")
        } catch {
            #expect(error.message.contains("collector.example.net"))
        }
        #expect(await client.statistics.requests == 1)
    }

    /// A transport that cannot make any request (libcurl missing): the pull stops at once with
    /// what to install, without retries and without blaming the network.
    struct UnavailableTransport: HTTPTransport {
        func get(_ url: URL, headers: [String: String]) async throws(TransportError) -> HTTPResponse {
            throw TransportError(message: "libcurl is not installed (libcurl.so.4: cannot open shared object file)",
                                 help: "install libcurl's runtime library (Debian and Ubuntu: `apt-get install libcurl4`)")
        }
    }

    @Test func aMissingHTTPLibraryIsSaidOnceWithWhatToInstall() async throws {
        let client = APIClient(configuration: APIClient.Configuration(), transport: UnavailableTransport(),
                               signer: TokenSigner(key: try TestAPIKey().apiKey()), sleep: { _ in })
        do {
            _ = try await client.get(URL(string: "https://api.appstoreconnect.apple.com/v1/apps")!)
            Issue.record("no request can be made")
        } catch {
            #expect(error.message.contains("libcurl.so.4"))
            #expect(!error.message.contains("dylib"))
            #expect(error.help.contains("apt-get install libcurl4"))
            #expect(!error.help.contains("proxy"))
        }
        #expect(await client.statistics.retries == 0)
    }

    /// Answers every GET with an empty list, with `X-Rate-Limit` or without.
    struct EmptyListTransport: HTTPTransport {
        var rateLimit: String?
        func get(_ url: URL, headers: [String: String]) async throws(TransportError) -> HTTPResponse {
            HTTPResponse(status: 200, headers: rateLimit.map { ["X-Rate-Limit": $0] } ?? [:], body: Data("{\"data\": []}".utf8))
        }
    }

    /// A server that never says how many requests are left gets a budget; one that is slow gets a
    /// deadline. What is past either is not sent, and recorded as not sent.
    @Test func aPullHasARequestBudgetAndADeadline() async throws {
        let url = URL(string: "https://api.appstoreconnect.apple.com/v1/apps")!
        let signer = TokenSigner(key: try TestAPIKey().apiKey())
        let budgeted = APIClient(configuration: APIClient.Configuration(maxRequestsWithoutRateLimit: 3), transport: EmptyListTransport(),
                                 signer: signer, sleep: { _ in })
        var answers: [String] = []
        for _ in 0..<5 {
            if case .notSent(let reason) = try await budgeted.get(url) { answers.append(reason.code) } else { answers.append("sent") }
        }
        #expect(answers == ["sent", "sent", "sent", "IAPDOCTOR.REQUEST_BUDGET", "IAPDOCTOR.REQUEST_BUDGET"])
        let paced = APIClient(configuration: APIClient.Configuration(maxRequestsWithoutRateLimit: 3),
                              transport: EmptyListTransport(rateLimit: "user-hour-lim:3600;user-hour-rem:3000;"), signer: signer, sleep: { _ in })
        for _ in 0..<5 {
            guard case .document = try await paced.get(url) else { Issue.record("X-Rate-Limit paces the pull; no budget applies"); break }
        }
        let clock = MutableClock(Date(timeIntervalSince1970: 1_795_024_000))
        let slow = APIClient(configuration: APIClient.Configuration(deadline: 60), transport: EmptyListTransport(), signer: signer,
                             sleep: { _ in }, clock: { clock.now })
        var timed: [String] = []
        for _ in 0..<4 {
            if case .notSent(let reason) = try await slow.get(url) { timed.append(reason.code) } else { timed.append("sent") }
            clock.advance(25)
        }
        #expect(timed == ["sent", "sent", "sent", "IAPDOCTOR.DEADLINE"])
    }

    @Test func aBodyOverTheLimitIsCutOff() async throws {
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")], body: Data(repeating: UInt8(ascii: " "), count: 20_000))
        }
        defer { server.stop() }
        let transport = PlatformHTTPTransport(maximumBodySize: 4096)
        defer { transport.close() }
        await #expect(throws: TransportError.self) {
            _ = try await transport.get(URL(string: server.baseURL + "/v1/apps")!, headers: [:])
        }
        let roomy = PlatformHTTPTransport(maximumBodySize: 65_536)
        defer { roomy.close() }
        let response = try await roomy.get(URL(string: server.baseURL + "/v1/apps")!, headers: [:])
        #expect(response.status == 200 && response.body.count == 20_000)
        #expect(response.headers["content-type"] == "application/json")
    }

    /// A server that is gone is a transport error in words, not a crash or a status: the port of a
    /// stopped loopback server refuses the connection.
    @Test func aRefusedConnectionIsDescribed() async throws {
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 200, headers: [], body: Data()) }
        let url = URL(string: server.baseURL + "/v1/apps")!
        server.stop()
        let transport = PlatformHTTPTransport(timeout: 5)
        defer { transport.close() }
        do {
            _ = try await transport.get(url, headers: [:])
            Issue.record("a stopped server answered")
        } catch {
            #expect(error.message == "cannot connect to the server", "\(error.message)")
        }
    }

    @Test func aRedirectIsReturnedNotFollowed() async throws {
        final class Paths: @unchecked Sendable {
            let lock = NSLock()
            var seen: [String] = []
        }
        let paths = Paths()
        let server = try LoopbackHTTPServer { request in
            paths.lock.withLock { paths.seen.append(request.path) }
            return LoopbackHTTPServer.Response(status: 302, headers: [("Location", "/elsewhere")])
        }
        defer { server.stop() }
        let transport = PlatformHTTPTransport()
        defer { transport.close() }
        let response = try await transport.get(URL(string: server.baseURL + "/v1/apps")!, headers: ["Authorization": "Bearer x"])
        #expect(response.status == 302)
        #expect(paths.lock.withLock { paths.seen } == ["/v1/apps"], "the token is not carried to where a redirect points")
    }

    @Test func jsonIsWrittenOneWayOnly() throws {
        let value: JSONValue = ["b": [1, 2.5, true, .null], "a": "quote \" backslash \\ slash / tab \t nul \u{0} é 😀", "c": [:], "d": []]
        #expect(value.serialized() == #"{"a":"quote \" backslash \\ slash / tab \t nul \u0000 é 😀","b":[1,2.5,true,null],"c":{},"d":[]}"#)
        #expect(value.serialized(pretty: true) == """
            {
              "a": "quote \\" backslash \\\\ slash / tab \\t nul \\u0000 é 😀",
              "b": [
                1,
                2.5,
                true,
                null
              ],
              "c": {},
              "d": []
            }
            """)
        #expect(try JSONValue.parse(Data(value.serialized().utf8)) == value)
        // Keys by their UTF-8 bytes: "Z" < "a" < "é".
        #expect((["é": 1, "a": 2, "Z": 3] as JSONValue).serialized() == #"{"Z":3,"a":2,"é":1}"#)
    }
}
