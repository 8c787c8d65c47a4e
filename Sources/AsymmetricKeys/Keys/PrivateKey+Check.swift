import CryptoOpenSSL

extension PrivateKey {
    /// Checks that the private key and its public key belong together: for RSA the relations of
    /// ``RSAPrivateKey/consistencyProblems()``; for EC that 1 ≤ d < n, the point lies on the curve
    /// and equals d·G; for Ed25519, Ed448, X25519 and X448 that a stored public key equals the one
    /// derived from the private key; for DSA that y = g^x mod p. OpenSSL's own check
    /// (`EVP_PKEY_check`) runs as well. A security key file has nothing to check (one problem says so).
    ///
    /// - Returns: one sentence per problem found; empty when the key is consistent. Messages name
    ///   the failing relation, never key bytes.
    public func consistencyProblems() throws -> [String] {
        switch self {
        case .rsa(let key):
            return try key.consistencyProblems()
        case .ec(let key):
            let type = key.curve.keyType
            let inRange = try KeyError.fromOpenSSL("checking the scalar") { try ECPointArithmetic.isValidScalar(key.scalar, on: type) }
            guard inRange else { return ["the private scalar d is not between 1 and the order of \(key.curve.rawValue) minus 1"] }
            var problems: [String] = []
            let product = try KeyError.fromOpenSSL("computing d·G") { try ECPointArithmetic.publicPoint(privateScalar: key.scalar, on: type) }
            if product != key.publicKey.point {
                problems.append("the public point is not d·G: it does not belong to this private key")
            }
            if problems.isEmpty, try !(key.openSSLKey().openSSLCheck()) {
                problems.append("OpenSSL's key check (EVP_PKEY_check) fails")
            }
            return problems
        case .octet(let key):
            let derived = try key.derivedPublicKey()
            if let stored = key.storedPublicKey, stored != derived {
                return ["the stored public key is not the one derived from the private key (\(key.algorithm.displayName))"]
            }
            return []
        case .dsa(let key):
            return key.publicValueMatches ? [] : ["the public value y is not g^x mod p: it does not belong to this private key"]
        case .securityKey:
            return ["a security key's private key is in its authenticator; there is nothing to check here"]
        }
    }
}
