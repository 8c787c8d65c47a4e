#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the server answered, as the response modifier, the validation and the decryptor see it.
public struct DownloadResponse: Sendable {
    /// The final URL (after redirects).
    public var url: URL
    /// The HTTP status code.
    public var status: Int
    /// Response headers in order; names as the server sent them.
    public var headers: [(name: String, value: String)]

    public init(url: URL, status: Int, headers: [(name: String, value: String)]) {
        self.url = url
        self.status = status
        self.headers = headers
    }

    /// The first value of the header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { HTTPFieldText.namesEqual($0.name, name) }?.value
    }

    /// `Content-Length`, when present and valid.
    public var contentLength: Int? { header("Content-Length").flatMap { Int(HTTPFieldText.trimmed($0)) } }

    /// `Content-Type`, when present.
    public var contentType: String? { header("Content-Type") }
}
