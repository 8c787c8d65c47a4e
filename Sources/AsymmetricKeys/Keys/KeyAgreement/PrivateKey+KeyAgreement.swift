import CryptoOpenSSL

extension PrivateKey {
    /// The shared secret with `peer` (ECDH on P-256/384/521, X25519, X448), as
    /// `openssl pkeyutl -derive` computes it.
    ///
    /// - Throws: ``KeyError`` `.unsupportedAlgorithm` for RSA, Ed25519 and Ed448 keys,
    ///   `.invalidArgument` for a peer of another algorithm or curve.
    public func deriveSharedSecret(with peer: PublicKey) throws -> SecureBytes {
        let ours: OpenSSLCurveKey
        let theirs: OpenSSLCurveKey
        switch (self, peer) {
        case (.ec(let key), .ec(let other)) where key.curve == other.curve:
            (ours, theirs) = (try key.openSSLKey(), try other.openSSLKey())
        case (.octet(let key), .octet(let other)) where !key.algorithm.isSignature && key.algorithm == other.algorithm:
            (ours, theirs) = (try key.openSSLKey(), try other.openSSLKey())
        default:
            if case .octet(let key) = self, key.algorithm.isSignature { throw KeyError.unsupported(algorithm, "key agreement (EC, X25519, X448)") }
            if case .rsa = self { throw KeyError.unsupported(algorithm, "key agreement (EC, X25519, X448)") }
            switch self {
            case .dsa, .securityKey: throw KeyError.unsupported(algorithm, "key agreement (EC, X25519, X448)")
            default: break
            }
            throw KeyError(.invalidArgument, "the peer key is \(peer.algorithm.displayName)\(peer.curve.map { " \($0.rawValue)" } ?? ""); it must be the same algorithm and curve as the private key")
        }
        return try KeyError.fromOpenSSL("deriving the shared secret") { try ours.derive(peer: theirs) }
    }
}
