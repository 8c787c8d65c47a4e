import DownloadPipeline
import Synchronization

/// A counter that tasks can wait on: ``wait(atLeast:)`` resumes as soon as the count reaches the
/// target (continuations, no polling, no clock).
final class AwaitedCount: Sendable {
    private struct State {
        var value = 0
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var value: Int { state.withLock { $0.value } }

    /// Adds one and wakes the waiters whose target is reached.
    func increment() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.value += 1
            let value = state.value
            let ready = state.waiters.filter { $0.target <= value }.map(\.continuation)
            state.waiters.removeAll { $0.target <= value }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once the count is at least `target`.
    func wait(atLeast target: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.value < target else { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// An accessory that counts transfers that stopped (after their callers got the result, so the
/// downloader's slot is free again).
final class StopWatcher: DownloadAccessory {
    let stops = AwaitedCount()
    func didStop(_ request: DownloadRequest, result: Result<DownloadResult, DownloadError>) { stops.increment() }
}
