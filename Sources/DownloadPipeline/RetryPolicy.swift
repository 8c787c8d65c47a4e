#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When and how long a failed transfer is tried again.
///
/// Only failures that another attempt can cure are retried: transport failures (refused, reset,
/// closed early), connect and idle-read timeouts, a body cut short (`truncated`), and the statuses
/// 408, 429 and 5xx. A 4xx other than 408/429, a decryption failure, an integrity failure, a
/// rejection, a local file error, a cancellation and the total timeout are never retried.
///
/// The wait before retry *n* (0-based) is "full jitter" exponential backoff: a random duration in
/// `0 ... min(maximumDelay, initialDelay × 2ⁿ)`. When the server sent `Retry-After` (seconds or
/// an HTTP date) the wait is that value instead, capped at ``maximumRetryAfter``.
///
/// A retry after a cut resumes: when the response carried a strong `ETag` or a `Last-Modified`
/// and bytes had arrived, the next attempt asks for the rest with `Range` / `If-Range` and the
/// body continues where it stopped (a `200` answer starts it over).
public struct RetryPolicy: Sendable {
    /// Sleeps for a duration; throws when the sleeping task is cancelled.
    public typealias Sleep = @Sendable (Duration) async throws -> Void
    /// Picks the actual wait in `0 ... upperBound` (full jitter).
    public typealias Jitter = @Sendable (_ upperBound: Duration) -> Duration

    /// Retries after the first attempt (0: no retry).
    public var retries: Int
    /// The backoff bound before the first retry.
    public var initialDelay: Duration
    /// The largest backoff bound.
    public var maximumDelay: Duration
    /// The longest `Retry-After` honoured; a longer one is cut to this.
    public var maximumRetryAfter: Duration
    /// How the wait is spent (``Task/sleep(for:)`` by default; tests inject their own).
    public var sleep: Sleep
    /// How the wait is chosen below its bound (uniformly at random by default).
    public var jitter: Jitter

    /// No retry.
    public static var none: RetryPolicy { RetryPolicy(retries: 0) }

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - retries: Retries after the first attempt; negative counts as 0.
    ///   - initialDelay: The backoff bound before the first retry (default 0.5 s).
    ///   - maximumDelay: The largest backoff bound (default 30 s).
    ///   - maximumRetryAfter: The longest `Retry-After` honoured (default 60 s).
    ///   - sleep: How to wait; defaults to `Task.sleep(for:)`.
    ///   - jitter: How to pick the wait below its bound; defaults to a uniform random choice.
    public init(retries: Int, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30),
                maximumRetryAfter: Duration = .seconds(60), sleep: Sleep? = nil, jitter: Jitter? = nil) {
        self.retries = max(0, retries)
        self.initialDelay = max(.zero, initialDelay)
        self.maximumDelay = max(.zero, maximumDelay)
        self.maximumRetryAfter = max(.zero, maximumRetryAfter)
        self.sleep = sleep ?? { try await Task.sleep(for: $0) }
        self.jitter = jitter ?? RetryPolicy.uniformJitter
    }

    /// Whether `error` is worth another attempt (ignoring how many are left).
    public static func isRetryable(_ error: DownloadError) -> Bool {
        switch error.code {
        case .transport, .truncated:
            return true
        case .timeout:
            return error.timeoutKind != .total
        case .badStatus:
            guard let status = error.status else { return false }
            return status == 408 || status == 429 || (500...599).contains(status)
        default:
            // invalidURL, lengthMismatch, decryptionFailed, integrity, cancelled, rejected, file,
            // and any code added later: another attempt would fail the same way.
            return false
        }
    }

    /// The wait before retry number `retry` (0 for the first retry) after `error`: its
    /// `Retry-After` (capped), else the jittered backoff.
    public func delay(beforeRetry retry: Int, after error: DownloadError) -> Duration {
        if let retryAfter = error.retryAfter {
            return min(max(.zero, retryAfter), maximumRetryAfter)
        }
        return jitter(backoffBound(beforeRetry: retry))
    }

    /// `min(maximumDelay, initialDelay × 2^retry)`, without overflow.
    public func backoffBound(beforeRetry retry: Int) -> Duration {
        var bound = initialDelay
        for _ in 0..<max(0, retry) {
            guard bound < maximumDelay else { break }
            bound = bound * 2
        }
        return min(bound, maximumDelay)
    }

    /// A uniformly random duration in `0 ... upperBound`, at nanosecond resolution.
    public static let uniformJitter: Jitter = { upperBound in
        let nanoseconds = upperBound.components.seconds * 1_000_000_000 + upperBound.components.attoseconds / 1_000_000_000
        guard nanoseconds > 0 else { return .zero }
        return .nanoseconds(Int64.random(in: 0...nanoseconds))
    }

    /// Reads `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date (relative to `now`).
    /// `nil` when absent or malformed; a date in the past is zero.
    public static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let text = value.map(HTTPFieldText.trimmed), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Absurdly long values are capped by the policy; keep the arithmetic in range.
            guard let seconds = Int64(text.prefix(12)) else { return nil }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(Int64(seconds * 1000)) : .zero
    }
}
