import CryptoOpenSSL

extension JWEMessage {
    /// Decrypts the JWE with `key` (RFC 7516 §5.2): the first recipient the key decrypts wins.
    ///
    /// For each recipient, in order: the protected, shared and per-recipient headers must not
    /// share a member; `crit` may name only `options.understoodCriticalHeaders`; `alg` and `enc`
    /// must be implemented, allowed by `options` (`RSA1_5` only with
    /// ``JWEDecryptionOptions/allowRSA1_5``) and by the key (its `alg` attribute, type and size:
    /// ``JOSEKey/allowedKeyManagementAlgorithms(encryption:)``, and its `use`/`key_ops`); `zip`, if
    /// any, must be protected. Then the CEK is recovered (a PBES2 count or an `epk` is checked
    /// before any work), the tag checked, the content decrypted and, with `zip`, inflated within
    /// the caps of ``JOSELimits``.
    ///
    /// - Parameters:
    ///   - key: A private key (RSA, EC, X25519, X448) or a secret (AES key wrap, `dir`).
    ///   - options: The algorithms, `crit` extensions and limits accepted.
    /// - Returns: The plaintext with the header it was decrypted under.
    /// - Throws: ``JOSEError``: `.malformed`, `.unsupportedAlgorithm`, `.algorithmNotAllowed`,
    ///   `.invalidKey` (a public key; a bad `epk`: off the curve, another curve, low order),
    ///   `.unknownCriticalHeader`, `.costTooHigh` (PBES2 `p2c` above the cap), `.tooLarge` (a
    ///   plaintext that inflates past the cap), `.decryptionFailed` (a wrong key, altered data); with
    ///   several recipients, the error of the first recipient the key fits (else the first
    ///   recipient's), its reason listing each.
    public func decrypt(with key: JOSEKey, options: JWEDecryptionOptions = JWEDecryptionOptions()) throws(JOSEError) -> DecryptedJWE {
        try decrypt(.key(key), options: options)
    }

    /// Decrypts the JWE with a key set: for each recipient, the keys of the set whose `kid` matches
    /// the recipient's (when it names one) and that allow its algorithms are tried in order.
    ///
    /// - Throws: ``JOSEError`` `.keyNotFound` when no key of the set fits any recipient; otherwise
    ///   as ``decrypt(with:options:)-(JOSEKey,_)``.
    public func decrypt(with keySet: JOSEKeySet, options: JWEDecryptionOptions = JWEDecryptionOptions()) throws(JOSEError) -> DecryptedJWE {
        try decrypt(.keySet(keySet), options: options)
    }

    /// Decrypts a PBES2 JWE with a passphrase (RFC 7518 §4.8). The iteration count is checked
    /// against ``JOSELimits/maximumPBES2Iterations`` before PBKDF2 runs.
    ///
    /// - Throws: ``JOSEError`` `.costTooHigh` for a `p2c` above the cap; `.algorithmNotAllowed` for
    ///   another algorithm than PBES2; otherwise as ``decrypt(with:options:)-(JOSEKey,_)``.
    public func decrypt(passphrase: SecureBytes, options: JWEDecryptionOptions = JWEDecryptionOptions()) throws(JOSEError) -> DecryptedJWE {
        try decrypt(.passphrase(passphrase), options: options)
    }

    /// What the caller decrypts with.
    private enum Candidates {
        case key(JOSEKey)
        case keySet(JOSEKeySet)
        case passphrase(SecureBytes)
    }

    private func decrypt(_ candidates: Candidates, options: JWEDecryptionOptions) throws(JOSEError) -> DecryptedJWE {
        guard !recipients.isEmpty else { throw JOSEError.malformed("the JWE", "it has no recipient") }
        guard recipients.count <= options.limits.maximumSignatures else {
            throw JOSEError(.tooLarge, "the JWE has \(recipients.count) recipients; at most \(options.limits.maximumSignatures) are read (JOSELimits.maximumSignatures)")
        }
        var failures: [JOSEError] = []
        for index in recipients.indices {
            do throws(JOSEError) {
                return try decryptRecipient(index, candidates, options: options)
            } catch {
                failures.append(error)
            }
        }
        guard let first = failures.first else { throw JOSEError(.decryptionFailed, "no recipient could be decrypted") }
        guard failures.count > 1 else { throw first }
        if failures.allSatisfy({ $0.code == .keyNotFound }) {
            throw JOSEError(.keyNotFound, "no key fits any of the JWE's \(failures.count) recipients")
        }
        // The error of a recipient the key fits says more than "not this algorithm" of the others.
        var primary = failures.first { $0.code != .algorithmNotAllowed && $0.code != .keyNotFound } ?? first
        primary.reason = "no recipient decrypts: " + failures.enumerated().map { "recipient \($0.offset + 1): \($0.element.reason)" }.joined(separator: "; ")
        throw primary
    }

    private func decryptRecipient(_ index: Int, _ candidates: Candidates, options: JWEDecryptionOptions) throws(JOSEError) -> DecryptedJWE {
        let what = recipients.count == 1 ? "the JWE" : "recipient \(index + 1)"
        let recipient = recipients[index]
        var header = protectedHeader?.header ?? JOSEHeader()
        if let sharedUnprotectedHeader { header = try header.union(sharedUnprotectedHeader, what: "\(what)'s headers") }
        if let recipientHeader = recipient.header { header = try header.union(recipientHeader, what: "\(what)'s headers") }
        try CriticalHeaders.check(protected: protectedHeader?.header, unprotected: [sharedUnprotectedHeader, recipient.header].compactMap { $0 },
                                  understood: options.understoodCriticalHeaders, what: what)
        if header["b64"] != nil {
            throw JOSEError.malformed("\(what)'s header", "\"b64\" (RFC 7797) is a JWS header parameter; a JWE has none")
        }
        let (algorithm, encryption) = try algorithms(header, what: what, options: options)
        let compression = try compression(header, what: what)
        if case .pbes2 = algorithm.family {
            // Fail fast, before any key is tried.
            _ = try KeyManagement.checkedPBES2Count(header, limits: options.limits)
        }
        let keys: [JOSEKey?]
        switch candidates {
        case .passphrase:
            guard case .pbes2 = algorithm.family else {
                throw JOSEError(.algorithmNotAllowed, "\(what) uses \(algorithm.rawValue); a passphrase decrypts PBES2 only")
            }
            keys = [nil]
        case .key(let key):
            try key.checkAllows(algorithm, encryption: encryption)
            try key.checkUsableForEncryption(algorithm, decrypting: true)
            keys = [key]
        case .keySet(let set):
            let fitting = set.keys.filter { key in
                (header.keyID == nil || key.keyID == header.keyID) && key.keyManagementMismatch(algorithm, encryption: encryption) == nil
                    && (try? key.checkUsableForEncryption(algorithm, decrypting: true)) != nil
            }
            guard !fitting.isEmpty else {
                let kid = header.keyID.map { " with kid \"\(String($0.prefix(64)))\"" } ?? ""
                throw JOSEError(.keyNotFound, "\(what): no key of the set\(kid) allows \(algorithm.rawValue) with \(encryption.rawValue)")
            }
            keys = fitting
        }
        var failures: [JOSEError] = []
        for key in keys {
            do throws(JOSEError) {
                let secret: JWERecipient.Secret
                switch candidates {
                case .passphrase(let passphrase): secret = .passphrase(passphrase)
                default: secret = .key(key!)
                }
                let cek = try KeyManagement.decrypt(encryptedKey: recipient.encryptedKey, header: header, algorithm: algorithm,
                                                    encryption: encryption, secret: secret, options: options)
                var plaintext = try encryption.open(ciphertext, tag: authenticationTag, cek: cek, iv: initializationVector, aad: contentAAD)
                if compression != nil {
                    let limits = options.limits
                    let limit = min(limits.maximumDecompressedSize, max(256 * 1024, limits.maximumCompressionRatio.multipliedReportingOverflow(by: ciphertext.count).partialValue))
                    let name = limit == limits.maximumDecompressedSize ? "JOSELimits.maximumDecompressedSize" : "JOSELimits.maximumCompressionRatio (\(limits.maximumCompressionRatio)x)"
                    let compressed = plaintext
                    plaintext = try RawDeflate.decompress(compressed, limit: limit, limitName: name)
                }
                return DecryptedJWE(plaintext: plaintext, header: header, protectedHeader: protectedHeader, keyManagementAlgorithm: algorithm,
                                    contentEncryptionAlgorithm: encryption, recipientIndex: index, key: key,
                                    additionalAuthenticatedData: additionalAuthenticatedData)
            } catch {
                failures.append(error)
            }
        }
        guard var first = failures.first else { throw JOSEError(.keyNotFound, "\(what): no key to try") }
        if failures.count > 1 {
            first.reason = "\(failures.count) keys tried: " + failures.map(\.reason).joined(separator: "; ")
        }
        throw first
    }

    /// The recipient's `alg` and `enc`, implemented and allowed by `options`.
    private func algorithms(_ header: JOSEHeader, what: String, options: JWEDecryptionOptions) throws(JOSEError) -> (KeyManagementAlgorithm, ContentEncryptionAlgorithm) {
        guard let algorithmName = header.algorithm else { throw JOSEError.malformed("\(what)'s header", "\"alg\" is missing") }
        guard let encryptionName = header.encryption else { throw JOSEError.malformed("\(what)'s header", "\"enc\" is missing") }
        guard let algorithm = KeyManagementAlgorithm(name: algorithmName) else {
            throw JOSEError(.unsupportedAlgorithm, "\(what): key management algorithm \"\(String(algorithmName.prefix(32)))\" is not one JOSE implements")
        }
        guard let encryption = ContentEncryptionAlgorithm(name: encryptionName) else {
            throw JOSEError(.unsupportedAlgorithm, "\(what): content encryption algorithm \"\(String(encryptionName.prefix(32)))\" is not one JOSE implements")
        }
        if algorithm == .rsa1_5 && !options.allowRSA1_5 {
            throw JOSEError(.algorithmNotAllowed, "\(what) uses RSA1_5 (RSAES-PKCS1-v1_5), which is refused unless JWEDecryptionOptions.allowRSA1_5 is set")
        }
        if let allowed = options.keyManagementAlgorithms, !allowed.contains(algorithm) {
            throw JOSEError(.algorithmNotAllowed, "\(what) uses \(algorithm.rawValue), which the caller does not allow")
        }
        if let allowed = options.contentEncryptionAlgorithms, !allowed.contains(encryption) {
            throw JOSEError(.algorithmNotAllowed, "\(what) uses \(encryption.rawValue), which the caller does not allow")
        }
        return (algorithm, encryption)
    }

    /// The recipient's `zip`, which must be in the protected header (RFC 7516 §4.1.3).
    private func compression(_ header: JOSEHeader, what: String) throws(JOSEError) -> JWECompression? {
        guard let name = header.compression else {
            if header["zip"] != nil { throw JOSEError.malformed("\(what)'s header", "\"zip\" is not a string") }
            return nil
        }
        guard protectedHeader?.header["zip"] != nil else {
            throw JOSEError.malformed("\(what)'s header", "\"zip\" must be integrity protected (RFC 7516 §4.1.3)")
        }
        guard let compression = JWECompression(name: name) else {
            throw JOSEError(.unsupportedAlgorithm, "\(what): compression \"\(String(name.prefix(32)))\" is not one JOSE implements (DEF is)")
        }
        return compression
    }
}
