/// A finished download.
public struct DownloadResult: Sendable {
    /// Where the bytes came from.
    public enum Source: String, Sendable, Hashable {
        /// A full transfer.
        case network
        /// A partial file completed with a range request.
        case resumed
        /// The cache, without any request.
        case cache
        /// The cache, after the server confirmed it with 304.
        case revalidated
        /// A stale cache entry, served because the request failed (``CachePolicy/staleIfError``
        /// or the response's `stale-if-error`).
        case stale
    }

    /// The response (for a cache hit without revalidation: the one that was cached).
    public var response: DownloadResponse
    /// The (decrypted) result, for ``DownloadDestination/memory``; empty for a file destination.
    public var data: [UInt8]
    /// The file written, for ``DownloadDestination/file(_:)``.
    public var filePath: String?
    /// The number of result bytes (in `data` or in the file).
    public var resultLength: Int
    /// Body bytes that came over the network in this transfer.
    public var bytesReceived: Int
    /// Where the bytes came from.
    public var source: Source

    /// Creates a result.
    public init(response: DownloadResponse, data: [UInt8], filePath: String?, resultLength: Int, bytesReceived: Int, source: Source) {
        self.response = response
        self.data = data
        self.filePath = filePath
        self.resultLength = resultLength
        self.bytesReceived = bytesReceived
        self.source = source
    }
}
