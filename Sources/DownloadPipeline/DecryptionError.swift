import CofferErrors

/// Why decryption failed: one error type for every decryptor, in the shape every Coffer error has
/// (``CofferError``).
///
/// The ``cause`` is the error the decryptor met, when there is one (an `ASN1Error` in the CMS
/// structure, a `KeyError` from the RSA operation, a `CryptoError` from the cipher). Equality
/// compares the code only, as for every Coffer error.
public struct DecryptionError: ModuleError {
    /// What kind of failure. Opaque so that new codes can be added.
    public typealias Code = ErrorCode<DecryptionError>

    /// The code, reason, context, cause and origin (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }

}

extension ErrorCode where Domain == DecryptionError {
    /// The payload is not in the format the decryptor expects (bad CMS, bad base64, wrong length).
    public static var malformedPayload: Self { Self() }
    /// The key does not fit: no recipient matches, or the key cannot decrypt the key transport.
    public static var wrongKey: Self { Self() }
    /// Authentication failed or padding was wrong: the data was altered (or the key is wrong).
    public static var tampered: Self { Self() }
    /// The payload uses an algorithm Coffer does not support.
    public static var unsupported: Self { Self() }
    /// `auto` could not tell the scheme.
    public static var unknownScheme: Self { Self() }
}
