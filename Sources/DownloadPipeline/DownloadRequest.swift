#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What to download and how: the per-request settings of the pipeline.
///
/// Hooks left `nil` fall back to the ``Downloader``'s (see ``Downloader/Configuration``).
public struct DownloadRequest: Sendable {
    /// The URL to fetch.
    public var url: URL
    /// The HTTP method (`GET` unless a modifier changes it).
    public var method: String
    /// Request headers in order.
    public var headers: [(name: String, value: String)]
    /// Turns the body into the result; `nil` uses the downloader's, and when that is `nil` too the
    /// body is returned as it arrived.
    public var decryptor: (any Decryptor)?
    /// Overrides the downloader's request modifier.
    public var requestModifier: RequestModifier?
    /// Overrides the downloader's response modifier.
    public var responseModifier: ResponseModifier?
    /// Where the result goes.
    public var destination: DownloadDestination
    /// Whether and how the result is cached (needs a cache on the downloader).
    public var cachePolicy: CachePolicy
    /// The partial file that makes the download resumable, or `nil`.
    public var resumeFile: String?
    /// Overrides the downloader's total timeout (which covers every attempt and the waits between).
    public var totalTimeout: Duration?
    /// Overrides the downloader's retry policy.
    public var retryPolicy: RetryPolicy?
    /// The SHA-256 the body must have, as it arrives (before decryption). It is checked as the
    /// bytes stream; on a mismatch the download fails with ``CofferErrors/ErrorCode/integrity`` and
    /// nothing is cached or written. The server's `Content-Digest` / `Repr-Digest` are checked
    /// as well when present.
    public var expectedSHA256: [UInt8]?
    /// Called with the bytes received and expected, at most once per progress interval, and once
    /// at the end. Called from any thread.
    public var progress: (@Sendable (DownloadProgress) -> Void)?
    /// The request body, or `nil` for none. A request with a body is never coalesced with another
    /// or cached; a retry sends the body again, except a one-shot
    /// ``RequestBody/stream(length:contentType:_:)``, which is not retried.
    public var body: RequestBody?
    /// Called with the body bytes handed to the transport and the body's length, after each chunk
    /// (the last report has `sent == total`). Called from any thread; starts over on a retry.
    public var uploadProgress: (@Sendable (UploadProgress) -> Void)?
    /// Checks of the response: accepted statuses (default 2xx) and a JSON body
    /// (see ``ResponseValidator``).
    public var validators: [ResponseValidator] = []
    /// Which waiting transfer starts first when the downloader is at its concurrency limit.
    public var priority: RequestPriority = .normal
    /// The `Authorization` credential, sent as that header and never logged; `nil` for none.
    public var credential: HTTPCredential?
    /// Whether a relative ``url`` is resolved against the downloader's
    /// ``Downloader/Configuration/cdnURL`` instead of its ``Downloader/Configuration/baseURL``.
    public var useCDN = false

    /// Creates a `GET` request for `url`.
    public init(url: URL, headers: [(name: String, value: String)] = [], decryptor: (any Decryptor)? = nil,
                destination: DownloadDestination = .memory, cachePolicy: CachePolicy = .disabled,
                resumeFile: String? = nil, progress: (@Sendable (DownloadProgress) -> Void)? = nil) {
        self.url = url
        self.method = "GET"
        self.headers = headers
        self.decryptor = decryptor
        self.requestModifier = nil
        self.responseModifier = nil
        self.destination = destination
        self.cachePolicy = cachePolicy
        self.resumeFile = resumeFile
        self.totalTimeout = nil
        self.retryPolicy = nil
        self.expectedSHA256 = nil
        self.progress = progress
    }

    /// The first value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { HTTPFieldText.namesEqual($0.name, name) }?.value
    }

    /// Replaces every header `name` with one `name: value`.
    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { HTTPFieldText.namesEqual($0.name, name) }
        headers.append((name, value))
    }
}

/// Where a download's result goes.
public enum DownloadDestination: Sendable, Hashable {
    /// ``DownloadResult/data`` holds the result.
    case memory
    /// The result is written to this file as it is decrypted, through a new temporary file
    /// beside it (`PATH.download-XXXXXXXX`, mode 0600) that is flushed (`fsync`) and renamed over
    /// `PATH` at the end. A failed or cancelled download removes the temporary file and leaves
    /// `PATH` as it was; the rename replaces a symbolic link at `PATH` rather than writing through
    /// it. A device or pipe (`/dev/null`, a FIFO) is written directly. Memory stays flat with a
    /// ``StreamingDecryptor`` or no decryptor. The same holds for a resumed download and a cache hit.
    case file(String)
    /// The result is written to the process's standard output (descriptor 1) as it is decrypted,
    /// never collected. A failure part-way leaves what was written; ``DownloadResult/filePath`` is
    /// `nil`. Memory stays flat with a ``StreamingDecryptor`` or no decryptor.
    case standardOutput
}

/// Runs before the transfer, per caller: may add headers (tokens), rewrite the URL, return `nil` to
/// cancel (the caller gets `cancelled`), or throw to reject (the caller gets `rejected`, or the
/// ``DownloadError`` thrown).
public typealias RequestModifier = @Sendable (DownloadRequest) async throws -> DownloadRequest?

/// Runs on the response head before validation: may rewrite status or headers, or throw to reject
/// the response. Shared by every caller of a coalesced transfer, so it carries an ``identity``:
/// requests with different response modifiers are never coalesced.
public struct ResponseModifier: Sendable {
    /// Names the modifier and its parameters.
    public var identity: String
    /// The modification.
    public var modify: @Sendable (DownloadResponse) async throws -> DownloadResponse

    /// Creates a modifier.
    public init(identity: String, _ modify: @escaping @Sendable (DownloadResponse) async throws -> DownloadResponse) {
        self.identity = identity
        self.modify = modify
    }
}
