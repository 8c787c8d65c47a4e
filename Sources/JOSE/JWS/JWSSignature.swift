/// One signature of a JWS (RFC 7515 §7.2.1): its protected header with the exact text received,
/// its unprotected header, and the signature bytes.
public struct JWSSignature: Sendable {
    /// The integrity-protected header (`protected`), if any.
    public let protectedHeader: ProtectedHeader?
    /// The unprotected header (`header` of the JSON serializations), if any.
    public let unprotectedHeader: JOSEHeader?
    /// The signature or MAC (decoded).
    public let signature: [UInt8]
    /// The JOSE header: the union of the protected and unprotected headers, which share no member.
    public let header: JOSEHeader

    /// Assembles a signature, checking that the headers share no member and that `crit` and `b64`
    /// are only protected.
    ///
    /// - Throws: ``JOSEError`` `.malformed` for headers that share a member or that are both absent;
    ///   `.unknownCriticalHeader` for a `crit` or `b64` that is not protected, or `crit` that breaks
    ///   RFC 7515 §4.1.11's structure.
    init(protectedHeader: ProtectedHeader?, unprotectedHeader: JOSEHeader?, signature: [UInt8], what: String) throws(JOSEError) {
        guard protectedHeader != nil || unprotectedHeader != nil else {
            throw JOSEError.malformed(what, "has neither a protected nor an unprotected header")
        }
        self.protectedHeader = protectedHeader
        self.unprotectedHeader = unprotectedHeader
        self.signature = signature
        let protected = protectedHeader?.header ?? JOSEHeader()
        self.header = try unprotectedHeader.map { (extra) throws(JOSEError) in try protected.union(extra, what: what) } ?? protected
        // Structure only: which extensions are understood is decided at verification.
        try CriticalHeaders.check(protected: protectedHeader?.header, unprotected: unprotectedHeader.map { [$0] } ?? [],
                                  understood: nil, what: what)
    }

    /// The `alg` of the JOSE header, as written.
    public var algorithmName: String? { header.algorithm }

    /// The `kid` of the JOSE header.
    public var keyID: String? { header.keyID }

    /// Whether the payload is base64url-encoded in the signing input: `b64` of the protected
    /// header (RFC 7797), `true` when absent.
    var encodesPayload: Bool { protectedHeader?.header.base64EncodedPayload ?? true }

    /// The JWS Signing Input (RFC 7515 §5.1, RFC 7797 §3): the protected header's text as received,
    /// `.`, and the payload as it appears in the JWS.
    func signingInput(payloadSegment: [UInt8]) -> [UInt8] {
        var input: [UInt8] = []
        let encodedHeader = protectedHeader?.encoded.utf8
        input.reserveCapacity((encodedHeader?.count ?? 0) + 1 + payloadSegment.count)
        if let encodedHeader { input.append(contentsOf: encodedHeader) }
        input.append(UInt8(ascii: "."))
        input.append(contentsOf: payloadSegment)
        return input
    }
}
