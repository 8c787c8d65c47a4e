@testable import DownloadPipeline
import NIOCore
import Synchronization
import Testing

/// ``ReadAheadBody``: the bounded hand-off between the task that reads a response body and the
/// pipeline that consumes it.
@Suite("read-ahead body", .timeLimit(.minutes(2)))
struct ReadAheadBodyTests {
    struct Failure: Error, Equatable {}

    /// `count` buffers of `size` bytes (byte `i` of the whole body is `i % 251`), then the end or
    /// `Failure`. Checks at every pull that the reader is never more than the hand-off's capacity
    /// and one buffer ahead of the consumer, and records a cancellation it sees.
    struct Source: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let count: Int
        let size: Int
        let fails: Bool
        let consumed: Counter

        final class Counter: Sendable {
            let consumed = Atomic<Int>(0)
            let pulled = Atomic<Int>(0)
            let worstLead = Atomic<Int>(0)
            let sawCancellation = Atomic<Bool>(false)
            /// The reading task let go of the base's iterator (how AsyncHTTPClient learns to stop).
            let released = Atomic<Bool>(false)
        }

        /// Tells the counter when the iterator goes away.
        final class Token: Sendable {
            let counter: Counter
            init(_ counter: Counter) { self.counter = counter }
            deinit { counter.released.store(true, ordering: .relaxed) }
        }

        func makeAsyncIterator() -> Iterator { Iterator(source: self, token: Token(consumed)) }

        struct Iterator: AsyncIteratorProtocol {
            let source: Source
            let token: Token
            var index = 0

            mutating func next() async throws -> ByteBuffer? {
                if Task.isCancelled {
                    source.consumed.sawCancellation.store(true, ordering: .relaxed)
                    throw CancellationError()
                }
                guard index < source.count else {
                    if source.fails { throw ReadAheadBodyTests.Failure() }
                    return nil
                }
                let start = index * source.size
                index += 1
                let pulled = source.consumed.pulled.add(source.size, ordering: .relaxed).newValue
                let lead = pulled - source.consumed.consumed.load(ordering: .relaxed)
                source.consumed.worstLead.max(lead, ordering: .relaxed)
                await Task.yield()
                return ByteBuffer(bytes: (start..<start + source.size).map { UInt8($0 % 251) })
            }
        }
    }

    @Test("the bytes arrive whole and in order; a busy consumer gets joined chunks of at most 1 MiB; the reader stays within the capacity")
    func orderAndBound() async throws {
        let counter = Source.Counter()
        let body = ReadAheadBody(base: Source(count: 400, size: 16 << 10, fails: false, consumed: counter)) { $0 }
        var received = 0
        var chunks = 0
        var largest = 0
        for try await chunk in body {
            #expect(chunk.enumerated().allSatisfy { $0.element == UInt8((received + $0.offset) % 251) })
            received += chunk.count
            chunks += 1
            largest = max(largest, chunk.count)
            counter.consumed.store(received, ordering: .relaxed)
            // A slow consumer: the reader runs ahead.
            if chunks % 8 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(received == 400 * (16 << 10))
        #expect(largest <= ReadAheadBody<Source>.chunkLimit)
        #expect(counter.worstLead.load(ordering: .relaxed) <= ReadAheadBody<Source>.capacity + ReadAheadBody<Source>.chunkLimit + (16 << 10))
    }

    @Test("an error of the base comes after the chunks that arrived before it, translated")
    func errorAfterChunks() async throws {
        let counter = Source.Counter()
        struct Translated: Error {}
        let body = ReadAheadBody(base: Source(count: 3, size: 1000, fails: true, consumed: counter)) { _ in Translated() }
        var received = 0
        do {
            for try await chunk in body { received += chunk.count }
            Issue.record("no error")
        } catch is Translated {
            #expect(received == 3000)
        }
    }

    @Test("dropping the iterator stops the reading task, which lets go of the base")
    func droppingCancels() async throws {
        let counter = Source.Counter()
        do {
            var iterator = ReadAheadBody(base: Source(count: .max, size: 1000, fails: false, consumed: counter)) { $0 }.makeAsyncIterator()
            let first = try await iterator.next()
            #expect(first?.isEmpty == false)
        }
        while !counter.released.load(ordering: .relaxed) {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("cancelling the consumer's task ends its wait with CancellationError")
    func consumerCancelled() async throws {
        let counter = Source.Counter()
        // A base that never produces: the consumer waits until cancelled.
        let task = Task {
            var iterator = ReadAheadBody(base: Source(count: 0, size: 1, fails: false, consumed: counter).stalled) { $0 }.makeAsyncIterator()
            _ = try await iterator.next()
        }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

extension ReadAheadBodyTests.Source {
    /// A sequence that waits (until cancelled) instead of producing.
    var stalled: Stalled { Stalled() }

    struct Stalled: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        func makeAsyncIterator() -> Iterator { Iterator() }
        struct Iterator: AsyncIteratorProtocol {
            mutating func next() async throws -> ByteBuffer? {
                try await Task.sleep(for: .seconds(3600))
                return nil
            }
        }
    }
}
