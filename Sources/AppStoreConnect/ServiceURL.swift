import Foundation

/// Where a pull may send its credential: https anywhere (the service, a proxy, a mock service),
/// or plain http to this machine only (tests' loopback servers). Links the service gives are
/// followed only to the same origin.
public enum ServiceURL {
    /// `text` as a base URL, or why the credential will not be sent there.
    public static func validated(_ text: String, service: String, credential: String) throws(PullFailure) -> URL {
        let help = "give an https:// URL, or http:// to 127.0.0.1, ::1 or localhost"
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else {
            throw PullFailure(message: "the \(service) base URL `\(text)` is not a URL with a host", help: help)
        }
        switch scheme {
        case "https": return url
        case "http" where isLoopback(host): return url
        default:
            throw PullFailure(message: "refusing to send the \(credential) to `\(text)`: only https, or http to this machine, is allowed", help: help)
        }
    }

    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Same scheme, host and port (a missing port is the scheme's).
    public static func sameOrigin(_ url: URL, _ base: URL) -> Bool {
        url.scheme?.lowercased() == base.scheme?.lowercased() && url.host?.lowercased() == base.host?.lowercased()
            && (url.port ?? defaultPort(url.scheme)) == (base.port ?? defaultPort(base.scheme))
    }

    static func defaultPort(_ scheme: String?) -> Int {
        scheme?.lowercased() == "http" ? 80 : 443
    }
}
