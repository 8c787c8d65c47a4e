/// A `.failFast` batch failed: which request, why, and what became of the others.
public struct DownloadBatchError: Error, Sendable, CustomStringConvertible {
    /// The index of the request that failed first.
    public var index: Int
    /// Its URL.
    public var url: String
    /// Its error.
    public var error: DownloadError
    /// Every request's result in request order: the others finished before the failure, or were
    /// cancelled by it.
    public var results: [Result<DownloadResult, DownloadError>]

    /// Creates the error.
    public init(index: Int, url: String, error: DownloadError, results: [Result<DownloadResult, DownloadError>]) {
        self.index = index
        self.url = url
        self.error = error
        self.results = results
    }

    /// `request N (URL) failed: reason`.
    public var description: String { "request \(index + 1) (\(url)) failed: \(error.reason)" }
}
