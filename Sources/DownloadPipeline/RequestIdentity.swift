import ASN1Kit
import CryptoOpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// What makes two requests "the same": they share a transfer while in flight, and a cache entry.
///
/// The content identity is the method, the normalized URL (after the request modifier, since
/// redirects are only known after the transfer), every header except those that never change
/// the content (``defaultIgnoredHeaders``: user agent, tracing, connection management), the
/// decryptor's identity, the response modifier's identity and the expected SHA-256. Two requests with different
/// decryptors are never merged — one caller's decryptor is never silently dropped.
///
/// The transfer key adds what changes how the transfer runs: destination, partial file and cache
/// policy.
public struct RequestIdentity: Sendable, Hashable {
    /// Keys the cache entry.
    public let contentKey: String
    /// Keys the in-flight transfer.
    public let transferKey: String
    /// Keys the cache entry: the content identity with the URL passed through the cache policy's
    /// ``CacheKeyFilter`` (the same as ``contentKey`` without one).
    public let cacheKey: String
    /// The normalized URL after the key filter: what ``DownloadCache/entries(for:)`` matches.
    public let cacheURL: String

    /// Headers that never change the content.
    public static let defaultIgnoredHeaders: Set<String> = [
        "user-agent", "x-request-id", "x-correlation-id", "traceparent", "tracestate", "baggage",
        "connection", "keep-alive", "te", "upgrade", "via",
    ]

    /// Computes the identity of `request` as the pipeline runs it.
    public init(request: DownloadRequest, decryptor: (any Decryptor)?, responseModifier: ResponseModifier?,
                ignoredHeaders: Set<String> = RequestIdentity.defaultIgnoredHeaders) {
        let headers = request.headers
            .map { (name: $0.name.lowercased(), value: HTTPFieldText.trimmed($0.value)) }
            .filter { !ignoredHeaders.contains($0.name) }
            // `Accept: */*` (a default header) says what no Accept says (RFC 9110 §12.5.1), so a
            // request with and one without share an identity and a cache entry.
            .filter { !($0.name == "accept" && $0.value == "*/*") }
            .sorted { ($0.name, $0.value) < ($1.name, $1.value) }
            .map { "\($0.name):\($0.value)" }
        var rest = headers
        rest.append("decryptor=\(decryptor?.identity ?? "none")")
        rest.append("response-modifier=\(responseModifier?.identity ?? "none")")
        if let digest = request.expectedSHA256 { rest.append("sha256=\(Hex.encode(digest))") }
        if let credential = request.credential { rest.append("credential=\(Self.keyDigest(credential.authorizationValue))") }
        // A body is sent once per request: such a request shares neither a transfer nor a cache entry.
        if request.body != nil { rest.append("body=\(Self.bodyCounter.add(1, ordering: .relaxed).newValue)") }
        let method = request.method.uppercased()
        let url = Self.normalizedURL(request.url)
        contentKey = ([method, url] + rest).joined(separator: "\n")
        if let filter = request.cachePolicy.keyFilter {
            cacheURL = Self.normalizedURL(filter.transform(request.url))
            cacheKey = ([method, cacheURL] + rest).joined(separator: "\n")
        } else {
            cacheURL = url
            cacheKey = contentKey
        }
        let destination = switch request.destination {
        case .memory: "memory"
        case .file(let path): "file:\(path)"
        case .standardOutput: "stdout"
        }
        let cache = request.cachePolicy.identity
        transferKey = contentKey + "\ndestination=\(destination)\nresume=\(request.resumeFile ?? "")\ncache=\(cache)"
    }

    /// Numbers requests with a body, so that each has its own identity.
    private static let bodyCounter = Atomic<UInt64>(0)
    /// This process's salt for credential digests: a key never holds a digest of a secret that
    /// could be checked against guesses outside the process.
    private static let credentialSalt: [UInt8] = (try? SecureRandom.bytes(32)) ?? (0..<32).map { _ in UInt8.random(in: 0...255) }

    private static func keyDigest(_ secret: String) -> String {
        Hex.encode(Digest.hash(.sha256, credentialSalt + Array(secret.utf8)).prefix(16))
    }

    /// The URL with its scheme and host in lowercase, a default port and the fragment dropped, and
    /// an empty path written `/`.
    public static func normalizedURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme == "http" && components.port == 80) || (components.scheme == "https" && components.port == 443) {
            components.port = nil
        }
        components.fragment = nil
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? url.absoluteString
    }

    /// Why `url` cannot be fetched, or `nil` when it can.
    static func urlProblem(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased() else { return "no scheme" }
        guard scheme == "http" || scheme == "https" else { return "unsupported scheme \(scheme)" }
        guard let host = url.host, !host.isEmpty else { return "no host" }
        return nil
    }
}
