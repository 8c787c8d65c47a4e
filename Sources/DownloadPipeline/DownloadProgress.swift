/// How far a transfer is.
public struct DownloadProgress: Sendable, Hashable {
    /// Body bytes received so far (including a resumed partial file's bytes).
    public var received: Int
    /// The whole body's length, when the server announced it.
    public var expected: Int?
    /// `true` for the last report of a transfer.
    public var isFinal: Bool

    /// Creates a progress report.
    public init(received: Int, expected: Int?, isFinal: Bool = false) {
        self.received = received
        self.expected = expected
        self.isFinal = isFinal
    }

    /// `received / expected` in 0…1, when the length is known.
    public var fraction: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(1, Double(received) / Double(expected))
    }
}
