/// A JSON Web Signature (RFC 7515): a payload and one or more signatures over it, read from or
/// written to the compact, the general JSON or the flattened JSON serialization, with RFC 7797's
/// unencoded payloads (`b64: false`).
///
/// Reading never trusts the header to choose the key or the algorithm: verify with
/// ``verify(with:allowedAlgorithms:understoodCriticalHeaders:)-(JOSEKey,_,_)``, which takes the
/// algorithms the key allows, and the caller's own list.
///
/// ```swift
/// let jws = try JWS(compact: token)
/// let verified = try jws.verify(with: key, allowedAlgorithms: [.es256])
/// use(verified.payload)
///
/// let signed = try JWS(signing: payload, with: [JWSSigner(key: privateKey, algorithm: .es256)])
/// let text = try signed.compactSerialization()
/// ```
public struct JWS: Sendable {
    /// The payload (decoded; unverified until ``verify(with:allowedAlgorithms:understoodCriticalHeaders:)-(JOSEKey,_,_)`` says otherwise).
    public let payload: [UInt8]
    /// The signatures, in order (one for the compact and flattened serializations).
    public let signatures: [JWSSignature]
    /// Whether the payload was not carried in the JWS but given by the caller (RFC 7515 Appendix F).
    public let isPayloadDetached: Bool
    /// The payload as it enters the signing input: the base64url text as received (or made), or
    /// the payload itself when `b64` is false.
    let payloadSegment: [UInt8]

    init(payload: [UInt8], payloadSegment: [UInt8], signatures: [JWSSignature], isPayloadDetached: Bool) {
        self.payload = payload
        self.payloadSegment = payloadSegment
        self.signatures = signatures
        self.isPayloadDetached = isPayloadDetached
    }

    /// Whether the payload is base64url-encoded (`b64` absent or true), which every signature
    /// must agree on (RFC 7797 §3).
    public var encodesPayload: Bool { signatures.first?.encodesPayload ?? true }

    /// The header of the first (for compact and flattened, the only) signature.
    public var header: JOSEHeader { signatures.first?.header ?? JOSEHeader() }

    /// The payload segment for a payload and a `b64` setting: its base64url text, or itself.
    static func payloadSegment(for payload: [UInt8], encoded: Bool) -> [UInt8] {
        encoded ? Array(Base64URL.encode(payload).utf8) : payload
    }

    /// Checks that every signature agrees on `b64` (RFC 7797 §3) and returns the setting.
    static func commonPayloadEncoding(_ signatures: [JWSSignature]) throws(JOSEError) -> Bool {
        let setting = signatures.first?.encodesPayload ?? true
        guard signatures.allSatisfy({ $0.encodesPayload == setting }) else {
            throw JOSEError(.malformed, "the signatures disagree on \"b64\"; RFC 7797 §3 requires one setting for all")
        }
        return setting
    }
}
