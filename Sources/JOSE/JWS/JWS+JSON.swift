import CofferJSON

extension JWS {
    /// Reads a JWS in the general or the flattened JSON serialization (RFC 7515 §7.2):
    ///
    /// ```
    /// general:   { "payload": BASE64URL(payload),
    ///              "signatures": [ { "protected"?: BASE64URL(UTF8(header)), "header"?: {…},
    ///                                "signature": BASE64URL(signature) }, … ] }
    /// flattened: { "payload": …, "protected"?: …, "header"?: {…}, "signature": … }
    /// ```
    ///
    /// Each signature has a protected or an unprotected header or both, and the two share no member
    /// (RFC 7515 §7.2.1). With `b64: false` (RFC 7797 §5) `payload` is the payload as a JSON string.
    ///
    /// - Parameters:
    ///   - json: The JSON text.
    ///   - detachedPayload: The payload of a JWS without a `payload` member (RFC 7515 Appendix F).
    ///   - limits: The size cap (checked before parsing), the signature count, the JSON depth.
    /// - Throws: ``JOSEError`` `.tooLarge`; `.malformed` naming the member and its byte offset;
    ///   `.unknownCriticalHeader` for a `crit` or `b64` that breaks RFC 7515 §4.1.11 or RFC 7797 §6.
    public init(json: [UInt8], detachedPayload: [UInt8]? = nil, limits: JOSELimits = .default) throws(JOSEError) {
        try limits.checkSize(json.count, of: "JSON JWS")
        let document: JSONValue
        do {
            document = try JSONParser.parse(json, options: .init(maximumDepth: limits.maximumJSONDepth))
        } catch {
            throw JOSEError.malformed("the JSON JWS", error.description, offset: error.offset, cause: error)
        }
        guard let members = document.members else {
            throw JOSEError.malformed("the JSON JWS", "is \(document.kind), not a JSON object", offset: 0)
        }
        func member(_ name: String, in members: [JSONValue.Member]) -> JSONValue.Member? { members.first { $0.name == name } }

        var signatures: [JWSSignature] = []
        if let list = member("signatures", in: members) {
            for name in ["protected", "header", "signature"] {
                if let stray = member(name, in: members) {
                    throw JOSEError.malformed("member \"\(name)\"", "belongs inside \"signatures\" in the general serialization; it may not also be at the top (RFC 7515 §7.2.1)",
                                              offset: stray.offset)
                }
            }
            guard case .array(let elements) = list.value else {
                throw JOSEError.malformed("member \"signatures\"", "is \(list.value.kind), not an array", offset: list.offset)
            }
            guard !elements.isEmpty else {
                throw JOSEError.malformed("member \"signatures\"", "is empty", offset: list.offset)
            }
            guard elements.count <= limits.maximumSignatures else {
                throw JOSEError(.tooLarge, "the JWS has \(elements.count) signatures; at most \(limits.maximumSignatures) are read (JOSELimits.maximumSignatures)",
                                offset: list.offset)
            }
            for (index, element) in elements.enumerated() {
                let what = "signatures[\(index)]"
                guard let entry = element.members else {
                    throw JOSEError.malformed(what, "is \(element.kind), not an object", offset: list.offset)
                }
                signatures.append(try Self.signature(entry, what: what, objectOffset: list.offset, limits: limits))
            }
        } else {
            signatures.append(try Self.signature(members, what: "the flattened JWS", objectOffset: 0, limits: limits))
        }
        let encoded = try JWS.commonPayloadEncoding(signatures)

        if let payloadMember = member("payload", in: members) {
            guard detachedPayload == nil else {
                throw JOSEError.malformed("member \"payload\"", "is present, but a detached payload was given", offset: payloadMember.offset)
            }
            guard let text = payloadMember.value.stringValue else {
                throw JOSEError.malformed("member \"payload\"", "is \(payloadMember.value.kind), not a string", offset: payloadMember.offset)
            }
            let segment = Array(text.utf8)
            let payload = encoded ? try Base64URL.decode(member: text, what: "member \"payload\"", memberOffset: payloadMember.offset) : segment
            self.init(payload: payload, payloadSegment: segment, signatures: signatures, isPayloadDetached: false)
        } else {
            guard let detachedPayload else {
                throw JOSEError.malformed("the JSON JWS", "has no \"payload\" member and no detached payload was given", offset: 0)
            }
            self.init(payload: detachedPayload, payloadSegment: JWS.payloadSegment(for: detachedPayload, encoded: encoded),
                      signatures: signatures, isPayloadDetached: true)
        }
    }

    /// Reads a JWS in any serialization: JSON when the text starts with `{` (after whitespace),
    /// compact otherwise.
    ///
    /// - Throws: as ``init(json:detachedPayload:limits:)`` and ``init(compact:detachedPayload:limits:)-([UInt8],_,_)``.
    public init(parsing bytes: [UInt8], detachedPayload: [UInt8]? = nil, limits: JOSELimits = .default) throws(JOSEError) {
        let first = bytes.first { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0) }
        if first == UInt8(ascii: "{") {
            try self.init(json: bytes, detachedPayload: detachedPayload, limits: limits)
        } else {
            try self.init(compact: bytes, detachedPayload: detachedPayload, limits: limits)
        }
    }

    /// One signature object: `protected`, `header`, `signature`.
    private static func signature(_ members: [JSONValue.Member], what: String, objectOffset: Int, limits: JOSELimits) throws(JOSEError) -> JWSSignature {
        func member(_ name: String) -> JSONValue.Member? { members.first { $0.name == name } }
        func string(_ name: String) throws(JOSEError) -> (text: String, offset: Int)? {
            guard let found = member(name) else { return nil }
            guard let text = found.value.stringValue else {
                throw JOSEError.malformed("\(what) member \"\(name)\"", "is \(found.value.kind), not a string", offset: found.offset)
            }
            return (text, found.offset)
        }
        var protected: ProtectedHeader? = nil
        if let (text, offset) = try string("protected") {
            guard !text.isEmpty else { throw JOSEError.malformed("\(what) member \"protected\"", "is empty", offset: offset) }
            do {
                protected = try ProtectedHeader(encoded: Array(text.utf8), what: "\(what) member \"protected\" (offset \(offset); character offsets within its value)",
                                                limits: limits)
            } catch {
                var located = error
                located.offset = offset
                throw located
            }
        }
        var unprotected: JOSEHeader? = nil
        if let header = member("header") {
            unprotected = try JOSEHeader(value: header.value, what: "\(what) member \"header\"", baseOffset: header.offset)
        }
        guard let (text, offset) = try string("signature") else {
            throw JOSEError.malformed(what, "has no \"signature\" member", offset: objectOffset)
        }
        guard !text.isEmpty else { throw JOSEError.malformed("\(what) member \"signature\"", "is empty", offset: offset) }
        let bytes = try Base64URL.decode(member: text, what: "\(what) member \"signature\"", memberOffset: offset)
        return try JWSSignature(protectedHeader: protected, unprotectedHeader: unprotected, signature: bytes, what: what)
    }

    /// The general JSON serialization (RFC 7515 §7.2.1), or the flattened one (§7.2.2) for a JWS
    /// with one signature when `flattened` is true.
    ///
    /// - Parameter detachPayload: Leave out the `payload` member (RFC 7515 Appendix F).
    /// - Throws: ``JOSEError`` `.malformed` for a flattened serialization of several signatures, or an
    ///   unencoded payload (`b64: false`) that is not UTF-8 text.
    public func jsonSerialization(flattened: Bool = false, detachPayload: Bool = false) throws(JOSEError) -> String {
        var members: [JSONValue.Member] = []
        if !detachPayload {
            guard let text = String(validating: payloadSegment, as: UTF8.self) else {
                throw JOSEError.malformed("the JWS", "the unencoded payload (b64: false) is not UTF-8 text, which the JSON serialization cannot carry unless it is detached")
            }
            members.append(.init("payload", .string(text)))
        }
        func signatureMembers(_ signature: JWSSignature) -> [JSONValue.Member] {
            var entry: [JSONValue.Member] = []
            if let protected = signature.protectedHeader { entry.append(.init("protected", .string(protected.encoded))) }
            if let header = signature.unprotectedHeader { entry.append(.init("header", header.json)) }
            entry.append(.init("signature", .string(Base64URL.encode(signature.signature))))
            return entry
        }
        if flattened {
            guard signatures.count == 1 else {
                throw JOSEError.malformed("the JWS", "has \(signatures.count) signatures; the flattened serialization holds exactly one")
            }
            members += signatureMembers(signatures[0])
        } else {
            members.append(.init("signatures", .array(signatures.map { .object(signatureMembers($0)) })))
        }
        return JSONValue.object(members).serialized
    }
}
