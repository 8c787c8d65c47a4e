#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which request follows a redirect (RFC 9110 §15.4), as curl and browsers make it.
enum RedirectRule {
    /// The statuses followed.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]
    /// Headers that go to the original origin only: another origin is not sent them.
    private static let originBound: Set<String> = ["authorization", "cookie", "proxy-authorization"]
    /// The body's own headers, dropped with the body when the method becomes GET.
    private static let bodyHeaders: Set<String> = ["content-type", "content-length", "content-encoding", "transfer-encoding"]

    /// The request to make after `response` to `request`, or `nil` when it is not a redirect to
    /// follow (another status, no usable `Location`, a scheme other than http and https).
    static func next(after response: DownloadResponse, to request: TransportRequest) -> TransportRequest? {
        guard statuses.contains(response.status),
              let location = response.headers.first(where: { $0.name.lowercased() == "location" })?.value,
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = target.host, !host.isEmpty else { return nil }
        var next = request
        next.url = target
        let method = request.method.uppercased()
        if (response.status == 303 && method != "HEAD") || ((response.status == 301 || response.status == 302) && method == "POST") {
            next.method = "GET"
            next.body = nil
            next.headers.removeAll { bodyHeaders.contains($0.name.lowercased()) }
        }
        if !sameOrigin(request.url, target) {
            next.headers.removeAll { originBound.contains($0.name.lowercased()) }
        }
        return next
    }

    private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && port(a) == port(b)
    }
}
