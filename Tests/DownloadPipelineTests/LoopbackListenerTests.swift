import CofferTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tests' hand-written server base: once ``LoopbackListener/stop()`` returns, nothing more
/// is accepted, so a test that stopped its server can assert that it was not contacted.
@Suite("LoopbackListener: stop() refuses connections before it returns", .timeLimit(.minutes(1)))
struct LoopbackListenerTests {
    /// Connects to 127.0.0.1:`port` and sends one byte: 0 when it went through, else errno.
    static func connectAndSend(_ port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0 ? 0 : errno
    }

    @Test("a connection right after stop() is refused, 200 times over, and nothing is served after it")
    func refusedAfterStop() async throws {
        for _ in 0..<200 {
            let listener = try LoopbackListener()
            let served = Atomic<Int>(0)
            listener.start { _, _, _ in served.add(1, ordering: .relaxed) }
            #expect(Self.connectAndSend(listener.port) == 0)
            // The connection above is served by a thread of its own; wait for it.
            let deadline = ContinuousClock.now + .seconds(10)
            while served.load(ordering: .relaxed) < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
            listener.stop()
            #expect(Self.connectAndSend(listener.port) == ECONNREFUSED)
            await listener.waitUntilClosed()
            #expect(served.load(ordering: .relaxed) == 1)
            #expect(listener.connections == 1)
        }
    }

    @Test("stop() before start() closes the socket, and start() after it serves nothing")
    func stopBeforeStart() async throws {
        let listener = try LoopbackListener()
        listener.stop()
        #expect(Self.connectAndSend(listener.port) == ECONNREFUSED)
        listener.start { _, _, _ in Issue.record("served after stop()") }
        await listener.waitUntilClosed()
    }
}
