import NIOCore
import Synchronization

/// A response body read ahead by its own task, so that receiving (the socket, the HTTP parser and
/// this copy) runs beside the pipeline's decryption and writing instead of taking turns with it.
///
/// The reading task copies each `ByteBuffer` out of the transport into a bounded hand-off: at most
/// ``capacity`` bytes wait for the consumer, so memory stays flat whatever the body's size; while
/// the consumer is busy, buffers that arrive are appended to the last waiting chunk (up to
/// ``chunkLimit`` bytes), so a slow consumer gets fewer, larger chunks and pays its per-chunk costs
/// (decryptor call, `write`, digest, progress) less often. A consumer that waits is handed the
/// next buffer at once.
///
/// Errors of the base sequence are delivered after the chunks that arrived before them.
/// Cancelling the consumer's task ends its wait with `CancellationError`; dropping the sequence's
/// iterator cancels the reading task (and with it the transport's request).
struct ReadAheadBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    typealias Element = [UInt8]

    /// The most bytes waiting for the consumer before the reading task pauses.
    static var capacity: Int { BodyHandOff.capacity }
    /// The largest chunk made by appending waiting buffers.
    static var chunkLimit: Int { BodyHandOff.chunkLimit }

    let base: Base
    /// Turns the base sequence's errors into the error the consumer sees.
    let translate: @Sendable (any Error) -> any Error

    func makeAsyncIterator() -> Iterator {
        let channel = BodyHandOff()
        let base = base
        let translate = translate
        let reader = Task {
            do {
                for try await buffer in base {
                    guard await channel.push(buffer) else { return }
                }
                channel.finish(nil)
            } catch {
                channel.finish(translate(error))
            }
        }
        return Iterator(channel: channel, owner: Owner(reader: reader, channel: channel))
    }

    struct Iterator: AsyncIteratorProtocol {
        fileprivate let channel: BodyHandOff
        fileprivate let owner: Owner

        mutating func next() async throws -> [UInt8]? {
            try await channel.take()
        }
    }

    /// Cancels the reading task when the consumer's iterator goes away.
    fileprivate final class Owner: Sendable {
        let reader: Task<Void, Never>
        let channel: BodyHandOff

        init(reader: Task<Void, Never>, channel: BodyHandOff) {
            self.reader = reader
            self.channel = channel
        }

        deinit {
            channel.close()
            reader.cancel()
        }
    }

}
