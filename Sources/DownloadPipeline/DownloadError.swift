@_exported import CofferErrors
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a download failed: the pipeline's one error type, in the shape every Coffer error has
/// (``CofferError``).
///
/// Every failure has its own ``Code`` so callers can react to each (retry a timeout, give up on a
/// 404, ask for another key after `decryptionFailed`). The context fields say which URL, status,
/// lengths or timeout were involved. Messages never contain header values (tokens), key bytes or
/// payload bytes. Equality compares the code only, as for every Coffer error.
public struct DownloadError: ModuleError {
    /// What went wrong. Opaque so that new codes can be added: a `switch` over it needs a
    /// `default:` case.
    public typealias Code = ErrorCode<DownloadError>

    /// Which timeout fired.
    public enum TimeoutKind: String, Sendable, Hashable {
        /// Establishing the connection took too long.
        case connect
        /// No bytes arrived for the idle-read interval.
        case idleRead
        /// The whole transfer took longer than the total timeout.
        case total
    }

    /// The code, reason, context (the URL and, for `file`, the file), cause and origin
    /// (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>
    /// The HTTP status, for `badStatus`.
    public var status: Int?
    /// The announced body length, for `truncated` and `lengthMismatch`.
    public var expectedLength: Int?
    /// The bytes that arrived, for `truncated` and `lengthMismatch`.
    public var receivedLength: Int?
    /// Which timeout fired, for `timeout`.
    public var timeoutKind: TimeoutKind?
    /// The decryptor's error, for `decryptionFailed`.
    public var decryptionError: DecryptionError?
    /// For `transport`: the server closed the connection cleanly (end of stream) before the
    /// response was complete, rather than resetting it or breaking the protocol. With a known
    /// `Content-Length` the pipeline reports such a body as `truncated`.
    public var closedByPeer = false
    /// For `badStatus`: the wait the server asked for with `Retry-After`, when it sent one.
    public var retryAfter: Duration?
    /// For `integrity`: the expected and the computed digest, lowercase hex.
    public var expectedDigest: String?
    /// For `integrity`: the digest the body actually had, lowercase hex.
    public var actualDigest: String?
    /// How many attempts the transfer made before this error (1 without retries).
    public var attempts = 1

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }

    /// `url: reason`.
    public var description: String {
        if let url { return "\(url): \(reason)" }
        return reason
    }
}

extension ErrorCode where Domain == DownloadError {
    /// The URL is not an absolute `http` or `https` URL with a host.
    public static var invalidURL: Self { Self() }
    /// The connection failed or broke (refused, reset, protocol error); ``DownloadError/cause`` has
    /// details.
    public static var transport: Self { Self() }
    /// A timeout fired: ``DownloadError/timeoutKind`` says which.
    public static var timeout: Self { Self() }
    /// The server answered with a status the pipeline does not accept (``DownloadError/status``).
    public static var badStatus: Self { Self() }
    /// The body ended before the length the server announced (``DownloadError/expectedLength``,
    /// ``DownloadError/receivedLength``).
    public static var truncated: Self { Self() }
    /// More bytes arrived than announced, or a range response did not fit the request.
    public static var lengthMismatch: Self { Self() }
    /// The decryptor rejected the payload (``DownloadError/decryptionError``, also the
    /// ``DownloadError/cause``). Never marks the URL as bad.
    public static var decryptionFailed: Self { Self() }
    /// Every caller cancelled (or the request modifier cancelled the request).
    public static var cancelled: Self { Self() }
    /// A request or response modifier rejected the transfer.
    public static var rejected: Self { Self() }
    /// A local file (destination or partial download) could not be read or written
    /// (``DownloadError/path``).
    public static var file: Self { Self() }
    /// The body's digest differs from the expected one (the request's or the server's
    /// `Content-Digest` / `Repr-Digest`): nothing was cached or written.
    public static var integrity: Self { Self() }
    /// An offline request (``CachePolicy/Mode/returnCacheDontLoad``) found nothing usable in the
    /// cache; no request was made.
    public static var notCached: Self { Self() }
}

extension DownloadError {
    /// The URL text cannot be fetched.
    public static func invalidURL(_ text: String, _ why: String) -> DownloadError {
        DownloadError(.invalidURL, "invalid URL: \(why)", url: text)
    }

    /// The connection failed or broke.
    public static func transport(url: String?, _ what: String, cause: (any Error & Sendable)? = nil) -> DownloadError {
        var error = DownloadError(.transport, what, url: url)
        error.cause = cause
        return error
    }

    /// A timeout fired.
    public static func timeout(url: String?, _ kind: TimeoutKind) -> DownloadError {
        let what = switch kind {
        case .connect: "timed out connecting"
        case .idleRead: "timed out waiting for data (idle read timeout)"
        case .total: "timed out: the transfer took longer than the total timeout"
        }
        var error = DownloadError(.timeout, what, url: url)
        error.timeoutKind = kind
        return error
    }

    /// The server closed the connection (end of stream) before the response was complete.
    public static func connectionClosed(url: String?, cause: (any Error & Sendable)? = nil) -> DownloadError {
        var error = DownloadError.transport(url: url, "the server closed the connection before the response was complete", cause: cause)
        error.closedByPeer = true
        return error
    }

    /// The server answered with an unacceptable status.
    public static func badStatus(url: String?, _ status: Int) -> DownloadError {
        var error = DownloadError(.badStatus, "the server answered HTTP \(status)", url: url)
        error.status = status
        return error
    }

    /// The body ended early.
    public static func truncated(url: String?, expected: Int, received: Int) -> DownloadError {
        var error = DownloadError(.truncated, "the body ended after \(received) of \(expected) bytes", url: url)
        error.expectedLength = expected
        error.receivedLength = received
        return error
    }

    /// More bytes than announced, or a range that does not fit.
    public static func lengthMismatch(url: String?, expected: Int, received: Int, _ what: String? = nil) -> DownloadError {
        var error = DownloadError(.lengthMismatch, what ?? "received \(received) bytes but the server announced \(expected)", url: url)
        error.expectedLength = expected
        error.receivedLength = received
        return error
    }

    /// The decryptor failed.
    public static func decryptionFailed(url: String?, _ decryption: DecryptionError) -> DownloadError {
        var error = DownloadError(.decryptionFailed, "decryption failed (\(decryption.code.name)): \(decryption.reason)", url: url)
        error.decryptionError = decryption
        error.cause = decryption
        return error
    }

    /// The caller (or every caller) cancelled.
    public static func cancelled(url: String?) -> DownloadError {
        DownloadError(.cancelled, "the download was cancelled", url: url)
    }

    /// A modifier rejected the transfer; `cause` is the error it threw, if any.
    public static func rejected(url: String?, _ what: String, cause: (any Error & Sendable)? = nil) -> DownloadError {
        var error = DownloadError(.rejected, what, url: url)
        error.cause = cause
        return error
    }

    /// The body's digest is not the expected one.
    ///
    /// - Parameters:
    ///   - algorithm: The digest's name as RFC 9530 spells it, e.g. `sha-256`.
    ///   - source: Where the expectation came from (`expected`, `Content-Digest`, `Repr-Digest`).
    public static func integrity(url: String?, algorithm: String, source: String, expected: String, actual: String) -> DownloadError {
        var error = DownloadError(.integrity, "integrity check failed: the \(algorithm) digest of the body is \(actual), \(source) says \(expected)",
                                  url: url)
        error.expectedDigest = expected
        error.actualDigest = actual
        return error
    }

    /// A connection that failed with the system error `code`: refused and reset connections say
    /// so, any other names the system's reason.
    static func connectionFailed(url: String?, errno code: Int32, cause: any Error & Sendable) -> DownloadError {
        let what = switch code {
        case ECONNREFUSED: "connection refused"
        case ECONNRESET: "connection reset by the server"
        default: "connection failed: \(String(cString: strerror(code)))"
        }
        return .transport(url: url, what, cause: cause)
    }

    /// An offline request found nothing in the cache.
    public static func notCached(url: String?) -> DownloadError {
        DownloadError(.notCached, "not in the cache, and the request may not use the network (offline)", url: url)
    }

    /// A local file failed.
    public static func file(_ path: String, _ what: String, errno code: Int32? = nil) -> DownloadError {
        var reason = "\(path): \(what)"
        if let code { reason += ": \(String(cString: strerror(code)))" }
        return DownloadError(.file, reason, path: path)
    }
}
