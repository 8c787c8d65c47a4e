/// What a successful verification found: which signature verified, with which key and algorithm.
public struct JWSVerification: Sendable {
    /// The verified payload.
    public let payload: [UInt8]
    /// The index of the signature that verified (0 for compact and flattened).
    public let signatureIndex: Int
    /// The algorithm it verified under.
    public let algorithm: JWSAlgorithm
    /// Its JOSE header (protected and unprotected members; only the protected ones are covered by
    /// the signature).
    public let header: JOSEHeader
    /// The key that verified it.
    public let key: JOSEKey
}

extension JWS {
    /// Verifies the JWS with one key: succeeds when a signature verifies (RFC 7515 §7.2 leaves the
    /// choice to the application; this is "any one").
    ///
    /// For each signature, in order: its `alg` is read (`none` is refused), must be in
    /// `allowedAlgorithms` when given, and must be one the key allows (its `alg` attribute, type and
    /// size: ``JOSEKey/allowedSignatureAlgorithms``); the key's `use` and `key_ops` must admit
    /// verification; `crit` may name only `b64` and `understoodCriticalHeaders`; then the signature
    /// is checked over the exact bytes received.
    ///
    /// - Parameters:
    ///   - key: The key (a public or private key, or a secret).
    ///   - allowedAlgorithms: The algorithms the caller accepts; `nil` for every one the key allows.
    ///   - understoodCriticalHeaders: Extension header names the caller processes itself.
    /// - Returns: The verified signature's index, algorithm, header and key.
    /// - Throws: ``JOSEError``: `.algorithmNotAllowed` (`none`, an algorithm the caller or the key
    ///   does not allow), `.unsupportedAlgorithm`, `.invalidKey` (`use`, `key_ops`),
    ///   `.unknownCriticalHeader`, `.invalidSignature`; with several signatures, the first
    ///   signature's error, its reason listing each.
    public func verify(with key: JOSEKey, allowedAlgorithms: Set<JWSAlgorithm>? = nil,
                       understoodCriticalHeaders: Set<String> = []) throws(JOSEError) -> JWSVerification {
        var failures: [JOSEError] = []
        for (index, signature) in signatures.enumerated() {
            do {
                let algorithm = try checkedAlgorithm(of: signature, index: index, allowed: allowedAlgorithms, understood: understoodCriticalHeaders)
                try check(signature, index: index, algorithm: algorithm, key: key)
                return JWSVerification(payload: payload, signatureIndex: index, algorithm: algorithm, header: signature.header, key: key)
            } catch {
                failures.append(error)
            }
        }
        throw Self.combined(failures)
    }

    /// Verifies the JWS with a key set: for each signature, the keys that fit its `kid` (when it has
    /// one), its `alg`, `use: sig` and `key_ops` with `verify` (``KeySelector``; unstated attributes
    /// do not exclude a key) are tried in the set's order. A `kid` must select one
    /// key: two keys with the same `kid` that both fit the algorithm are ambiguous, and refused.
    ///
    /// - Throws: ``JOSEError`` `.keyNotFound` when no key of the set fits a signature, or a `kid`
    ///   selects more than one; otherwise as
    ///   ``verify(with:allowedAlgorithms:understoodCriticalHeaders:)-(JOSEKey,_,_)``.
    public func verify(with keySet: JOSEKeySet, allowedAlgorithms: Set<JWSAlgorithm>? = nil,
                       understoodCriticalHeaders: Set<String> = []) throws(JOSEError) -> JWSVerification {
        var failures: [JOSEError] = []
        for (index, signature) in signatures.enumerated() {
            do throws(JOSEError) {
                let algorithm = try checkedAlgorithm(of: signature, index: index, allowed: allowedAlgorithms, understood: understoodCriticalHeaders)
                let candidates = keySet.keys(matching: KeySelector(keyID: signature.keyID, algorithm: algorithm.rawValue, use: "sig", operation: "verify"))
                guard !candidates.isEmpty else {
                    // Keys with the kid (or any key, without one) that refuse the algorithm say why.
                    let named = keySet.keys(matching: KeySelector(keyID: signature.keyID))
                    if named.count == 1 {
                        try named[0].checkAllows(algorithm)
                        try named[0].checkUsable(for: "verify")
                    }
                    let kid = signature.keyID.map { " with kid \"\(Self.clip($0))\"" } ?? ""
                    throw JOSEError(.keyNotFound, "\(Self.name(index)): no key of the set\(kid) allows \(algorithm)")
                }
                if let keyID = signature.keyID, candidates.count > 1 {
                    throw JOSEError(.keyNotFound, "\(Self.name(index)): \(candidates.count) keys of the set have kid \"\(Self.clip(keyID))\" and allow \(algorithm); a kid must name one key")
                }
                var lastError: JOSEError? = nil
                for key in candidates {
                    do {
                        try check(signature, index: index, algorithm: algorithm, key: key)
                        return JWSVerification(payload: payload, signatureIndex: index, algorithm: algorithm, header: signature.header, key: key)
                    } catch {
                        lastError = error
                    }
                }
                if let lastError { throw lastError }
            } catch {
                failures.append(error)
            }
        }
        throw Self.combined(failures)
    }

    /// The signature's algorithm, once `alg`, the caller's list and `crit` admit it.
    private func checkedAlgorithm(of signature: JWSSignature, index: Int, allowed: Set<JWSAlgorithm>?,
                                  understood: Set<String>) throws(JOSEError) -> JWSAlgorithm {
        guard let name = signature.algorithmName else {
            throw JOSEError.malformed(Self.name(index), "the header has no \"alg\"")
        }
        let algorithm: JWSAlgorithm
        do {
            algorithm = try JWSAlgorithm(name: name)
        } catch {
            var located = error
            located.reason = "\(Self.name(index)): \(error.reason)"
            throw located
        }
        if let allowed, !allowed.contains(algorithm) {
            throw JOSEError(.algorithmNotAllowed, "\(Self.name(index)): alg \(algorithm) is not among the allowed algorithms (\(allowed.map(\.rawValue).sorted().joined(separator: ", ")))")
        }
        try CriticalHeaders.check(protected: signature.protectedHeader?.header, unprotected: signature.unprotectedHeader.map { [$0] } ?? [],
                                  understood: understood, what: Self.name(index))
        return algorithm
    }

    /// Checks the key against the algorithm and the signature against the signing input.
    private func check(_ signature: JWSSignature, index: Int, algorithm: JWSAlgorithm, key: JOSEKey) throws(JOSEError) {
        try key.checkAllows(algorithm)
        try key.checkUsable(for: "verify")
        let input = signature.signingInput(payloadSegment: payloadSegment)
        guard try algorithm.verify(signature.signature, over: input, with: key) else {
            throw JOSEError(.invalidSignature, "\(Self.name(index)): the \(algorithm) signature does not verify with the key\(key.keyIDText)")
        }
    }

    private static func name(_ index: Int) -> String { "signature \(index + 1)" }

    private static func clip(_ text: String) -> String { text.count <= 64 ? text : String(text.prefix(64)) + "…" }

    /// One error for the failures of every signature: the first one's code, every reason.
    private static func combined(_ failures: [JOSEError]) -> JOSEError {
        guard var first = failures.first else { return JOSEError(.invalidSignature, "the JWS has no signature") }
        if failures.count > 1 {
            first.reason = "no signature verifies: " + failures.map(\.reason).joined(separator: "; ")
        }
        return first
    }
}
