extension JWEMessage {
    /// Reads the JWE Compact Serialization (RFC 7516 §7.1): five base64url segments separated by
    /// dots, the first a protected header.
    ///
    /// - Parameters:
    ///   - token: The token's text.
    ///   - limits: The size cap (checked before anything is parsed) and the header's JSON depth.
    /// - Throws: ``JOSEError`` `.tooLarge` above ``JOSELimits/maximumTokenSize``; `.malformed` for
    ///   another number of segments, an empty or bad protected header, or a segment that is not
    ///   base64url (with the byte offset).
    public init(compact token: some StringProtocol, limits: JOSELimits = .default) throws(JOSEError) {
        let bytes = Array(token.utf8)
        try limits.checkSize(bytes.count, of: "JWE compact token")
        var segments: [ArraySlice<UInt8>] = []
        segments.reserveCapacity(5)
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") {
            segments.append(bytes[start..<index])
            start = index + 1
            if segments.count > 4 { break }
        }
        segments.append(bytes[start...])
        guard segments.count == 5 else {
            throw JOSEError.malformed("the JWE compact token", "a JWE has 5 dot-separated segments; this has \(segments.count > 5 ? "more" : String(segments.count))")
        }
        guard !segments[0].isEmpty else {
            throw JOSEError.malformed("segment 1 (protected header)", "the protected header is empty", offset: 0)
        }
        let header = try ProtectedHeader(encoded: segments[0], what: "segment 1 (protected header)", baseOffset: 0, limits: limits)
        let names = ["encrypted key", "initialization vector", "ciphertext", "authentication tag"]
        var parts: [[UInt8]] = []
        for (index, name) in names.enumerated() {
            let segment = segments[index + 1]
            parts.append(try Base64URL.decode(segment, what: "segment \(index + 2) (\(name))", baseOffset: segment.startIndex))
        }
        self.init(protectedHeader: header, recipients: [Recipient(encryptedKey: parts[0])],
                  initializationVector: parts[1], ciphertext: parts[2], authenticationTag: parts[3])
    }

    /// The JWE Compact Serialization.
    ///
    /// - Throws: ``JOSEError`` `.malformed` when the message cannot be written compactly: no
    ///   protected header, several recipients, a shared or per-recipient unprotected header, or
    ///   a JWE AAD (RFC 7516 §7.1).
    public func compactSerialization() throws(JOSEError) -> String {
        guard let protectedHeader else {
            throw JOSEError.malformed("the JWE", "the compact serialization needs a protected header")
        }
        guard recipients.count == 1 else {
            throw JOSEError.malformed("the JWE", "the compact serialization has one recipient; this JWE has \(recipients.count)")
        }
        guard sharedUnprotectedHeader?.isEmpty ?? true, recipients[0].header?.isEmpty ?? true else {
            throw JOSEError.malformed("the JWE", "the compact serialization has no unprotected header; use the JSON serialization")
        }
        guard additionalAuthenticatedData == nil else {
            throw JOSEError.malformed("the JWE", "the compact serialization has no JWE AAD; use the JSON serialization")
        }
        return [protectedHeader.encoded, Base64URL.encode(recipients[0].encryptedKey), Base64URL.encode(initializationVector),
                Base64URL.encode(ciphertext), Base64URL.encode(authenticationTag)].joined(separator: ".")
    }
}
