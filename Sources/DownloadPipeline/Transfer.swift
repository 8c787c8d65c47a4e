#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One HTTP transfer shared by every caller with the same request identity.
///
/// The ``Downloader`` creates, starts, cancels and completes it under its lock; the transfer's own
/// lock guards its caller list and progress. Lock order: downloader, then transfer, then task.
final class Transfer: Sendable {
    /// Numbers the transfers of one downloader (events carry it).
    let id: UInt64
    let request: DownloadRequest
    let identity: RequestIdentity
    let decryptor: (any Decryptor)?
    let responseModifier: ResponseModifier?
    let downloader: Downloader

    private let state = Mutex(State())

    struct State {
        var callers: [DownloadTask] = []
        var task: Task<Void, Never>?
        var closed = false
        var progress = DownloadProgress(received: 0, expected: nil)
        var lastReport: ContinuousClock.Instant?
        var started = ContinuousClock.now
        /// Attempts made so far.
        var attempts = 0
        /// Body bytes received over the network so far, over every attempt.
        var bytesReceived = 0
        /// A `queued` event is being reported: the transfer's task waits for it (events of one
        /// transfer stay in order).
        var reportingQueued = false
        var queuedReported: CheckedContinuation<Void, Never>?
    }

    init(id: UInt64, request: DownloadRequest, identity: RequestIdentity, decryptor: (any Decryptor)?, responseModifier: ResponseModifier?,
         downloader: Downloader) {
        self.id = id
        self.request = request
        self.identity = identity
        self.decryptor = decryptor
        self.responseModifier = responseModifier
        self.downloader = downloader
    }

    /// Adds a caller.
    func add(_ caller: DownloadTask) {
        state.withLock { $0.callers.append(caller) }
    }

    /// The callers now.
    var callerList: [DownloadTask] { state.withLock { $0.callers } }

    /// Removes a caller; `true` when it was the last one (the transfer is then abandoned).
    func remove(_ caller: DownloadTask) -> Bool {
        state.withLock { state in
            guard let index = state.callers.firstIndex(where: { $0 === caller }) else { return false }
            state.callers.remove(at: index)
            return state.callers.isEmpty && !state.closed
        }
    }

    /// Starts the transfer's task. Called once, under the downloader's lock.
    func start() {
        state.withLock { $0.started = .now }
        let task = Task {
            await self.waitForQueuedReport()
            self.downloader.events.willStart(self.request)
            let result = await self.run()
            let (attempts, bytes) = self.state.withLock { ($0.attempts, $0.bytesReceived) }
            self.emit(.finish(bytesReceived: bytes, attempts: attempts, error: result.failure))
            self.downloader.events.willStop(self.request, result: result)
            self.downloader.complete(self, with: result)
        }
        state.withLock { $0.task = task }
    }

    /// Cancels the running transfer (its last caller left).
    func cancel() {
        state.withLock { $0.task }?.cancel()
    }

    /// Marks the transfer finished and returns the callers to notify.
    func close() -> [DownloadTask] {
        state.withLock { state in
            state.closed = true
            defer { state.callers = [] }
            return state.callers
        }
    }

    /// Emits an event of this transfer, timed from its start.
    func emit(_ kind: DownloadEvent.Kind) {
        let elapsed = ContinuousClock.now - state.withLock { $0.started }
        downloader.events.emit(DownloadEvent(kind: kind, url: request.url.absoluteString, transferID: id, elapsed: elapsed))
    }

    /// Marks that a `queued` event is about to be emitted (called under the downloader's lock).
    func beginQueuedReport() {
        state.withLock { $0.reportingQueued = true }
    }

    /// Emits the `queued` event and lets the transfer's task go on if it already started.
    func reportQueued(waiting: Int) {
        emit(.queued(waiting: waiting))
        let waiter = state.withLock { state in
            state.reportingQueued = false
            defer { state.queuedReported = nil }
            return state.queuedReported
        }
        waiter?.resume()
    }

    private func waitForQueuedReport() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.reportingQueued else { return true }
                state.queuedReported = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Counts an attempt; returns its number (1 for the first).
    func beginAttempt() -> Int {
        state.withLock { state in
            state.attempts += 1
            return state.attempts
        }
    }

    /// Counts body bytes that came over the network.
    func countReceived(_ count: Int) {
        state.withLock { $0.bytesReceived += count }
    }

    /// Body bytes received over the network so far.
    var bytesReceived: Int { state.withLock { $0.bytesReceived } }

    /// The latest progress.
    var progress: DownloadProgress { state.withLock { $0.progress } }

    /// Records progress and passes it on to the callers, at most once per progress interval.
    func report(received: Int, expected: Int?) {
        let now = ContinuousClock.now
        let interval = downloader.configuration.progressInterval
        let progress = DownloadProgress(received: received, expected: expected)
        let callers: [DownloadTask]? = state.withLock { state in
            state.progress = progress
            if let last = state.lastReport, now - last < interval { return nil }
            state.lastReport = now
            return state.callers
        }
        for caller in callers ?? [] { caller.report(progress) }
    }
}
