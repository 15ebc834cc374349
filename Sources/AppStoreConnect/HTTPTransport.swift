import Foundation

/// One HTTP answer: the status, the headers (names in lower case) and the body.
public struct HTTPResponse: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// The connection failed, timed out, or the answer broke a limit: no HTTP status to act on. With
/// `help`, no request can be made at all (libcurl is missing): retrying is pointless.
public struct TransportError: Error, Sendable {
    public let message: String
    public var help: String? = nil
    /// The answer stalled (``StallPolicy``): the server or a proxy holds it; asking again would
    /// stall the same way.
    public var stalled = false

    public init(message: String, help: String? = nil, stalled: Bool = false) {
        self.message = message
        self.help = help
        self.stalled = stalled
    }
}

/// When a transfer has stalled: fewer than `bytes` of the answer arrived in some `seconds`
/// (waiting for the first byte included). A server that drips its answer a byte at a time, or a
/// proxy that holds it, would otherwise keep each request to its whole timeout.
public struct StallPolicy: Sendable {
    public var seconds: Int
    public var bytes: Int

    public init(seconds: Int = 10, bytes: Int = 32) {
        self.seconds = seconds
        self.bytes = bytes
    }
}

/// How requests reach the API: `PlatformHTTPTransport` in the tool; anything that answers GETs in
/// tests.
public protocol HTTPTransport: Sendable {
    func get(_ url: URL, headers: [String: String]) async throws(TransportError) -> HTTPResponse
}

#if canImport(Darwin)
/// The tool's transport: URLSession on Apple platforms (part of the system's Foundation).
public typealias PlatformHTTPTransport = URLSessionTransport
#else
/// The tool's transport elsewhere: libcurl, loaded when the first request is made (see
/// `CurlTransport`), so that checks, which never touch the network, do not load it.
public typealias PlatformHTTPTransport = CurlTransport
#endif
