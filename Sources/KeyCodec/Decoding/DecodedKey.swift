import AsymmetricKeys
import X509Kit
/// A key as read from a file: the key and what it was stored in.
public struct DecodedKey: Sendable {
    /// The container.
    public var format: KeyFormat
    /// Its encoding.
    public var encoding: KeyEncoding
    /// The key.
    public var key: AsymmetricKey
    /// How it was encrypted, if it was.
    public var encryption: KeyEncryptionInfo?
    /// The comment (OpenSSH, RFC 4716, PPK), if any.
    public var comment: String?
    /// The options before the key of an `authorized_keys` line (`from="…",no-pty`), verbatim.
    public var options: String?
    /// What the container says about the key: JWK `kid`/`use`/`alg`, PKCS#12 friendly name and local key id.
    public var attributes = KeyAttributes()
    /// For an X.509 certificate: everything in it (``key`` is the certified public key).
    public var certificate: Certificate?
    /// For a PKCS#10 request: everything in it (``key`` is the requested public key).
    public var request: CertificationRequest?
    /// For a `known_hosts` line: its marker, host patterns and line (``KnownHostsFile``).
    public var knownHosts: KnownHostsEntry?
    /// For an OpenSSH certificate (`*-cert.pub`): everything in it (``key`` is the certified
    /// public key).
    public var sshCertificate: SSHCertificate?
    /// What was read although it is not what the format's rules require (an explicit DEFAULT in
    /// DER, a byte-order mark, a PKCS#12 file without a MAC, …), one sentence each; empty for a
    /// file that keeps every rule. A strict reading refuses an entry that has any.
    public var warnings: [String] = []

    public init(format: KeyFormat, encoding: KeyEncoding, key: AsymmetricKey, encryption: KeyEncryptionInfo? = nil, comment: String? = nil, options: String? = nil,
                certificate: Certificate? = nil, request: CertificationRequest? = nil) {
        self.format = format
        self.encoding = encoding
        self.key = key
        self.encryption = encryption
        self.comment = comment
        self.options = options
        self.certificate = certificate
        self.request = request
        self.warnings = (certificate?.warnings ?? []) + (request?.warnings ?? [])
            + (certificate?.defects ?? []).map { "\($0) (the certificate is shown, but it is not valid)" }
        // An RSA-PSS key whose parameters write a field at its DEFAULT, in whatever container.
        switch key {
        case .publicKey(.rsa(let rsa)): self.warnings += rsa.pssRestriction?.readWarnings ?? []
        case .privateKey(.rsa(let rsa)): self.warnings += rsa.pssRestriction?.readWarnings ?? []
        default: break
        }
    }
}
