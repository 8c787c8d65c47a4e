import Foundation
import Synchronization

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
        /// Close cleanly (FIN).
        case close
        /// Hold the connection open, sending nothing, until the server stops (at most 30 s).
        case stall
    }

    typealias Handler = @Sendable (_ requestHead: String, _ connectionIndex: Int) -> [Step]

    let port: Int
    private let listener: Int32
    private let stopping = Atomic<Bool>(false)
    private let accepted = Atomic<Int>(0)
    private let handler: Handler

    init(handler: @escaping Handler) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket failed: \(errno)") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw TestServerError("bind/listen failed: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Connections accepted so far.
    var connections: Int { accepted.load(ordering: .relaxed) }

    /// Stops accepting (the listening socket closes within 50 ms) and ends stalled connections.
    func stop() {
        stopping.store(true, ordering: .relaxed)
    }

    private func acceptLoop() {
        while !stopping.load(ordering: .relaxed) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let index = accepted.wrappingAdd(1, ordering: .relaxed).oldValue
            let thread = Thread { [self] in serve(connection, index: index) }
            thread.start()
        }
        close(listener)
    }

    private func serve(_ fd: Int32, index: Int) {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(5)
        while !head.containsHeadEnd, ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { break }
            head += buffer[0..<count]
        }
        let steps = handler(String(decoding: head, as: UTF8.self), index)
        for step in steps {
            switch step {
            case .send(let bytes):
                var sent = 0
                while sent < bytes.count {
                    let result = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
                    if result <= 0 { break }
                    sent += result
                }
            case .pause(let duration):
                Thread.sleep(forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            case .reset:
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(fd)
                return
            case .close:
                shutdown(fd, Int32(SHUT_WR))
                close(fd)
                return
            case .stall:
                let until = ContinuousClock.now + .seconds(30)
                while !stopping.load(ordering: .relaxed), ContinuousClock.now < until {
                    Thread.sleep(forTimeInterval: 0.02)
                }
            }
        }
        close(fd)
    }

    /// A response head with `Content-Length: length` and extra header lines.
    static func head(status: String = "200 OK", length: Int?, headers: [String] = []) -> [UInt8] {
        var lines = ["HTTP/1.1 \(status)"] + headers
        if let length { lines.append("Content-Length: \(length)") }
        lines.append("Connection: close")
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }
}

private extension Array where Element == UInt8 {
    var containsHeadEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 { return true }
        return false
    }
}
