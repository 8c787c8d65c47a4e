import DownloadPipeline
import Foundation
import Synchronization

/// A transport that holds every request until the test releases it, and announces each arrival
/// on ``arrivals``: tests step through a schedule without clocks or polling. A held request whose
/// task is cancelled ends at once with `cancelled`.
final class HeldTransport: HTTPTransport {
    private struct Held {
        var id: Int
        var path: String
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var held: [Held] = []
        var nextID = 0
        var live = 0
        var most = 0
        var cancelledIDs: Set<Int> = []
    }

    /// The path of each request as it arrives.
    let arrivals: AsyncStream<String>
    private let arrivalsContinuation: AsyncStream<String>.Continuation
    private let state = Mutex(State())

    init() {
        (arrivals, arrivalsContinuation) = AsyncStream<String>.makeStream()
    }

    func start(_ request: TransportRequest) async throws -> TransportResponse {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.live += 1
            state.most = max(state.most, state.live)
            return state.nextID
        }
        defer { state.withLock { $0.live -= 1 } }
        let released = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let cancelled = state.withLock { state in
                    if state.cancelledIDs.contains(id) { return true }
                    state.held.append(Held(id: id, path: request.url.path, continuation: continuation))
                    return false
                }
                if cancelled {
                    continuation.resume(returning: false)
                } else {
                    arrivalsContinuation.yield(request.url.path)
                }
            }
        } onCancel: {
            let held = state.withLock { state -> Held? in
                state.cancelledIDs.insert(id)
                guard let index = state.held.firstIndex(where: { $0.id == id }) else { return nil }
                return state.held.remove(at: index)
            }
            held?.continuation.resume(returning: false)
        }
        guard released else { throw DownloadError.cancelled(url: request.url.absoluteString) }
        if request.url.path.hasPrefix("/missing") {
            return FakeTransport.response(request.url, status: 404, chunks: [])
        }
        let body = Array(request.url.path.utf8)
        return FakeTransport.response(request.url, headers: [("Content-Length", String(body.count))], chunks: [body])
    }

    func shutdown() async throws {}

    /// Lets the oldest held request answer; `false` when none is held.
    @discardableResult
    func releaseOldest() -> Bool {
        let held = state.withLock { $0.held.isEmpty ? nil : $0.held.removeFirst() }
        held?.continuation.resume(returning: true)
        return held != nil
    }

    /// Lets the held request for `path` answer; `false` when none is held.
    @discardableResult
    func release(path: String) -> Bool {
        let held = state.withLock { state -> Held? in
            guard let index = state.held.firstIndex(where: { $0.path == path }) else { return nil }
            return state.held.remove(at: index)
        }
        held?.continuation.resume(returning: true)
        return held != nil
    }

    /// Requests held at once, at most.
    var mostAtOnce: Int { state.withLock { $0.most } }
}
