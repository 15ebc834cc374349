#if canImport(Darwin)
import Foundation

/// GETs over URLSession, with a ceiling on the body's size (checked as bytes arrive, so a huge or
/// endless answer is cut off instead of filling memory) and no redirects (the token is for
/// App Store Connect alone; a redirect is returned as the 3xx it is).
public final class URLSessionTransport: NSObject, HTTPTransport, URLSessionDataDelegate, @unchecked Sendable {
    public let maximumBodySize: Int
    private let timeout: TimeInterval
    private let stall: StallPolicy
    private var session: URLSession!
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
    /// Looks at every transfer once a second for a stall (``StallPolicy``): URLSession's own
    /// timeout restarts with each packet, so a server dripping bytes would never reach it.
    private let watchdog = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "iapdoctor.stall-watchdog"))

    private final class Transfer {
        var body = Data()
        var response: HTTPURLResponse?
        var failure: String?
        var stalled = false
        /// The stall window: when it began, and the bytes received by then.
        var windowStart = Date()
        var windowBytes = 0
        let task: URLSessionTask
        let continuation: CheckedContinuation<HTTPResponse, Error>
        init(_ task: URLSessionTask, _ continuation: CheckedContinuation<HTTPResponse, Error>) {
            self.task = task
            self.continuation = continuation
        }
    }

    public init(maximumBodySize: Int = 32 * 1024 * 1024, timeout: TimeInterval = 60, stall: StallPolicy = StallPolicy()) {
        self.maximumBodySize = maximumBodySize
        self.timeout = timeout
        self.stall = stall
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        watchdog.schedule(deadline: .now() + 1, repeating: 1)
        watchdog.setEventHandler { [weak self] in self?.stopStalledTransfers() }
        watchdog.resume()
    }

    /// Ends the session (URLSession keeps its delegate until then).
    public func close() {
        watchdog.cancel()
        session.finishTasksAndInvalidate()
    }

    /// Cancels each transfer that received fewer than the policy's bytes in its last window.
    private func stopStalledTransfers() {
        guard stall.seconds > 0 else { return }
        let now = Date()
        var stalled: [URLSessionTask] = []
        lock.lock()
        for transfer in transfers.values where transfer.failure == nil && now.timeIntervalSince(transfer.windowStart) >= TimeInterval(stall.seconds) {
            if transfer.body.count - transfer.windowBytes < stall.bytes {
                transfer.failure = "the answer stalled: fewer than \(stall.bytes) bytes arrived in \(stall.seconds) seconds"
                transfer.stalled = true
                stalled.append(transfer.task)
            } else {
                transfer.windowStart = now
                transfer.windowBytes = transfer.body.count
            }
        }
        lock.unlock()
        for task in stalled { task.cancel() }
    }

    public func get(_ url: URL, headers: [String: String]) async throws(TransportError) -> HTTPResponse {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: request)
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    lock.lock()
                    transfers[task.taskIdentifier] = Transfer(task, continuation)
                    lock.unlock()
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(message: URLSessionTransport.describe(error))
        }
    }

    private func transfer(_ task: URLSessionTask) -> Transfer? {
        lock.lock()
        defer { lock.unlock() }
        return transfers[task.taskIdentifier]
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                           completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(dataTask) else { return completionHandler(.cancel) }
        lock.lock()
        transfer.response = response as? HTTPURLResponse
        if response.expectedContentLength > Int64(maximumBodySize) {
            transfer.failure = "the answer is \(response.expectedContentLength) bytes, more than the \(maximumBodySize) iapdoctor reads"
        }
        let refuse = transfer.failure != nil
        lock.unlock()
        completionHandler(refuse ? .cancel : .allow)
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(dataTask) else { return }
        lock.lock()
        var tooLarge = false
        if transfer.body.count + data.count > maximumBodySize {
            transfer.failure = "the answer is larger than the \(maximumBodySize) bytes iapdoctor reads"
            tooLarge = true
        } else {
            transfer.body.append(data)
        }
        lock.unlock()
        if tooLarge { dataTask.cancel() }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                           newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        guard let transfer = transfers.removeValue(forKey: task.taskIdentifier) else {
            lock.unlock()
            return
        }
        lock.unlock()
        if let failure = transfer.failure {
            transfer.continuation.resume(throwing: TransportError(message: failure, stalled: transfer.stalled))
        } else if let error {
            transfer.continuation.resume(throwing: TransportError(message: URLSessionTransport.describe(error)))
        } else if let response = transfer.response {
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in response.allHeaderFields { headers[name] = value }
            transfer.continuation.resume(returning: HTTPResponse(status: response.statusCode, headers: headers, body: transfer.body))
        } else {
            transfer.continuation.resume(throwing: TransportError(message: "the server sent no HTTP response"))
        }
    }

    static func describe(_ error: Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            switch nsError.code {
            case NSURLErrorTimedOut: return "the request timed out"
            case NSURLErrorCannotConnectToHost: return "cannot connect to the server"
            case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "cannot find the server (DNS lookup failed)"
            case NSURLErrorNotConnectedToInternet: return "this machine is not connected to the internet"
            case NSURLErrorNetworkConnectionLost: return "the connection was lost"
            case NSURLErrorCancelled: return "the request was cancelled"
            case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
                 NSURLErrorServerCertificateNotYetValid, NSURLErrorServerCertificateHasUnknownRoot:
                return "the TLS connection failed (\(nsError.localizedDescription))"
            default: break
            }
        }
        return nsError.localizedDescription
    }
}
#endif
