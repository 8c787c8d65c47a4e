/// How far a batch is.
public struct BatchProgress: Sendable, Hashable {
    /// Requests in the batch.
    public var total: Int
    /// Requests that succeeded.
    public var succeeded: Int
    /// Requests that failed (including cancelled ones).
    public var failed: Int
    /// Body bytes received over every request so far.
    public var bytesReceived: Int
    /// The sum of the announced lengths, once every request announced one.
    public var bytesExpected: Int?

    /// Creates a report.
    public init(total: Int, succeeded: Int, failed: Int, bytesReceived: Int, bytesExpected: Int?) {
        self.total = total
        self.succeeded = succeeded
        self.failed = failed
        self.bytesReceived = bytesReceived
        self.bytesExpected = bytesExpected
    }

    /// Whether every request has ended.
    public var isFinished: Bool { succeeded + failed == total }
}
