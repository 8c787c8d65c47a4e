import CofferErrors

/// Why decryption failed: one error type for every decryptor, in the shape every Coffer error has
/// (``CofferError``).
///
/// The ``cause`` is the error the decryptor met, when there is one (an `ASN1Error` in the CMS
/// structure, a `KeyError` from the RSA operation, a `CryptoError` from the cipher). Equality
/// compares the code only, as for every Coffer error.
public struct DecryptionError: CofferError {
    /// What kind of failure. Opaque so that new codes can be added.
    public typealias Code = ErrorCode<DecryptionError>

    /// What kind of failure.
    public var code: Code
    /// A sentence for people; never plaintext or key bytes.
    public var reason: String
    /// Byte offset in the payload, when known.
    public var offset: Int?
    /// The error this one wraps, if any.
    public var cause: (any Error & Sendable)?

    /// Creates an error.
    public init(_ code: Code, _ reason: String, offset: Int? = nil, cause: (any Error & Sendable)? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
        self.cause = cause
    }

    /// The byte offset (``offset``).
    public var context: ErrorContext { ErrorContext(offset: offset) }

    /// The ``reason``.
    public var description: String { reason }
}

extension ErrorCode where Domain == DecryptionError {
    /// The payload is not in the format the decryptor expects (bad CMS, bad base64, wrong length).
    public static var malformedPayload: Self { Self("malformedPayload") }
    /// The key does not fit: no recipient matches, or the key cannot decrypt the key transport.
    public static var wrongKey: Self { Self("wrongKey") }
    /// Authentication failed or padding was wrong: the data was altered (or the key is wrong).
    public static var tampered: Self { Self("tampered") }
    /// The payload uses an algorithm Coffer does not support.
    public static var unsupported: Self { Self("unsupported") }
    /// `auto` could not tell the scheme.
    public static var unknownScheme: Self { Self("unknownScheme") }
}
