#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which proxy a request goes through: one given proxy, or curl's environment variables, with
/// `no_proxy` exceptions.
///
/// Proxy URLs, as curl reads them (the port is 1080 when left out, 443 for `https://`):
/// - `http://HOST[:PORT]` (or no scheme): an HTTP proxy. An `https://` URL goes through a
///   `CONNECT` tunnel (TLS end to end); an `http://` URL is sent to the proxy in absolute form
///   (`GET http://host/path`), as curl does, so proxies that allow `CONNECT` to port 443 only
///   still carry it.
/// - `https://HOST[:PORT]`: the same over TLS to the proxy, whose certificate is verified against
///   the transport's trust roots and checked for the proxy's host name.
/// - `socks5://`: SOCKS5 (RFC 1928) with the host name resolved here and the address sent;
///   `socks5h://`: the host name sent, resolved by the proxy.
///
/// Credentials (`http://USER:PASSWORD@HOST`, or ``Proxy/credentials`` set from a file or an
/// environment variable) are sent as proxy Basic authentication to an HTTP proxy and as RFC 1929
/// user name and password to a SOCKS5 proxy; they never appear in messages.
public struct ProxySettings: Sendable, Hashable {
    /// One proxy.
    public struct Proxy: Sendable, Hashable, CustomStringConvertible {
        /// The proxy protocol.
        public enum Kind: String, Sendable, Hashable {
            /// An HTTP proxy (`CONNECT` tunnels for https, absolute-form requests for http).
            case http
            /// An HTTP proxy reached over TLS.
            case https
            /// A SOCKS5 proxy; the host name is resolved here and its address sent.
            case socks5
            /// A SOCKS5 proxy that is sent the host name and resolves it.
            case socks5h
        }

        public var kind: Kind
        public var host: String
        public var port: Int
        /// `user:password` for proxy Basic authentication, if the URL had them (percent-decoded).
        public var credentials: (user: String, password: String)? {
            get { user.map { ($0, password ?? "") } }
            set { user = newValue?.user; password = newValue?.password }
        }
        private var user: String?
        private var password: String?

        /// Parses `http://`, `https://`, `socks5://` or `socks5h://` proxy URLs; a URL without a
        /// scheme is an HTTP proxy, as for curl.
        ///
        /// - Throws: ``DownloadError`` `.invalidURL` (the text without credentials) for another
        ///   scheme, no host, a path, or a bad port.
        public init(url text: String) throws {
            let withScheme = text.contains("://") ? text : "http://" + text
            guard let components = URLComponents(string: withScheme), let scheme = components.scheme?.lowercased(),
                  let host = components.host, !host.isEmpty else {
                throw DownloadError.invalidURL(Self.redacted(text), "not a proxy URL (http://HOST:PORT, https://HOST:PORT, socks5://HOST:PORT, socks5h://HOST:PORT)")
            }
            switch scheme {
            case "http": kind = .http
            case "https": kind = .https
            case "socks5": kind = .socks5
            case "socks5h": kind = .socks5h
            default: throw DownloadError.invalidURL(Self.redacted(text), "proxy scheme \(scheme) is not supported (http, https, socks5, socks5h)")
            }
            guard components.path.isEmpty || components.path == "/", components.query == nil else {
                throw DownloadError.invalidURL(Self.redacted(text), "a proxy URL has no path or query")
            }
            if let port = components.port {
                guard (1...65535).contains(port) else { throw DownloadError.invalidURL(Self.redacted(text), "bad proxy port") }
                self.port = port
            } else {
                port = kind == .https ? 443 : 1080
            }
            self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            user = components.percentEncodedUser.map(Self.percentDecoded)
            password = components.percentEncodedPassword.map(Self.percentDecoded)
        }

        /// Creates a proxy without credentials.
        public init(kind: Kind, host: String, port: Int) {
            self.kind = kind
            self.host = host
            self.port = port
        }

        /// `kind://host:port`, never the credentials.
        public var description: String { "\(kind.rawValue)://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

        /// `text` with `%XX` escapes decoded (left as they are where they are not two hex digits).
        static func percentDecoded(_ text: String) -> String {
            var bytes: [UInt8] = []
            let utf8 = Array(text.utf8)
            var index = 0
            while index < utf8.count {
                if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                   let value = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    index += 3
                } else {
                    bytes.append(utf8[index])
                    index += 1
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The text with any `user:password@` removed.
        static func redacted(_ text: String) -> String {
            guard let at = text.lastIndex(of: "@") else { return text }
            let start = text.firstRange(of: "://")?.upperBound ?? text.startIndex
            guard start <= at else { return text }
            return String(text[..<start]) + "***@" + String(text[text.index(after: at)...])
        }
    }

    /// The proxy for `https://` URLs.
    public var httpsProxy: Proxy?
    /// The proxy for `http://` URLs.
    public var httpProxy: Proxy?
    /// Hosts reached directly: `*` (every host), or names and addresses that match a host
    /// exactly or as a domain suffix (`example.com` and `.example.com` both match
    /// `a.example.com`), case-insensitively, as curl's `no_proxy`.
    public var noProxy: [String]

    /// No proxy.
    public static let direct = ProxySettings(httpsProxy: nil, httpProxy: nil, noProxy: [])

    public init(httpsProxy: Proxy?, httpProxy: Proxy?, noProxy: [String]) {
        self.httpsProxy = httpsProxy
        self.httpProxy = httpProxy
        self.noProxy = noProxy
    }

    /// One proxy for every URL, with exceptions.
    public init(proxy: Proxy, noProxy: [String] = []) {
        self.init(httpsProxy: proxy, httpProxy: proxy, noProxy: noProxy)
    }

    /// curl's environment variables: `https_proxy` (or `HTTPS_PROXY`), `http_proxy` (lower case
    /// only, as curl: `HTTP_PROXY` can be set by a CGI request's `Proxy:` header), `all_proxy`
    /// (or `ALL_PROXY`) for either, `no_proxy` (or `NO_PROXY`), comma-separated. Empty values
    /// count as unset.
    ///
    /// - Throws: ``DownloadError`` `.invalidURL` naming the variable for a value that is no proxy URL.
    public static func fromEnvironment(_ environment: [String: String]) throws -> ProxySettings {
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names { if let value = environment[name], !value.isEmpty { return (name, value) } }
            return nil
        }
        func proxy(_ names: String...) throws -> Proxy? {
            guard let found = names.lazy.compactMap({ value($0) }).first else { return nil }
            do { return try Proxy(url: found.value) } catch let error as DownloadError {
                throw DownloadError.invalidURL(error.url ?? "", "\(found.name): \(error.reason)")
            }
        }
        let all = try proxy("all_proxy", "ALL_PROXY")
        return ProxySettings(httpsProxy: try proxy("https_proxy", "HTTPS_PROXY") ?? all,
                             httpProxy: try proxy("http_proxy") ?? all,
                             noProxy: parseList(value("no_proxy", "NO_PROXY")?.value ?? ""))
    }

    /// A comma-separated `no_proxy` list, entries trimmed, empty ones dropped.
    public static func parseList(_ text: String) -> [String] {
        text.split(separator: ",").map { entry in
            String(entry.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
        }.filter { !$0.isEmpty }
    }

    /// The proxy `url` goes through, or `nil` to connect directly.
    public func proxy(for url: URL) -> Proxy? {
        let chosen: Proxy?
        switch url.scheme?.lowercased() {
        case "https": chosen = httpsProxy
        case "http": chosen = httpProxy
        default: chosen = nil
        }
        guard let chosen, let host = url.host else { return nil }
        return bypasses(host) ? nil : chosen
    }

    /// Whether `host` is in ``noProxy``.
    public func bypasses(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        while host.hasSuffix(".") { host.removeLast() }
        for var entry in noProxy.map({ $0.lowercased() }) {
            if entry == "*" { return true }
            if entry.hasPrefix("["), let end = entry.firstIndex(of: "]") { entry = String(entry[entry.index(after: entry.startIndex)..<end]) }
            while entry.hasPrefix(".") { entry.removeFirst() }
            while entry.hasSuffix(".") { entry.removeLast() }
            guard !entry.isEmpty else { continue }
            if host == entry || host.hasSuffix("." + entry) { return true }
        }
        return false
    }
}
