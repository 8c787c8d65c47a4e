/// How the container was encoded.
public enum KeyEncoding: String, Sendable, Hashable, CaseIterable {
    case pem
    case der
    /// One-line or RFC 4716 text (OpenSSH public keys), the OpenSSH private key PEM-like armor, or
    /// a PuTTY key file.
    case text
    /// JSON (JWK).
    case json
}
