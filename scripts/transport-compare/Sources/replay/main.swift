// Not part of iapdoctor: a throwaway package that weighs async-http-client against the pull's
// libcurl transport by replaying one pull's requests through each (see BENCHMARKS.md).
// Usage: swift run -c release replay curl|ahc BASE_URL requests.txt CONCURRENCY
import AppStoreConnect
import AsyncHTTPClient
import Foundation
import NIOCore

/// The pull's transport protocol on async-http-client: keep-alive pool, HTTP/2 when TLS offers it.
final class AHCTransport: HTTPTransport, @unchecked Sendable {
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    func get(_ url: URL, headers: [String: String]) async throws(TransportError) -> HTTPResponse {
        do {
            var request = HTTPClientRequest(url: url.absoluteString)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 32 << 20)
            var fields: [String: String] = [:]
            for header in response.headers { fields[header.name.lowercased()] = header.value }
            return HTTPResponse(status: Int(response.status.code), headers: fields, body: Data(body.readableBytesView))
        } catch {
            throw TransportError(message: "\(error)")
        }
    }
    func close() { try? client.syncShutdown() }
}

let arguments = CommandLine.arguments
let kind = arguments[1], base = arguments[2], list = arguments[3]
let width = Int(arguments[4]) ?? 3
let targets = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
let curl = CurlTransport()
let ahc = kind == "ahc" ? AHCTransport() : nil
let started = Date()
let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
    var pending = targets.makeIterator()
    var total = 0
    func add() -> Bool {
        guard let target = pending.next() else { return false }
        group.addTask {
            let url = URL(string: base + target)!
            let transport: HTTPTransport = ahc ?? curl
            let response = try await transport.get(url, headers: ["Authorization": "Bearer x"])
            return response.body.count
        }
        return true
    }
    for _ in 0..<width { _ = add() }
    while let count = try await group.next() {
        total += count
        _ = add()
    }
    return total
}
print(kind, targets.count, "requests", bytes, "bytes", String(format: "%.2f s", Date().timeIntervalSince(started)))
ahc?.close()
curl.close()
