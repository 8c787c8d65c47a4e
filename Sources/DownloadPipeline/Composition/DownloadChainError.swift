import CofferErrors

/// A chain stopped at a failed step.
///
/// In the shape every Coffer error has (``CofferError``): its ``code`` is the failed step's
/// ``DownloadError/code``, its ``cause`` that ``DownloadError``, so equality compares the step's
/// error code.
public struct DownloadChainError: CofferError {
    /// The step's position: 0 for the first request, 1 for the first ``DownloadChain/then(_:_:)``.
    public var step: Int
    /// The step's name.
    public var name: String
    /// The URL of the step's request, when it was built.
    public var url: String?
    /// Why the step failed.
    public var error: DownloadError
    /// The results of the steps before it.
    public var results: [DownloadResult]

    /// Creates the error.
    public init(step: Int, name: String, url: String?, error: DownloadError, results: [DownloadResult]) {
        self.step = step
        self.name = name
        self.url = url
        self.error = error
        self.results = results
    }

    /// The failed step's error code.
    public var code: DownloadError.Code { error.code }

    /// `chain step N (name) failed: reason`.
    public var reason: String {
        "chain step \(step) (\(name)) failed: " + (url.map { "\($0): " } ?? "") + error.reason
    }

    /// The step's ``url``.
    public var context: ErrorContext { ErrorContext(url: url) }

    /// The step's ``error``.
    public var cause: (any Error & Sendable)? { error }

    /// The ``reason``.
    public var description: String { reason }
}
