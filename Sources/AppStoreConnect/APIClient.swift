import Foundation

/// A pull that cannot go on: the key was refused, the network failed, or the server broke a rule
/// iapdoctor relies on. One line to show, and what to do about it.
public struct PullFailure: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let help: String
    public var description: String { message }

    public init(message: String, help: String) {
        self.message = message
        self.help = help
    }

    /// The pull's task was cancelled (Ctrl-C, a sleep cut short).
    public static let cancelled = PullFailure(message: "the pull was cancelled", help: "run it again")

    /// This machine cannot make HTTPS requests at all (no libcurl, no TLS): `error.help` says why.
    public static func noHTTPS(_ error: TransportError, help: String) -> PullFailure {
        PullFailure(message: "cannot make HTTPS requests: \(error.message)", help: help)
    }

    /// `service` could not be reached at `baseURL`, after every attempt.
    public static func unreachable(_ service: String, at baseURL: URL, _ error: TransportError, attempts: Int) -> PullFailure {
        PullFailure(message: "cannot reach \(service) at \(baseURL.absoluteString): \(error.message) (after \(attempts) attempts)",
                    help: "check the network connection and any proxy, then run the pull again")
    }

    /// Waits `seconds` with `sleep`; a cancelled wait ends the pull.
    public static func wait(_ seconds: TimeInterval, with sleep: @Sendable (TimeInterval) async throws -> Void) async throws(PullFailure) {
        do {
            try await sleep(seconds)
        } catch {
            throw PullFailure.cancelled
        }
    }
}

/// An API error answer for one request (after any retries): the HTTP status and the first
/// `errors[]` entry's `code`, `title` and `detail`.
public struct APIError: Sendable, Equatable {
    public let status: Int
    public let code: String
    public let title: String
    public let detail: String?

    public static let agreementsCode = "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED"

    init(status: Int, body: Data) {
        let first = (try? JSONValue.parse(body))?["errors"]?.arrayValue?.first
        self.status = status
        self.code = first?["code"]?.stringValue ?? "HTTP_\(status)"
        self.title = first?["title"]?.stringValue ?? HTTPStatusText.text(status)
        self.detail = first?["detail"]?.stringValue
    }

    init(status: Int, code: String, title: String, detail: String?) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
    }
}

/// Why the pull sends no more requests: an answer every further request would get too.
public struct StopReason: Sendable, Equatable {
    /// The API's error code (`FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED`,
    /// `RATE_LIMIT_EXCEEDED`), or iapdoctor's own `IAPDOCTOR.RATE_LIMIT_RESERVE`.
    public let code: String
    /// "Not sent: …", for each request that was not sent.
    public let title: String
    public let detail: String?
}

/// What one GET came to.
public enum APIAnswer: Sendable {
    /// A 2xx answer whose body is JSON.
    case document(JSONValue)
    /// An error answer, after retries.
    case failed(APIError)
    /// Not sent: an earlier answer stopped the pull.
    case notSent(StopReason)
}

/// Counts for the summary line and the tests.
public struct PullStatistics: Sendable, Equatable {
    /// HTTP requests sent, retries included.
    public var requests = 0
    /// Requests sent again after a 429, a 5xx or a dropped connection.
    public var retries = 0
    /// Pages of lists read (a list of one page counts one).
    public var pages = 0
    /// Seconds spent waiting: Retry-After, backoff and slowing down for the rate limit.
    public var waited: TimeInterval = 0
    /// The key's hourly quota and what is left of it after the requests sent, by `X-Rate-Limit`.
    public var rateLimit: RateLimit?

    public init() {}
}

/// Sends the pull's GETs: signs them, keeps at most `concurrency` in flight, retries 429/5xx and
/// dropped connections, watches `X-Rate-Limit`, and stops everything once an answer says the
/// rest would fail too (a lapsed agreement, an exhausted rate limit).
public actor APIClient {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var concurrency: Int
        public var retry: RetryPolicy
        public var rateLimit: RateLimitPolicy
        /// Requests sent at most while no answer has carried `X-Rate-Limit` (App Store Connect's
        /// hourly quota of one key: a server that does not say cannot be paced by it).
        public var maxRequestsWithoutRateLimit: Int
        /// Seconds the whole pull may take, waits and retries included; past it, what is left is
        /// not sent and recorded as such.
        public var deadline: TimeInterval

        public init(baseURL: URL = APIClient.productionBaseURL, concurrency: Int = 3, retry: RetryPolicy = RetryPolicy(),
                    rateLimit: RateLimitPolicy = RateLimitPolicy(), maxRequestsWithoutRateLimit: Int = 3_600, deadline: TimeInterval = 3_600) {
            self.baseURL = baseURL
            self.concurrency = min(max(concurrency, 1), 3)
            self.retry = retry
            self.rateLimit = rateLimit
            self.maxRequestsWithoutRateLimit = maxRequestsWithoutRateLimit
            self.deadline = deadline
        }
    }

    public static let productionBaseURL = URL(string: "https://api.appstoreconnect.apple.com")!

    public let configuration: Configuration
    private let transport: HTTPTransport
    private let signer: TokenSigner
    private let sleep: @Sendable (TimeInterval) async throws -> Void
    private let clock: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var stopReason: StopReason?
    private var quota: QuotaEstimate?
    /// Requests that came back, answered or not: the rest are outstanding.
    private var answered = 0
    public private(set) var statistics = PullStatistics()
    private let onProgress: (@Sendable (PullStatistics) -> Void)?
    /// When the client was made: the deadline counts from here.
    private let startedAt: Date

    public init(configuration: Configuration, transport: HTTPTransport, signer: TokenSigner,
                sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64(max(0, $0) * 1_000_000_000)) },
                clock: @escaping @Sendable () -> Date = { Date() },
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
                onProgress: (@Sendable (PullStatistics) -> Void)? = nil) {
        self.configuration = configuration
        self.transport = transport
        self.signer = signer
        self.sleep = sleep
        self.clock = clock
        self.jitter = jitter
        self.onProgress = onProgress
        startedAt = clock()
    }

    /// The base URL iapdoctor may send the key to (``ServiceURL/validated(_:service:)``).
    public static func validatedBaseURL(_ text: String) throws(PullFailure) -> URL {
        try ServiceURL.validated(text, service: "App Store Connect", credential: "API token")
    }

    /// The answer to `GET url`, where `url` is the base URL's (or a `links.next` on the same
    /// scheme, host and port: a link elsewhere is refused rather than sent the token).
    public func get(_ url: URL) async throws(PullFailure) -> APIAnswer {
        guard sameOrigin(url) else {
            throw PullFailure(
                message: "refusing to follow a link to `\(url.scheme ?? "")://\(url.host ?? "")` given by the API: the token is sent only to \(configuration.baseURL.absoluteString)",
                help: "this is not how App Store Connect answers; check IAPDOCTOR_ASC_BASE_URL")
        }
        if let stopReason { return .notSent(stopReason) }
        await acquireSlot()
        defer { releaseSlot() }
        var attempt = 0
        // A 401 is answered once with a new token: App Store Connect refuses a valid one now and then.
        var renewToken = false
        var renewedAfter401 = false
        while true {
            attempt += 1
            if let stopReason { return .notSent(stopReason) }
            try await paceForRateLimit()
            checkBudget()
            if let stopReason { return .notSent(stopReason) }
            let token = try signer.token(renewed: renewToken)
            renewToken = false
            statistics.requests += 1
            let sequence = statistics.requests
            onProgress?(statistics)
            let response: HTTPResponse
            do {
                response = try await transport.get(url, headers: [
                    "Authorization": "Bearer " + token, "Accept": "application/json",
                    "User-Agent": "iapdoctor (asc pull)",
                ])
                answered += 1
            } catch {
                answered += 1
                if let help = error.help { throw PullFailure.noHTTPS(error, help: help) }
                // A stalled answer would stall again: the pull stops, and what it has is written
                // with this request and the rest listed as not sent.
                if error.stalled {
                    stop(StopReason(
                        code: "IAPDOCTOR.STALLED", title: "Not sent: an answer stalled, so the pull stopped",
                        detail: "\(error.message); the server or a proxy holds its answers. Check the network and any proxy, then pull again with --resume."))
                    return .notSent(stopReason!)
                }
                guard let wait = configuration.retry.delay(afterAttempt: attempt, retryAfter: nil, now: clock(), jitter: jitter()) else {
                    throw PullFailure.unreachable("App Store Connect", at: configuration.baseURL, error, attempts: attempt)
                }
                try await pause(wait, retrying: true)
                continue
            }
            if let header = response.headers["x-rate-limit"], let rateLimit = RateLimit(header: header) {
                let outstanding = statistics.requests - answered
                if quota == nil {
                    quota = QuotaEstimate(rateLimit, sequence: sequence, outstanding: outstanding, sent: statistics.requests)
                } else {
                    quota?.update(rateLimit, sequence: sequence, outstanding: outstanding, sent: statistics.requests, inFlight: configuration.concurrency)
                }
                if let quota {
                    statistics.rateLimit = RateLimit(limit: quota.limit, remaining: max(0, quota.remaining(sent: statistics.requests)))
                }
            }
            switch response.status {
            case 200...299:
                guard let document = try? JSONValue.parse(response.body), document.objectValue != nil else {
                    return .failed(APIError(status: response.status, code: "IAPDOCTOR.NOT_JSON",
                                            title: "The answer is not a JSON document", detail: nil))
                }
                return .document(document)
            case 401:
                // Tokens are signed with this machine's clock: one far from App Store Connect's is
                // refused every time, and a new token would be too.
                if let header = response.headers["date"], let serverTime = RetryPolicy.parseHTTPDate(header) {
                    let skew = clock().timeIntervalSince(serverTime)
                    if abs(skew) >= APIClient.tolerableClockSkew {
                        let minutes = Int((abs(skew) / 60).rounded())
                        throw PullFailure(
                            message: "App Store Connect refused the API token (401): this machine's clock is \(minutes) minute\(minutes == 1 ? "" : "s") \(skew > 0 ? "ahead of" : "behind") App Store Connect's (its answer is dated \(header)), and tokens are signed with this clock",
                            help: "set the clock right (turn on network time: `timedatectl set-ntp true` on Linux, Date & Time settings on a Mac), then run the pull again")
                    }
                }
                if !renewedAfter401 {
                    renewedAfter401 = true
                    renewToken = true
                    statistics.retries += 1
                    continue
                }
                if signer.key.isIndividual {
                    throw PullFailure(
                        message: "App Store Connect refused the individual API key (401 NOT_AUTHORIZED): the Key ID and private key do not match, the key was revoked, or it is a team key",
                        help: "a team key needs its Issuer ID (--issuer-id, shown above the keys in Users and Access → Integrations → App Store Connect API); an individual key is used with its own Key ID and no Issuer ID")
                }
                throw PullFailure(
                    message: "App Store Connect refused the API key (401 NOT_AUTHORIZED): the Key ID, Issuer ID and private key do not match, or the key was revoked",
                    help: "use a team key from Users and Access → Integrations → App Store Connect API with its own Key ID and the Issuer ID shown there (an individual key has none: use --individual-key); an In-App Purchase key (Users and Access → Integrations → In-App Purchase) is not an App Store Connect API key and is always refused")
            default:
                let error = APIError(status: response.status, body: response.body)
                if RetryPolicy.isRetryable(status: response.status),
                   let wait = configuration.retry.delay(afterAttempt: attempt, retryAfter: response.headers["retry-after"], now: clock(), jitter: jitter()) {
                    try await pause(wait, retrying: true)
                    continue
                }
                // Every further request would get the same answer.
                if error.code == APIError.agreementsCode {
                    stopReason = StopReason(code: error.code, title: "Not sent: App Store Connect answered an earlier request that a required agreement is missing or has expired, as it answers every request then", detail: nil)
                } else if response.status == 429 {
                    stopReason = StopReason(code: error.code, title: "Not sent: App Store Connect still answered 429 (rate limit) to an earlier request after \(attempt) attempts", detail: error.detail)
                }
                return .failed(error)
            }
        }
    }

    /// A clock this far from App Store Connect's makes its tokens be refused (they are valid from
    /// `iat` for at most 20 minutes).
    static let tolerableClockSkew: TimeInterval = 120

    /// Counts a page read (for the statistics).
    public func countPage() {
        statistics.pages += 1
    }

    /// What stopped the pull, if something did.
    public var stoppedBy: StopReason? { stopReason }

    /// Sends nothing more, for a reason found outside the client (the snapshot is full).
    func stop(_ reason: StopReason) {
        if stopReason == nil { stopReason = reason }
    }

    /// Stops the pull past its deadline, or past its request budget when no answer has said how
    /// many requests the key has left.
    private func checkBudget() {
        guard stopReason == nil else { return }
        if clock().timeIntervalSince(startedAt) >= configuration.deadline {
            stopReason = StopReason(
                code: "IAPDOCTOR.DEADLINE", title: "Not sent: the pull ran past its time limit",
                detail: "the pull may take \(Int(configuration.deadline)) seconds, waits and retries included; the server answered too slowly. Pull again later.")
        } else if statistics.rateLimit == nil, statistics.requests >= configuration.maxRequestsWithoutRateLimit {
            stopReason = StopReason(
                code: "IAPDOCTOR.REQUEST_BUDGET", title: "Not sent: the pull sent as many requests as one key may in an hour",
                detail: "no answer carried X-Rate-Limit, so iapdoctor stops at \(configuration.maxRequestsWithoutRateLimit) requests, App Store Connect's hourly limit of one key. Pull again in an hour.")
        }
    }

    /// Waits a little when the key's hourly quota runs low, and stops the pull when only the
    /// reserve is left. Other requests may be sent during the wait, so the reserve is looked at
    /// again after it, with nothing awaited between that look and the send.
    private func paceForRateLimit() async throws(PullFailure) {
        guard let remaining = quota?.remaining(sent: statistics.requests) else { return }
        if remaining > configuration.rateLimit.stopBelow, remaining <= configuration.rateLimit.slowDownBelow {
            try await pause(configuration.rateLimit.slowDownDelay, retrying: false)
        }
        guard let quota, stopReason == nil else { return }
        let left = quota.remaining(sent: statistics.requests)
        if left <= configuration.rateLimit.stopBelow {
            stopReason = StopReason(
                code: "IAPDOCTOR.RATE_LIMIT_RESERVE", title: "Not sent: the API key's hourly request limit is nearly used up",
                detail: "by X-Rate-Limit, \(max(0, left)) of \(quota.limit) requests remain in this hour once those already sent are counted; iapdoctor leaves the last \(configuration.rateLimit.stopBelow) to the team's other tools. Pull again when the hour has rolled over.")
        }
    }

    private func pause(_ seconds: TimeInterval, retrying: Bool) async throws(PullFailure) {
        if retrying { statistics.retries += 1 }
        statistics.waited += seconds
        try await PullFailure.wait(seconds, with: sleep)
    }

    private func sameOrigin(_ url: URL) -> Bool {
        ServiceURL.sameOrigin(url, configuration.baseURL)
    }

    private func acquireSlot() async {
        if inFlight < configuration.concurrency {
            inFlight += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func releaseSlot() {
        if waiting.isEmpty {
            inFlight -= 1
        } else {
            // The slot passes straight to the next waiter.
            waiting.removeFirst().resume()
        }
    }
}

/// Reason phrases for error answers without a JSON:API body (a proxy's 502, say).
enum HTTPStatusText {
    static func text(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 409: return "Conflict"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "HTTP status \(status)"
        }
    }
}
