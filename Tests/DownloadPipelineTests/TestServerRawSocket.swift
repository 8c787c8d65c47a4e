import CofferTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on a POSIX socket (127.0.0.1, ephemeral port) for the responses a real
/// server will not produce: a body shorter than its Content-Length, a connection reset mid-body,
/// a stall. Each connection's request head goes to `handler`, which returns the steps to play.
final class TestServerRawSocket: Sendable {
    enum Step: Sendable {
        /// Write these bytes.
        case send([UInt8])
        /// Wait.
        case pause(Duration)
        /// Close with RST (SO_LINGER 0).
        case reset
        /// Close cleanly (FIN), then read until the client closes (a lingering close).
        case close
        /// Hold the connection open, sending nothing, until the server stops (at most 30 s).
        case stall
    }

    typealias Handler = @Sendable (_ requestHead: String, _ connectionIndex: Int) -> [Step]

    private let listener: LoopbackListener

    init(handler: @escaping Handler) throws {
        listener = try LoopbackListener()
        listener.start { listener, fd, index in
            Self.play(handler(LoopbackListener.readRequestHead(fd) ?? "", index), on: fd, listener: listener)
        }
    }

    var port: Int { listener.port }

    func url(_ path: String) -> URL { URL(string: listener.url(path))! }

    /// Connections accepted so far.
    var connections: Int { listener.connections }

    /// Stops accepting (the listening socket closes within 50 ms) and ends stalled connections.
    func stop() {
        listener.stop()
    }

    /// Returns once the listening socket is closed, after ``stop()``.
    func waitUntilClosed() async {
        await listener.waitUntilClosed()
    }

    /// Plays `steps` on a connection; the listener closes the socket afterwards.
    private static func play(_ steps: [Step], on fd: Int32, listener: LoopbackListener) {
        for step in steps {
            switch step {
            case .send(let bytes):
                LoopbackListener.send(fd, bytes)
            case .pause(let duration):
                Thread.sleep(forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            case .reset:
                // Closing with a zero linger time sends RST.
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                return
            case .close:
                LoopbackListener.closeLingering(fd)
                return
            case .stall:
                let until = ContinuousClock.now + .seconds(30)
                while !listener.isStopping, ContinuousClock.now < until {
                    Thread.sleep(forTimeInterval: 0.02)
                }
            }
        }
    }

    /// A response head with `Content-Length: length` and extra header lines.
    static func head(status: String = "200 OK", length: Int?, headers: [String] = []) -> [UInt8] {
        LoopbackListener.responseHead(status: status, length: length, headers: headers)
    }
}
