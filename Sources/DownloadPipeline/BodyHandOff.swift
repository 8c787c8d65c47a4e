import NIOCore
import Synchronization

/// The bounded hand-off between the task that receives a response body and the task that
/// consumes it: the task that reads a connection (``HTTPExchange``) pushes, the pipeline takes.
///
/// At most ``capacity`` bytes wait for the consumer, so memory stays flat whatever the body's
/// size; while the consumer is busy, buffers that arrive are appended to the last waiting chunk
/// (up to ``chunkLimit`` bytes), so a slow consumer gets fewer, larger chunks. A consumer that
/// waits is handed the next buffer at once. Cancelling the consumer's task ends its wait with
/// `CancellationError`; ``close()`` (the consumer left) makes the producer's next ``push(_:)``
/// return `false`.
final class BodyHandOff: Sendable {
    /// The most bytes waiting for the consumer before the producer pauses.
    static var capacity: Int { 4 << 20 }
    /// The largest chunk made by appending waiting buffers.
    static var chunkLimit: Int { 1 << 20 }

    private struct State {
        var chunks: [[UInt8]] = []
        /// Index of the first chunk not yet taken (chunks before it are released).
        var head = 0
        var buffered = 0
        /// Set when the base ended: `nil` error for a clean end.
        var ended = false
        var error: (any Error)?
        /// The consumer went away: the reader stops.
        var closed = false
        var consumer: CheckedContinuation<[UInt8]?, any Error>?
        var producer: CheckedContinuation<Bool, Never>?
    }

    private let state = Mutex(State())

    /// What a push did.
    private enum Step {
        case stop
        case handed(CheckedContinuation<[UInt8]?, any Error>)
        case queued(full: Bool)
    }

    /// Hands `buffer` on; suspends while the hand-off is full. `false` when the consumer left.
    func push(_ buffer: ByteBuffer) async -> Bool {
        let step: Step = state.withLock { state in
            if state.closed { return .stop }
            if let consumer = state.consumer {
                state.consumer = nil
                return .handed(consumer)
            }
            let limit = BodyHandOff.chunkLimit
            if state.chunks.count > state.head, state.chunks[state.chunks.count - 1].count + buffer.readableBytes <= limit {
                state.chunks[state.chunks.count - 1].append(contentsOf: buffer.readableBytesView)
            } else {
                var chunk = [UInt8]()
                chunk.reserveCapacity(Swift.max(buffer.readableBytes, Swift.min(limit, 256 << 10)))
                chunk.append(contentsOf: buffer.readableBytesView)
                state.chunks.append(chunk)
            }
            state.buffered += buffer.readableBytes
            return .queued(full: state.buffered >= BodyHandOff.capacity)
        }
        switch step {
        case .stop:
            return false
        case .handed(let consumer):
            consumer.resume(returning: Array(buffer.readableBytesView))
            return true
        case .queued(let full):
            guard full else { return true }
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resumeNow: Bool? = state.withLock { state in
                if state.closed { return false }
                if state.buffered < BodyHandOff.capacity { return true }
                state.producer = continuation
                return nil
            }
            if let resumeNow { continuation.resume(returning: resumeNow) }
        }
    }

    /// The base ended (`error` nil) or failed.
    func finish(_ error: (any Error)?) {
        let consumer = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
            state.ended = true
            state.error = error
            // A waiting consumer has nothing before the end.
            defer { state.consumer = nil }
            return state.consumer
        }
        if let consumer {
            if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
        }
    }

    /// The consumer left: a waiting reader is released and stops.
    func close() {
        let producer = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.closed = true
            state.chunks = []
            state.head = 0
            state.buffered = 0
            defer { state.producer = nil }
            return state.producer
        }
        producer?.resume(returning: false)
    }

    private enum Outcome {
        case chunk([UInt8])
        case end
        case failure(any Error)
        case wait
    }

    /// The next chunk, `nil` at the end; the base's error after the chunks before it.
    func take() async throws -> [UInt8]? {
        switch outcome(waiting: nil) {
        case .chunk(let chunk): return chunk
        case .end: return nil
        case .failure(let error): throw error
        case .wait: break
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
                switch outcome(waiting: continuation) {
                case .chunk(let chunk): continuation.resume(returning: chunk)
                case .end: continuation.resume(returning: nil)
                case .failure(let error): continuation.resume(throwing: error)
                case .wait: break
                }
            }
        } onCancel: {
            let consumer = state.withLock { state -> CheckedContinuation<[UInt8]?, any Error>? in
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume(throwing: CancellationError())
        }
    }

    /// What the consumer gets now; `.wait` registers `waiting` (when given) for the next push.
    private func outcome(waiting: CheckedContinuation<[UInt8]?, any Error>?) -> Outcome {
        let (outcome, producer): (Outcome, CheckedContinuation<Bool, Never>?) = state.withLock { state in
            if state.head < state.chunks.count {
                let chunk = state.chunks[state.head]
                state.chunks[state.head] = []
                state.head += 1
                if state.head == state.chunks.count {
                    state.chunks.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                state.buffered -= chunk.count
                guard state.buffered < BodyHandOff.capacity else { return (.chunk(chunk), nil) }
                defer { state.producer = nil }
                return (.chunk(chunk), state.producer)
            }
            if state.ended { return (state.error.map { .failure($0) } ?? .end, nil) }
            if Task.isCancelled { return (.failure(CancellationError()), nil) }
            if let waiting { state.consumer = waiting }
            return (.wait, nil)
        }
        producer?.resume(returning: true)
        return outcome
    }
}
