#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NIOHTTP1

/// The head a ``TransportRequest`` is sent with: its target in origin form (`/path?query`), or in
/// absolute form to an HTTP proxy; `Host`; the body's framing; proxy credentials.
enum RequestHead {
    /// Headers HTTP/2 forbids (RFC 9113 §8.2.2): the HTTP/1.1 connection's own.
    private static let connectionHeaders: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]

    static func make(_ request: TransportRequest, key: ConnectionKey, http2: Bool) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        let authority = authority(of: request.url)
        if !request.headers.contains(where: { $0.name.lowercased() == "host" }) {
            headers.add(name: "Host", value: authority)
        }
        for header in request.headers {
            let name = header.name.lowercased()
            if name == "content-length" || (http2 && connectionHeaders.contains(name)) { continue }
            headers.add(name: header.name, value: header.value)
        }
        if let body = request.body {
            if let length = body.length {
                headers.replaceOrAdd(name: "Content-Length", value: String(length))
            } else if !http2 {
                headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
            }
        } else if ["POST", "PUT", "PATCH"].contains(request.method.uppercased()) {
            headers.replaceOrAdd(name: "Content-Length", value: "0")
        }
        var target = pathAndQuery(of: request.url.absoluteString)
        if case .forward(let proxy) = key.route {
            target = "\(request.url.scheme?.lowercased() ?? "http")://\(authority)\(target)"
            if let authorization = ProxyHandshake.basicAuthorization(proxy) {
                headers.add(name: "Proxy-Authorization", value: authorization)
            }
        }
        return HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method.uppercased()), uri: target, headers: headers)
    }

    /// `host[:port]` of `url` (an IPv6 address in brackets), the port only when the URL has one.
    static func authority(of url: URL) -> String {
        var host = url.host ?? ""
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// The path and query of `url` as written (percent-encoding kept), `/` when empty; the
    /// fragment dropped.
    static func pathAndQuery(of url: String) -> String {
        let characters = Array(url.utf8)
        var index = 0
        while index + 2 < characters.count, !(characters[index] == UInt8(ascii: ":") && characters[index + 1] == UInt8(ascii: "/")
                                                && characters[index + 2] == UInt8(ascii: "/")) {
            index += 1
        }
        index += 3
        let marks: Set<UInt8> = [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")]
        while index < characters.count, !marks.contains(characters[index]) { index += 1 }
        var end = index
        while end < characters.count, characters[end] != UInt8(ascii: "#") { end += 1 }
        let tail = index < characters.count ? String(decoding: characters[index..<end], as: UTF8.self) : ""
        return tail.hasPrefix("/") ? tail : "/" + tail
    }
}
