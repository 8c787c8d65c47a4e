import AsymmetricKeys
import CryptoOpenSSL

/// How ``AsyncHTTPClientTransport`` secures its connections: the HTTP version it offers, the
/// certificates it trusts and the identity it presents, all from keys and certificates Coffer
/// reads itself (``AsymmetricKeys/KeyDecoder``).
///
/// Secrets (a client private key) stay in memory: the key reaches the TLS library as PKCS#8 DER
/// held in ``CryptoOpenSSL/SecureBytes``, never in a file.
public struct TransportSecurity: Sendable {
    /// Which HTTP versions the client offers.
    public enum HTTPVersion: String, Sendable, Hashable, CaseIterable {
        /// HTTP/2 when the server agrees to it in the TLS handshake (ALPN `h2`), HTTP/1.1
        /// otherwise; plain `http://` stays HTTP/1.1 (no cleartext h2).
        case automatic
        /// HTTP/1.1 only (ALPN offers `http/1.1` alone).
        case http1
    }

    /// The certificates a server's chain must end at.
    public struct TrustRoots: Sendable {
        /// Certificates to trust, DER-encoded.
        public var certificates: [[UInt8]]
        /// Whether the system's trust store is kept beside ``certificates``.
        public var includesSystemRoots: Bool

        /// The system's trust store alone (the default).
        public static let system = TrustRoots(certificates: [], includesSystemRoots: true)

        /// Creates trust roots: `certificates` (DER) instead of the system's, or beside them.
        public init(certificates: [[UInt8]], includesSystemRoots: Bool) {
            self.certificates = certificates
            self.includesSystemRoots = includesSystemRoots
        }
    }

    /// The HTTP versions offered (default ``HTTPVersion/automatic``).
    public var httpVersion: HTTPVersion
    /// The certificates trusted (default: the system's).
    public var trustRoots: TrustRoots
    /// The certificate chain and key presented when a server asks for one (mutual TLS).
    public var clientIdentity: ClientIdentity?

    /// Creates settings: HTTP/2 with HTTP/1.1 fallback, the system's trust store, no client identity.
    public init(httpVersion: HTTPVersion = .automatic, trustRoots: TrustRoots = .system, clientIdentity: ClientIdentity? = nil) {
        self.httpVersion = httpVersion
        self.trustRoots = trustRoots
        self.clientIdentity = clientIdentity
    }
}
