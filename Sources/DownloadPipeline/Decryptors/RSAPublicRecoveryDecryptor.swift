import AsymmetricKeys

/// Chunked public-key recovery: the body was "encrypted with the private key" (PKCS#1 type 1
/// padding per k-byte block, what `openssl rsautl -sign` writes), and the public key reads it.
///
/// This authenticates the payload as coming from the private key's holder; it does not keep it
/// secret.
public struct RSAPublicRecoveryDecryptor: Decryptor {
    /// The public key.
    public let key: RSAPublicKey
    private let fingerprint: String

    /// Creates the decryptor.
    public init(key: RSAPublicKey) {
        self.key = key
        self.fingerprint = key.fingerprintSHA256
    }

    /// `rsa-public:` and the key's SHA256 fingerprint.
    public var identity: String { "\(DecryptionScheme.rsaPublic.rawValue):\(fingerprint)" }

    /// Recovers every block and concatenates the data.
    ///
    /// - Throws: ``DecryptionError`` `.malformedPayload` when the length is not a non-zero multiple
    ///   of the key size, `.wrongKey` when a block does not recover (wrong key or damaged data).
    public func decrypt(_ data: [UInt8], response: DownloadResponse) async throws -> [UInt8] {
        try decrypt(data)
    }

    /// The synchronous body of ``decrypt(_:response:)``.
    func decrypt(_ data: [UInt8]) throws -> [UInt8] {
        do {
            return try key.recoverWithPublicKey(data)
        } catch let error as KeyError {
            throw DecryptionError.rsa(error, scheme: DecryptionScheme.rsaPublic.rawValue, fingerprint: fingerprint)
        }
    }
}
