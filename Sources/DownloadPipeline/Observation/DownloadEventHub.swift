import Logging
import Synchronization

/// Fans a downloader's events out to its accessories, its logger and every open event stream.
final class DownloadEventHub: Sendable {
    private let accessories: [any DownloadAccessory]
    private let logger: Logger?
    private let streams = Mutex<(next: Int, continuations: [Int: AsyncStream<DownloadEvent>.Continuation])>((0, [:]))

    init(accessories: [any DownloadAccessory], logger: Logger?) {
        self.accessories = accessories
        self.logger = logger
    }

    /// A new stream of every event from now on; it ends when the consumer stops iterating.
    func stream() -> AsyncStream<DownloadEvent> {
        let (stream, continuation) = AsyncStream<DownloadEvent>.makeStream(bufferingPolicy: .unbounded)
        let key = streams.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.streams.withLock { $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    func emit(_ event: DownloadEvent) {
        for accessory in accessories { accessory.received(event) }
        if let logger { DownloadEventLog.log(event, to: logger) }
        let continuations = streams.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(event) }
    }

    func willStart(_ request: DownloadRequest) {
        for accessory in accessories { accessory.willStart(request) }
    }

    func willStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>) {
        for accessory in accessories { accessory.willStop(request, result: result) }
    }

    func didStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>) {
        for accessory in accessories { accessory.didStop(request, result: result) }
    }
}
