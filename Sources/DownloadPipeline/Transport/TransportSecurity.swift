import AsymmetricKeys
import CryptoOpenSSL

/// How ``NetworkTransport`` secures its connections: the HTTP version it offers, the
/// certificates it trusts and the identity it presents, all from keys and certificates Coffer
/// reads itself (``KeyCodec/KeyDecoder``).
///
/// Secrets (a client private key) stay in memory, never in a file: Coffer holds the key as PKCS#8
/// DER in ``CryptoOpenSSL/SecureBytes`` (``ClientIdentity/privateKeyPKCS8``). The TLS library
/// (swift-nio-ssl) accepts a key only as an ordinary byte array, so when the TLS settings are made
/// the DER is copied into one array for the length of that call and the array is zeroed as soon
/// as it returns; BoringSSL then holds the parsed key for as long as the settings are in use.
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
    /// SHA-256 digests of SubjectPublicKeyInfos, curl's `--pinnedpubkey sha256//…` (the
    /// `spkiSHA256` that `keytool inspect` prints; ``AsymmetricKeys/SPKIPin``). When set, an
    /// `https` server is accepted only if, besides the usual chain and host name verification,
    /// one certificate of its verified chain (leaf, intermediate or root) has one of these
    /// public keys; the check happens on the connection the request then uses, before any byte
    /// of the request is sent. Empty (the default): no pinning.
    public var pinnedPublicKeys: [SPKIPin]

    /// Creates settings: HTTP/2 with HTTP/1.1 fallback, the system's trust store, no client
    /// identity, no pins.
    public init(httpVersion: HTTPVersion = .automatic, trustRoots: TrustRoots = .system, clientIdentity: ClientIdentity? = nil,
                pinnedPublicKeys: [SPKIPin] = []) {
        self.httpVersion = httpVersion
        self.trustRoots = trustRoots
        self.clientIdentity = clientIdentity
        self.pinnedPublicKeys = pinnedPublicKeys
    }

    /// The pins of curl's `--pinnedpubkey` spelling: `sha256//BASE64` items separated by `;`,
    /// each the base64 of 32 bytes (``AsymmetricKeys/SPKIPin/pins(parsing:)``).
    ///
    /// - Throws: ``DownloadError`` `.transport` naming the item that is not such a pin.
    public static func pins(parsing text: String) throws -> [SPKIPin] {
        do { return try SPKIPin.pins(parsing: text) } catch {
            throw DownloadError.transport(url: nil, (error as? KeyError)?.reason ?? "\(error)")
        }
    }
}
