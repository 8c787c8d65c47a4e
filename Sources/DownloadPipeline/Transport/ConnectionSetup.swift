import AsymmetricKeys
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// Opens one connection for a ``ConnectionKey``: TCP to the origin or its proxy, the proxy's
/// handshakes, TLS with the origin (the chain verified by BoringSSL, the host name by
/// ``ServerIdentity``, the pins by ``PinnedHandshake``), then HTTP/1.1 or HTTP/2 as ALPN chose.
///
/// Everything up to the first request shares the connect timeout, which counts the waits for
/// the peer (the TCP connect, the handshakes), not this process's own steps. No byte of a request
/// is sent on a connection whose server failed a check.
enum ConnectionSetup {
    /// What every connection of a transport is made with.
    struct Settings: Sendable {
        var connectTimeout: TimeAmount
        var idleReadTimeout: TimeAmount
        var retriesConnectionAttempts: Bool
        var addressOverrides: [String: String]
        /// TLS with origins: trust roots, client identity, ALPN.
        var originTLS: NIOSSLContext
        /// TLS with `https://` proxies: the same trust roots, no client identity, HTTP/1.1.
        var proxyTLS: NIOSSLContext
        var pins: Set<SPKIPin>
    }

    /// A connection ready for requests.
    enum Established: Sendable {
        case http1(NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>)
        case http2(any Channel, NIOHTTP2Handler.AsyncStreamMultiplexer<Void>)
    }

    /// The reads' sizes: from 64 KiB up to 1 MiB while reads fill the buffer.
    static let receiveAllocator = AdaptiveRecvByteBufferAllocator(minimum: 16 << 10, initial: 64 << 10, maximum: 1 << 20)

    static func connect(_ key: ConnectionKey, settings: Settings) async throws -> Established {
        let target: (host: String, port: Int)
        if let proxy = key.proxy {
            target = (proxy.host, proxy.port)
        } else {
            target = (settings.addressOverrides[key.host] ?? key.host, key.port)
        }
        let channel = try await tcp(host: target.host, port: target.port, settings: settings)
        let expiry = Expiry()
        expiry.arm(channel, after: settings.connectTimeout)
        do {
            let setup = try await SetupChannel.install(on: channel)
            if let proxy = key.proxy, proxy.kind == .https {
                try await expiry.waitingForPeer { try await proxyTLS(setup, proxy: proxy, settings: settings) }
            }
            if case .tunnel(let proxy) = key.route {
                let address = settings.addressOverrides[key.host] ?? key.host
                try await expiry.waitingForPeer {
                    switch proxy.kind {
                    case .http, .https:
                        let authority = address.contains(":") ? "[\(address)]:\(key.port)" : "\(address):\(key.port)"
                        try await ProxyHandshake.connect(setup, proxy: proxy, target: authority)
                    case .socks5, .socks5h:
                        try await ProxyHandshake.socks5(setup, proxy: proxy, host: address, port: key.port)
                    }
                }
            }
            var http2 = false
            if key.secure {
                http2 = try await expiry.waitingForPeer { try await originTLS(setup, host: key.host, settings: settings) } == "h2"
            }
            let established = try await configure(channel, http2: http2, settings: settings)
            try await setup.finish()
            expiry.cancel()
            return established
        } catch {
            expiry.cancel()
            channel.close(promise: nil)
            if expiry.fired.load(ordering: .relaxed) { throw ChannelError.connectTimeout(settings.connectTimeout) }
            throw error
        }
    }

    /// The connect timeout after the TCP connection: it closes the connection only while the
    /// setup waits for the peer (a handshake with the proxy or the origin). Time this process
    /// spends on its own steps, or starved of CPU on a loaded machine, is not the peer's: when
    /// the timeout finds no such wait, it checks again a timeout later.
    private final class Expiry: Sendable {
        /// Set when the timeout closed the connection.
        let fired = Atomic<Bool>(false)
        private let peerWaits = Atomic<Int>(0)
        private let armed = Mutex<(ended: Bool, task: Scheduled<Void>?)>((false, nil))

        func arm(_ channel: any Channel, after timeout: TimeAmount) {
            let task = channel.eventLoop.scheduleTask(in: timeout) { [self] in
                guard peerWaits.load(ordering: .acquiring) > 0 else { return arm(channel, after: timeout) }
                fired.store(true, ordering: .relaxed)
                channel.close(promise: nil)
            }
            let ended = armed.withLock { armed in
                if !armed.ended { armed.task = task }
                return armed.ended
            }
            if ended { task.cancel() }
        }

        /// Runs `step`, a wait for the peer, which the timeout may end.
        func waitingForPeer<T>(_ step: () async throws -> T) async throws -> T {
            peerWaits.add(1, ordering: .releasing)
            defer { peerWaits.subtract(1, ordering: .releasing) }
            return try await step()
        }

        func cancel() {
            let task = armed.withLock { armed in
                armed.ended = true
                defer { armed.task = nil }
                return armed.task
            }
            task?.cancel()
        }
    }

    /// The TCP connection, retried until the connect timeout when the settings say so.
    private static func tcp(host: String, port: Int, settings: Settings) async throws -> any Channel {
        let deadline = NIODeadline.now() + settings.connectTimeout
        while true {
            do {
                return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(deadline - .now())
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .channelOption(.recvAllocator, value: receiveAllocator)
                    .connect(host: host, port: port).get()
            } catch {
                if case ChannelError.connectTimeout = error { throw error }
                guard settings.retriesConnectionAttempts, NIODeadline.now() + .milliseconds(100) < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// TLS with an `https://` proxy, its certificate checked for the proxy's host.
    private static func proxyTLS(_ setup: SetupChannel, proxy: ProxySettings.Proxy, settings: Settings) async throws {
        let serverName = isIPAddress(proxy.host) ? nil : proxy.host
        let context = settings.proxyTLS
        let (tls, _) = try await setup.startTLS { try NIOSSLClientHandler(context: context, serverHostname: serverName) }
        if let reason = ServerIdentity.mismatch(host: proxy.host, leaf: await setup.peerCertificate(of: tls)) {
            throw SetupFailure("the proxy \(proxy): \(reason)", rejected: true)
        }
    }

    /// TLS with the origin; returns the protocol ALPN chose.
    private static func originTLS(_ setup: SetupChannel, host: String, settings: Settings) async throws -> String? {
        let verified = VerifiedChain()
        let serverName = isIPAddress(host) ? nil : host
        let context = settings.originTLS
        let pinned = !settings.pins.isEmpty
        let (tls, negotiated) = try await setup.startTLS {
            try PinnedHandshake.clientHandler(context: context, serverHostname: serverName) { result, certificate in
                // Called for each certificate of the chain BoringSSL builds, with its own verdict,
                // which stays the verdict: the pins only add a requirement.
                if pinned, result == .certificateVerified, let der = try? certificate.toDERBytes() {
                    verified.append(PinnedHandshake.pin(ofCertificate: der))
                }
                return result
            }
        }
        if let reason = ServerIdentity.mismatch(host: host, leaf: await setup.peerCertificate(of: tls)) {
            throw SetupFailure(reason, rejected: true)
        }
        if pinned, let reason = PinnedHandshake.mismatch(pins: settings.pins, verified: verified.pins) {
            throw SetupFailure(reason, rejected: true)
        }
        return negotiated
    }

    /// The HTTP handlers for the protocol chosen.
    private static func configure(_ channel: any Channel, http2: Bool, settings: Settings) async throws -> Established {
        let idleRead = settings.idleReadTimeout
        if http2 {
            let multiplexer = try await channel.eventLoop.submit {
                var configuration = NIOHTTP2Handler.Configuration()
                configuration.connection.initialSettings = nioDefaultSettings + [
                    HTTP2Setting(parameter: .enablePush, value: 0),
                    HTTP2Setting(parameter: .initialWindowSize, value: HTTPStreams.windowSize),
                ]
                configuration.connection.targetWindowSize = HTTPStreams.windowSize * 4
                configuration.stream.targetWindowSize = HTTPStreams.windowSize
                return try channel.pipeline.syncOperations.configureAsyncHTTP2Pipeline(
                    mode: .client, configuration: configuration) { stream in
                        // The server opens no streams (push is off); any it tries is closed.
                        stream.close()
                    }
            }.get()
            return .http2(channel, multiplexer)
        }
        let exchangeChannel = try await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            var encoder = HTTPRequestEncoder.Configuration()
            encoder.automaticallySetFramingHeaders = false
            try pipeline.addHTTPClientHandlers(encoderConfiguration: encoder)
            try pipeline.addHandler(ReadTimeoutHandler(timeout: idleRead))
            return try HTTPStreams.wrap(channel)
        }.get()
        return .http1(exchangeChannel)
    }

    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// The pins of the certificates BoringSSL verified in one handshake, leaf last (`nil` for a
    /// certificate Coffer cannot parse).
    final class VerifiedChain: Sendable {
        private let value = Mutex<[SPKIPin?]>([])

        func append(_ pin: SPKIPin?) { value.withLock { $0.append(pin) } }

        var pins: [SPKIPin?] { value.withLock { $0 } }
    }
}
