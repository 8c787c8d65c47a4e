import AsymmetricKeys
import CofferJSON
import CryptoOpenSSL

/// JSON Web Encryption (RFC 7516) with the algorithms of RFC 7518 §4–5: encrypt with
/// ``encrypt(_:to:encryption:options:)``, read with ``JWEMessage`` and decrypt with
/// ``JWEMessage/decrypt(with:options:)-(JOSEKey,_)``.
///
/// ```swift
/// // Encrypt to an RSA public key, compact:
/// let token = try JWE.encrypt(plaintext, to: JWERecipient(key: rsaKey, algorithm: .rsaOAEP256),
///                             encryption: .a256GCM).compactSerialization()
/// // Decrypt; the key decides which algorithms are accepted:
/// let result = try JWEMessage(compact: token).decrypt(with: rsaPrivateKey)
/// ```
///
/// Several recipients, a shared unprotected header and a JWE AAD need the JSON serialization
/// (``JWEMessage/jsonSerialization(flattened:)``).
public enum JWE {
    /// Encrypts `plaintext` for `recipients` (RFC 7516 §5.1).
    ///
    /// A random content encryption key (CEK) is encrypted for each recipient, except with `dir` and
    /// `ECDH-ES`, which decide the CEK and so must be the only recipient. `enc` (and `zip`) go in
    /// the protected header, unless the shared unprotected header already names `enc`. With one
    /// recipient, `alg`, the key's `kid` and the algorithm's members (`epk`, `iv`, `tag`, `p2s`,
    /// `p2c`, …) go in the protected header, so the result has a compact serialization; with
    /// several, each recipient's go in its own header. Header names stay unique across the
    /// protected, shared and per-recipient headers (RFC 7516 §7.2.1).
    ///
    /// - Parameters:
    ///   - plaintext: The content.
    ///   - recipients: One or more recipients; each key must allow its algorithm
    ///     (``JOSEKey/allowedKeyManagementAlgorithms(encryption:)``).
    ///   - encryption: The content encryption algorithm.
    ///   - options: Extra protected and shared header members, a JWE AAD, compression.
    /// - Returns: The JWE; write it with ``JWEMessage/compactSerialization()`` or
    ///   ``JWEMessage/jsonSerialization(flattened:)``.
    /// - Throws: ``JOSEError`` `.algorithmNotAllowed` (a key that does not fit its algorithm,
    ///   `dir`/`ECDH-ES` among several recipients, a passphrase without PBES2), `.invalidKey`,
    ///   `.unsupportedAlgorithm` (RSA1_5), `.malformed` (a header member named twice, or whose
    ///   value contradicts the algorithm).
    public static func encrypt(_ plaintext: [UInt8], to recipients: [JWERecipient], encryption: ContentEncryptionAlgorithm,
                               options: JWEEncryptionOptions = JWEEncryptionOptions()) throws(JOSEError) -> JWEMessage {
        try encrypt(plaintext, to: recipients, encryption: encryption, options: options, random: SystemJWERandomSource())
    }

    /// Encrypts `plaintext` for one recipient; see ``encrypt(_:to:encryption:options:)-([UInt8],[JWERecipient],_,_)``.
    public static func encrypt(_ plaintext: [UInt8], to recipient: JWERecipient, encryption: ContentEncryptionAlgorithm,
                               options: JWEEncryptionOptions = JWEEncryptionOptions()) throws(JOSEError) -> JWEMessage {
        try encrypt(plaintext, to: [recipient], encryption: encryption, options: options, random: SystemJWERandomSource())
    }

    /// ``encrypt(_:to:encryption:options:)-([UInt8],[JWERecipient],_,_)`` with the randomness
    /// from `random`: the package's tests reproduce published examples with it.
    package static func encrypt(_ plaintext: [UInt8], to recipients: [JWERecipient], encryption: ContentEncryptionAlgorithm,
                                options: JWEEncryptionOptions, random: some JWERandomSource) throws(JOSEError) -> JWEMessage {
        guard !recipients.isEmpty else { throw JOSEError(.invalidKey, "a JWE needs at least one recipient") }
        var protected = options.protectedHeader
        let shared = options.sharedUnprotectedHeader
        if let stated = shared?.encryption {
            guard stated == encryption.rawValue else {
                throw JOSEError.malformed("the shared unprotected header", "its \"enc\" is not \(encryption.rawValue)")
            }
        } else {
            place(.init("enc", .string(encryption.rawValue)), in: &protected)
        }
        if let compression = options.compression {
            guard shared?["zip"] == nil else {
                throw JOSEError.malformed("the shared unprotected header", "\"zip\" must be integrity protected (RFC 7516 §4.1.3)")
            }
            place(.init("zip", .string(compression.rawValue)), in: &protected)
        }
        let decidesCEK = recipients.count == 1 && recipients[0].algorithm.hasEmptyEncryptedKey
        var cek: SecureBytes? = decidesCEK ? nil
            : try JOSEError.wrapping(.invalidKey, "the content encryption key") { try random.contentEncryptionKey(count: encryption.keySize) }
        var entries: [JWEMessage.Recipient] = []
        for (index, recipient) in recipients.enumerated() {
            let result = try KeyManagement.encrypt(cek: cek, for: recipient, encryption: encryption, random: random, index: index)
            if cek == nil { cek = result.cek }
            var recipientHeader = recipient.header
            let algorithmMember = JSONValue.Member("alg", .string(recipient.algorithm.rawValue))
            var members = [algorithmMember]
            if case .key(let key) = recipient.secret, let keyID = key.keyID,
               protected.keyID == nil, shared?.keyID == nil, recipientHeader.keyID == nil {
                members.append(.init("kid", .string(keyID)))
            }
            members += result.headerMembers
            let inProtected = recipients.count == 1 && shared?["alg"] == nil && recipientHeader["alg"] == nil
            for member in members {
                if member.name == "alg", let stated = shared?["alg"] ?? recipientHeader["alg"] ?? protected["alg"] {
                    guard stated == member.value else {
                        throw JOSEError.malformed("the JOSE header", "its \"alg\" is not \(recipient.algorithm.rawValue)")
                    }
                    continue
                }
                if inProtected { place(member, in: &protected) } else { place(member, in: &recipientHeader) }
            }
            entries.append(JWEMessage.Recipient(header: recipientHeader.isEmpty ? nil : recipientHeader, encryptedKey: result.encryptedKey))
        }
        for (index, entry) in entries.enumerated() {
            let what = recipients.count == 1 ? "the JWE's headers" : "the headers of recipient \(index + 1)"
            _ = try protected.union(shared ?? JOSEHeader(), what: what).union(entry.header ?? JOSEHeader(), what: what)
        }
        guard let cek else { throw JOSEError(.invalidKey, "no content encryption key was decided") }
        let content = try options.compression.map { _ throws(JOSEError) in try RawDeflate.compress(plaintext) } ?? plaintext
        let iv = try JOSEError.wrapping(.invalidKey, "the initialization vector") { try random.initializationVector(count: encryption.ivSize) }
        var message = JWEMessage(protectedHeader: protected.isEmpty ? nil : ProtectedHeader(protected), sharedUnprotectedHeader: shared,
                                 recipients: entries, initializationVector: iv, ciphertext: [], authenticationTag: [],
                                 additionalAuthenticatedData: options.additionalAuthenticatedData)
        let sealed = try encryption.seal(content, cek: cek, iv: iv, aad: message.contentAAD)
        message.ciphertext = sealed.ciphertext
        message.authenticationTag = sealed.tag
        return message
    }

    /// Sets `member` in `header`: in place when the header already has it (a template's order is
    /// kept), else appended.
    private static func place(_ member: JSONValue.Member, in header: inout JOSEHeader) {
        header.setMember(member.name, member.value)
    }
}
