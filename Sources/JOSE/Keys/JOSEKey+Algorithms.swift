import AsymmetricKeys
import CryptoOpenSSL

extension JOSEKey {
    /// The JWS algorithms this key may be used with, derived from the key and never from a token:
    /// only its `alg` attribute when it has one (and the key fits it), else every algorithm its
    /// type and size admit.
    ///
    /// - A secret: HS256, HS384, HS512, those whose digest is no longer than the secret (RFC 7518 §3.2).
    /// - RSA of 2048 bits or more: RS256/384/512 and PS256/384/512 (RFC 7518 §3.3, §3.5); none below.
    /// - EC: the one ES algorithm of its curve (P-256 ES256, P-384 ES384, P-521 ES512, secp256k1 ES256K).
    /// - Ed25519, Ed448: EdDSA.
    /// - X25519, X448 and others: none.
    public var allowedSignatureAlgorithms: Set<JWSAlgorithm> {
        let byType = Set(JWSAlgorithm.allCases.filter { signatureMismatch($0) == nil })
        guard let stated = attributes.algorithm else { return byType }
        guard let algorithm = JWSAlgorithm(rawValue: stated), byType.contains(algorithm) else { return [] }
        return [algorithm]
    }

    /// Why this key cannot be used with `algorithm` by its type and size, or `nil` when it can
    /// (its `alg` attribute is not considered here).
    func signatureMismatch(_ algorithm: JWSAlgorithm) -> String? {
        switch (algorithm.family, material) {
        case (.hmac, .symmetric(let secret)):
            let minimum = algorithm.minimumKeyBits ?? 0
            return secret.count * 8 >= minimum ? nil
                : "\(algorithm) needs a key of at least \(minimum) bits (RFC 7518 §3.2); this one has \(secret.count * 8)"
        case (.hmac, .asymmetric(let key)):
            return "\(algorithm) needs a symmetric key; this is an \(key.algorithmDescription) key (an asymmetric key is never used as an HMAC secret)"
        case (_, .symmetric):
            return "\(algorithm) needs an asymmetric key; this is a symmetric key"
        case (.rsaPKCS1, .asymmetric(let key)), (.rsaPSS, .asymmetric(let key)):
            guard key.algorithm == .rsa, let bits = try? key.publicKey().bits else {
                return "\(algorithm) needs an RSA key; this is an \(key.algorithmDescription) key"
            }
            guard bits >= 2048 else { return "\(algorithm) needs an RSA key of 2048 bits or more (RFC 7518 §3.3); this one has \(bits)" }
            return weakness.map { "the RSA key is refused: \($0)" }
        case (.ecdsa(let curve), .asymmetric(let key)):
            guard key.algorithm == .ec, let keyCurve = try? key.publicKey().curve else {
                return "\(algorithm) needs an EC \(curve.rawValue) key; this is an \(key.algorithmDescription) key"
            }
            return keyCurve == curve ? nil : "\(algorithm) needs an EC \(curve.rawValue) key; this one is on \(keyCurve.rawValue)"
        case (.eddsa, .asymmetric(let key)):
            return key.algorithm == .ed25519 || key.algorithm == .ed448 ? nil
                : "EdDSA needs an Ed25519 or Ed448 key; this is an \(key.algorithmDescription) key"
        }
    }

    /// Checks that this key may be used with `algorithm`: its `alg` attribute, if any, names it, and
    /// its type and size fit it.
    ///
    /// - Throws: ``JOSEError`` `.algorithmNotAllowed` saying why; `.invalidKey` for an RSA key
    ///   refused whatever the algorithm (an exponent below 3 or even, the ROCA fingerprint).
    public func checkAllows(_ algorithm: JWSAlgorithm) throws(JOSEError) {
        if let weakness {
            throw JOSEError(.invalidKey, "the RSA key\(keyIDText) is refused: \(weakness)")
        }
        if let stated = attributes.algorithm, stated != algorithm.rawValue {
            let shown = stated.count <= 32 ? stated : String(stated.prefix(32)) + "…"
            throw JOSEError(.algorithmNotAllowed, "the key\(keyIDText) is for alg \"\(shown)\", not \(algorithm)")
        }
        if let mismatch = signatureMismatch(algorithm) {
            throw JOSEError(.algorithmNotAllowed, "the key\(keyIDText) does not allow \(algorithm): \(mismatch)")
        }
    }

    /// Checks the key's `use` and `key_ops` (RFC 7517 §4.2, §4.3) for a signature operation: `use`,
    /// when set, must be `sig`; `key_ops`, when set, must list `operation`.
    ///
    /// - Parameter operation: `sign` or `verify`.
    /// - Throws: ``JOSEError`` `.invalidKey` naming the attribute.
    public func checkUsable(for operation: String) throws(JOSEError) {
        if let use = attributes.use, use != "sig" {
            throw JOSEError(.invalidKey, "the key\(keyIDText) has use \"\(use.count <= 16 ? use : String(use.prefix(16)) + "…")\", not \"sig\": it may not \(operation)")
        }
        if let operations = attributes.keyOperations, !operations.contains(operation) {
            throw JOSEError(.invalidKey, "the key\(keyIDText) has key_ops without \"\(operation)\"")
        }
    }

    /// Why an RSA key is refused whatever its size (``RSAKeyWeakness``), or `nil`.
    var weakness: String? {
        guard case .asymmetric(let key) = material, let rsa = try? key.publicKey().rsa else { return nil }
        return RSAKeyWeakness.problem(rsa)
    }

    /// ` (kid "…")` for messages, or nothing.
    var keyIDText: String {
        guard let keyID = attributes.keyID else { return "" }
        let shown = keyID.count <= 64 ? keyID : String(keyID.prefix(64)) + "…"
        return " (kid \"\(shown)\")"
    }
}
