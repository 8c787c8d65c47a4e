import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket on 127.0.0.1 (ephemeral port) that serves each connection on a thread of
/// its own: the base of the tests' hand-written HTTP servers, which send what real servers will
/// not (short bodies, resets, stalls).
public final class LoopbackListener: Sendable {
    /// Serves one connection: the listener, the connected socket and the connection's index (from
    /// 0). The listener closes the socket when it returns.
    public typealias Serve = @Sendable (_ listener: LoopbackListener, _ socket: Int32, _ index: Int) -> Void

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: Int
    private let socket: Int32
    private let stopping = Atomic<Bool>(false)
    private let accepted = Atomic<Int>(0)
    /// Whether ``start(_:)`` began the accept thread (which then closes the descriptor).
    private let started = Atomic<Bool>(false)
    /// Whether the listening socket is closed, and the tasks waiting for it to be.
    private let closing = Mutex<(closed: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Binds and listens; ``start(_:)`` begins accepting.
    public init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed: \(errno)") }
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
            throw Failure(description: "bind/listen failed: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        socket = fd
    }

    /// Accepts connections on a thread of its own, serving each with `serve`, until ``stop()``.
    public func start(_ serve: @escaping Serve) {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else { return }
        if isStopping {
            finishClosing()
            return
        }
        Thread { [self] in acceptLoop(serve) }.start()
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Connections accepted so far.
    public var connections: Int { accepted.load(ordering: .relaxed) }

    /// Whether ``stop()`` was called: connections that hold on should end.
    public var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// Stops accepting before it returns: the listening socket is shut down at once (Linux moves
    /// a listening TCP socket to CLOSE on `shutdown`), so a connection attempt after ``stop()``
    /// is refused and connections still waiting in the backlog are reset. The accept thread then
    /// wakes and closes the descriptor (``waitUntilClosed()`` waits for that); the descriptor is
    /// not closed here, so its number cannot be reused while that thread still polls it.
    /// Connections already accepted go on until their `serve` returns (``isStopping`` tells
    /// those that hold on to end).
    public func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        Glibc.shutdown(socket, Int32(SHUT_RDWR))
        if !started.load(ordering: .sequentiallyConsistent) { finishClosing() }
    }

    /// Returns once the listening socket is closed, after ``stop()``: from then on a connection
    /// to ``port`` is refused.
    public func waitUntilClosed() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let closed = closing.withLock { state in
                if !state.closed { state.waiters.append(continuation) }
                return state.closed
            }
            if closed { continuation.resume() }
        }
    }

    private func acceptLoop(_ serve: @escaping Serve) {
        while !isStopping {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { continue }
            // Accepted in the instant stop() ran: not served.
            if isStopping {
                close(connection)
                break
            }
            let index = accepted.wrappingAdd(1, ordering: .relaxed).oldValue
            Thread { [self] in
                serve(self, connection, index)
                close(connection)
            }.start()
        }
        finishClosing()
    }

    /// Closes the descriptor and wakes ``waitUntilClosed()``'s waiters (once).
    private func finishClosing() {
        let waiters = closing.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.closed else { return [] }
            close(socket)
            state.closed = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: - HTTP helpers

    /// Reads a request head (up to the blank line) for at most 30 seconds: what arrived, or `nil`
    /// when the peer closed first. The wait is long because a client starved of CPU by a loaded
    /// machine may take seconds to send its request; answering before it came would make the
    /// client's late request meet a closed socket, whose reset discards the answer.
    public static func readRequestHead(_ fd: Int32) -> String? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(30)
        while !containsHeadEnd(head), ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { return nil }
            head += buffer[0..<count]
        }
        return String(decoding: head, as: UTF8.self)
    }

    /// Ends the sending side (FIN), then reads and discards what the peer still sends until it
    /// closes too (at most `limit`). Closing a socket with unread input sends a reset, and a reset
    /// makes the peer's kernel discard the answer it has not read yet: a lingering close as HTTP
    /// servers do it keeps a response that ends the connection from being lost.
    public static func closeLingering(_ fd: Int32, limit: Duration = .seconds(10)) {
        Glibc.shutdown(fd, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { return }
        }
    }

    /// Sends all of `bytes`, or as much as the peer takes before the connection fails.
    public static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if result <= 0 { return }
            sent += result
        }
    }

    /// A response head with `Content-Length: length` (when given), extra header lines and
    /// `Connection: close`.
    public static func responseHead(status: String = "200 OK", length: Int?, headers: [String] = []) -> [UInt8] {
        var lines = ["HTTP/1.1 \(status)"] + headers
        if let length { lines.append("Content-Length: \(length)") }
        lines.append("Connection: close")
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private static func containsHeadEnd(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return true
        }
        return false
    }
}
