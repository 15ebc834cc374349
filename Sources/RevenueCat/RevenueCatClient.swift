import AppStoreConnect
import Foundation

/// Sends the pull's GETs to RevenueCat's REST API v2, one at a time: RevenueCat counts requests
/// per key in one-minute windows (60 a minute for project configuration), so there is nothing to
/// gain from more. Retries 429 (its `Retry-After`, else the body's `backoff_ms`), 5xx and dropped
/// connections; waits out the window when the rate headers say it is used up; stops at a
/// deadline and a ceiling on the bytes received.
public actor RevenueCatClient {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var retry: RetryPolicy
        /// Seconds the whole pull may take, waits included.
        public var deadline: TimeInterval
        /// Bytes of answers the pull may receive in all: what the snapshot reader accepts.
        public var maximumBytes: Int
        /// Requests sent at most (pages of every list, retries included).
        public var maximumRequests: Int
        /// RevenueCat's rate-limit window: a used-up window is waited out this long.
        public var window: TimeInterval

        public init(baseURL: URL = RevenueCatClient.productionBaseURL, retry: RetryPolicy = RetryPolicy(), deadline: TimeInterval = 600,
                    maximumBytes: Int = 64 * 1024 * 1024, maximumRequests: Int = 2_000, window: TimeInterval = 60) {
            self.baseURL = baseURL
            self.retry = retry
            self.deadline = deadline
            self.maximumBytes = maximumBytes
            self.maximumRequests = maximumRequests
            self.window = window
        }
    }

    public static let productionBaseURL = URL(string: "https://api.revenuecat.com/v2")!

    /// An error answer, after retries: the status and RevenueCat's `type` and `message`.
    public struct ErrorAnswer: Sendable, Equatable {
        public let status: Int
        public let type: String
        public let message: String
    }

    public enum Answer: Sendable {
        case document(JSONValue)
        case failed(ErrorAnswer)
    }

    public let configuration: Configuration
    private let key: SecretAPIKey
    private let transport: HTTPTransport
    private let sleep: @Sendable (TimeInterval) async throws -> Void
    private let clock: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    private let startedAt: Date
    /// The last answer said the window's requests are used up.
    private var windowUsedUp = false
    /// Requests, retries, pages and waits, as the App Store Connect pull counts them.
    public private(set) var statistics = PullStatistics()
    /// Bytes of answers received so far, against `maximumBytes`.
    private var received = 0

    public init(configuration: Configuration, key: SecretAPIKey, transport: HTTPTransport,
                sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64(max(0, $0) * 1_000_000_000)) },
                clock: @escaping @Sendable () -> Date = { Date() },
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.configuration = configuration
        self.key = key
        self.transport = transport
        self.sleep = sleep
        self.clock = clock
        self.jitter = jitter
        startedAt = clock()
    }

    /// `base/path?query`.
    public nonisolated func url(_ path: String, _ query: [(String, String)] = []) -> URL {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + path
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components.url!
    }

    /// A list's `next_page` (`/v2/projects/…?starting_after=…`) as a URL on the base URL's
    /// origin; a link elsewhere is refused rather than sent the key.
    public nonisolated func nextPage(_ link: String) throws(PullFailure) -> URL {
        guard let url = URL(string: link, relativeTo: configuration.baseURL)?.absoluteURL,
              ServiceURL.sameOrigin(url, configuration.baseURL) else {
            throw PullFailure(
                message: "refusing to follow the page link `\(key.masked(link).prefix(200))` given by the API: the key is sent only to \(configuration.baseURL.absoluteString)",
                help: "this is not how RevenueCat answers; check IAPDOCTOR_REVENUECAT_BASE_URL")
        }
        return url
    }

    /// `GET /projects/…?…`: the path under the base URL and the query, for messages.
    nonisolated func describe(_ url: URL) -> String {
        let basePath = configuration.baseURL.path.hasSuffix("/") ? String(configuration.baseURL.path.dropLast()) : configuration.baseURL.path
        var path = url.path
        if !basePath.isEmpty, path.hasPrefix(basePath) { path = String(path.dropFirst(basePath.count)) }
        var text = path.isEmpty ? "/" : path
        if let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery, !query.isEmpty {
            text += "?" + (query.removingPercentEncoding ?? query)
        }
        return text
    }

    public func countPage() {
        statistics.pages += 1
    }

    /// The answer to `GET url`. A refused key, an unreachable server, the deadline and the byte
    /// ceiling end the pull; any other error answer is the caller's to record.
    public func get(_ url: URL) async throws(PullFailure) -> Answer {
        var attempt = 0
        while true {
            attempt += 1
            if windowUsedUp {
                windowUsedUp = false
                try await pause(configuration.window, retrying: false)
            }
            try checkBudget()
            statistics.requests += 1
            let response: HTTPResponse
            do {
                response = try await transport.get(url, headers: [
                    "Authorization": "Bearer " + key.value, "Accept": "application/json", "User-Agent": "iapdoctor (revenuecat pull)",
                ])
            } catch {
                if let help = error.help { throw PullFailure.noHTTPS(error, help: help) }
                if error.stalled {
                    throw PullFailure(message: "RevenueCat's answer to \(describe(url)) stalled: \(error.message)",
                                      help: "the server or a proxy holds its answers; check the network and any proxy, then pull again")
                }
                guard let wait = configuration.retry.delay(afterAttempt: attempt, retryAfter: nil, now: clock(), jitter: jitter()) else {
                    throw PullFailure.unreachable("RevenueCat", at: configuration.baseURL, error, attempts: attempt)
                }
                try await pause(wait, retrying: true)
                continue
            }
            received += response.body.count
            guard received <= configuration.maximumBytes else {
                throw PullFailure(message: "RevenueCat's answers came to more than \(configuration.maximumBytes / (1024 * 1024)) MiB, more than a snapshot may hold",
                                  help: "this is far more than a RevenueCat project's configuration; check IAPDOCTOR_REVENUECAT_BASE_URL and any proxy")
            }
            if let usage = response.headers["revenuecat-rate-limit-current-usage"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
               let limit = response.headers["revenuecat-rate-limit-current-limit"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                windowUsedUp = usage >= limit
            }
            switch response.status {
            case 200...299:
                guard let document = try? JSONValue.parse(response.body), document.objectValue != nil else {
                    return .failed(ErrorAnswer(status: response.status, type: "not_json", message: "the answer is not a JSON object"))
                }
                return .document(document)
            case 401:
                throw PullFailure(
                    message: "RevenueCat refused the API key (401): it is not a secret key of API v2, or it was revoked",
                    help: "API v2 refuses v1 keys; " + SecretAPIKey.whereToMakeOne)
            default:
                let error = errorAnswer(response)
                if RetryPolicy.isRetryable(status: response.status),
                   let wait = configuration.retry.delay(afterAttempt: attempt, retryAfter: retryAfter(response), now: clock(), jitter: jitter()) {
                    try await pause(wait, retrying: true)
                    continue
                }
                return .failed(error)
            }
        }
    }

    /// `Retry-After`, else the 429 body's `backoff_ms` in whole seconds.
    private func retryAfter(_ response: HTTPResponse) -> String? {
        if let header = response.headers["retry-after"] { return header }
        guard let body = try? JSONValue.parse(response.body), let milliseconds = body["backoff_ms"]?.integerValue, milliseconds >= 0 else { return nil }
        return String((milliseconds + 999) / 1000)
    }

    private func errorAnswer(_ response: HTTPResponse) -> ErrorAnswer {
        let body = try? JSONValue.parse(response.body)
        let type = body?["type"]?.stringValue ?? "http_\(response.status)"
        let message = body?["message"]?.stringValue ?? "HTTP status \(response.status)"
        // The server's words: the key masked, cut short.
        return ErrorAnswer(status: response.status, type: String(key.masked(type).prefix(80)), message: String(key.masked(message).prefix(300)))
    }

    private func checkBudget() throws(PullFailure) {
        if clock().timeIntervalSince(startedAt) >= configuration.deadline {
            throw PullFailure(message: "the pull ran past its time limit of \(Int(configuration.deadline)) seconds (\(statistics.requests) requests sent)",
                              help: "RevenueCat answered too slowly or kept asking to wait; run the pull again later")
        }
        if statistics.requests >= configuration.maximumRequests {
            throw PullFailure(message: "the pull sent \(configuration.maximumRequests) requests without reading the whole project",
                              help: "this is far more than a RevenueCat project's configuration needs; check IAPDOCTOR_REVENUECAT_BASE_URL and any proxy")
        }
    }

    private func pause(_ seconds: TimeInterval, retrying: Bool) async throws(PullFailure) {
        if retrying { statistics.retries += 1 }
        statistics.waited += seconds
        try await PullFailure.wait(seconds, with: sleep)
    }
}
