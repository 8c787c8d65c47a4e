/// How much of a request body has been handed to the transport.
public struct UploadProgress: Sendable, Hashable {
    /// Bytes of the body handed over so far.
    public var sent: Int
    /// The body's length, or `nil` when unknown (a stream without a length).
    public var total: Int?

    /// Creates a report.
    public init(sent: Int, total: Int?) {
        self.sent = sent
        self.total = total
    }
}
