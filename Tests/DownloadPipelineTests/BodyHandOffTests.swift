@testable import DownloadPipeline
import NIOCore
import Synchronization
import Testing

/// ``BodyHandOff``: the bounded hand-off between the task that reads a response body (the
/// transport's connection task) and the pipeline that consumes it.
@Suite("body hand-off", .timeLimit(.minutes(2)))
struct BodyHandOffTests {
    struct Failure: Error {}

    /// Pushes `count` buffers of `size` bytes (byte `i` of the whole body is `i % 251`) as a
    /// connection task does, then ends the body (with `failure` when given). Records how far it
    /// ran ahead of `consumed` and whether a push was refused.
    final class Producer: Sendable {
        let pushed = Atomic<Int>(0)
        let consumed = Atomic<Int>(0)
        let worstLead = Atomic<Int>(0)
        let refused = Atomic<Bool>(false)

        func run(into handOff: BodyHandOff, count: Int, size: Int, failure: (any Error)? = nil) -> Task<Void, Never> {
            Task {
                for index in 0..<count {
                    let start = index * size
                    let buffer = ByteBuffer(bytes: (start..<start + size).map { UInt8($0 % 251) })
                    let lead = pushed.add(size, ordering: .relaxed).newValue - consumed.load(ordering: .relaxed)
                    worstLead.max(lead, ordering: .relaxed)
                    guard await handOff.push(buffer) else {
                        refused.store(true, ordering: .relaxed)
                        return
                    }
                }
                handOff.finish(failure)
            }
        }
    }

    @Test("the bytes arrive whole and in order; a busy consumer gets joined chunks of at most 1 MiB; the producer stays within the capacity")
    func orderAndBound() async throws {
        let handOff = BodyHandOff()
        let producer = Producer()
        let task = producer.run(into: handOff, count: 400, size: 16 << 10)
        var received = 0
        var chunks = 0
        var largest = 0
        while let chunk = try await handOff.take() {
            #expect(chunk.enumerated().allSatisfy { $0.element == UInt8((received + $0.offset) % 251) })
            received += chunk.count
            chunks += 1
            largest = max(largest, chunk.count)
            producer.consumed.store(received, ordering: .relaxed)
            // A slow consumer: the producer runs ahead.
            if chunks % 8 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        await task.value
        #expect(received == 400 * (16 << 10))
        #expect(largest <= BodyHandOff.chunkLimit)
        #expect(producer.worstLead.load(ordering: .relaxed) <= BodyHandOff.capacity + BodyHandOff.chunkLimit + (16 << 10))
    }

    @Test("an error ends the body after the chunks that arrived before it")
    func errorAfterChunks() async throws {
        let handOff = BodyHandOff()
        await Producer().run(into: handOff, count: 3, size: 1000, failure: Failure()).value
        var received = 0
        do {
            while let chunk = try await handOff.take() { received += chunk.count }
            Issue.record("no error")
        } catch is Failure {
            #expect(received == 3000)
        }
    }

    @Test("closing (the consumer left) releases a producer waiting on a full hand-off, and refuses its pushes")
    func closeReleasesProducer() async throws {
        let handOff = BodyHandOff()
        let producer = Producer()
        let task = producer.run(into: handOff, count: .max / (1 << 20), size: 64 << 10)
        while producer.pushed.load(ordering: .relaxed) < BodyHandOff.capacity { try await Task.sleep(for: .milliseconds(2)) }
        handOff.close()
        await task.value
        let refused = producer.refused.load(ordering: .relaxed)
        #expect(refused)
    }

    @Test("cancelling the consumer's task ends its wait with CancellationError")
    func consumerCancelled() async throws {
        let handOff = BodyHandOff()
        let task = Task { _ = try await handOff.take() }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
