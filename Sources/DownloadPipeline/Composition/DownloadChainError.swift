/// A chain stopped at a failed step.
public struct DownloadChainError: Error, Sendable, CustomStringConvertible {
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

    /// `chain step N (name) failed: reason`.
    public var description: String {
        "chain step \(step) (\(name)) failed: " + (url.map { "\($0): " } ?? "") + error.reason
    }
}
