#if !canImport(Darwin)
import CCurlLoader
import Foundation

/// GETs through libcurl, loaded with `dlopen` on the first request (CCurlLoader): Foundation's
/// URLSession on Linux links libcurl and some 30 libraries into every run of the binary, which
/// would be most of a tiny check's start-up, and its static build needs libcurl's
/// development files. Same contract as `URLSessionTransport`: a ceiling on the body's size
/// (checked as bytes arrive), no redirects (a 3xx is returned as it is), http and https only.
public final class CurlTransport: HTTPTransport, @unchecked Sendable {
    public let maximumBodySize: Int
    private let timeout: TimeInterval
    private let stall: StallPolicy
    /// This transport's handles, kept between requests with their connections; nil once closed
    /// (a request then uses a handle of its own).
    private var pool: OpaquePointer?
    private let poolLock = NSLock()

    public init(maximumBodySize: Int = 32 * 1024 * 1024, timeout: TimeInterval = 60, stall: StallPolicy = StallPolicy()) {
        self.maximumBodySize = maximumBodySize
        self.timeout = timeout
        self.stall = stall
        pool = iap_http_pool_create()
    }

    deinit { close() }

    /// Closes the kept connections; call it when no request is in flight.
    public func close() {
        poolLock.lock()
        let pool = self.pool
        self.pool = nil
        poolLock.unlock()
        iap_http_pool_free(pool)
    }

    public func get(_ url: URL, headers: [String: String]) async throws(TransportError) -> HTTPResponse {
        let lines = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let cancelled = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        cancelled.initialize(to: 0)
        let request = Request(url: url.absoluteString, lines: lines, maximumBodySize: maximumBodySize,
                              timeout: max(1, Int(timeout.rounded(.up))), stall: stall, cancelled: cancelled, pool: poolLock.withLock { pool })
        let outcome: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // libcurl blocks: one thread per request, off the cooperative pool.
                let thread = Thread { continuation.resume(returning: request.perform()) }
                thread.start()
            }
        } onCancel: {
            request.cancel()
        }
        request.release()
        return try outcome.get()
    }

    /// One transfer's inputs, and the flag its progress callback reads to stop it.
    private final class Request: @unchecked Sendable {
        let url: String
        let lines: [String]
        let maximumBodySize: Int
        let timeout: Int
        let stall: StallPolicy
        let cancelled: UnsafeMutablePointer<Int32>
        let pool: OpaquePointer?

        init(url: String, lines: [String], maximumBodySize: Int, timeout: Int, stall: StallPolicy, cancelled: UnsafeMutablePointer<Int32>, pool: OpaquePointer?) {
            self.url = url
            self.lines = lines
            self.maximumBodySize = maximumBodySize
            self.timeout = timeout
            self.stall = stall
            self.cancelled = cancelled
            self.pool = pool
        }

        func cancel() { cancelled.pointee = 1 }
        func release() { cancelled.deallocate() }

        func perform() -> Result<HTTPResponse, TransportError> {
            var result = iap_http_result()
            let copies = lines.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            var pointers = copies.map { UnsafePointer<CChar>($0) }
            pointers.withUnsafeMutableBufferPointer { buffer in
                iap_http_get(pool, url, buffer.baseAddress, buffer.count, maximumBodySize, timeout, stall.seconds, stall.bytes, cancelled, &result)
            }
            defer { iap_http_result_free(&result) }
            guard result.ok == 1 else {
                let message = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                // libcurl could not be loaded: no request will go out, whatever the network.
                if result.unavailable == 1 {
                    return .failure(TransportError(
                        message: message, help: "install libcurl's runtime library (Debian and Ubuntu: `apt-get install libcurl4`; Fedora: `dnf install libcurl`), then run the pull again"))
                }
                return .failure(TransportError(message: message.isEmpty ? "the request failed" : message, stalled: result.stalled == 1))
            }
            let body = result.body.map { Data(bytes: $0, count: result.body_length) } ?? Data()
            let head = result.headers.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: result.headers_length), as: UTF8.self) } ?? ""
            return .success(HTTPResponse(status: result.status, headers: Self.headers(head), body: body))
        }

        /// "Name: value" lines; a repeated name keeps its first value, as `HTTPResponse` does.
        static func headers(_ text: String) -> [String: String] {
            var headers: [String: String] = [:]
            for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if !name.isEmpty, headers[name] == nil { headers[name] = value }
            }
            return headers
        }
    }
}
#endif
