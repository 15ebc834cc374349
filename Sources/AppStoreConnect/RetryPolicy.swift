import Foundation

/// When to retry a request, and how long to wait first.
///
/// 429 and 5xx are retried (Apple's rate limiter and its occasional 503s; the `asc` CLI and
/// asconnect-service retry the same), at most `maximumAttempts` times in all. The wait is the
/// answer's `Retry-After` (seconds or an HTTP date) when it gives one, else exponential backoff
/// with jitter, so two clients that failed together do not retry together.
public struct RetryPolicy: Sendable {
    public var maximumAttempts: Int
    public var baseDelay: TimeInterval
    public var maximumDelay: TimeInterval
    /// A `Retry-After` longer than this is not waited out: the request fails instead (a server
    /// that says "come back in an hour" means it).
    public var longestRetryAfter: TimeInterval

    public init(maximumAttempts: Int = 5, baseDelay: TimeInterval = 1, maximumDelay: TimeInterval = 30,
                longestRetryAfter: TimeInterval = 120) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.longestRetryAfter = longestRetryAfter
    }

    public static func isRetryable(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    /// The wait before attempt `attempt + 1` (attempts count from 1), or nil to give up.
    /// `jitter` is a number in [0, 1).
    public func delay(afterAttempt attempt: Int, retryAfter: String?, now: Date, jitter: Double) -> TimeInterval? {
        guard attempt < maximumAttempts else { return nil }
        if let retryAfter, let seconds = RetryPolicy.parseRetryAfter(retryAfter, now: now) {
            return seconds <= longestRetryAfter ? seconds : nil
        }
        let exponential = min(maximumDelay, baseDelay * pow(2, Double(attempt - 1)))
        // "Equal jitter": half fixed, half random, so the wait still grows with each attempt.
        return exponential / 2 + exponential / 2 * min(max(jitter, 0), 1)
    }

    /// `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT` (RFC 9110 §10.2.3), as
    /// seconds from `now` (a date in the past is 0).
    public static func parseRetryAfter(_ value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) {
            return Double(String(trimmed.prefix(9)))
        }
        return parseHTTPDate(trimmed).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// An HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT` and the two obsolete forms, RFC 9110 §5.6.7).
    public static func parseHTTPDate(_ value: String) -> Date? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}

/// The `X-Rate-Limit` header every App Store Connect answer carries:
/// `user-hour-lim:3600;user-hour-rem:3121;` (the key's requests per rolling hour, and what is left).
public struct RateLimit: Sendable, Equatable {
    public let limit: Int
    public let remaining: Int

    public init(limit: Int, remaining: Int) {
        self.limit = limit
        self.remaining = remaining
    }

    public init?(header: String) {
        var values: [String: Int] = [:]
        for part in header.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, let number = Int(pair[1].trimmingCharacters(in: .whitespaces)) else { continue }
            values[pair[0].trimmingCharacters(in: .whitespaces).lowercased()] = number
        }
        guard let limit = values["user-hour-lim"], let remaining = values["user-hour-rem"] else { return nil }
        self.init(limit: limit, remaining: remaining)
    }
}

/// What is left of the key's hourly quota, from the `X-Rate-Limit` answers and the requests sent
/// since. Concurrent requests reach App Store Connect and come back in any order, and a slow one
/// can come back long after later ones: each answer is read as what it reports less every
/// request still outstanding, and the lowest reading, less the requests sent since, stands. Only
/// an answer to a request sent after the one that gave the standing reading can raise it, and
/// only by more than the requests that can be in flight (the hour has moved on).
public struct QuotaEstimate: Sendable, Equatable {
    public private(set) var limit: Int
    private var remaining: Int
    private var sentWhenRead: Int
    /// The request whose answer gave the reading (the first sent is 1).
    private var source: Int

    /// The reading of the answer to request `sequence`, come when `sent` requests had been sent
    /// and `outstanding` of them, not counting this one, were still unanswered.
    public init(_ rateLimit: RateLimit, sequence: Int, outstanding: Int, sent: Int) {
        limit = rateLimit.limit
        remaining = rateLimit.remaining - outstanding
        sentWhenRead = sent
        source = sequence
    }

    /// The requests left after the `sent` requests sent so far.
    public func remaining(sent: Int) -> Int {
        remaining - (sent - sentWhenRead)
    }

    /// Takes in a later answer; `inFlight` is how many requests can be outstanding at once.
    public mutating func update(_ rateLimit: RateLimit, sequence: Int, outstanding: Int, sent: Int, inFlight: Int) {
        let reading = QuotaEstimate(rateLimit, sequence: sequence, outstanding: outstanding, sent: sent)
        let current = remaining(sent: sent)
        let now = reading.remaining(sent: sent)
        if now < current || (sequence > source && now > current + inFlight) || rateLimit.limit != limit {
            self = reading
        }
    }
}

/// How the pull spends the key's hourly quota: it slows down when little is left, and stops
/// before the last requests so the team's other tools (CI uploads, fastlane) still have some.
public struct RateLimitPolicy: Sendable {
    /// At or below this many remaining requests, wait `slowDownDelay` before each request.
    public var slowDownBelow: Int
    public var slowDownDelay: TimeInterval
    /// At or below this many, send no more requests.
    public var stopBelow: Int

    public init(slowDownBelow: Int = 200, slowDownDelay: TimeInterval = 1, stopBelow: Int = 20) {
        self.slowDownBelow = slowDownBelow
        self.slowDownDelay = slowDownDelay
        self.stopBelow = stopBelow
    }
}
