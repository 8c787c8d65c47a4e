extension JWS {
    /// Reads a JWS in the compact serialization (RFC 7515 §7.1):
    ///
    /// ```
    /// BASE64URL(UTF8(JWS Protected Header)) '.' BASE64URL(JWS Payload) '.' BASE64URL(JWS Signature)
    /// ```
    ///
    /// With `b64: false` (RFC 7797 §5) the payload segment is the payload itself (which may not
    /// contain `.`) or empty when it is detached.
    ///
    /// - Parameters:
    ///   - token: The compact text.
    ///   - detachedPayload: The payload of a JWS whose payload segment is empty (RFC 7515 Appendix F).
    ///   - limits: The size cap, checked before anything is parsed.
    /// - Throws: ``JOSEError`` `.tooLarge`; `.malformed` naming the segment and the byte offset
    ///   (wrong number of segments, bad base64url, a header that is not a JSON object or has a
    ///   duplicate member, an empty signature); `.unknownCriticalHeader` for a `crit` that breaks
    ///   RFC 7515 §4.1.11.
    public init(compact token: String, detachedPayload: [UInt8]? = nil, limits: JOSELimits = .default) throws(JOSEError) {
        try self.init(compact: Array(token.utf8), detachedPayload: detachedPayload, limits: limits)
    }

    /// Reads a compact JWS from its bytes; see ``init(compact:detachedPayload:limits:)-(String,_,_)``.
    public init(compact token: [UInt8], detachedPayload: [UInt8]? = nil, limits: JOSELimits = .default) throws(JOSEError) {
        try limits.checkSize(token.count, of: "compact JWS")
        // The first three dots, without an allocation.
        var dots = (0, 0, 0)
        var dotCount = 0
        for (index, byte) in token.enumerated() where byte == UInt8(ascii: ".") {
            switch dotCount {
            case 0: dots.0 = index
            case 1: dots.1 = index
            default: dots.2 = index
            }
            dotCount += 1
            if dotCount > 2 { break }
        }
        guard dotCount == 2 else {
            let found = dotCount > 2 ? "more than 3 segments" : "\(dotCount + 1) segment\(dotCount == 0 ? "" : "s")"
            throw JOSEError.malformed("the compact JWS", "has \(found); it has exactly 3, separated by \".\" (RFC 7515 §7.1)",
                                      offset: dotCount > 2 ? dots.2 : token.count)
        }
        let headerText = token[..<dots.0]
        let payloadText = token[(dots.0 + 1)..<dots.1]
        let signatureText = token[(dots.1 + 1)...]
        guard !headerText.isEmpty else {
            throw JOSEError.malformed("segment 1 (protected header)", "is empty", offset: 0)
        }
        let protected = try ProtectedHeader(encoded: headerText, what: "segment 1 (protected header)", baseOffset: 0, limits: limits)
        guard !signatureText.isEmpty else {
            throw JOSEError.malformed("segment 3 (signature)", "is empty", offset: dots.1 + 1)
        }
        let signatureBytes = try Base64URL.decode(signatureText, what: "segment 3 (signature)", baseOffset: dots.1 + 1)
        let signature = try JWSSignature(protectedHeader: protected, unprotectedHeader: nil, signature: signatureBytes, what: "the compact JWS")
        let encoded = signature.encodesPayload
        if let detachedPayload {
            guard payloadText.isEmpty else {
                throw JOSEError.malformed("segment 2 (payload)", "is not empty, but a detached payload was given", offset: dots.0 + 1)
            }
            self.init(payload: detachedPayload, payloadSegment: JWS.payloadSegment(for: detachedPayload, encoded: encoded),
                      signatures: [signature], isPayloadDetached: true)
        } else if encoded {
            let payload = try Base64URL.decode(payloadText, what: "segment 2 (payload)", baseOffset: dots.0 + 1)
            self.init(payload: payload, payloadSegment: Array(payloadText), signatures: [signature], isPayloadDetached: false)
        } else {
            self.init(payload: Array(payloadText), payloadSegment: Array(payloadText), signatures: [signature], isPayloadDetached: false)
        }
    }

    /// The compact serialization (RFC 7515 §7.1) of a JWS with one signature and no unprotected header.
    ///
    /// - Parameter detachPayload: Leave the payload segment empty (RFC 7515 Appendix F); the
    ///   verifier is given the payload separately.
    /// - Throws: ``JOSEError`` `.malformed` for several signatures, an unprotected header, no
    ///   protected header, or an unencoded (`b64: false`) payload containing `.` that is not detached
    ///   (RFC 7797 §5.2).
    public func compactSerialization(detachPayload: Bool = false) throws(JOSEError) -> String {
        guard signatures.count == 1, let signature = signatures.first else {
            throw JOSEError.malformed("the JWS", "has \(signatures.count) signatures; the compact serialization holds exactly one")
        }
        guard signature.unprotectedHeader == nil, let protected = signature.protectedHeader else {
            throw JOSEError.malformed("the JWS", "has an unprotected header or no protected header; the compact serialization has only a protected header")
        }
        var segment: [UInt8] = []
        if !detachPayload {
            if !encodesPayload && payloadSegment.contains(UInt8(ascii: ".")) {
                throw JOSEError.malformed("the JWS", "the unencoded payload (b64: false) contains \".\", which the compact serialization cannot carry unless it is detached (RFC 7797 §5.2)")
            }
            segment = payloadSegment
        }
        // An encoded segment is base64url (ASCII); only an unencoded payload can be other than UTF-8.
        guard encodesPayload || String(validating: segment, as: UTF8.self) != nil else {
            throw JOSEError.malformed("the JWS", "the unencoded payload (b64: false) is not UTF-8 text, which a serialization cannot carry unless it is detached")
        }
        // The three segments written into one buffer.
        let signatureText = Base64URL.encode(signature.signature)
        var text: [UInt8] = []
        text.reserveCapacity(protected.encoded.utf8.count + segment.count + signatureText.utf8.count + 2)
        text.append(contentsOf: protected.encoded.utf8)
        text.append(UInt8(ascii: "."))
        text.append(contentsOf: segment)
        text.append(UInt8(ascii: "."))
        text.append(contentsOf: signatureText.utf8)
        return String(decoding: text, as: UTF8.self)
    }
}
