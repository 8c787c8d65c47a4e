import NIOCore
import NIOSSL

/// A connection being set up, as the async code that sets it up sees it: bytes sent and answers
/// awaited through its ``SetupReader``, TLS handshakes started and awaited.
struct SetupChannel: Sendable {
    let channel: any Channel
    private let reader: NIOLoopBound<SetupReader>

    private init(channel: any Channel, reader: NIOLoopBound<SetupReader>) {
        self.channel = channel
        self.reader = reader
    }

    /// Adds a ``SetupReader`` at the end of `channel`'s pipeline.
    static func install(on channel: any Channel) async throws -> SetupChannel {
        try await channel.eventLoop.submit {
            let reader = SetupReader()
            try channel.pipeline.syncOperations.addHandler(reader)
            return SetupChannel(channel: channel, reader: NIOLoopBound(reader, eventLoop: channel.eventLoop))
        }.get()
    }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// The next answer: the first `length(received)` bytes, once `length` knows how many make it.
    func receive(length: @escaping @Sendable (ByteBuffer) throws -> Int?) async throws -> ByteBuffer {
        let reader = reader
        let loop = channel.eventLoop
        return try await loop.flatSubmit { reader.value.read(on: loop, length: length) }.get()
    }

    /// Adds the TLS client handler `make` returns in front of the reader (after any TLS handler
    /// already there, so a tunnel's TLS runs inside the proxy's), and waits for its handshake.
    ///
    /// - Returns: The handler, and the protocol ALPN chose.
    func startTLS(_ make: @escaping @Sendable () throws -> NIOSSLClientHandler) async throws -> (tls: NIOLoopBound<NIOSSLClientHandler>, negotiated: String?) {
        let reader = reader
        let channel = channel
        let (tls, handshake) = try await channel.eventLoop.submit {
            let handler = try make()
            let handshake = reader.value.handshake(on: channel.eventLoop)
            try channel.pipeline.syncOperations.addHandler(handler, position: .before(reader.value))
            return (NIOLoopBound(handler, eventLoop: channel.eventLoop), handshake)
        }.get()
        return (tls, try await handshake.get())
    }

    /// The DER of the certificate the peer of `tls` presented.
    func peerCertificate(of tls: NIOLoopBound<NIOSSLClientHandler>) async -> [UInt8]? {
        try? await channel.eventLoop.submit { try tls.value.peerCertificate?.toDERBytes() }.get()
    }

    /// Removes the reader: the connection is set up, and the handlers added after the reader
    /// receive what the peer already sent.
    func finish() async throws {
        let reader = reader
        let channel = channel
        try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
            // A peer that failed the connection as it was set up (a TLS 1.3 server that wants a
            // client certificate sends its alert right after the handshake) is the reason, not the
            // reader's removal from a pipeline that is gone.
            if let failure = reader.value.failure { return channel.eventLoop.makeFailedFuture(failure) }
            return channel.pipeline.syncOperations.removeHandler(reader.value).flatMapErrorThrowing { error in
                throw reader.value.failure ?? (channel.isActive ? error : ChannelError.eof)
            }
        }.get()
    }
}

/// A connection setup that failed for a reason given in words (a proxy's answer, a protocol
/// error): the sentence of the request's ``DownloadError``.
struct SetupFailure: Error, Sendable, CustomStringConvertible {
    let description: String
    /// Whether the failure is the peer's verdict on this request (a refused pin or host name),
    /// which another attempt meets again.
    var rejected = false

    init(_ description: String, rejected: Bool = false) {
        self.description = description
        self.rejected = rejected
    }
}
