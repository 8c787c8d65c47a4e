/// One step of a transfer, as the event stream and the accessories see it.
///
/// Events of one transfer share its ``transferID`` and come in order: possibly `queued`, `start`, `response`,
/// possibly `retry` and `start` again, `resume`, `verify`, `decrypt`, then exactly one `finish`.
/// ``elapsed`` is measured from the moment the transfer started.
public struct DownloadEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The transfer waits for a free slot (the concurrency limit is reached); `waiting` counts
        /// the transfers waiting now, this one included.
        case queued(waiting: Int)
        /// An attempt sends its request (1 for the first attempt).
        case start(attempt: Int)
        /// The response head of an attempt arrived (after the response modifier).
        case response(status: Int, attempt: Int)
        /// An attempt failed with `error`; the next one starts after `delay`.
        case retry(attempt: Int, delay: Duration, error: DownloadError)
        /// The body continues at byte `offset` (a range request answered 206).
        case resume(offset: Int)
        /// A digest check ran on the whole body: `algorithm` as RFC 9530 names it, `source` where
        /// the expectation came from.
        case verify(algorithm: String, source: String, passed: Bool)
        /// Decryption finished; `duration` is the time spent in the decryptor (including handing
        /// its plaintext to the destination).
        case decrypt(duration: Duration)
        /// The transfer ended: `error` is `nil` on success.
        case finish(bytesReceived: Int, attempts: Int, error: DownloadError?)
        /// The result could not be stored in the cache (the download itself succeeded): `reason`
        /// names the file or store and the system's reason.
        case cacheStoreFailed(reason: String)
    }

    /// What happened.
    public var kind: Kind
    /// The URL of the transfer (after the request modifier).
    public var url: String
    /// Numbers the transfers of one downloader from 1.
    public var transferID: UInt64
    /// Time since the transfer started.
    public var elapsed: Duration

    /// Creates an event.
    public init(kind: Kind, url: String, transferID: UInt64, elapsed: Duration) {
        self.kind = kind
        self.url = url
        self.transferID = transferID
        self.elapsed = elapsed
    }

    /// The kind's name: `queued`, `start`, `response`, `retry`, `resume`, `verify`, `decrypt`,
    /// `finish` or `cacheStoreFailed`.
    public var name: String {
        switch kind {
        case .queued: "queued"
        case .start: "start"
        case .response: "response"
        case .retry: "retry"
        case .resume: "resume"
        case .verify: "verify"
        case .decrypt: "decrypt"
        case .finish: "finish"
        case .cacheStoreFailed: "cacheStoreFailed"
        }
    }
}
