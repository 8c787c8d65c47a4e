import NIOCore
import Synchronization

/// The transport's connections by ``ConnectionKey``: idle HTTP/1.1 connections kept for the next
/// request, one HTTP/2 connection shared by every request to its origin.
///
/// While the first connection to an `https` origin is being made, other requests to it wait for
/// it instead of opening their own: if the server chose HTTP/2 they share it, else each makes
/// its own HTTP/1.1 connection.
final class ConnectionPool: Sendable {
    /// A connection lent to one request.
    enum Lease: Sendable {
        case http1(HTTP1Connection, reused: Bool)
        case http2(HTTP2Connection, reused: Bool)

        var reused: Bool {
            switch self {
            case .http1(_, let reused), .http2(_, let reused): reused
            }
        }

        var isHTTP2: Bool {
            if case .http2 = self { return true }
            return false
        }

        func submit(_ exchange: HTTPExchange) {
            switch self {
            case .http1(let connection, _): connection.submit(exchange)
            case .http2(let connection, _): connection.submit(exchange)
            }
        }
    }

    /// The pool is shut down.
    struct Closed: Error, Sendable {}

    private struct State {
        var idle: [ConnectionKey: [HTTP1Connection]] = [:]
        var shared: [ConnectionKey: HTTP2Connection] = [:]
        var opening: [ConnectionKey: Task<Lease, any Error>] = [:]
        /// Every connection not yet ended, for shutdown.
        var open: [ObjectIdentifier: any Channel] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    /// The most idle HTTP/1.1 connections kept per key; more are closed as they come back.
    private let maximumIdlePerKey: Int

    init(maximumIdlePerKey: Int) {
        self.maximumIdlePerKey = max(1, maximumIdlePerKey)
    }

    private enum Found {
        case lease(Lease)
        case wait(Task<Lease, any Error>)
        case connect
    }

    /// A connection for `key`: an idle or shared one unless `fresh`, else a new one.
    ///
    /// - Parameter mayShare: Whether a new connection to the key may turn out HTTP/2 (then
    ///   requests that arrive while it is made wait for it).
    func acquire(_ key: ConnectionKey, fresh: Bool, mayShare: Bool, settings: ConnectionSetup.Settings) async throws -> Lease {
        let found: Found = try state.withLock { state in
            if state.closed { throw Closed() }
            if let shared = state.shared[key] {
                if shared.channel.isActive { return .lease(.http2(shared, reused: true)) }
                state.shared[key] = nil
            }
            if !fresh {
                while let connection = state.idle[key]?.popLast() {
                    if connection.channel.isActive { return .lease(.http1(connection, reused: true)) }
                    connection.retire()
                }
            }
            if mayShare, let opening = state.opening[key] { return .wait(opening) }
            return .connect
        }
        switch found {
        case .lease(let lease):
            return lease
        case .wait(let opening):
            if case .http2(let connection, _)? = try? await opening.value { return .http2(connection, reused: false) }
            return try await open(key, settings: settings)
        case .connect:
            guard mayShare else { return try await open(key, settings: settings) }
            let opening = Task { try await self.open(key, settings: settings) }
            state.withLock { $0.opening[key] = opening }
            defer { state.withLock { $0.opening[key] = nil } }
            return try await withTaskCancellationHandler { try await opening.value } onCancel: { opening.cancel() }
        }
    }

    /// A new connection for `key`, registered.
    private func open(_ key: ConnectionKey, settings: ConnectionSetup.Settings) async throws -> Lease {
        let established = try await ConnectionSetup.connect(key, settings: settings)
        switch established {
        case .http1(let exchangeChannel):
            let connection = HTTP1Connection.start(exchangeChannel, released: { [weak self] in self?.release($0, key: key) },
                                                   ended: { [weak self] in self?.forget($0.channel) })
            try register(connection.channel) { connection.retire() }
            return .http1(connection, reused: false)
        case .http2(let channel, let multiplexer):
            let connection = HTTP2Connection(channel: channel, multiplexer: multiplexer, idleReadTimeout: settings.idleReadTimeout)
            try register(channel) { connection.retire() }
            state.withLock { state in
                if state.shared[key]?.channel.isActive != true { state.shared[key] = connection }
            }
            channel.closeFuture.whenComplete { [weak self] _ in
                self?.state.withLock { state in
                    if state.shared[key] === connection { state.shared[key] = nil }
                }
                self?.forget(channel)
            }
            return .http2(connection, reused: false)
        }
    }

    /// Records an open connection; at once closes it when the pool is shut down.
    private func register(_ channel: any Channel, retire: () -> Void) throws {
        let closed = state.withLock { state in
            if !state.closed { state.open[ObjectIdentifier(channel)] = channel }
            return state.closed
        }
        if closed {
            retire()
            throw Closed()
        }
    }

    /// Takes back an HTTP/1.1 connection whose response is complete.
    private func release(_ connection: HTTP1Connection, key: ConnectionKey) {
        let keep = state.withLock { state in
            guard !state.closed, connection.channel.isActive, state.idle[key, default: []].count < maximumIdlePerKey else { return false }
            state.idle[key, default: []].append(connection)
            return true
        }
        if !keep { connection.retire() }
    }

    private func forget(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes every connection; later acquisitions fail.
    func shutdown() async {
        let (channels, idle) = state.withLock { state in
            state.closed = true
            defer {
                state.idle = [:]
                state.shared = [:]
                state.open = [:]
            }
            return (Array(state.open.values), state.idle.values.flatMap { $0 })
        }
        for connection in idle { connection.retire() }
        for channel in channels {
            try? await channel.close()
        }
    }

    /// Closes every connection without waiting.
    func close() {
        let channels = state.withLock { state in
            state.closed = true
            return Array(state.open.values)
        }
        for channel in channels { channel.close(promise: nil) }
    }
}
