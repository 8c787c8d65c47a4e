import ASN1Kit

@_exported import CofferErrors
import CryptoOpenSSL

/// The one error type of AsymmetricKeys, in the shape every Coffer error has (``CofferError``).
///
/// Carries a code, a human reason that names the byte offset where one is known, and the cause (an
/// ``ASN1Error``, a ``CryptoError`` or a `JSONParseError`). Messages never contain key bytes or
/// passphrases.
public struct KeyError: ModuleError {
    /// What went wrong. Opaque so that new codes can be added; equality of errors compares the
    /// code only.
    public typealias Code = ErrorCode<KeyError>

    /// The code, reason, context, cause and origin (``CofferErrors/ModuleError``).
    public var parts: ErrorParts<Code>
    /// For ``CofferErrors/ErrorCode/unsupportedAlgorithm``: the recognised algorithm, lowercase as
    /// ``KeyAlgorithmName`` spells it (`ec`, `ed25519`, `ed448`, `x25519`, `x448`), or `dsa`, `dh`.
    public var algorithm: String? = nil
    /// For ``CofferErrors/ErrorCode/costTooHigh``: the cap that was exceeded.
    public var exceededLimit: KDFLimits.Limit? = nil

    /// Creates an error from its parts (call sites use the labelled form, see ``CofferErrors/ModuleError``).
    public init(parts: ErrorParts<Code>) { self.parts = parts }


    /// Wraps an ASN.1 error met while reading `what`, keeping its offset; ``raisedAt`` is the
    /// caller's line.
    public static func malformed(_ what: String, _ error: ASN1Error, file: String = #fileID, line: Int = #line) -> KeyError {
        KeyError(.malformed, "\(what) is malformed: \(error.reason)", offset: error.offset, cause: error, file: file, line: line)
    }

    /// The error for a failed decryption under a passphrase; ``raisedAt`` is the caller's line.
    public static func wrongPassphrase(_ what: String, cause: (any Error & Sendable)? = nil,
                                       file: String = #fileID, line: Int = #line) -> KeyError {
        KeyError(.wrongPassphrase, "\(what): wrong passphrase, or the key is damaged", cause: cause, file: file, line: line)
    }

    /// This error, raised while reading a value nested at offset `start` of an outer structure,
    /// as the outer structure reports it: offset counted from the outer start, reason prefixed.
    package func nested(at start: Int, _ context: String) -> KeyError {
        var wrapped = self
        wrapped.reason = "\(context): \(reason)"
        wrapped.offset = offset.map { $0 + start }
        return wrapped
    }
}

extension ErrorCode where Domain == KeyError {
    /// The bytes are not a well-formed container of the format they claim or appear to be.
    public static var malformed: Self { Self() }
    /// The input is not any key format Coffer knows.
    public static var unrecognizedFormat: Self { Self() }
    /// A well-formed key of another algorithm (EC, Ed25519, DSA, ...), named in the reason.
    public static var unsupportedAlgorithm: Self { Self() }
    /// A cipher, KDF or PRF Coffer does not support.
    public static var unsupportedEncryption: Self { Self() }
    /// The key is encrypted and no passphrase was supplied.
    public static var passphraseRequired: Self { Self() }
    /// Decryption failed: the passphrase is wrong, or the key is damaged.
    public static var wrongPassphrase: Self { Self() }
    /// A PEM label that contradicts the content.
    public static var labelMismatch: Self { Self() }
    /// The key's numbers are inconsistent (key check failed).
    public static var inconsistentKey: Self { Self() }
    /// The key cannot be written in the requested format (a public key as a private format, ...).
    public static var cannotConvert: Self { Self() }
    /// An RSA operation failed (bad padding, wrong length, verification failure, OpenSSL error).
    public static var operationFailed: Self { Self() }
    /// The caller asked for something unsafe without saying so, or an argument is invalid.
    public static var invalidArgument: Self { Self() }
    /// The file asks for more key-derivation work than ``KDFLimits/current`` allows.
    public static var costTooHigh: Self { Self() }
    /// A message encrypted to keys (CMS) has no recipient this key decrypts.
    public static var wrongKey: Self { Self() }
    /// Decrypted content failed its integrity check (a GCM tag or CBC padding): altered, or the key is wrong.
    public static var tampered: Self { Self() }
    /// A well-formed signature whose signer is not allowed: no `allowed_signers` line admits its
    /// key for the identity, the namespace and the time.
    public static var notAllowed: Self { Self() }
}

extension KeyError {
    /// The one wrapping of a ``CryptoError``: runs an OpenSSL-backed step and reports its error as a
    /// key error about `what`: `.operationFailed` by default (`.invalidArgument` when OpenSSL
    /// rejected an argument), or `code` (`.malformed` for a key OpenSSL finds invalid).
    ///
    /// - Parameter hint: Added after `what` when the step failed rather than rejected an argument
    ///   (`(wrong key, or the data is damaged)` for a decryption).
    static func fromOpenSSL<Result>(_ what: @autoclosure () -> String, code: Code = .operationFailed, hint: String? = nil,
                                    _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as CryptoError {
            let resolved: Code = error.code == .invalidArgument && code == .operationFailed ? .invalidArgument : code
            let hinted = hint.map { resolved == .invalidArgument ? "" : " \($0)" } ?? ""
            throw KeyError(resolved, "\(what())\(hinted): \(error.reason)", cause: error)
        }
    }
}

extension KeyError {
    /// The error of an operation that needs an RSA key, given a key of another algorithm.
    ///
    /// - Parameters:
    ///   - what: The key's algorithm for people (`EC (P-256)`, `Ed25519`).
    ///   - algorithm: Its lowercase name, for ``algorithm``.
    ///   - operation: What needs RSA.
    static func notRSA(_ what: String, algorithm: KeyAlgorithmName, for operation: String) -> KeyError {
        var error = KeyError(.unsupportedAlgorithm, "\(operation) needs an RSA key; this is an \(what) key")
        error.algorithm = algorithm.rawValue
        return error
    }
}

extension KeyError {
    /// The error of an operation that does not take keys of `algorithm` (signing with X25519, key
    /// agreement with RSA), naming both.
    static func unsupported(_ algorithm: KeyAlgorithmName, _ what: String) -> KeyError {
        var error = KeyError(.unsupportedAlgorithm, "\(what) does not take an \(algorithm.displayName) key")
        error.algorithm = algorithm.rawValue
        return error
    }
}
