#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of a transfer while it arrives, kept across attempts so that a retry after a cut
/// continues it with a range request instead of starting over.
///
/// It owns the output (``BodyProcessor``: decryption and destination), the digest checks
/// (``IntegrityVerifier``) and the partial file of a resumable request. Used by one task at a time.
final class ReceivingBody {
    let processor: BodyProcessor
    let verifier: IntegrityVerifier
    let partial: PartialDownload?
    /// The head the result presents (status 200 and the whole length, also when resumed).
    let head: DownloadResponse
    /// The `If-Range` validator of the representation (strong `ETag`, else `Last-Modified`).
    let validator: String?
    /// The whole body's length, when known.
    let expected: Int?
    /// Body bytes consumed so far (from the partial file and the network).
    private(set) var received = 0
    /// Whether part of the body came from a range request (a resume).
    var resumed = false
    /// When the request that brought this head went out and the head came in, on the cache's
    /// clock (for freshness); `nil` without a cache.
    var cacheTimes: (request: Date, response: Date)?

    init(processor: BodyProcessor, verifier: IntegrityVerifier, partial: PartialDownload?, head: DownloadResponse,
         validator: String?, expected: Int?) {
        self.processor = processor
        self.verifier = verifier
        self.partial = partial
        self.head = head
        self.validator = validator
        self.expected = expected
    }

    /// Whether another attempt can ask for the rest with `Range` / `If-Range`.
    var canResume: Bool { received > 0 && validator != nil }

    /// Takes body bytes that are already on disk (a resumed partial file): checked and decrypted,
    /// not written again.
    func consumeStored(_ chunk: [UInt8]) throws(DownloadError) {
        verifier.update(chunk)
        try processor.consume(chunk)
        received += chunk.count
    }

    /// Takes body bytes from the network.
    func consume(_ chunk: [UInt8], url: String) throws(DownloadError) {
        try partial?.append(chunk)
        if let expected, received + chunk.count > expected {
            received += chunk.count
            throw DownloadError.lengthMismatch(url: url, expected: expected, received: received)
        }
        verifier.update(chunk)
        try processor.consume(chunk)
        received += chunk.count
    }

    /// An attempt stopped: the partial file is closed and kept for the next one.
    func suspend() {
        partial?.suspend()
    }

    /// The body is given up: the output is dropped, and the partial file too when its bytes are
    /// useless (`discardPartial`: they failed decryption or the integrity check, or the server
    /// sent a different representation).
    func abandon(discardPartial: Bool) {
        processor.abandon()
        if discardPartial { partial?.remove() } else { partial?.suspend() }
    }
}
