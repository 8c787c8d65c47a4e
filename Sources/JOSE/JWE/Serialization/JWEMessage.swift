import CofferJSON

/// An encrypted JWE (RFC 7516) in any serialization: what ``JWE/encrypt(_:to:encryption:options:)``
/// makes and what the readers return, before anything is decrypted.
///
/// ```
/// BASE64URL(UTF8(JWE Protected Header)) || '.' || BASE64URL(JWE Encrypted Key) || '.' ||
/// BASE64URL(JWE Initialization Vector) || '.' || BASE64URL(JWE Ciphertext) || '.' ||
/// BASE64URL(JWE Authentication Tag)                                   (compact, RFC 7516 §7.1)
///
/// { "protected": …, "unprotected": {…}, "recipients": [ {"header": {…}, "encrypted_key": …}, … ],
///   "aad": …, "iv": …, "ciphertext": …, "tag": … }                  (general JSON, §7.2.1)
/// { "protected": …, "unprotected": {…}, "header": {…}, "encrypted_key": …,
///   "aad": …, "iv": …, "ciphertext": …, "tag": … }                  (flattened JSON, §7.2.2)
/// ```
///
/// Read one with ``init(compact:limits:)``, ``init(json:limits:)`` or ``init(parsing:limits:)`` (sizes are checked before
/// parsing), write one with ``compactSerialization()`` or ``jsonSerialization(flattened:)``.
public struct JWEMessage: Sendable {
    /// One recipient: its per-recipient unprotected header and its encrypted copy of the CEK.
    public struct Recipient: Sendable {
        /// The per-recipient unprotected header (`header`), if any.
        public var header: JOSEHeader?
        /// The JWE Encrypted Key; empty for `dir` and `ECDH-ES`.
        public var encryptedKey: [UInt8]

        /// A recipient entry.
        public init(header: JOSEHeader? = nil, encryptedKey: [UInt8]) {
            self.header = header
            self.encryptedKey = encryptedKey
        }
    }

    /// The JWE Protected Header with its base64url text, if there is one (a JSON serialization
    /// may have none).
    public var protectedHeader: ProtectedHeader?
    /// The JWE Shared Unprotected Header (`unprotected`), if any.
    public var sharedUnprotectedHeader: JOSEHeader?
    /// The recipients, at least one; the compact serialization has exactly one.
    public var recipients: [Recipient]
    /// The JWE Initialization Vector.
    public var initializationVector: [UInt8]
    /// The JWE Ciphertext.
    public var ciphertext: [UInt8]
    /// The JWE Authentication Tag.
    public var authenticationTag: [UInt8]
    /// The JWE AAD (`aad`, JSON serializations only), if any.
    public var additionalAuthenticatedData: [UInt8]?

    /// A message from its parts.
    public init(protectedHeader: ProtectedHeader?, sharedUnprotectedHeader: JOSEHeader? = nil, recipients: [Recipient],
                initializationVector: [UInt8], ciphertext: [UInt8], authenticationTag: [UInt8],
                additionalAuthenticatedData: [UInt8]? = nil) {
        self.protectedHeader = protectedHeader
        self.sharedUnprotectedHeader = sharedUnprotectedHeader
        self.recipients = recipients
        self.initializationVector = initializationVector
        self.ciphertext = ciphertext
        self.authenticationTag = authenticationTag
        self.additionalAuthenticatedData = additionalAuthenticatedData
    }

    /// The additional authenticated data of the content encryption (RFC 7516 §5.1 step 14):
    /// ASCII(BASE64URL(UTF8(JWE Protected Header))), followed by '.' and BASE64URL(JWE AAD) when
    /// there is a JWE AAD. The protected header's text is the one received, never re-serialized.
    var contentAAD: [UInt8] {
        var aad = Array((protectedHeader?.encoded ?? "").utf8)
        if let additionalAuthenticatedData {
            aad.append(UInt8(ascii: "."))
            aad += Array(Base64URL.encode(additionalAuthenticatedData).utf8)
        }
        return aad
    }
}
