import Synchronization

/// Adds up the progress of a batch's requests and reports the total.
final class BatchProgressTracker: Sendable {
    private struct State {
        var requests: [DownloadProgress?]
        var succeeded = 0
        var failed = 0
    }

    private let state: Mutex<State>
    private let handler: (@Sendable (BatchProgress) -> Void)?

    init(total: Int, handler: (@Sendable (BatchProgress) -> Void)?) {
        state = Mutex(State(requests: Array(repeating: nil, count: total)))
        self.handler = handler
    }

    /// One request reported its progress.
    func update(_ index: Int, _ progress: DownloadProgress) {
        guard let handler else { return }
        handler(state.withLock { state in
            state.requests[index] = progress
            return Self.summary(state)
        })
    }

    /// One request ended.
    func finish(_ index: Int, _ result: Result<DownloadResult, DownloadError>) {
        guard let handler else { return }
        handler(state.withLock { state in
            switch result {
            case .success(let download):
                state.succeeded += 1
                let received = max(state.requests[index]?.received ?? 0, download.bytesReceived)
                state.requests[index] = DownloadProgress(received: received, expected: received, isFinal: true)
            case .failure:
                state.failed += 1
            }
            return Self.summary(state)
        })
    }

    private static func summary(_ state: State) -> BatchProgress {
        let received = state.requests.reduce(0) { $0 + ($1?.received ?? 0) }
        var expected: Int? = 0
        for request in state.requests {
            guard let total = expected, let length = request?.expected else {
                expected = nil
                break
            }
            expected = total + length
        }
        return BatchProgress(total: state.requests.count, succeeded: state.succeeded, failed: state.failed,
                             bytesReceived: received, bytesExpected: expected)
    }
}
