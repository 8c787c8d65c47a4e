import CofferErrors

/// A `.failFast` batch failed: which request, why, and what became of the others.
///
/// In the shape every Coffer error has (``CofferError``): its ``code`` is the failed request's
/// ``DownloadError/code``, its ``cause`` that ``DownloadError``, so equality compares the failed
/// request's error code.
public struct DownloadBatchError: CofferError {
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

    /// The failed request's error code.
    public var code: DownloadError.Code { error.code }

    /// `request N (URL) failed: reason`.
    public var reason: String { "request \(index + 1) (\(url)) failed: \(error.reason)" }

    /// The failed request's ``url``.
    public var context: ErrorContext { ErrorContext(url: url) }

    /// The failed request's ``error``.
    public var cause: (any Error & Sendable)? { error }

    /// The ``reason``.
    public var description: String { reason }
}
