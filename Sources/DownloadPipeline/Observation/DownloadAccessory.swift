/// Watches transfers: hooks around each transfer (as YTKNetwork's accessories) and its events.
///
/// Every method has an empty default. They are called on the transfer's task, in order for one
/// transfer; keep them short (they delay the transfer). `willStop` runs before the callers get
/// the result, `didStop` after.
public protocol DownloadAccessory: Sendable {
    /// A transfer is about to send its first request.
    func willStart(_ request: DownloadRequest)
    /// A transfer ended; its callers have not been told yet.
    func willStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>)
    /// A transfer ended and its callers have the result.
    func didStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>)
    /// One event of a transfer (see ``DownloadEvent``).
    func received(_ event: DownloadEvent)
}

extension DownloadAccessory {
    public func willStart(_ request: DownloadRequest) {}
    public func willStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>) {}
    public func didStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>) {}
    public func received(_ event: DownloadEvent) {}
}
