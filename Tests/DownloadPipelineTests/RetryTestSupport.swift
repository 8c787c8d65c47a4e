import DownloadPipeline
import Foundation
import Synchronization

/// A retry policy's sleep that never waits: it records each requested delay and returns at once
/// (or, with `blocking`, waits until the sleeping task is cancelled).
final class RecordedSleeps: Sendable {
    private let delays = Mutex<[Duration]>([])
    private let blocking: Bool

    init(blocking: Bool = false) { self.blocking = blocking }

    var recorded: [Duration] { delays.withLock { $0 } }

    /// A policy with `retries`, this recorder as its sleep and the largest wait as its jitter.
    func policy(retries: Int, initialDelay: Duration = .milliseconds(100), maximumRetryAfter: Duration = .seconds(60)) -> RetryPolicy {
        RetryPolicy(retries: retries, initialDelay: initialDelay, maximumDelay: .seconds(10), maximumRetryAfter: maximumRetryAfter,
                    sleep: { [self] delay in
                        delays.withLock { $0.append(delay) }
                        if blocking {
                            // Suspends until the transfer is cancelled: the day never passes in a test.
                            try await Task.sleep(for: .seconds(86_400))
                        }
                    },
                    jitter: { $0 })
    }
}

/// Bodies that fail part-way, for cut-and-resume tests.
enum CutBody {
    /// Yields `chunks`, then fails with `error`.
    static func make(_ chunks: [[UInt8]], then error: DownloadError) -> TransportBody {
        let stream = AsyncThrowingStream<[UInt8], any Error> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish(throwing: error)
        }
        return TransportBody(stream)
    }
}

/// Collects a downloader's events in order.
final class EventRecorder: DownloadAccessory {
    private let events = Mutex<[DownloadEvent]>([])
    private let hooks = Mutex<[String]>([])

    var recorded: [DownloadEvent] { events.withLock { $0 } }
    var names: [String] { recorded.map(\.name) }
    var hookCalls: [String] { hooks.withLock { $0 } }

    func received(_ event: DownloadEvent) { events.withLock { $0.append(event) } }
    func willStart(_ request: DownloadRequest) { hooks.withLock { $0.append("willStart") } }
    func willStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>) { hooks.withLock { $0.append("willStop") } }
    func didStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>) { hooks.withLock { $0.append("didStop") } }
}

extension Result {
    /// The error of a failure, `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
