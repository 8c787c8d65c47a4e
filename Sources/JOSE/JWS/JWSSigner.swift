import AsymmetricKeys
import CofferJSON

/// What makes one signature of a new JWS: the key, the algorithm, and the headers.
///
/// The algorithm is the one given, or else the protected header's `alg`, or else the key's `alg`
/// attribute, or else the only algorithm the key allows; the key must allow it
/// (``JOSEKey/checkAllows(_:)``) and be able to sign. `alg` is added at the front of the protected
/// header when neither header has it. Nothing else is added: set `kid`, `typ` in the header. An
/// empty protected header is left out (RFC 7520 §4.7: only the payload is protected).
public struct JWSSigner: Sendable {
    /// The signing key (a private key or a secret).
    public let key: JOSEKey
    /// The algorithm.
    public let algorithm: JWSAlgorithm
    /// The protected header with its encoding (with `alg` unless the unprotected header has it);
    /// `nil` when empty.
    public let protected: ProtectedHeader?
    /// The protected header's members.
    public var protectedHeader: JOSEHeader? { protected?.header }
    /// The unprotected header (JSON serializations only), if any.
    public let unprotectedHeader: JOSEHeader?

    /// A signer.
    ///
    /// - Parameters:
    ///   - key: A private key or a secret.
    ///   - algorithm: The algorithm; see the type's description for the default.
    ///   - protectedHeader: Members to protect (`kid`, `typ`, `b64` with `crit`, …).
    ///   - unprotectedHeader: Members not protected (JSON serializations only).
    /// - Throws: ``JOSEError`` `.algorithmNotAllowed` when the key does not allow the algorithm, or no
    ///   algorithm can be chosen; `.malformed` when the protected header's `alg` names another
    ///   algorithm; `.invalidKey` for a public key or one whose `use`/`key_ops` exclude signing;
    ///   `.unknownCriticalHeader` for `crit` or `b64` that break their rules.
    public init(key: JOSEKey, algorithm: JWSAlgorithm? = nil, protectedHeader: JOSEHeader = JOSEHeader(),
                unprotectedHeader: JOSEHeader? = nil) throws(JOSEError) {
        var chosen = algorithm
        if let name = protectedHeader.algorithm ?? unprotectedHeader?.algorithm {
            let named = try JWSAlgorithm(name: name)
            if let algorithm, algorithm != named {
                throw JOSEError.malformed("the header", "names alg \(named), but \(algorithm) was asked for")
            }
            chosen = named
        }
        if chosen == nil, let stated = key.attributes.algorithm { chosen = try JWSAlgorithm(name: stated) }
        if chosen == nil {
            let allowed = key.allowedSignatureAlgorithms
            guard allowed.count == 1 else {
                throw JOSEError(.algorithmNotAllowed, "name the algorithm: the key\(key.keyIDText) allows \(allowed.isEmpty ? "none" : allowed.map(\.rawValue).sorted().joined(separator: ", "))")
            }
            chosen = allowed.first
        }
        guard let resolved = chosen else { throw JOSEError(.algorithmNotAllowed, "no algorithm") }
        try key.checkAllows(resolved)
        try key.checkUsable(for: "sign")
        guard key.canSign else {
            throw JOSEError(.invalidKey, "signing with \(resolved) needs a private key; the key\(key.keyIDText) is a public \(key.typeDescription) key")
        }
        var header = protectedHeader
        if header.algorithm == nil && unprotectedHeader?.algorithm == nil {
            header = try JOSEHeader(members: [JSONValue.Member("alg", .string(resolved.rawValue))] + header.members)
        }
        self.key = key
        self.algorithm = resolved
        self.protected = header.isEmpty ? nil : ProtectedHeader(header)
        self.unprotectedHeader = unprotectedHeader
    }

    /// A signer that keeps a protected header's exact text (its whitespace and member order), to
    /// sign again a header received or written elsewhere (RFC 7515 Appendix A.1's has a CRLF).
    ///
    /// - Parameters:
    ///   - key: A private key or a secret.
    ///   - protected: The header, which must name the algorithm in `alg`.
    ///   - unprotectedHeader: Members not protected (JSON serializations only).
    /// - Throws: as ``init(key:algorithm:protectedHeader:unprotectedHeader:)``, and `.malformed`
    ///   when the header has no `alg`.
    public init(key: JOSEKey, protected: ProtectedHeader, unprotectedHeader: JOSEHeader? = nil) throws(JOSEError) {
        guard let name = protected.header.algorithm else {
            throw JOSEError.malformed("the protected header", "has no \"alg\"")
        }
        let checked = try JWSSigner(key: key, algorithm: try JWSAlgorithm(name: name), protectedHeader: protected.header, unprotectedHeader: unprotectedHeader)
        self.key = key
        self.algorithm = checked.algorithm
        self.protected = protected
        self.unprotectedHeader = unprotectedHeader
    }
}

extension JWS {
    /// Signs `payload` once per signer (RFC 7515 §5.1).
    ///
    /// The payload is base64url-encoded unless the signers' protected headers say `b64: false`
    /// (RFC 7797), which they must all say alike, with `b64` listed in `crit`.
    ///
    /// - Throws: ``JOSEError`` `.malformed` for no signer, headers that share a member or disagree on
    ///   `b64`; `.unknownCriticalHeader`; the signing failure (`.invalidKey` with the cause).
    public init(signing payload: [UInt8], with signers: [JWSSigner]) throws(JOSEError) {
        guard !signers.isEmpty else { throw JOSEError.malformed("the JWS", "needs at least one signer") }
        var signatures: [JWSSignature] = []
        for (index, signer) in signers.enumerated() {
            let protected = signer.protected
            // Checked with the signer's own extensions as understood: the producer knows them.
            let unsigned = try JWSSignature(protectedHeader: protected, unprotectedHeader: signer.unprotectedHeader, signature: [],
                                            what: "signer \(index + 1)")
            signatures.append(unsigned)
        }
        let encoded = try JWS.commonPayloadEncoding(signatures)
        let segment = JWS.payloadSegment(for: payload, encoded: encoded)
        var signed: [JWSSignature] = []
        for (signer, unsigned) in zip(signers, signatures) {
            let bytes = try signer.algorithm.sign(unsigned.signingInput(payloadSegment: segment), with: signer.key)
            signed.append(try JWSSignature(protectedHeader: unsigned.protectedHeader, unprotectedHeader: unsigned.unprotectedHeader,
                                           signature: bytes, what: "the signature"))
        }
        self.init(payload: payload, payloadSegment: segment, signatures: signed, isPayloadDetached: false)
    }

    /// Signs `payload` with one key: the JWS of ``init(signing:with:)`` with one ``JWSSigner``.
    ///
    /// - Throws: as ``JWSSigner/init(key:algorithm:protectedHeader:unprotectedHeader:)`` and ``init(signing:with:)``.
    public init(signing payload: [UInt8], key: JOSEKey, algorithm: JWSAlgorithm? = nil, protectedHeader: JOSEHeader = JOSEHeader()) throws(JOSEError) {
        try self.init(signing: payload, with: [JWSSigner(key: key, algorithm: algorithm, protectedHeader: protectedHeader)])
    }
}
