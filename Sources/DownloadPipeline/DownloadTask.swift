#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One caller's handle on a download: its cancellation token and its result.
///
/// Identical requests share one transfer, but each caller has its own task. Cancelling a task
/// detaches that caller only (its ``value`` throws `cancelled` at once); the transfer itself is
/// cancelled when its last caller cancels.
public final class DownloadTask: Sendable {
    /// The request as the caller made it (before the request modifier).
    public let request: DownloadRequest

    private let state: Mutex<State>
    private let progressInterval: Duration
    private let onCancel: @Sendable (DownloadTask) -> Void
    /// The downloader's ``Downloader/cancelAll()`` count when the task was made.
    let generation: UInt64

    struct State {
        var result: Result<DownloadResult, DownloadError>?
        var waiters: [CheckedContinuation<Result<DownloadResult, DownloadError>, Never>] = []
        var transfer: Transfer?
        var preparation: Task<Void, Never>?
        var lastProgress: ContinuousClock.Instant?
    }

    init(request: DownloadRequest, progressInterval: Duration, generation: UInt64 = 0, onCancel: @escaping @Sendable (DownloadTask) -> Void) {
        self.request = request
        self.generation = generation
        self.progressInterval = progressInterval
        self.onCancel = onCancel
        state = Mutex(State())
    }

    /// The result: waits for the transfer (or returns at once when finished). Cancelling the
    /// awaiting task cancels this caller, as ``cancel()`` does.
    ///
    /// - Throws: ``DownloadError`` — `cancelled` when this caller was cancelled.
    public var value: DownloadResult {
        get async throws(DownloadError) {
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Result<DownloadResult, DownloadError>, Never>) in
                    let ready: Result<DownloadResult, DownloadError>? = state.withLock { state in
                        if let result = state.result { return result }
                        state.waiters.append(continuation)
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                self.cancel()
            }
            return try result.get()
        }
    }

    /// Whether the result (or the cancellation) is in.
    public var isFinished: Bool { state.withLock { $0.result != nil } }

    /// Detaches this caller: ``value`` throws `cancelled`; the transfer stops when no caller is
    /// left. Does nothing when already finished.
    public func cancel() {
        // Without `user:password@`, as everywhere the pipeline names the URL.
        let url = DownloadEventLog.redacted(request.url.absoluteString)
        let preparation: Task<Void, Never>?? = state.withLock { state in
            guard state.result == nil else { return .none }
            return .some(state.preparation)
        }
        guard case .some(let preparation) = preparation else { return }
        guard finish(.failure(.cancelled(url: url))) else { return }
        preparation?.cancel()
        onCancel(self)
    }

    /// Records the result and wakes the waiters; `false` when a result was already in.
    @discardableResult
    func finish(_ result: Result<DownloadResult, DownloadError>) -> Bool {
        let waiters: [CheckedContinuation<Result<DownloadResult, DownloadError>, Never>]? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: result) }
        return true
    }

    /// Delivers a progress report, throttled to one per progress interval (final reports always).
    func report(_ progress: DownloadProgress) {
        guard let handler = request.progress else { return }
        let now = ContinuousClock.now
        let deliver = state.withLock { state -> Bool in
            guard state.result == nil else { return false }
            if !progress.isFinal, let last = state.lastProgress, now - last < progressInterval { return false }
            state.lastProgress = now
            return true
        }
        if deliver { handler(progress) }
    }

    var transfer: Transfer? { state.withLock { $0.transfer } }

    /// Links the caller to its transfer; `false` when it already finished (cancelled).
    func attach(to transfer: Transfer) -> Bool {
        state.withLock { state in
            guard state.result == nil else { return false }
            state.transfer = transfer
            return true
        }
    }

    func setPreparation(_ task: Task<Void, Never>) {
        state.withLock { $0.preparation = task }
    }
}
