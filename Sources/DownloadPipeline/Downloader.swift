#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CofferErrors
import Logging
import Synchronization

/// The download pipeline: request modifier → fetch (streaming) → response modifier → validation
/// → decryptor → result, optionally cached.
///
/// - Identical requests in flight share one transfer (see ``RequestIdentity``); each caller gets
///   its own ``DownloadTask``.
/// - At most ``Configuration/maximumConcurrentTransfers`` transfers run at once; the others wait
///   in FIFO or LIFO order.
/// - A failure (including a decryption failure) is reported to the callers of that transfer only:
///   nothing is remembered about the URL, so the next request tries again.
/// - A failed attempt is retried under the ``RetryPolicy`` (none by default); a body cut short
///   continues with a range request. An expected digest is checked before anything is cached or
///   written into place.
/// - Every transfer reports ``DownloadEvent``s to the accessories, the logger and
///   ``eventStream()``.
///
/// All state sits behind one `Mutex`; no actor hop on the data path.
public final class Downloader: Sendable {
    /// In which order waiting transfers start.
    public enum SchedulingOrder: Sendable, Hashable {
        /// Oldest first.
        case fifo
        /// Newest first (what a scrolling list wants).
        case lifo
    }

    /// The downloader's settings and default hooks.
    public struct Configuration: Sendable {
        /// The most transfers running at once (default 6).
        public var maximumConcurrentTransfers: Int
        /// The order in which waiting transfers start.
        public var order: SchedulingOrder
        /// The limit for a whole transfer (head and body), or `nil` for none. Connect and
        /// idle-read timeouts are the transport's.
        public var totalTimeout: Duration?
        /// The shortest interval between two progress reports to one caller.
        public var progressInterval: Duration
        /// The default request modifier.
        public var requestModifier: RequestModifier?
        /// The default response modifier.
        public var responseModifier: ResponseModifier?
        /// The default decryptor (`nil`: results are the bodies as they arrive).
        public var decryptor: (any Decryptor)?
        /// The cache used by requests whose ``CachePolicy`` enables it.
        public var cache: DownloadCache?
        /// Header names (lowercase) that never change the content, so they are left out of the
        /// request identity; every other header counts.
        public var headersIgnoredForIdentity: Set<String>
        /// The retry policy of requests without their own (default: no retry).
        public var retryPolicy: RetryPolicy
        /// Hooks around every transfer and receivers of its events.
        public var accessories: [any DownloadAccessory]
        /// Where events are logged (swift-log), or `nil` for no logging.
        public var logger: Logger?
        /// What a relative request URL is resolved against (YTKNetwork's `baseUrl`), or `nil`.
        /// See ``Downloader/Configuration/resolvedURL(for:)``.
        public var baseURL: URL?
        /// What a relative request URL with ``DownloadRequest/useCDN`` is resolved against
        /// (YTKNetwork's `cdnUrl`), or `nil` (then ``baseURL``).
        public var cdnURL: URL?
        /// Headers every request gets unless it has a header of that name: by default
        /// `User-Agent: Coffer/<version>` (``CofferVersion``) and `Accept: */*`.
        public var defaultHeaders: [(name: String, value: String)] = [("User-Agent", CofferVersion.userAgent), ("Accept", "*/*")]

        /// Creates settings: 6 transfers, FIFO, 5 minutes total, progress every 100 ms, no retry.
        public init(maximumConcurrentTransfers: Int = 6, order: SchedulingOrder = .fifo, totalTimeout: Duration? = .seconds(300),
                    progressInterval: Duration = .milliseconds(100), requestModifier: RequestModifier? = nil,
                    responseModifier: ResponseModifier? = nil, decryptor: (any Decryptor)? = nil, cache: DownloadCache? = nil,
                    retryPolicy: RetryPolicy = .none, accessories: [any DownloadAccessory] = [], logger: Logger? = nil) {
            self.maximumConcurrentTransfers = max(1, maximumConcurrentTransfers)
            self.order = order
            self.totalTimeout = totalTimeout
            self.progressInterval = progressInterval
            self.requestModifier = requestModifier
            self.responseModifier = responseModifier
            self.decryptor = decryptor
            self.cache = cache
            self.headersIgnoredForIdentity = RequestIdentity.defaultIgnoredHeaders
            self.retryPolicy = retryPolicy
            self.accessories = accessories
            self.logger = logger
        }
    }

    /// The transport every transfer uses.
    public let transport: any HTTPTransport
    /// The settings.
    public let configuration: Configuration

    private let state = Mutex(SchedulerState())
    /// Delivers events to accessories, the logger and the event streams.
    let events: DownloadEventHub
    private let nextTransferID = Atomic<UInt64>(1)

    struct SchedulerState {
        /// Transfers that still accept callers (waiting or running), by identity key.
        var transfers: [String: Transfer] = [:]
        /// Transfers waiting for a slot.
        var pending: [Transfer] = []
        /// Transfers running (including abandoned ones still winding down).
        var running = 0
        /// No waiting transfer starts while set (``suspend()``).
        var suspended = false
        /// Tasks created before the latest ``cancelAll()`` are cancelled when they get this far.
        var cancelGeneration: UInt64 = 0
    }

    /// Creates a downloader over `transport`.
    public init(transport: any HTTPTransport, configuration: Configuration = Configuration()) {
        self.transport = transport
        self.configuration = configuration
        events = DownloadEventHub(accessories: configuration.accessories, logger: configuration.logger)
    }

    /// Every event of every transfer from now on (see ``DownloadEvent``), until the consumer stops
    /// iterating. Events are buffered, so a slow consumer never slows a transfer down.
    public func eventStream() -> AsyncStream<DownloadEvent> {
        events.stream()
    }

    /// Starts a download and returns the caller's task at once.
    public func download(_ request: DownloadRequest) -> DownloadTask {
        let generation = state.withLock { $0.cancelGeneration }
        let task = DownloadTask(request: request, progressInterval: configuration.progressInterval, generation: generation) { [weak self] task in
            self?.detach(task)
        }
        task.setPreparation(Task { await self.prepare(task) })
        return task
    }

    /// Downloads and waits for the result; cancelling the calling task cancels this caller.
    ///
    /// - Throws: ``DownloadError``.
    public func result(for request: DownloadRequest) async throws(DownloadError) -> DownloadResult {
        try await download(request).value
    }

    /// Transfers running now (for tests and diagnostics).
    public var runningTransfers: Int { state.withLock { $0.running } }

    /// Transfers waiting for a slot now.
    public var pendingTransfers: Int { state.withLock { $0.pending.count } }

    // MARK: - Stages before the transfer

    /// Runs the request modifier, checks the URL and joins or creates the transfer.
    private func prepare(_ task: DownloadTask) async {
        var request = task.request
        request.url = configuration.resolvedURL(for: request)
        Configuration.moveUserInfo(of: &request)
        let originalURL = request.url.absoluteString
        configuration.addDefaultHeaders(to: &request)
        if let modifier = request.requestModifier ?? configuration.requestModifier {
            do {
                guard let modified = try await modifier(request) else {
                    task.finish(.failure(.cancelled(url: originalURL)))
                    return
                }
                request = modified
            } catch let error as DownloadError {
                task.finish(.failure(error))
                return
            } catch is CancellationError {
                task.finish(.failure(.cancelled(url: originalURL)))
                return
            } catch {
                task.finish(.failure(.rejected(url: originalURL, "the request modifier rejected the request: \(error)", cause: error)))
                return
            }
        }
        if let problem = RequestIdentity.urlProblem(request.url) {
            task.finish(.failure(.invalidURL(request.url.absoluteString, problem)))
            return
        }
        let decryptor = request.decryptor ?? configuration.decryptor
        let responseModifier = request.responseModifier ?? configuration.responseModifier
        let identity = RequestIdentity(request: request, decryptor: decryptor, responseModifier: responseModifier,
                                       ignoredHeaders: configuration.headersIgnoredForIdentity)
        attach(task, request: request, identity: identity, decryptor: decryptor, responseModifier: responseModifier)
    }

    /// Starts `request` (already through the request modifier) with nobody waiting for its
    /// result: the background refresh of ``CachePolicy/Mode/returnCacheThenRevalidate``. Its events
    /// reach the accessories, the logger and ``eventStream()`` as any transfer's.
    func refreshInBackground(_ request: DownloadRequest, decryptor: (any Decryptor)?, responseModifier: ResponseModifier?) {
        let task = DownloadTask(request: request, progressInterval: configuration.progressInterval) { [weak self] task in
            self?.detach(task)
        }
        let identity = RequestIdentity(request: request, decryptor: decryptor, responseModifier: responseModifier,
                                       ignoredHeaders: configuration.headersIgnoredForIdentity)
        attach(task, request: request, identity: identity, decryptor: decryptor, responseModifier: responseModifier)
    }

    // MARK: - Scheduling

    private func attach(_ task: DownloadTask, request: DownloadRequest, identity: RequestIdentity,
                        decryptor: (any Decryptor)?, responseModifier: ResponseModifier?) {
        var cancelledByAll = false
        let queued = state.withLock { state -> (transfer: Transfer, waiting: Int)? in
            // Checked under the lock: a cancelAll() after this point finds the transfer.
            if state.cancelGeneration > task.generation {
                cancelledByAll = true
                return nil
            }
            if let existing = state.transfers[identity.transferKey] {
                guard task.attach(to: existing) else { return nil }
                existing.add(task)
                return nil
            }
            let id = nextTransferID.add(1, ordering: .relaxed).oldValue
            let transfer = Transfer(id: id, request: request, identity: identity, decryptor: decryptor, responseModifier: responseModifier,
                                    downloader: self)
            guard task.attach(to: transfer) else { return nil }
            transfer.add(task)
            state.transfers[identity.transferKey] = transfer
            state.pending.append(transfer)
            startWaiting(&state)
            guard state.pending.contains(where: { $0 === transfer }) else { return nil }
            transfer.beginQueuedReport()
            return (transfer, state.pending.count)
        }
        if cancelledByAll { task.cancel() }
        // Outside the lock (accessories may call the downloader); the transfer's task waits for it.
        if let queued { queued.transfer.reportQueued(waiting: queued.waiting) }
    }

    /// Starts waiting transfers while slots are free. Called with the lock held.
    private func startWaiting(_ state: inout SchedulerState) {
        while !state.suspended, state.running < configuration.maximumConcurrentTransfers, !state.pending.isEmpty {
            let next = state.pending.remove(at: Self.nextIndex(state.pending, order: configuration.order))
            state.running += 1
            next.start()
        }
    }

    /// Cancels every download: running and waiting ones, and those still in their request
    /// modifier. Each caller's ``DownloadTask/value`` throws `cancelled`. Downloads started
    /// afterwards run as usual.
    public func cancelAll() {
        let callers = state.withLock { state in
            state.cancelGeneration += 1
            // Waiting transfers leave the queue first, so that no slot a cancelled transfer frees
            // starts one of them.
            for transfer in state.pending where state.transfers[transfer.identity.transferKey] === transfer {
                state.transfers[transfer.identity.transferKey] = nil
            }
            let waiting = state.pending
            state.pending = []
            return (waiting + state.transfers.values).flatMap { $0.callerList }
        }
        for caller in callers { caller.cancel() }
    }

    /// Stops starting waiting transfers: new downloads queue up; running ones continue to their end
    /// (they are not paused). ``resume()`` starts them again.
    public func suspend() {
        state.withLock { $0.suspended = true }
    }

    /// Starts waiting transfers again after ``suspend()``.
    public func resume() {
        state.withLock { state in
            state.suspended = false
            startWaiting(&state)
        }
    }

    /// Whether ``suspend()`` is in effect.
    public var isSuspended: Bool { state.withLock { $0.suspended } }

    /// The waiting transfer to start next: the highest priority, then the scheduling order.
    private static func nextIndex(_ pending: [Transfer], order: SchedulingOrder) -> Int {
        let highest = pending.map(\.request.priority).max() ?? .normal
        let index = order == .fifo ? pending.firstIndex { $0.request.priority == highest }
                                   : pending.lastIndex { $0.request.priority == highest }
        return index ?? 0
    }

    /// A caller cancelled: drop it from its transfer; cancel the transfer when none is left.
    private func detach(_ task: DownloadTask) {
        guard let transfer = task.transfer else { return }
        state.withLock { state in
            guard transfer.remove(task) else { return }
            // No caller left.
            if state.transfers[transfer.identity.transferKey] === transfer {
                state.transfers[transfer.identity.transferKey] = nil
            }
            if let index = state.pending.firstIndex(where: { $0 === transfer }) {
                state.pending.remove(at: index)
            } else {
                transfer.cancel()
            }
        }
    }

    /// A transfer ended: hand the result to its callers and start the next.
    func complete(_ transfer: Transfer, with result: Result<DownloadResult, DownloadError>) {
        let callers = state.withLock { state in
            if state.transfers[transfer.identity.transferKey] === transfer {
                state.transfers[transfer.identity.transferKey] = nil
            }
            state.running -= 1
            startWaiting(&state)
            return transfer.close()
        }
        for caller in callers {
            if case .success = result {
                caller.report(DownloadProgress(received: transfer.progress.received, expected: transfer.progress.expected, isFinal: true))
            }
            caller.finish(result)
        }
        events.didStop(transfer.request, result: result)
    }
}
