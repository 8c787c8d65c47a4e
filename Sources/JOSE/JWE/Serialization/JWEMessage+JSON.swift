import CofferJSON

extension JWEMessage {
    /// Reads the JWE JSON Serialization (RFC 7516 §7.2), general (`recipients`) or flattened
    /// (`header` and `encrypted_key` at the top). Members this reader does not know are ignored,
    /// as §7.2.1 asks.
    ///
    /// - Parameters:
    ///   - bytes: The JSON text.
    ///   - limits: The size cap (checked before parsing), the JSON depth and the number of
    ///     recipients (``JOSELimits/maximumSignatures``).
    /// - Throws: ``JOSEError`` `.tooLarge`; `.malformed` for text that is not one JSON object, a
    ///   missing or mistyped member, a mix of the general and flattened forms, no recipient or
    ///   too many, bad base64url (with the member's offset), a bad header.
    public init(json bytes: [UInt8], limits: JOSELimits = .default) throws(JOSEError) {
        try limits.checkSize(bytes.count, of: "JWE JSON serialization")
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, options: .init(maximumDepth: limits.maximumJSONDepth))
        } catch {
            throw JOSEError.malformed("the JWE JSON serialization", error.description, offset: error.offset, cause: error)
        }
        guard let members = value.members else {
            throw JOSEError.malformed("the JWE JSON serialization", "it is \(value.kind), not a JSON object", offset: 0)
        }
        let reader = JWEJSONReader(members: members, limits: limits)
        let protectedHeader = try reader.protectedHeader()
        let shared = try reader.header("unprotected")
        var recipients: [Recipient] = []
        if let list = reader.member("recipients") {
            guard reader.member("header") == nil, reader.member("encrypted_key") == nil else {
                throw JOSEError.malformed("the JWE JSON serialization", "it has both \"recipients\" and a flattened \"header\" or \"encrypted_key\"", offset: list.offset)
            }
            guard case .array(let elements) = list.value, !elements.isEmpty else {
                throw JOSEError.malformed("member \"recipients\"", "is not a non-empty array", offset: list.offset)
            }
            guard elements.count <= limits.maximumSignatures else {
                throw JOSEError(.tooLarge, "the JWE has \(elements.count) recipients; at most \(limits.maximumSignatures) are read (JOSELimits.maximumSignatures)", offset: list.offset)
            }
            for (index, element) in elements.enumerated() {
                guard let entry = element.members else {
                    throw JOSEError.malformed("recipient \(index + 1)", "is \(element.kind), not an object", offset: list.offset)
                }
                let entryReader = JWEJSONReader(members: entry, limits: limits)
                recipients.append(Recipient(header: try entryReader.header("header"),
                                            encryptedKey: try entryReader.bytes("encrypted_key") ?? []))
            }
        } else {
            recipients = [Recipient(header: try reader.header("header"), encryptedKey: try reader.bytes("encrypted_key") ?? [])]
        }
        guard let iv = try reader.bytes("iv"), let ciphertext = try reader.bytes("ciphertext") else {
            throw JOSEError.malformed("the JWE JSON serialization", "it lacks \"iv\" or \"ciphertext\"")
        }
        self.init(protectedHeader: protectedHeader, sharedUnprotectedHeader: shared, recipients: recipients,
                  initializationVector: iv, ciphertext: ciphertext, authenticationTag: try reader.bytes("tag") ?? [],
                  additionalAuthenticatedData: try reader.bytes("aad"))
    }

    /// The JWE JSON Serialization as a JSON value: general (`recipients`), or flattened when
    /// `flattened` is set. A sole recipient with neither a header nor an encrypted key (`dir`,
    /// `ECDH-ES`) has nothing to list, so the general form then has no `recipients`, as RFC 7520
    /// §5.5 and §5.6 write it.
    ///
    /// - Throws: ``JOSEError`` `.malformed` for a flattened serialization of several recipients.
    public func jsonValue(flattened: Bool = false) throws(JOSEError) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let protectedHeader { members.append(.init("protected", .string(protectedHeader.encoded))) }
        if let sharedUnprotectedHeader, !sharedUnprotectedHeader.isEmpty {
            members.append(.init("unprotected", sharedUnprotectedHeader.json))
        }
        func entry(_ recipient: Recipient) -> [JSONValue.Member] {
            var fields: [JSONValue.Member] = []
            if let header = recipient.header, !header.isEmpty { fields.append(.init("header", header.json)) }
            if !recipient.encryptedKey.isEmpty { fields.append(.init("encrypted_key", .string(Base64URL.encode(recipient.encryptedKey)))) }
            return fields
        }
        let bare = recipients.count == 1 && (recipients[0].header?.isEmpty ?? true) && recipients[0].encryptedKey.isEmpty
        if flattened || bare {
            guard recipients.count == 1 else {
                throw JOSEError.malformed("the JWE", "the flattened JSON serialization has one recipient; this JWE has \(recipients.count)")
            }
            members += entry(recipients[0])
        } else {
            members.append(.init("recipients", .array(recipients.map { .object(entry($0)) })))
        }
        if let additionalAuthenticatedData { members.append(.init("aad", .string(Base64URL.encode(additionalAuthenticatedData)))) }
        members.append(.init("iv", .string(Base64URL.encode(initializationVector))))
        members.append(.init("ciphertext", .string(Base64URL.encode(ciphertext))))
        members.append(.init("tag", .string(Base64URL.encode(authenticationTag))))
        return .object(members)
    }

    /// The JWE JSON Serialization as compact JSON text; see ``jsonValue(flattened:)``.
    public func jsonSerialization(flattened: Bool = false) throws(JOSEError) -> String {
        try jsonValue(flattened: flattened).serialized
    }
}

extension JWEMessage {
    /// Reads either serialization: JSON when the text starts with `{` (after white space),
    /// compact otherwise.
    ///
    /// - Throws: as ``init(compact:limits:)`` or ``init(json:limits:)``.
    public init(parsing bytes: [UInt8], limits: JOSELimits = .default) throws(JOSEError) {
        try limits.checkSize(bytes.count, of: "JWE")
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if first == UInt8(ascii: "{") {
            try self.init(json: bytes, limits: limits)
        } else {
            let trimmed = bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
            let end = trimmed.lastIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }.map { $0 + 1 } ?? trimmed.startIndex
            try self.init(compact: String(decoding: trimmed[trimmed.startIndex..<end], as: UTF8.self), limits: limits)
        }
    }
}
