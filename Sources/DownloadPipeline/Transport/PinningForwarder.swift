import AsymmetricKeys
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// A listener on a Unix domain socket in a new private directory (mode 0700, so no other user
/// can reach it) that carries plain HTTP/1.1 from AsyncHTTPClient to one `https`
/// origin over a TLS connection Coffer sets up itself, so that the server's public key can be
/// checked against ``TransportSecurity/pinnedPublicKeys`` on the very connection the request
/// then uses (AsyncHTTPClient builds its own TLS handler and offers no verification hook).
///
/// Each accepted connection stays unread (`autoRead` off) while the forwarder connects to the
/// origin, completes the TLS handshake with the transport's trust roots and client identity
/// (the chain verified as usual, the host name by ``ServerIdentity``) and compares the SubjectPublicKeyInfo SHA-256 of
/// every certificate of the verified chain with the pins. Only on a match are the two
/// connections joined byte for byte (``GlueHandler``) and the request read: on a mismatch, or a
/// failed connection or handshake, the reason is recorded for the transport and both sides are
/// closed, so no request byte reaches the origin.
final class PinningForwarder: Sendable {
    /// The path of the listening socket.
    let socketPath: String
    private let directory: String
    private let listener: any Channel
    private let failures: FailureBox

    private init(socketPath: String, directory: String, listener: any Channel, failures: FailureBox) {
        self.socketPath = socketPath
        self.directory = directory
        self.listener = listener
        self.failures = failures
    }

    /// Binds a listener on a Unix domain socket in a new directory only this user can enter,
    /// forwarding to `host`:`port`.
    ///
    /// - Parameters:
    ///   - host: The URL's host: the TLS server name and the name the certificate must be for.
    ///   - address: Where to connect instead of `host` (``AsyncHTTPClientTransport/Configuration/addressOverrides``).
    ///   - pins: The accepted pins.
    ///   - tls: The TLS client settings (chain verification, roots, identity).
    static func start(host: String, address: String? = nil, port: Int, pins: Set<SPKIPin>, tls: TLSConfiguration,
                      connectTimeout: TimeAmount) async throws -> PinningForwarder {
        var tls = tls
        tls.applicationProtocols = ["http/1.1"]
        let context = try NIOSSLContext(configuration: tls)
        let failures = FailureBox()
        // An IP address is checked against the certificate's IP SANs and never sent as SNI.
        let serverHostname: String? = Self.isIPAddress(host) ? nil : host
        let directory = try makePrivateDirectory()
        let socketPath = directory + "/forwarder.sock"
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                connect(inbound: inbound, host: host, address: address ?? host, port: port, serverHostname: serverHostname, context: context,
                        pins: pins, failures: failures, connectTimeout: connectTimeout)
                return inbound.eventLoop.makeSucceededVoidFuture()
            }
        let listener: any Channel
        do {
            listener = try await bootstrap.bind(unixDomainSocketPath: socketPath).get()
        } catch {
            rmdir(directory)
            throw DownloadError.transport(url: nil, "the pinning forwarder cannot listen on \(socketPath): \(error)")
        }
        return PinningForwarder(socketPath: socketPath, directory: directory, listener: listener, failures: failures)
    }

    /// A new directory, mode 0700, under `TMPDIR` (when a socket path there fits) or `/tmp`.
    private static func makePrivateDirectory() throws -> String {
        var base = "/tmp"
        if let tmp = getenv("TMPDIR").map({ String(cString: $0) }), tmp.hasPrefix("/"), tmp.utf8.count < 60 {
            base = tmp.hasSuffix("/") ? String(tmp.dropLast()) : tmp
        }
        var template = Array((base + "/coffer-pin-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw DownloadError.transport(url: nil, "the pinning forwarder cannot make a directory in \(base): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// Why the last failed connection was closed, cleared as it is taken.
    enum Failure: Sendable {
        /// The server's certificate is not for the host, or no certificate of the verified chain
        /// has a pinned public key: the sentence.
        case refused(String)
        /// The connection to the origin or its TLS handshake failed.
        case error(any Error)
    }

    /// The reason the last failed connection was closed (a pin mismatch, a TLS or connection
    /// failure), as the error of a request for `url`; cleared as it is taken.
    func takeFailure(url: String) -> DownloadError? {
        let failure = failures.value.withLock { failure in
            defer { failure = nil }
            return failure
        }
        switch failure {
        // Rejected, not a transport failure: another attempt meets the same key, so it is not retried.
        case .refused(let reason)?: return .rejected(url: url, reason)
        case .error(let error)?:
            if case ChannelError.connectTimeout = error { return .timeout(url: url, .connect) }
            return AsyncHTTPClientTransport.translate(error, url: url)
        case nil: return nil
        }
    }

    /// Dropped without ``shutdown()``: the listener is closed without waiting and the socket and
    /// its private directory are removed, so nothing is left on disk.
    deinit {
        listener.close(promise: nil)
        unlink(socketPath)
        rmdir(directory)
    }

    func shutdown() async {
        try? await listener.close()
        unlink(socketPath)
        rmdir(directory)
    }

    static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// Opens the TLS connection to the origin for `inbound` (on `inbound`'s event loop).
    private static func connect(inbound: any Channel, host: String, address: String, port: Int, serverHostname: String?, context: NIOSSLContext,
                                pins: Set<SPKIPin>, failures: FailureBox, connectTimeout: TimeAmount) {
        ClientBootstrap(group: inbound.eventLoop)
            .connectTimeout(connectTimeout)
            .channelInitializer { outbound in
                outbound.eventLoop.makeCompletedFuture {
                    let verified = VerifiedChain()
                    let ssl = try PinnedHandshake.clientHandler(context: context, serverHostname: serverHostname) { result, certificate in
                        // Called for each certificate of the chain BoringSSL builds, with its own
                        // verdict, which stays the verdict: the pins only add a requirement.
                        if result == .certificateVerified, let der = try? certificate.toDERBytes() {
                            verified.pins.append(PinnedHandshake.pin(ofCertificate: der))
                        }
                        return result
                    }
                    try outbound.pipeline.syncOperations.addHandler(ssl)
                    try outbound.pipeline.syncOperations.addHandler(
                        PinCheckHandler(host: host, pins: pins, verified: verified, failures: failures, inbound: inbound,
                                        handshakeTimeout: connectTimeout))
                }
            }
            .connect(host: address, port: port)
            .whenFailure { error in
                failures.record(.error(error))
                inbound.close(promise: nil)
            }
    }

    final class FailureBox: Sendable {
        let value = Mutex<Failure?>(nil)

        func record(_ failure: Failure) { value.withLock { $0 = failure } }
    }

    /// The pins of the certificates BoringSSL verified, leaf last, for one handshake (`nil` for a
    /// certificate Coffer cannot parse); touched on the connection's event loop only.
    final class VerifiedChain: @unchecked Sendable {
        var pins: [SPKIPin?] = []
    }
}
