#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Downloader.Configuration {
    /// The URL `request` is fetched from, with YTKNetwork's rules: a URL with a scheme and a host
    /// is used as it is; a relative one (`users/1`, `/v2/users`, `?page=2`) is resolved (RFC 3986
    /// §5) against ``cdnURL`` when the request has ``DownloadRequest/useCDN`` and a CDN URL is set,
    /// else against ``baseURL``; a base whose path does not end in `/` gets one first, so
    /// `https://api.example/v1` + `users` is `https://api.example/v1/users` (a path starting with
    /// `/` replaces the base's path). Without a base, the URL stays as it is (and fails as an
    /// invalid URL).
    public func resolvedURL(for request: DownloadRequest) -> URL {
        let url = request.url
        if url.scheme != nil, url.host != nil { return url }
        guard let base = (request.useCDN ? cdnURL ?? baseURL : baseURL) else { return url }
        var baseText = base.absoluteString
        if !baseText.hasSuffix("/"), base.query == nil, base.fragment == nil { baseText += "/" }
        guard let directory = URL(string: baseText),
              let resolved = URL(string: url.relativeString, relativeTo: directory)?.absoluteURL else { return url }
        return resolved
    }

    /// Moves `user:password@` out of the URL into a Basic ``DownloadRequest/credential`` (as curl
    /// does), unless the request has a credential already (then it is only dropped), so that no
    /// log, event, error or cache key holds the password.
    static func moveUserInfo(of request: inout DownloadRequest) {
        guard request.url.user != nil || request.url.password != nil,
              var components = URLComponents(url: request.url, resolvingAgainstBaseURL: true) else { return }
        let user = request.url.user(percentEncoded: false) ?? ""
        let password = request.url.password(percentEncoded: false) ?? ""
        components.user = nil
        components.password = nil
        guard let stripped = components.url else { return }
        if request.credential == nil { request.credential = .basic(user: user, password: password) }
        request.url = stripped
    }

    /// Adds each default header the request does not set itself.
    func addDefaultHeaders(to request: inout DownloadRequest) {
        for header in defaultHeaders where request.header(header.name) == nil {
            request.headers.append(header)
        }
    }
}
