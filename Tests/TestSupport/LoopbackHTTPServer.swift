import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (a port the system picks) for the pull tests (App Store
/// Connect, RevenueCat): a real socket, so a pull goes through the tool's transport exactly as
/// against the service. One thread accepts; each connection gets a thread, one request, one answer and `Connection: close`, or,
/// with `keepAlive`, as many requests as the client sends on it.
/// Plain GETs only (the pull sends nothing else), and nothing but loopback traffic.
package final class LoopbackHTTPServer: @unchecked Sendable {
    package struct Request: Sendable {
        package let method: String
        /// The request target as sent: `/v1/apps?filter%5BbundleId%5D=…`.
        package let target: String
        /// The path, percent-decoded.
        package let path: String
        /// The query's parameters in order, percent-decoded.
        package let query: [(name: String, value: String)]
        /// Header names in lower case.
        package let headers: [String: String]

        package func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }
    }

    package struct Response: Sendable {
        package var status: Int
        package var headers: [(String, String)] = []
        package var body: Data = Data()
        /// Sent a byte at a time, this many seconds apart: a server that drips its answer.
        package var drip: TimeInterval? = nil

        package init(status: Int, headers: [(String, String)] = [], body: Data = Data(), drip: TimeInterval? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.drip = drip
        }
    }

    package let port: UInt16
    package var baseURL: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let keepAlive: Bool
    private let lock = NSLock()
    private var stopped = false
    private var accepted = 0
    private let acceptor = DispatchGroup()

    /// Connections accepted so far.
    package var connections: Int {
        lock.lock()
        defer { lock.unlock() }
        return accepted
    }

    package init(keepAlive: Bool = false, handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        self.keepAlive = keepAlive
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw ServerError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw ServerError("bind/listen on 127.0.0.1 failed: errno \(errno)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.listener = listener
        self.port = UInt16(bigEndian: actual.sin_port)
        acceptor.enter()
        Thread { [self] in
            acceptLoop()
            acceptor.leave()
        }.start()
    }

    /// Stops accepting and waits for the accepting thread to end.
    package func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        acceptor.wait()
        close(listener)
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    private func acceptLoop() {
        // poll() with a short timeout, so `stop()` is noticed without closing a descriptor that
        // another thread is blocked in (which Darwin and Linux treat differently).
        while !isStopped {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            lock.lock()
            accepted += 1
            lock.unlock()
            #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        repeat {
            // With keep-alive, wait for the next request while the server runs.
            if keepAlive {
                var descriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                while !isStopped && poll(&descriptor, 1, 50) == 0 {}
                if isStopped { return }
            }
            guard let head = readHead(connection), let request = LoopbackHTTPServer.parse(head) else {
                if !keepAlive { send(Response(status: 400, body: Data("bad request".utf8)), to: connection) }
                return
            }
            send(handler(request), to: connection)
        } while keepAlive
    }

    /// Reads up to the blank line that ends the headers (a GET has no body), at most 64 KiB.
    private func readHead(_ connection: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while bytes.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            bytes += buffer[0..<count]
            if bytes.containsSubsequence(end) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    package static func parse(_ head: String) -> Request? {
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = String(parts[1])
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let decode: (Substring) -> String = { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
        var query: [(name: String, value: String)] = []
        if pieces.count == 2 {
            for pair in pieces[1].split(separator: "&") {
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((decode(nameValue[0]), nameValue.count == 2 ? decode(nameValue[1]) : ""))
            }
        }
        return Request(method: String(parts[0]), target: target, path: decode(pieces[0]), query: query, headers: headers)
    }

    private func send(_ response: Response, to connection: Int32) {
        var head = "HTTP/1.1 \(response.status) \(response.status == 200 ? "OK" : "Status")\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        var bytes = Array(head.utf8)
        bytes += response.body
        var offset = 0
        while offset < bytes.count {
            let end = response.drip == nil ? bytes.count : offset + 1
            if let drip = response.drip {
                if isStopped { return }
                usleep(useconds_t(drip * 1_000_000))
            }
            #if canImport(Glibc)
            let sent = bytes[offset..<end].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let sent = bytes[offset..<end].withUnsafeBytes { Darwin.send(connection, $0.baseAddress, $0.count, 0) }
            #endif
            guard sent > 0 else { return }
            offset += sent
        }
    }

    package struct ServerError: Error, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }
}

private extension Array where Element == UInt8 {
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard count >= needle.count else { return false }
        for start in 0...(count - needle.count) where self[start..<start + needle.count].elementsEqual(needle) { return true }
        return false
    }
}
