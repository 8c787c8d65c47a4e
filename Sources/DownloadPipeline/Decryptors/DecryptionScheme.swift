import AsymmetricKeys
import CryptoOpenSSL

/// The built-in decryption schemes, each with its name (the raw value).
public enum DecryptionScheme: String, CaseIterable, Sendable {
    /// CMS when the payload is a CMS ContentInfo, otherwise an error asking for a scheme.
    case auto
    /// CMS EnvelopedData / AuthEnvelopedData (``CMSDecryptor``).
    case cms
    /// Chunked RSAES-OAEP with SHA-256 (``RSAChunkedDecryptor``).
    case rsaOAEPSHA256 = "rsa-oaep-sha256"
    /// Chunked RSAES-OAEP with SHA-1.
    case rsaOAEPSHA1 = "rsa-oaep-sha1"
    /// Chunked RSAES-PKCS1-v1_5 (legacy, opted in by choosing this scheme).
    case rsaPKCS1 = "rsa-pkcs1"
    /// Public-key recovery of private-key-encrypted data (``RSAPublicRecoveryDecryptor``).
    case rsaPublic = "rsa-public"
    /// No decryption (``PassthroughDecryptor``).
    case none

    /// Builds the decryptor for this scheme.
    ///
    /// - Parameters:
    ///   - key: The RSA key; a private key for every scheme but `rsa-public` (which takes either)
    ///     and `none` (which takes none).
    ///   - base64: Whether a base64 wrapper is stripped first (``Base64Decryptor``; a streaming
    ///     scheme stays streaming).
    /// - Throws: ``DecryptionError`` `.wrongKey` when the scheme needs a (private) RSA key that was
    ///   not given.
    public func makeDecryptor(key: AsymmetricKey?, base64: Bool) throws -> any Decryptor {
        let decryptor: any Decryptor
        switch self {
        case .none:
            decryptor = PassthroughDecryptor()
        case .rsaPublic:
            guard let key else { throw missingKey("a public or private key") }
            guard let publicKey = try key.publicKey().rsa else { throw missingKey("an RSA key, not \(key.algorithmDescription)") }
            decryptor = RSAPublicRecoveryDecryptor(key: publicKey)
        case .auto, .cms, .rsaOAEPSHA256, .rsaOAEPSHA1, .rsaPKCS1:
            guard let anyPrivateKey = key?.privateKey else {
                throw missingKey(key == nil ? "a private key" : "a private key, not a public one")
            }
            guard let privateKey = anyPrivateKey.rsa else { throw missingKey("an RSA key, not \(anyPrivateKey.algorithmDescription)") }
            switch self {
            case .auto: decryptor = AutoDecryptor(key: privateKey)
            case .cms: decryptor = CMSDecryptor(key: privateKey)
            case .rsaOAEPSHA256: decryptor = RSAChunkedDecryptor(key: privateKey, padding: .oaepSHA256)
            case .rsaOAEPSHA1: decryptor = RSAChunkedDecryptor(key: privateKey, padding: .oaepSHA1)
            default: decryptor = RSAChunkedDecryptor(key: privateKey, padding: .pkcs1, allowLegacyPKCS1: true)
            }
        }
        guard base64 else { return decryptor }
        return Self.base64(wrapping: decryptor)
    }

    /// A ``Base64Decryptor`` around `inner`, opened from its existential: the wrapper is a
    /// ``StreamingDecryptor`` exactly when `inner` is.
    private static func base64<Inner: Decryptor>(wrapping inner: Inner) -> any Decryptor {
        Base64Decryptor(wrapping: inner)
    }

    private func missingKey(_ what: String) -> DecryptionError {
        DecryptionError(.wrongKey, "scheme \(rawValue) needs \(what)")
    }
}
