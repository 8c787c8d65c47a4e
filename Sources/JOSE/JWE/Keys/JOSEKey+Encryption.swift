import AsymmetricKeys
import CryptoOpenSSL

extension JOSEKey {
    /// The JWE key management algorithms this key may be used with, derived from the key and
    /// never from a token: only its `alg` attribute when it has one (a key management algorithm,
    /// or a content encryption algorithm, which admits `dir` with it), else every algorithm its
    /// type and size admit.
    ///
    /// - RSA of 2048 bits or more: RSA-OAEP, RSA-OAEP-256, and RSA1_5 (decryption only, and only
    ///   when the reader allows it).
    /// - EC on P-256, P-384, P-521, X25519, X448: ECDH-ES and ECDH-ES+A128KW/A192KW/A256KW.
    /// - A secret of 16, 24 or 32 bytes: A128KW/A192KW/A256KW and A128GCMKW/…, the one of its
    ///   size; `dir` with a content encryption algorithm whose key has its size.
    ///
    /// - Parameter encryption: The content encryption algorithm, which decides whether `dir` fits;
    ///   `nil` leaves `dir` out unless some algorithm fits.
    public func allowedKeyManagementAlgorithms(encryption: ContentEncryptionAlgorithm? = nil) -> Set<KeyManagementAlgorithm> {
        Set(KeyManagementAlgorithm.allCases.filter { keyManagementMismatch($0, encryption: encryption) == nil })
    }

    /// The key management algorithm to encrypt to this key with when the caller names none:
    /// its `alg` attribute when that is a key management algorithm (`dir` when it is a content
    /// encryption algorithm); else RSA-OAEP-256 for RSA, ECDH-ES+A256KW for EC, X25519 and X448
    /// (it works among several recipients, unlike ECDH-ES), A128KW/A192KW/A256KW for a secret of
    /// 16/24/32 bytes and `dir` for one of 48 or 64. `nil` when the key cannot encrypt at all.
    public var preferredKeyManagementAlgorithm: KeyManagementAlgorithm? {
        if let stated = attributes.algorithm {
            if ContentEncryptionAlgorithm(name: stated) != nil { return keyManagementMismatch(.direct, encryption: nil) == nil ? .direct : nil }
            guard let algorithm = KeyManagementAlgorithm(name: stated), algorithm != .rsa1_5 else { return nil }
            return keyManagementMismatch(algorithm, encryption: nil) == nil || algorithm == .direct ? algorithm : nil
        }
        let candidates: [KeyManagementAlgorithm]
        switch material {
        case .asymmetric: candidates = [.rsaOAEP256, .ecdhESA256KW]
        case .symmetric(let secret): candidates = secret.count <= 32 ? [.a128KW, .a192KW, .a256KW] : [.direct]
        }
        return candidates.first { keyManagementMismatch($0, encryption: nil) == nil }
    }

    /// The content encryption algorithm to use with this key and `algorithm` when the caller
    /// names none: for `dir`, the key's `alg` attribute when it is a content encryption algorithm,
    /// else the one whose key has the secret's size (A128GCM, A192GCM, A256GCM, A192CBC-HS384,
    /// A256CBC-HS512); A256GCM otherwise.
    public func preferredContentEncryption(for algorithm: KeyManagementAlgorithm) -> ContentEncryptionAlgorithm {
        guard algorithm == .direct, let secret else { return .a256GCM }
        if let stated = attributes.algorithm.flatMap(ContentEncryptionAlgorithm.init(name:)) { return stated }
        let bySize: [Int: ContentEncryptionAlgorithm] = [16: .a128GCM, 24: .a192GCM, 32: .a256GCM, 48: .a192CBCHS384, 64: .a256CBCHS512]
        return bySize[secret.count] ?? .a256GCM
    }

    /// Checks that this key may be used with `algorithm` and `encryption`: its `alg` attribute, if
    /// any, admits them, and its type and size fit.
    ///
    /// - Throws: ``JOSEError`` `.algorithmNotAllowed` saying why.
    public func checkAllows(_ algorithm: KeyManagementAlgorithm, encryption: ContentEncryptionAlgorithm) throws(JOSEError) {
        if let mismatch = keyManagementMismatch(algorithm, encryption: encryption) {
            throw JOSEError(.algorithmNotAllowed, "the key\(keyIDText) does not allow \(algorithm.rawValue) with \(encryption.rawValue): \(mismatch)")
        }
    }

    /// Checks the key's `use` and `key_ops` (RFC 7517 §4.2, §4.3) for JWE: `use`, when set, must be
    /// `enc`; `key_ops`, when set, must list an operation of `algorithm` in that direction.
    ///
    /// - Throws: ``JOSEError`` `.invalidKey` naming the attribute.
    func checkUsableForEncryption(_ algorithm: KeyManagementAlgorithm, decrypting: Bool) throws(JOSEError) {
        if let use = attributes.use, use != "enc" {
            throw JOSEError(.invalidKey, "the key\(keyIDText) has use \"\(use == "sig" ? "sig" : "other")\", not \"enc\"")
        }
        let operations = decrypting ? algorithm.keyOperations.decrypting : algorithm.keyOperations.encrypting
        if let listed = attributes.keyOperations, operations.isDisjoint(with: listed) {
            let wanted = operations.sorted().map { "\"\($0)\"" }.joined(separator: " or ")
            throw JOSEError(.invalidKey, "the key\(keyIDText) has key_ops without \(wanted), which \(algorithm.rawValue) needs")
        }
    }

    /// Why this key cannot be used with `algorithm` (and `encryption`), or `nil` when it can.
    func keyManagementMismatch(_ algorithm: KeyManagementAlgorithm, encryption: ContentEncryptionAlgorithm?) -> String? {
        if let stated = attributes.algorithm {
            if let content = ContentEncryptionAlgorithm(name: stated) {
                guard algorithm == .direct else { return "it is a \(content.rawValue) content key (alg), usable only with dir" }
                if let encryption, encryption != content { return "it is a \(content.rawValue) key (alg), not \(encryption.rawValue)" }
            } else if stated != algorithm.rawValue {
                let shown = stated.count <= 32 ? stated : String(stated.prefix(32)) + "…"
                return "it is for alg \"\(shown)\""
            }
        }
        switch (algorithm.family, material) {
        case (.rsa, .asymmetric(let key)):
            guard key.algorithm == .rsa, let bits = try? key.publicKey().bits else {
                return "it needs an RSA key; this is an \(key.algorithmDescription) key"
            }
            return bits >= 2048 ? nil : "it needs an RSA key of 2048 bits or more (RFC 7518 §4.2, §4.3); this one has \(bits)"
        case (.ecdh, .asymmetric(let key)):
            switch key.algorithm {
            case .x25519, .x448: return nil
            case .ec:
                guard let curve = try? key.publicKey().curve, [.p256, .p384, .p521].contains(curve) else {
                    return "ECDH-ES takes P-256, P-384 or P-521 EC keys (RFC 7518 §4.6)"
                }
                return nil
            default: return "it needs an EC, X25519 or X448 key; this is an \(key.algorithmDescription) key"
            }
        case (.aesKeyWrap, .symmetric(let secret)), (.aesGCMKeyWrap, .symmetric(let secret)):
            let size = algorithm.keyEncryptionKeySize ?? 0
            return secret.count == size ? nil : "it needs a \(size * 8)-bit key; this one has \(secret.count * 8) bits"
        case (.direct, .symmetric(let secret)):
            if let encryption {
                return secret.count == encryption.keySize ? nil
                    : "dir with \(encryption.rawValue) needs a \(encryption.keySize * 8)-bit key; this one has \(secret.count * 8) bits"
            }
            return ContentEncryptionAlgorithm.allCases.contains { $0.keySize == secret.count } ? nil
                : "no content encryption algorithm takes a \(secret.count * 8)-bit key"
        case (.pbes2, _):
            return "PBES2 takes a passphrase, not a key"
        case (_, .symmetric):
            return "it needs an asymmetric key; this is a symmetric key"
        case (_, .asymmetric(let key)):
            return "it needs a symmetric key; this is an \(key.algorithmDescription) key"
        }
    }
}
